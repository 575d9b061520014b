"""An index folder beside a journal (`FILE.index/`) is believed only when it is the user's own,
its files are what the writer writes, and each line read through it is where it says: anything
else there (planted by another user, a FIFO, a link to /dev/zero, a sparse file, rows that lie)
leaves `open` and `export` reading the journal itself, with every record, never a hang, a
traceback or a full memory. Attacks run as real processes: another user via setpriv, the real
command with its address space capped (a reader that swallows /dev/zero dies of MemoryError
instead of taking the machine's memory); the timeout only catches a hang."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from inspector.filter import compile_filter
from inspector.journal.index_files import LINE, LINE_SIZE, index_folder, journal_state
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.journal.records import STATUS_OK, Exchange, Stderr
from inspector.journal.saved import open_journal
from tests.bridge.test_respawn import descriptors_used_up
from tests.support.fds import needs_proc
from tests.support.index import denials_journal, every_line

NOBODY = 65534
HANG = 30  # seconds: far beyond any answer on a loaded machine
ADDRESS_SPACE = 2 * 1024**3
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root can act as another user")


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def in_child(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=HANG,
        stdin=subprocess.DEVNULL,
        preexec_fn=_cap_memory,
    )
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return result


def exported(journal: Path) -> list[dict[str, object]]:
    """`hook-inspector export --no-redact` of `journal`, run as a user would: its records."""
    out = journal.with_name("exported.jsonl")
    result = in_child("-m", "inspector", "export", str(journal), "-o", str(out), "--no-redact")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


FILTERS = ("action:deny", "step 5", "hook:gate")
FILTERED = """
import json, sys
from inspector.filter import compile_filter
from inspector.filter.select import select
from inspector.journal.records import RECORD_TYPES
from inspector.journal.saved import open_journal
records = open_journal(sys.argv[1]).records
print(json.dumps({
    expression: [records[p].seq for p in select(records, tuple(RECORD_TYPES.values()),
                                                compile_filter(expression))]
    for expression in sys.argv[2:]
}))
"""


def filtered(journal: Path) -> dict[str, list[int]]:
    """The seqs a filter finds in `journal` opened in a child, through its index's columns."""
    result = in_child("-c", FILTERED, str(journal), *FILTERS)
    assert result.returncode == 0, result.stderr
    answer: dict[str, list[int]] = json.loads(result.stdout)
    return answer


def as_every_line_filters(journal: Path) -> dict[str, list[int]]:
    """What the filters find testing each record as reading every line gives it."""
    records = load_journal(journal).records
    tests = {expression: compile_filter(expression) for expression in FILTERS}
    return {e: [r.seq for r in records if test(r)] for e, test in tests.items()}


def forged_without_denials(journal: Path) -> dict[str, bytes]:
    """An index of `journal` as a forger makes it: every row right but the denials' (zeroed),
    its meta.json naming the journal's size, mtime and inode (anyone may stat them) and
    counting the rows it kept."""
    with tempfile.TemporaryDirectory() as staging:
        copy = Path(staging) / "copy.jsonl"
        shutil.copyfile(journal, copy)
        open_journal(copy)  # indexed beside the copy
        honest = index_folder(copy)
        files = {entry.name: entry.read_bytes() for entry in honest.iterdir()}
    lines = bytearray(files["lines"])
    for record in every_line(journal):
        if record.get("action") == "deny":
            seq = int(record["seq"])  # type: ignore[call-overload]
            lines[seq * LINE_SIZE : (seq + 1) * LINE_SIZE] = bytes(LINE_SIZE)
    files["lines"] = bytes(lines)
    meta = json.loads(files["meta.json"])
    meta["journal"] = journal_state(journal)
    if "records" in meta:
        kept = [LINE.unpack_from(lines, at)[0] for at in range(0, len(lines), LINE_SIZE)]
        meta["records"] = sum(1 for offset in kept if offset)
    files["meta.json"] = json.dumps(meta).ljust(512).encode()
    return files


