"""Turn a case's line specs into the exact bytes a scripted hook writes, and
describe bytes compactly for the recorded corpus."""

import base64
import hashlib
import json
from typing import Any

# Line specs: exactly one body key, plus optional "id_text" (the raw JSON text
# of the id; null omits the id key), "pad_line_to" (result objects only) and
# "newline" (default true).
BODY_KEYS = ("result", "result_text", "error", "text", "b64")
LINE_KEYS = {*BODY_KEYS, "id_text", "pad_line_to", "newline"}
INLINE_LIMIT = 64 * 1024


class CaseError(ValueError):
    """A case in the cases file is malformed."""


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def render_line(spec: dict[str, Any], default_id: int, where: str) -> bytes:
    unknown = set(spec) - LINE_KEYS
    bodies = [key for key in BODY_KEYS if key in spec]
    if unknown:
        raise CaseError(f"{where}: unknown line key {sorted(unknown)[0]!r}")
    if len(bodies) != 1:
        raise CaseError(f"{where}: a line needs exactly one of {', '.join(BODY_KEYS)}")
    body_key = bodies[0]
    newline = b"\n" if spec.get("newline", True) else b""
    if body_key == "text":
        return spec["text"].encode() + newline
    if body_key == "b64":
        return base64.b64decode(spec["b64"], validate=True) + newline

    member = "error" if body_key == "error" else "result"
    value_text = spec["result_text"] if body_key == "result_text" else compact(spec[body_key])
    id_text = spec.get("id_text", str(default_id))
    head = '{"jsonrpc":"2.0",' + (f'"id":{id_text},' if id_text is not None else "")
    if "pad_line_to" not in spec:
        return (head + f'"{member}":{value_text}}}').encode() + newline
    if body_key != "result" or not isinstance(spec["result"], dict) or not newline:
        raise CaseError(f"{where}: pad_line_to needs a result object and a newline")
    return _padded(head, value_text, spec["pad_line_to"], where)


def _padded(head: str, object_text: str, line_bytes: int, where: str) -> bytes:
    """The result object gets a first member "pad" of 'x's so that the whole
    line, newline included, is exactly line_bytes long."""
    inner = object_text[1:-1]
    rest = "," + inner if inner else ""

    def build(pad: int) -> bytes:
        return (head + '"result":{"pad":"' + "x" * pad + '"' + rest + "}}\n").encode()

    pad = line_bytes - len(build(0))
    if pad < 0:
        raise CaseError(f"{where}: pad_line_to {line_bytes} is shorter than the unpadded line")
    return build(pad)


def describe(raw: bytes, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    """Text if valid UTF-8, else base64; lines over 64 KiB as length, digest and
    the spec they were generated from."""
    if len(raw) > INLINE_LIMIT:
        return {
            "bytes": len(raw),
            "sha256": hashlib.sha256(raw).hexdigest(),
            "generated_from": spec,
        }
    try:
        return {"text": raw.decode("utf-8")}
    except UnicodeDecodeError:
        return {"b64": base64.b64encode(raw).decode()}
