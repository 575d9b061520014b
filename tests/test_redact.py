"""Exported sessions keep secrets out: redact() and `hook-inspector export`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.journal.journal import Journal
from inspector.journal.jsonl import JsonlWriter, load_journal
from inspector.journal.records import Event, Exchange, Noise, Stderr
from inspector.journal.redact import REDACTED, is_secret_key, redact, redact_text
from inspector.protocol import jsonrpc, templates

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
     "Set-Cookie", "auth", "sessionToken"],
)  # fmt: skip
def test_secret_keys(key: str) -> None:
    assert is_secret_key(key)


@pytest.mark.parametrize(
    "key",
    ["key", "SessionKey", "session_key", "prompt_cache_key", "max_tokens", "token_count",
     "TokenUsage", "author", "PWD", "monkey", "TurnID"],
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
    ],
)
def test_redact_text(text: str, expected: str) -> None:
    assert redact_text(text) == expected
    assert redact_text(expected) == expected  # redacting twice changes nothing more


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
