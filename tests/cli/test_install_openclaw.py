"""`hook-inspector install openclaw` / `uninstall openclaw`: the bridge plugin goes into
openclaw.json beside the user's own settings, and comes out leaving the file exactly as it was.
The real Gateway loading it is in tests/real_agents/test_openclaw_*."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inspector.cli.main import main
from inspector.hosts.openclaw.chain import DECISION_HOOKS
from inspector.hosts.openclaw.config import read_plugin
from inspector.hosts.openclaw.events import HOOK_NAMES
from inspector.hosts.openclaw.install import PLUGIN_FOLDER, PLUGIN_ID

# A config as people keep it: CRLF, odd spacing, their own plugins and an allow list.
USERS_CONFIG = (
    b'{\r\n  "gateway" : {"port": 18789, "auth": {"mode": "token"}},\r\n'
    b'  "plugins": {"allow": ["memory"], "load": {"paths": ["/opt/my-plugin"]},\r\n'
    b'    "entries": {"memory": {"enabled": true}}}\r\n}\r\n'
)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return tmp_path / "state" / "openclaw.json"


def install(config: Path, *flags: str) -> int:
    return main(["install", "openclaw", "--config", str(config), *flags])


def test_install_then_uninstall_gives_back_the_users_config_byte_for_byte(config: Path) -> None:
    config.parent.mkdir()
    config.write_bytes(USERS_CONFIG)
    assert install(config) == 0
    assert install(config, "--no-inspector", "block") == 0  # again: replaces its own entry
    settings = json.loads(config.read_text())
    plugins = settings["plugins"]
    assert plugins["load"]["paths"] == ["/opt/my-plugin", str(PLUGIN_FOLDER)]
    assert plugins["allow"] == ["memory", PLUGIN_ID]
    assert plugins["entries"]["memory"] == {"enabled": True}
    entry = plugins["entries"][PLUGIN_ID]
    assert entry["hooks"] == {"allowConversationAccess": True}
    assert entry["config"] == {"noInspector": "block", "timeoutMs": 60000}
    assert settings["gateway"] == {"port": 18789, "auth": {"mode": "token"}}
    assert main(["uninstall", "openclaw", "--config", str(config)]) == 0
    assert config.read_bytes() == USERS_CONFIG
    assert not config.with_name("openclaw.json.hook-inspector.bak").exists()


def test_a_config_install_made_is_removed_again(config: Path) -> None:
    assert install(config, "--socket", "/run/x/relay.sock", "--timeout", "30") == 0
    entry = json.loads(config.read_text())["plugins"]["entries"][PLUGIN_ID]
    assert entry["config"]["socket"] == "/run/x/relay.sock"
    assert entry["config"]["timeoutMs"] == 30000
    assert install(config) == 0  # an install over an install keeps no backup of itself
    assert main(["uninstall", "openclaw", "--config", str(config)]) == 0
    assert not config.exists() and list(config.parent.iterdir()) == []


def test_settings_the_user_changed_after_install_stay(config: Path) -> None:
    config.parent.mkdir()
    config.write_bytes(USERS_CONFIG)
    install(config)
    settings = json.loads(config.read_text())
    settings["agents"] = {"defaults": {"model": "fake/model"}}
    config.write_text(json.dumps(settings))
    main(["uninstall", "openclaw", "--config", str(config)])
    after = json.loads(config.read_text())
    assert after["agents"] == {"defaults": {"model": "fake/model"}}
    assert after["plugins"] == json.loads(USERS_CONFIG)["plugins"]


def test_the_default_file_follows_openclaws_own_variables(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENCLAW_CONFIG_PATH", raising=False)
    monkeypatch.delenv("OPENCLAW_STATE_DIR", raising=False)
    main(["install", "openclaw"])
    assert (home / ".openclaw" / "openclaw.json").is_file()
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    main(["install", "openclaw"])
    assert (tmp_path / "state" / "openclaw.json").is_file()
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(tmp_path / "elsewhere.json"))
    main(["install", "openclaw"])
    assert (tmp_path / "elsewhere.json").is_file()


def test_a_json5_config_is_left_alone_with_the_snippet_to_add(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config.parent.mkdir()
    text = b"{\n  // my gateway\n  gateway: {port: 1},\n}\n"
    config.write_bytes(text)
    assert install(config) == 2
    err = capsys.readouterr().err
    assert f"{config}:2: invalid JSON" in err and "JSON5" in err
    assert str(PLUGIN_FOLDER) in err and '"allowConversationAccess": true' in err
    assert config.read_bytes() == text


def test_print_shows_the_snippet_and_changes_nothing(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert install(config, "--print", "--no-inspector", "approval") == 0
    snippet = json.loads(capsys.readouterr().out)
    entry = snippet["plugins"]["entries"][PLUGIN_ID]
    assert entry["config"]["noInspector"] == "approval"
    assert snippet["plugins"]["load"]["paths"] == [str(PLUGIN_FOLDER)]
    assert not config.exists()


def test_plugins_that_are_not_an_object_are_refused_naming_the_key(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config.parent.mkdir()
    config.write_text('{\n  "plugins": ["oops"]\n}\n')
    assert install(config) == 2
    assert f"{config}:2: plugins: expected an object" in capsys.readouterr().err


def test_the_installed_folder_is_a_plugin_openclaw_can_load() -> None:
    plugin = read_plugin(PLUGIN_FOLDER)
    assert plugin.id == PLUGIN_ID and plugin.entry == PLUGIN_FOLDER / "index.js"


def test_the_plugin_follows_every_hook_of_the_catalogue_once() -> None:
    """index.js lists OpenClaw's hooks itself (it cannot import Python): the same names as
    inspector/hosts/openclaw/events.py, each either waited for or only sent."""
    source = (PLUGIN_FOLDER / "index.js").read_text()
    lists = {
        name: re.findall(r'"([a-z_]+)"', re.search(rf"const {name} = [^;]*;", source, re.S)[0])
        for name in ("DECIDING", "OBSERVED")
    }
    followed = lists["DECIDING"] + lists["OBSERVED"]
    assert sorted(followed) == sorted(HOOK_NAMES)
    assert len(set(followed)) == len(followed)
    assert set(lists["DECIDING"]) <= DECISION_HOOKS
