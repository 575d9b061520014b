"""The JSON-RPC process-hook protocol: JSON-RPC 2.0 messages, one a line, over a hook process's
stdio; newline framing with a 1 MiB line limit; the stages, methods and actions; the runtime
event kinds. PicoClaw defined it, and it is hook-inspector's native protocol, so it sits below
the hosts: a native YAML config's process hooks speak it, the intercept gate holds calls by its
stage and method names, the JSON-RPC relay and the hook pipes split lines with its framing, and
the journal (hook rows, JSONL, export redaction), the filter, replay and the TUI's detail pane
read its stage names and its JSON as Go writes it. What only PicoClaw's own host does with it
(its config.json, its chain's rules, its method catalogue and finding codes) lives in
inspector/hosts/picoclaw/."""