def as_nobody(*command: str) -> None:
    setpriv = ["setpriv", "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups"]
    subprocess.run([*setpriv, *command], check=True, timeout=HANG, capture_output=True)


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A sticky folder anyone may write to, as /tmp is."""
    folder = Path(tempfile.mkdtemp(prefix="shared-", dir="/tmp"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# ---- another user's folder -------------------------------------------------------------------


def plant_as_nobody(folder: Path, files: dict[str, bytes]) -> None:
    """`files` put in `folder` (made by nobody first unless it is there) by nobody."""
    staging = Path(tempfile.mkdtemp(prefix="forged-", dir="/tmp"))
    staging.chmod(0o755)
    for name, data in files.items():
        (staging / name).write_bytes(data)
        (staging / name).chmod(0o644)
    as_nobody("sh", "-c", f'mkdir -p -m 0755 "{folder}" && cp "{staging}"/* "{folder}"/')
    shutil.rmtree(staging)
    assert folder.stat().st_uid == NOBODY and (folder / "lines").stat().st_uid == NOBODY


def assert_every_record_read(journal: Path) -> None:
    assert exported(journal) == every_line(journal)  # the denials too
    assert [r.to_json() for r in open_journal(journal).records] == every_line(journal)
    assert filtered(journal) == as_every_line_filters(journal)


@as_root
def test_an_index_another_user_planted_beside_a_journal_shared_for_review_is_not_believed(
    shared_folder: Path, tmp_path: Path
) -> None:
    written = denials_journal(tmp_path / "session.jsonl")
    journal = shared_folder / "session.jsonl"
    shutil.copyfile(written, journal)  # shared without its index
    plant_as_nobody(index_folder(journal), forged_without_denials(journal))
    assert_every_record_read(journal)


@as_root
def test_an_index_another_user_planted_before_the_journal_was_written_is_not_believed(
    shared_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = shared_folder / "session.jsonl"
    planted = index_folder(journal)
    as_nobody("mkdir", "-m", "0755", str(planted))  # there first: the writer cannot make its own
    denials_journal(journal)
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and "in the way" in said[0], said  # once, and it indexed elsewhere
    assert planted.stat().st_uid == NOBODY  # another user's: left alone
    plant_as_nobody(planted, forged_without_denials(journal))
    assert_every_record_read(journal)


@pytest.mark.parametrize("how", ["writable by others", "a link to a forged folder"])
def test_an_index_folder_that_is_not_privately_the_users_is_not_believed(
    tmp_path: Path, how: str
) -> None:
    journal = denials_journal(tmp_path / "session.jsonl")
    folder = index_folder(journal)
    forged = forged_without_denials(journal)
    if how == "writable by others":
        folder.chmod(0o777)
    else:
        shutil.rmtree(folder)
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        folder.symlink_to(elsewhere)
    for name, data in forged.items():
        (folder / name).write_bytes(data)
    assert [r.to_json() for r in open_journal(journal).records] == every_line(journal)


# ---- the user's own folder, holding what the writer never writes ----------------------------


def _rows(folder: Path) -> bytearray:
    return bytearray((folder / "lines").read_bytes())


def _set_row(folder: Path, seq: int, offset: int, size: int) -> None:
    rows = _rows(folder)
    LINE.pack_into(rows, seq * LINE_SIZE, offset, size, rows[seq * LINE_SIZE + 12])
    (folder / "lines").write_bytes(rows)


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path, 0o600)


def _link_to_dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _sparse(path: Path) -> None:
    os.truncate(path, 1 << 40)


def _swap_rows(folder: Path) -> None:
    rows = _rows(folder)
    rows[LINE_SIZE : 2 * LINE_SIZE], rows[2 * LINE_SIZE : 3 * LINE_SIZE] = (
        rows[2 * LINE_SIZE : 3 * LINE_SIZE],
        rows[LINE_SIZE : 2 * LINE_SIZE],
    )
    (folder / "lines").write_bytes(rows)


def _huge_codes(folder: Path) -> None:
    (folder / "columns").write_bytes(b"\xff" * len((folder / "columns").read_bytes()))


PLANTED: dict[str, Callable[[Path], None]] = {
    "a FIFO meta.json": lambda folder: _fifo(folder / "meta.json"),
    "lines linked to /dev/zero": lambda folder: _link_to_dev_zero(folder / "lines"),
    "a sparse lines file": lambda folder: _sparse(folder / "lines"),
    "a row of 4 GiB": lambda folder: _set_row(folder, 3, 1, 0xFFFF_FFFF),
    "a row past the end": lambda folder: _set_row(folder, 3, 1 << 40, 80),
    "rows that point at each other's lines": _swap_rows,
    "a denial's row left out": lambda folder: _set_row(folder, 2, 0, 0),
    "columns linked to /dev/zero": lambda folder: _link_to_dev_zero(folder / "columns"),
    "a sparse columns file": lambda folder: _sparse(folder / "columns"),
    "codes past every value": _huge_codes,
    "text linked to /dev/zero": lambda folder: _link_to_dev_zero(folder / "text"),
    "a FIFO values file": lambda folder: _fifo(folder / "values.jsonl"),
    "a sparse values file": lambda folder: _sparse(folder / "values.jsonl"),
}


@pytest.mark.parametrize("planted", PLANTED)
def test_whatever_is_planted_in_the_users_index_open_and_export_give_every_record(
    tmp_path: Path, planted: str
) -> None:
    journal = denials_journal(tmp_path / "session.jsonl")
    PLANTED[planted](index_folder(journal))
    assert exported(journal) == every_line(journal)
    assert filtered(journal) == as_every_line_filters(journal)
    assert index_folder(journal).exists()  # the user's: looked at, never removed
    assert stat.S_ISDIR(os.lstat(index_folder(journal)).st_mode)


# ---- the writer's own index, when writing it fails --------------------------------------------


@needs_proc
def test_a_writer_out_of_descriptors_says_so_once_and_leaves_no_index_that_lies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "session.jsonl"
    journal = Journal()
    writer = JsonlWriter(path).attach(journal, as_store=True)

    def calls(count: int) -> None:
        for number in range(count):
            journal.append(Exchange(hook="gate", method="hook.before_tool", status=STATUS_OK))
            journal.append(Stderr(hook="gate", line=f"call {number}"))
        writer.flush()

    calls(5)
    with descriptors_used_up(spare=0):
        calls(3)  # the journal's file is open: its lines go in; the index's cannot be opened
    calls(6)
    writer.close()
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and "cannot write the index" in said[0], said
    assert [r.to_json() for r in open_journal(path).records] == every_line(path)
    assert len(every_line(path)) == 28


# ---- no room for an index --------------------------------------------------------------------


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A small filesystem of its own (tmpfs), to be filled up by the test."""
    mount = tmp_path / "small"
    mount.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill_up(folder: Path) -> None:
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, bytes(4096))
    finally:
        os.close(fd)


