"""The JSON-RPC wire PicoClaw speaks with its process hooks: newline framing with its 1 MiB line
limit, JSON-RPC 2.0 messages as Go writes them, the stages, methods and actions, the runtime event
kinds. PicoClaw's, but below the hosts because shared layers read it: the intercept gate holds
calls by stage and method name, the relay sessions and hook pipes split lines with its framing,
the journal (hook rows, JSONL, export redaction), the filter, replay and the TUI's detail pane read
stage names and Go's JSON, and the native config checks `observe` kinds. What only PicoClaw's
folder reads (the method catalogue, the finding codes) lives there."""
