package agent

// This file is the corpus harness's stand-in for PicoClaw's AgentLoop: only the
// fields the hook mounting code (hook_mount.go) reads, and entry points the
// harness calls. MountHook and UnmountHook are extracted from upstream.

import (
	"context"

	"github.com/sipeed/picoclaw/pkg/config"
)

// AgentLoop carries what hook_mount.go uses: the config, the hook manager and
// the mount state.
type AgentLoop struct {
	cfg         *config.Config
	hooks       *HookManager
	hookRuntime hookRuntime
}

// NewHarnessLoop builds the hook manager the way PicoClaw's agent_init.go does,
// without a runtime event bus.
func NewHarnessLoop(cfg *config.Config) *AgentLoop {
	al := &AgentLoop{cfg: cfg, hooks: NewHookManager(nil)}
	configureHookManagerFromConfig(al.hooks, cfg)
	return al
}

// InitHooks mounts the configured hooks through PicoClaw's own lazy path.
func (al *AgentLoop) InitHooks(ctx context.Context) error {
	return al.ensureHooksInitialized(ctx)
}

// Hooks returns the hook manager whose stage methods the harness calls.
func (al *AgentLoop) Hooks() *HookManager {
	return al.hooks
}
