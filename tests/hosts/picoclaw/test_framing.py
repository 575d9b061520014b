import pytest

from inspector.hosts.picoclaw import line_findings
from inspector.hosts.picoclaw.decode import read_line
from inspector.jsonrpc import messages as jsonrpc
from inspector.jsonrpc.framing import PICOCLAW_MAX_LINE, LineSplitter

STREAM = (
    b'{"jsonrpc":"2.0","id":1,"result":{}}\nnoise line\n\n{"id":2,"result":{"a":"\xc3\xa9"}}\ntail'
)


def split_every(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, len(STREAM)])
def test_lines_survive_any_chunking(chunk: int) -> None:
    splitter = LineSplitter()
    lines = [line.data for piece in split_every(STREAM, chunk) for line in splitter.feed(piece)]
    lines += [line.data for line in splitter.close()]
    assert lines == STREAM.split(b"\n")


def test_several_lines_in_one_chunk_and_a_split_utf8_character() -> None:
    splitter = LineSplitter()
    first = splitter.feed(b'a\nb\n{"x":"\xc3')
    second = splitter.feed(b'\xa9"}\n')
    assert [line.data for line in first] == [b"a", b"b"]
    assert [line.data.decode() for line in second] == ['{"x":"é"}']
    assert splitter.close() == []


def test_oversized_line_is_flagged_at_picoclaws_limit() -> None:
    splitter = LineSplitter()
    fits = b"x" * (PICOCLAW_MAX_LINE - 1)  # with its newline exactly 1 MiB
    over = b"y" * PICOCLAW_MAX_LINE
    lines = splitter.feed(fits + b"\n" + over + b"\nok\n")
    assert [line.over_picoclaw_limit for line in lines] == [False, True, False]
    assert lines[1].size == PICOCLAW_MAX_LINE and lines[2].data == b"ok"


def test_keep_limit_truncates_but_still_finds_the_end() -> None:
    splitter = LineSplitter(keep_limit=10)
    lines = splitter.feed(b"0123456789abcdef") + splitter.feed(b"ghi\nnext\n")
    assert lines[0].data == b"0123456789" and lines[0].truncated and lines[0].size == 19
    assert lines[1].data == b"next" and not lines[1].truncated


def test_encode_writes_go_style_compact_json() -> None:
    wire = jsonrpc.encode(jsonrpc.request(1, "hook.hello", {"name": "<a&b>", "city": "Zürich"}))
    assert (
        wire
        == (
            '{"jsonrpc":"2.0","id":1,"method":"hook.hello",'
            '"params":{"name":"\\u003ca\\u0026b\\u003e","city":"Zürich"}}\n'
        ).encode()
    )


def test_notifications_carry_no_id() -> None:
    assert "id" not in jsonrpc.notification("hook.runtime_event", {})


@pytest.mark.parametrize(
    ("line", "kind", "code"),
    [
        (b'{"jsonrpc":"2.0","id":3,"result":{}}', "answer", ""),
        (b'{"jsonrpc":"2.0","ID":3,"Result":{}}', "answer", ""),  # Go folds key case
        (b'{"id":3,"result":{"reason":"caf\xe9"}}', "answer", ""),  # bad bytes become U+FFFD
        (b"hello from print()", "undecodable", "stdout-not-json"),
        (b"\xff\xfe", "undecodable", "stdout-not-json"),
        (b"[1,2]", "undecodable", "not-object"),
        (b'{"id":"3","result":{}}', "undecodable", "bad-id"),
        (b'{"id":3.5,"result":{}}', "undecodable", "bad-id"),
        (b'{"id":-1,"result":{}}', "undecodable", "bad-id"),
        (b'{"id":true,"result":{}}', "undecodable", "bad-id"),
        (b'{"id":0,"result":{}}', "no-id", "no-id"),
        (b'{"jsonrpc":"2.0","method":"hook.log","params":{}}', "no-id", "hook-initiated-request"),
        (b'{"id":4,"error":"boom"}', "undecodable", "bad-error"),
    ],
)
def test_lines_are_classified_as_picoclaws_reader_would(line: bytes, kind: str, code: str) -> None:
    read = read_line(line)
    assert read.kind == kind
    if kind != "answer":
        assert [f.code for f in line_findings.unread(read)] == [code]