@as_root
def test_a_journal_on_a_full_disk_opens_exports_and_replays_without_an_index(
    full_disk: Path, tmp_path: Path
) -> None:
    written = tmp_path / "demo.jsonl"
    subprocess.run(
        [sys.executable, "-m", "inspector", "run", "--journal", str(written)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    journal = full_disk / "demo.jsonl"
    shutil.copyfile(written, journal)  # without its index: it has to be read
    fill_up(full_disk)
    env = {**os.environ, "TMPDIR": str(full_disk)}  # no room in the temporary folder either
    out = tmp_path / "exported.jsonl"
    export = ["-m", "inspector", "export", str(journal), "-o", str(out), "--no-redact"]
    result = subprocess.run([sys.executable, *export], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert [json.loads(line) for line in out.read_text().splitlines()] == every_line(journal)
    replay = subprocess.run(
        [sys.executable, "-m", "inspector", "replay", str(journal)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert replay.returncode == 0, replay.stdout[-2000:] + replay.stderr[-2000:]
    opened = in_child("-c", OPENED, str(journal))  # as `open` opens it, before the UI
    assert opened.returncode == 0, opened.stderr
    assert json.loads(opened.stdout) == every_line(journal)
    assert not index_folder(journal).exists()


OPENED = """
import json, sys, tempfile
from pathlib import Path
from inspector.journal.saved import open_journal
tempfile.tempdir = str(Path(sys.argv[1]).parent)
print(json.dumps([record.to_json() for record in open_journal(sys.argv[1]).records]))
"""


def test_a_store_found_stale_on_the_way_gives_every_record_in_either_direction(
    tmp_path: Path,
) -> None:
    journal = denials_journal(tmp_path / "session.jsonl")
    _swap_rows(index_folder(journal))  # found when the first of the two is read
    assert [r.to_json() for r in reversed(open_journal(journal).records)] == every_line(journal)[
        ::-1
    ]
    records = open_journal(journal).records
    assert [record.seq for _p, record in records.each(list(range(len(records))))] == [
        r["seq"] for r in every_line(journal)
    ]
    assert records.generation == 1  # read again once, and since then as the journal numbers them
