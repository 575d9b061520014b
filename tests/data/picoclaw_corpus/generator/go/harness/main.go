// Command harness drives PicoClaw's own process-hook host (compiled from its
// source by regenerate.py) with scripted hook answers and prints, for each
// case, what the host did.
//
//	harness run CASES.json      one JSON result line per case on stdout
//	harness hook SPEC RECORD    act as a scripted hook process (started by the host)
//	harness bench COMMAND_JSON N CALL.json
//	                            time N before_tool calls to one process hook (bridge_latency.py)
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/sipeed/picoclaw/pkg/agent"
	"github.com/sipeed/picoclaw/pkg/config"
	"github.com/sipeed/picoclaw/pkg/logger"
)

// helloTimeout bounds a hook that never answers hook.hello; PicoClaw itself has
// no such bound, and no case relies on one.
const helloTimeout = 20 * time.Second

// stderrSettleTimeout bounds the wait for a hook's stderr lines to be logged.
const stderrSettleTimeout = 10 * time.Second

type caseFile struct {
	InterceptorTimeoutMS int        `json:"interceptor_timeout_ms"`
	ApprovalTimeoutMS    int        `json:"approval_timeout_ms"`
	Cases                []caseSpec `json:"cases"`
}

type caseSpec struct {
	ID    string          `json:"id"`
	Stage string          `json:"stage"`
	Input json.RawMessage `json:"input"`
	Hooks []hookSpec      `json:"hooks"`
}

// hookSpec is what one scripted hook process does; lines are base64 so any
// bytes (invalid UTF-8, 1 MiB lines) pass through unchanged.
type hookSpec struct {
	Name        string   `json:"name"`
	Priority    int      `json:"priority"`
	Intercept   []string `json:"intercept"`
	HelloLines  []string `json:"hello_lines_b64"`
	AnswerLines []string `json:"answer_lines_b64"`
	StderrLines []string `json:"stderr_lines"`
	ExitCode    *int     `json:"exit_code"`
}

type decisionOut struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
}

type approvalOut struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason"`
}

type hookOut struct {
	Name     string      `json:"name"`
	Received []lineBytes `json:"received"`
}

// lineBytes is one line without its newline: text when valid UTF-8, else base64.
type lineBytes struct {
	Text *string `json:"text,omitempty"`
	B64  *string `json:"b64,omitempty"`
}

