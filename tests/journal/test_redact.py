"""Exported sessions keep secrets out: redact() and `hook-inspector export`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.hosts.picoclaw import templates
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.journal.records import Event, Exchange, Noise, Stderr
from inspector.journal.redact import redact, redact_session, redact_value
from inspector.journal.secret_keys import is_secret_key
from inspector.journal.secret_text import REDACTED, redact_text
from inspector.jsonrpc import messages as jsonrpc

SECRETS = {
    "api_key": "sk-live-0123456789abcdefXYZ",
    "authorization": "Bearer bearer-abc-123",
    "answer_token": "tok-from-the-answer",
    "event_password": "hunter2-in-an-event",
    "github": "ghp_" + "a1B2" * 9,
    "stderr_password": "pw-in-stderr",
    "noise_secret": "s3cr3t-noise",
    "db_url_password": "pg-pass-77",
}
KEPT = ("deploy --env prod", "agent:main:main", "HOME=/home/dev", "text/plain", "cli-user")


def session() -> Journal:
    journal = Journal()
    params = templates.template("hook.before_tool")
    params["arguments"] = {
        "command": "deploy --env prod",
        "api_key": SECRETS["api_key"],
        "headers": {"Authorization": SECRETS["authorization"], "Accept": "text/plain"},
        "options": {"max_tokens": 8192, "dry_run": False},
    }
    request = jsonrpc.request(7, "hook.before_tool", params)
    response = {"jsonrpc": "2.0", "id": 7, "result": {"action": "continue"}}
    response["result"]["token"] = SECRETS["answer_token"]
    journal.append(
        Exchange(
            hook="gate",
            method="hook.before_tool",
            request=request,
            response=response,
            raw_request=jsonrpc.go_json(request),
            raw_response=json.dumps(response),
            status="ok",
            stderr=f"DB_PASSWORD={SECRETS['stderr_password']} connecting",
        )
    )
    payload = {"Tool": "exec", "Arguments": {"password": SECRETS["event_password"]}}
    envelope = templates.runtime_event("agent.tool.exec_start", payload)
    journal.append(Event(kind="agent.tool.exec_start", payload=envelope))
    journal.append(
        Stderr(hook="gate", line=f"env: GITHUB_TOKEN={SECRETS['github']} HOME=/home/dev")
    )
    journal.append(
        Stderr(hook="gate", line=f"psql postgres://app:{SECRETS['db_url_password']}@db/shop")
    )
    journal.append(Noise(hook="gate", line=json.dumps({"secret": SECRETS["noise_secret"]})))
    return journal


def saved(journal: Journal, folder: Path) -> Path:
    path = folder / "session.jsonl"
    JsonlWriter(path).attach(journal).close()
    return path


@pytest.mark.parametrize(
    "key",
    ["token", "GITHUB_TOKEN", "X-Api-Key", "apiKey", "APIKey", "apikey", "api_key", "secret_key",
     "private_key", "clientSecret", "Authorization", "password", "passwd", "credentials",
     "Set-Cookie", "auth", "sessionToken", "pwd", "MYSQL_PWD", "pass", "DB_PASS", "PGPASSWORD",
     "ssh_key", "sshKey", "deploy_key", "sig", "AccountKey"],
)  # fmt: skip
def test_secret_keys(key: str) -> None:
    assert is_secret_key(key)


@pytest.mark.parametrize(
    "key",
    ["key", "SessionKey", "session_key", "prompt_cache_key", "max_tokens", "token_count",
     "TokenUsage", "author", "PWD", "OLDPWD", "monkey", "TurnID", "password_hint", "bypass",
     "compass", "secretary", "signature", "public_key", "max_completion_tokens"],
)  # fmt: skip
def test_keys_hook_authors_need_stay_readable(key: str) -> None:
    assert not is_secret_key(key)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("API_KEY=abc123 DEBUG=1 run", "API_KEY=[REDACTED] DEBUG=1 run"),
        ('{"token": "abc", "n": 1}', '{"token": "[REDACTED]", "n": 1}'),
        ("{'api_key': 'abc'}", "{'api_key': '[REDACTED]'}"),
        ('{\\"token\\": \\"abc\\"}', '{\\"token\\": \\"[REDACTED]\\"}'),
        ("Authorization: Bearer abc def", "Authorization: [REDACTED] def"),
        ("Authorization: Bearer [REDACTED]", "Authorization: [REDACTED]"),
        ("OPENAI_API_KEY=[REDACTED]\nDEBUG=true", "OPENAI_API_KEY=[REDACTED]\nDEBUG=true"),
        ("mysql --password hunter2 --user root", "mysql --password [REDACTED] --user root"),
        ("note: password=x, user=bob", "note: password=[REDACTED], user=bob"),
        ("max_tokens=5 SessionKey=agent:main:main", "max_tokens=5 SessionKey=agent:main:main"),
        ("an invalid token for bob", "an invalid token for bob"),
        ("mysql -uroot -phunter22 shop", "mysql -uroot -p[REDACTED] shop"),
        ("mysql -u root -p shop", "mysql -u root -p shop"),
        ("curl -u ops:pw123 https://x", "curl -u ops:[REDACTED] https://x"),
        ("docker run -u 1000:1000 alpine", "docker run -u 1000:1000 alpine"),
        ("docker login -u ci -p dkr99 ghcr.io", "docker login -u ci -p [REDACTED] ghcr.io"),
        ("redis://:pw77@cache:6379/0", "redis://:[REDACTED]@cache:6379/0"),
        ("PGPASSWORD=pg77 psql -h db", "PGPASSWORD=[REDACTED] psql -h db"),
        ("PASS: test_login; pass=x1", "PASS: test_login; pass=[REDACTED]"),
        ("PWD=/home/dev pwd=x1", "PWD=/home/dev pwd=[REDACTED]"),
        ("x?sv=2022&sig=AbC%2Bd%3D&se=1", "x?sv=2022&sig=[REDACTED]&se=1"),
        ("H: Bearer abc123def", "H: Bearer [REDACTED]"),
        ("Bearer authentication is required", "Bearer authentication is required"),
        ("use xoxb-1234567890-abcdefghij now", "use [REDACTED] now"),
        (
            "-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----",
            "-----BEGIN EC PRIVATE KEY-----[REDACTED]-----END EC PRIVATE KEY-----",
        ),
        (
            "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----",
            "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----",
        ),
    ],
)
def test_redact_text(text: str, expected: str) -> None:
    assert redact_text(text) == expected
    assert redact_text(expected) == expected  # redacting twice changes nothing more


def test_keys_hidden_alike_under_a_secret_key_stay_apart() -> None:
    tokens = {"ghp_" + "A" * 36: "x", "ghp_" + "B" * 36: "y"}
    hidden = redact_value({"token": tokens})["token"]
    assert len(hidden) == 2 and set(hidden.values()) == {REDACTED}


def test_redact_returns_a_copy_and_keeps_clean_raw_lines_byte_for_byte() -> None:
    journal = session()
    exchange = journal.records[0]
    assert isinstance(exchange, Exchange)
    clean = redact(exchange)
    assert isinstance(clean, Exchange) and clean is not exchange
    assert exchange.request["params"]["arguments"]["api_key"] == SECRETS["api_key"]  # type: ignore[index]
    assert clean.request["params"]["arguments"]["api_key"] == REDACTED  # type: ignore[index]
    assert json.loads(clean.raw_request or "") == clean.request
    assert json.loads(clean.raw_response or "") == clean.response
    plain = Exchange(raw_request='{"b": 1,  "a": [true]}', raw_response="not json at all")
    assert redact(plain).raw_request == plain.raw_request
    assert redact(plain).raw_response == plain.raw_response


def test_export_redacts_every_secret_and_stays_loadable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "shared.jsonl"
    assert main(["export", str(saved(session(), tmp_path)), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert [secret for secret in SECRETS.values() if secret in text] == []
    assert all(kept in text for kept in KEPT)
    records = load_journal(out).records
    assert [record.type for record in records] == [r.type for r in session().records]
    exchange = records[0]
    assert isinstance(exchange, Exchange)
    wire = json.loads(exchange.raw_request or "")
    assert wire["params"]["meta"]["SessionKey"] == "agent:main:main"
    assert wire["params"]["arguments"]["options"] == {"max_tokens": 8192, "dry_run": False}
    assert wire == exchange.request
    assert "secrets redacted in 5 of them" in capsys.readouterr().err


def test_export_no_redact_keeps_everything(tmp_path: Path) -> None:
    source = saved(session(), tmp_path)
    out = tmp_path / "copy.jsonl"
    assert main(["export", str(source), "-o", str(out), "--no-redact"]) == 0
    text = out.read_text(encoding="utf-8")
    assert all(secret in text for secret in SECRETS.values())
    assert len(load_journal(out).records) == len(session().records)


def test_export_of_a_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense"}\n{"type": "stderr", "line": "x"}\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["export", str(bad), "-o", str(out)]) == 2
    assert main(["export", str(tmp_path / "missing.jsonl"), "-o", str(out)]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err
    assert not out.exists()


def test_export_keeps_a_lone_surrogate_loadable(tmp_path: Path) -> None:
    journal = Journal()
    journal.append(Stderr(hook="gate", line="half a pair: \ud800 token=abc"))
    out = tmp_path / "out.jsonl"
    assert main(["export", str(saved(journal, tmp_path)), "-o", str(out)]) == 0
    [record] = load_journal(out).records
    assert isinstance(record, Stderr) and record.line == "half a pair: \ud800 token=[REDACTED]"


def test_a_private_key_printed_line_by_line_is_hidden_up_to_its_end_line() -> None:
    body = ["MIIEowIBAAKCAQEA7xq", "Zm9vYmFyYmF6cXV4"]
    lines = ["-----BEGIN RSA PRIVATE KEY-----", *body, "-----END RSA PRIVATE KEY-----", "ok"]
    records = [Stderr(hook="gate", line=line) for line in lines]
    records.insert(2, Stderr(hook="other", line="other hook: MIIE is fine here"))
    out = [record.line for record in redact_session(records)]  # type: ignore[attr-defined]
    assert out == [
        "-----BEGIN RSA PRIVATE KEY-----",
        REDACTED,
        "other hook: MIIE is fine here",
        REDACTED,
        "-----END RSA PRIVATE KEY-----",
        "ok",
    ]


def test_secrets_as_keys_and_header_pairs() -> None:
    value = {
        "accounts": {"ghp_" + "a1B2" * 9: "prod", "ghp_" + "c3D4" * 9: "ci", "plain": "x"},
        "headers": [["Authorization", "Bearer abc"], ["Accept", "text/plain"]],
        "har": [{"name": "Cookie", "value": "sid=1"}, {"name": "Accept", "value": "*/*"}],
        "words": ["token", "abc"],
    }
    assert redact_value(value) == {
        "accounts": {REDACTED: "prod", f"{REDACTED} 2": "ci", "plain": "x"},
        "headers": [["Authorization", REDACTED], ["Accept", "text/plain"]],
        "har": [{"name": "Cookie", "value": REDACTED}, {"name": "Accept", "value": "*/*"}],
        "words": ["token", "abc"],
    }


def test_only_export_loads_the_detector() -> None:
    """detect-secrets pulls in `requests`: the other commands do not pay for it at start-up."""
    code = (
        "import sys, inspector.cli.main, inspector.cli.run, inspector.tui.app\n"
        "print('detect_secrets' in sys.modules, 'requests' in sys.modules)\n"
        "import inspector.cli.export\n"
        "print('detect_secrets' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "False", "True"]
