"""Assemble and build the corpus harness: PicoClaw's hook host from its source
plus our shims, in a temporary Go module. Nothing from PicoClaw is written
anywhere but that temporary directory."""

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
GO_SOURCES = HERE / "go"
MODULE = "github.com/sipeed/picoclaw"

# Upstream files compiled whole.
COPIED_FILES = (
    "pkg/agent/hook_process.go",
    "pkg/agent/hooks.go",
    "pkg/agent/hook_mount.go",
    "pkg/agent/turn_context.go",
    "pkg/providers/protocoltypes/types.go",
    "pkg/tools/shared/result.go",
    "pkg/session/scope.go",
)
# Upstream packages compiled whole (every non-test .go file).
COPIED_PACKAGES = ("pkg/events",)
# Upstream declarations taken out of files whose packages we cannot build whole:
# (source file, file written in the temporary module, declaration names).
EXTRACTED = (
    ("pkg/agent/events.go", "pkg/agent/zz_hook_meta.go", ("HookMeta",)),
    (
        "pkg/agent/agent_event.go",
        "pkg/agent/zz_mount.go",
        ("AgentLoop.MountHook", "AgentLoop.UnmountHook"),
    ),
    ("pkg/bus/types.go", "pkg/bus/zz_inbound.go", ("InboundContext",)),
    ("pkg/routing/route.go", "pkg/routing/zz_route.go", ("SessionPolicy", "ResolvedRoute")),
    (
        "pkg/config/config.go",
        "pkg/config/zz_hooks.go",
        ("HooksConfig", "HookDefaultsConfig", "BuiltinHookConfig", "ProcessHookConfig"),
    ),
    (
        "pkg/providers/types.go",
        "pkg/providers/zz_types.go",
        ("Message", "ToolDefinition", "LLMResponse", "ToolCall", "ContentBlock"),
    ),
    ("pkg/tools/shared_facade.go", "pkg/tools/zz_result.go", ("ToolResult",)),
)


@dataclass(frozen=True)
class Upstream:
    """A PicoClaw git repository (bare or checkout) at one commit."""

    path: Path
    commit: str

    def git(self, *args: str) -> bytes:
        where = (
            ["-C", str(self.path)]
            if (self.path / ".git").exists()
            else ["--git-dir", str(self.path)]
        )
        return subprocess.run(["git", *where, *args], check=True, capture_output=True).stdout

    def read(self, rel: str) -> bytes:
        return self.git("show", f"{self.commit}:{rel}")

    def blob(self, rel: str) -> str:
        return self.git("rev-parse", f"{self.commit}:{rel}").decode().strip()

    def package_files(self, rel_dir: str) -> list[str]:
        names = self.git("ls-tree", "--name-only", f"{self.commit}:{rel_dir}").decode().split()
        return [f"{rel_dir}/{n}" for n in names if n.endswith(".go") and not n.endswith("_test.go")]


def resolve(path: Path, rev: str) -> Upstream:
    probe = Upstream(path, rev)
    return Upstream(path, probe.git("rev-parse", f"{rev}^{{commit}}").decode().strip())


def go_env(build_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GOPROXY": "off",
        "GOFLAGS": "-mod=mod",
        "GOTOOLCHAIN": "local",
        "GOWORK": "off",
        "CGO_ENABLED": "0",
        "GOPATH": str(build_dir / "gopath"),
    }


def upstream_files(upstream: Upstream) -> list[str]:
    """Every upstream file the harness reads, in a stable order."""
    files = list(COPIED_FILES)
    for package in COPIED_PACKAGES:
        files.extend(upstream.package_files(package))
    files.extend(source for source, _, _ in EXTRACTED)
    return sorted(set(files))


def build_harness(upstream: Upstream, go: Path, build_dir: Path) -> Path:
    """Write the temporary module into build_dir, build it, return the binary."""
    module = build_dir / "module"
    raw_dir = build_dir / "upstream"
    raw_dir.mkdir(parents=True)
    module.mkdir()
    (module / "go.mod").write_text(f"module {MODULE}\n\ngo 1.25\n")
    copied = list(COPIED_FILES)
    for package in COPIED_PACKAGES:
        copied.extend(upstream.package_files(package))
    for rel in copied:
        target = module / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(upstream.read(rel))
    for shim in sorted((GO_SOURCES / "shim").rglob("*.go")):
        target = module / shim.relative_to(GO_SOURCES / "shim")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shim.read_bytes())
    for tool in ("extract", "harness"):
        (module / "cmd" / tool).mkdir(parents=True)
        (module / "cmd" / tool / "main.go").write_bytes(
            (GO_SOURCES / tool / "main.go").read_bytes()
        )

    env = go_env(build_dir)
    extractor = build_dir / "extract"
    _go(go, env, module, "build", "-o", str(extractor), "./cmd/extract")
    for source, target, names in EXTRACTED:
        raw = raw_dir / source.replace("/", "__")
        raw.write_bytes(upstream.read(source))
        (module / target).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [str(extractor), "-src", str(raw), "-out", str(module / target), *names],
            check=True,
            cwd=module,
        )
    harness = build_dir / "harness"
    _go(go, env, module, "build", "-o", str(harness), "./cmd/harness")
    return harness


def go_version(go: Path) -> str:
    return subprocess.run(
        [str(go), "version"], check=True, capture_output=True, text=True
    ).stdout.strip()


def _go(go: Path, env: dict[str, str], cwd: Path, *args: str) -> None:
    subprocess.run([str(go), *args], check=True, cwd=cwd, env=env)