type caseOut struct {
	ID         string         `json:"id"`
	Stage      string         `json:"stage"`
	MountError *string        `json:"mount_error"`
	Decision   *decisionOut   `json:"decision"`
	Approval   *approvalOut   `json:"approval"`
	PassedOn   *string        `json:"passed_on_json"`
	Logs       []logger.Entry `json:"logs"`
	StderrLogs []logger.Entry `json:"stderr_logs"`
	CloseLogs  []logger.Entry `json:"close_logs"`
	Hooks      []hookOut      `json:"hooks"`
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "run" {
		if err := runAll(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "harness:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 5 && os.Args[1] == "bench" {
		os.Exit(benchCalls(os.Args[2], os.Args[3], os.Args[4]))
	}
	if len(os.Args) == 4 && os.Args[1] == "hook" {
		os.Exit(actAsHook(os.Args[2], os.Args[3]))
	}
	fmt.Fprintln(os.Stderr, "usage: harness run CASES.json | harness hook SPEC RECORD | harness bench COMMAND_JSON N CALL.json")
	os.Exit(2)
}

func runAll(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var file caseFile
	if err := json.Unmarshal(raw, &file); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	workDir, err := os.MkdirTemp("", "picoclaw-corpus-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(workDir)

	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for i, spec := range file.Cases {
		caseDir := filepath.Join(workDir, fmt.Sprintf("case-%04d", i))
		if err := os.Mkdir(caseDir, 0o755); err != nil {
			return err
		}
		result, err := runCase(self, caseDir, file, spec)
		if err != nil {
			return fmt.Errorf("case %s: %w", spec.ID, err)
		}
		if err := enc.Encode(result); err != nil {
			return err
		}
	}
	return nil
}

func runCase(self, caseDir string, file caseFile, spec caseSpec) (caseOut, error) {
	result := caseOut{ID: spec.ID, Stage: spec.Stage}
	processes := map[string]config.ProcessHookConfig{}
	records := make([]string, len(spec.Hooks))
	for i, hook := range spec.Hooks {
		specPath := filepath.Join(caseDir, hook.Name+".spec.json")
		records[i] = filepath.Join(caseDir, hook.Name+".received")
		body, err := json.Marshal(hook)
		if err != nil {
			return result, err
		}
		if err := os.WriteFile(specPath, body, 0o644); err != nil {
			return result, err
		}
		processes[hook.Name] = config.ProcessHookConfig{
			Enabled:   true,
			Priority:  hook.Priority,
			Command:   []string{self, "hook", specPath, records[i]},
			Intercept: hook.Intercept,
		}
	}
	cfg := &config.Config{Hooks: config.HooksConfig{
		Enabled: true,
		Defaults: config.HookDefaultsConfig{
			InterceptorTimeoutMS: file.InterceptorTimeoutMS,
			ApprovalTimeoutMS:    file.ApprovalTimeoutMS,
		},
		Processes: processes,
	}}

	logger.Take()
	loop := agent.NewHarnessLoop(cfg)
	helloCtx, cancel := context.WithTimeout(context.Background(), helloTimeout)
	mountErr := loop.InitHooks(helloCtx)
	cancel()
	if mountErr != nil {
		text := mountErr.Error()
		result.MountError = &text
	} else if err := callStage(loop.Hooks(), spec, &result); err != nil {
		return result, err
	}
	waitForStderr(spec.Hooks)
	result.Logs, result.StderrLogs = splitStderr(logger.Take())
	loop.Hooks().Close()
	result.CloseLogs = logger.Take()
	ensureNonNil(&result)

	for i, hook := range spec.Hooks {
		received, err := readRecord(records[i])
		if err != nil {
			return result, err
		}
		result.Hooks = append(result.Hooks, hookOut{Name: hook.Name, Received: received})
	}
	return result, nil
}

func callStage(hm *agent.HookManager, spec caseSpec, result *caseOut) error {
	ctx := context.Background()
	var passedOn any
	var decision agent.HookDecision
	switch spec.Stage {
	case "before_llm":
		var req agent.LLMHookRequest
		if err := decodeInput(spec.Input, &req); err != nil {
			return err
		}
		passedOn, decision = hm.BeforeLLM(ctx, &req)
	case "after_llm":
		var resp agent.LLMHookResponse
		if err := decodeInput(spec.Input, &resp); err != nil {
			return err
		}
		passedOn, decision = hm.AfterLLM(ctx, &resp)
	case "before_tool":
		var call agent.ToolCallHookRequest
		if err := decodeInput(spec.Input, &call); err != nil {
			return err
		}
		passedOn, decision = hm.BeforeTool(ctx, &call)
	case "after_tool":
		var res agent.ToolResultHookResponse
		if err := decodeInput(spec.Input, &res); err != nil {
			return err
		}
		passedOn, decision = hm.AfterTool(ctx, &res)
	case "approve_tool":
		var req agent.ToolApprovalRequest
		if err := decodeInput(spec.Input, &req); err != nil {
			return err
		}
		approval := hm.ApproveTool(ctx, &req)
		result.Approval = &approvalOut{Approved: approval.Approved, Reason: approval.Reason}
		return nil
	case "hello":
		return nil
	default:
		return fmt.Errorf("unknown stage %q", spec.Stage)
	}
	result.Decision = &decisionOut{Action: string(decision.Action), Reason: decision.Reason}
	body, err := json.Marshal(passedOn)
	if err != nil {
		return err
	}
	text := string(body)
	result.PassedOn = &text
	return nil
}

// decodeInput rejects unknown keys so a typo in a case's input cannot silently
// change what the host is given.
func decodeInput(raw json.RawMessage, into any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("input: %w", err)
	}
	return nil
}

func waitForStderr(hooks []hookSpec) {
	want := 0
	for _, hook := range hooks {
		want += len(hook.StderrLines)
	}
	deadline := time.Now().Add(stderrSettleTimeout)
	for time.Now().Before(deadline) {
		if logger.Count(isStderrEntry) >= want {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func isStderrEntry(entry logger.Entry) bool {
	return entry.Message == "Process hook stderr"
}

func splitStderr(entries []logger.Entry) (logs, stderr []logger.Entry) {
	for _, entry := range entries {
		if isStderrEntry(entry) {
			stderr = append(stderr, entry)
		} else {
			logs = append(logs, entry)
		}
	}
	return logs, stderr
}

func ensureNonNil(result *caseOut) {
	if result.Logs == nil {
		result.Logs = []logger.Entry{}
	}
	if result.StderrLogs == nil {
		result.StderrLogs = []logger.Entry{}
	}
	if result.CloseLogs == nil {
		result.CloseLogs = []logger.Entry{}
	}
}

func readRecord(path string) ([]lineBytes, error) {
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return []lineBytes{}, nil
	}
	if err != nil {
		return nil, err
	}
	lines := []lineBytes{}
	for _, line := range bytes.SplitAfter(raw, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		lines = append(lines, asLineBytes(bytes.TrimSuffix(line, []byte("\n"))))
	}
	return lines, nil
}

func asLineBytes(line []byte) lineBytes {
	if utf8.Valid(line) {
		text := string(line)
		return lineBytes{Text: &text}
	}
	encoded := base64.StdEncoding.EncodeToString(line)
	return lineBytes{B64: &encoded}
}

// actAsHook is the scripted hook process: it records every line the host
// sends, answers hook.hello with the hello lines and any other request with the
// stderr lines and answer lines, then optionally exits with the given code.
func actAsHook(specPath, recordPath string) int {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	var spec hookSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	record, err := os.Create(recordPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	defer record.Close()

	in := bufio.NewReader(os.Stdin)
	for {
		line, readErr := in.ReadBytes('\n')
		if len(line) > 0 {
			if _, err := record.Write(line); err != nil {
				return 70
			}
			var msg struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(line, &msg)
			if msg.Method == "hook.hello" {
				writeLines(os.Stdout, spec.HelloLines)
			} else {
				for _, text := range spec.StderrLines {
					fmt.Fprintln(os.Stderr, text)
				}
				writeLines(os.Stdout, spec.AnswerLines)
				if spec.ExitCode != nil {
					return *spec.ExitCode
				}
			}
		}
		if readErr == io.EOF {
			return 0
		}
		if readErr != nil {
			return 70
		}
	}
}

func writeLines(out io.Writer, encoded []string) {
	for _, item := range encoded {
		line, err := base64.StdEncoding.DecodeString(item)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad base64 in hook spec:", err)
			os.Exit(70)
		}
		if _, err := out.Write(line); err != nil {
			os.Exit(71)
		}
	}
}

// benchCalls mounts one process hook running COMMAND through PicoClaw's own
// config path and calls HookManager.BeforeTool N times with the call in
// CALL.json, timing each call as PicoClaw's turn loop would wait for it. It
// prints one JSON line: the median and 90th percentile in ms, the decisions
// taken, and how many log entries PicoClaw's logger received.
func benchCalls(commandJSON, countText, inputPath string) int {
	var command []string
	if err := json.Unmarshal([]byte(commandJSON), &command); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	n, err := strconv.Atoi(countText)
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "N must be a positive number")
		return 2
	}
	cfg := &config.Config{Hooks: config.HooksConfig{
		Enabled:  true,
		Defaults: config.HookDefaultsConfig{InterceptorTimeoutMS: 5000, ApprovalTimeoutMS: 5000},
		Processes: map[string]config.ProcessHookConfig{
			"h": {Enabled: true, Command: command, Intercept: []string{"before_tool"}},
		},
	}}
	logger.Take()
	loop := agent.NewHarnessLoop(cfg)
	ctx, cancel := context.WithTimeout(context.Background(), helloTimeout)
	err = loop.InitHooks(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	raw, err := os.ReadFile(inputPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	times := make([]float64, 0, n)
	actions := map[string]int{}
	for i := 0; i < n; i++ {
		var call agent.ToolCallHookRequest
		if err := decodeInput(raw, &call); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		start := time.Now()
		_, decision := loop.Hooks().BeforeTool(context.Background(), &call)
		times = append(times, float64(time.Since(start).Nanoseconds())/1e6)
		actions[string(decision.Action)]++
	}
	sort.Float64s(times)
	summary, err := json.Marshal(map[string]any{
		"median_ms": times[len(times)/2],
		"p90_ms":    times[len(times)*9/10],
		"actions":   actions,
		"logs":      len(logger.Take()),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(string(summary))
	loop.Hooks().Close()
	return 0
}
