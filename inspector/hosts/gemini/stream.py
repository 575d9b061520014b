"""A scripted model reply as Gemini CLI 0.61.0 streams it, and what the CLI makes of the chunks.

Gemini CLI fires AfterModel once per streamed chunk (geminiChat.ts processStreamResponse), with
the request and that chunk alone: its own text, finishReason and usage on the last chunk only. A
round streams its `chunks` when the scenario names them, else its content in TEXT_CHUNK pieces;
then each function call in a chunk of its own, as the suite's fake Gemini API streams a reply.

A hook's answer to one chunk: an llm_response with parts replaces that chunk in what the CLI goes
on with (the text it prints and AfterAgent reads, and the calls it runs: a replaced chunk's
function calls are gone), while the history the model sees next keeps the chunk as it came. A
deny ends the stream there, and the refused chunk still goes on as it came (its calls run, and
when it made any, the model is asked again); the chunks after it never come.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspector.scenario import Round, ScriptedCall

JSONObject = dict[str, Any]

TEXT_CHUNK = 16  # characters of text per chunk when a round names none


@dataclass(frozen=True, slots=True)
class Chunk:
    text: str | None  # None: a chunk that holds a function call and no text
    calls: tuple[ScriptedCall, ...] = ()


def stream(rnd: Round) -> list[Chunk]:
    """The chunks `rnd` streams in: its text, then one chunk per function call."""
    texts = rnd.chunks if rnd.chunks is not None else split(rnd.content)
    chunks = [Chunk(text) for text in texts] + [Chunk(None, (call,)) for call in rnd.tool_calls]
    return chunks or [Chunk("")]


def split(text: str) -> tuple[str, ...]:
    return tuple(text[at : at + TEXT_CHUNK] for at in range(0, len(text), TEXT_CHUNK))


def chunk_response(chunk: Chunk, *, last: bool, count: int) -> JSONObject:
    """AfterModel's llm_response for one chunk of `count` (toHookLLMResponse of that chunk)."""
    candidate: JSONObject = {"content": {"role": "model", "parts": _parts(chunk)}}
    if last:
        candidate["finishReason"] = "STOP"
    candidate["index"] = 0
    response: JSONObject = {"text": chunk.text or "", "candidates": [candidate]}
    if last:
        response["usageMetadata"] = usage(count)
    return response


def usage(chunks: int) -> JSONObject:
    return {"promptTokenCount": 10, "candidatesTokenCount": chunks, "totalTokenCount": 10 + chunks}


def _parts(chunk: Chunk) -> list[str]:
    return [] if chunk.text is None else [chunk.text]


def replacement(response: object) -> str | None:
    """The text a hook's AfterModel llm_response puts in place of the chunk, None when it leaves
    the chunk as it came: Gemini CLI takes it when its first candidate has parts
    (getModifiedResponse) and every candidate converts (fromHookLLMResponse, else it keeps the
    chunk); the text is the first candidate's string parts joined."""
    if not isinstance(response, dict):
        return None
    candidates = response.get("candidates")
    if not isinstance(candidates, list) or not candidates:
        return None
    parts = [_candidate_parts(candidate) for candidate in candidates]
    first = parts[0]
    if not first or any(said is None for said in parts):
        return None
    return "".join(part for part in first if isinstance(part, str))


def _candidate_parts(candidate: object) -> list[object] | None:
    content = candidate.get("content") if isinstance(candidate, dict) else None
    parts = content.get("parts") if isinstance(content, dict) else None
    return parts if isinstance(parts, list) else None


@dataclass(slots=True)
class Heard:
    """What Gemini CLI took of one model call's chunks: each as it came or as a hook replaced it."""

    chunks: list[Chunk] = field(default_factory=list)  # as they came
    texts: list[str | None] = field(default_factory=list)  # a hook's text, None: the chunk's own
    calls: list[ScriptedCall] = field(default_factory=list)  # the function calls it will run
    refused: str | None = None  # an AfterModel deny's reason: the stream ended there

    def take(self, chunk: Chunk, replaced: str | None = None) -> None:
        self.chunks.append(chunk)
        self.texts.append(replaced)
        if replaced is None:
            self.calls += chunk.calls

    @property
    def content(self) -> str:
        """The call's text as `gemini -p` prints it: each chunk's text, joined."""
        return "".join(self._texts([chunk.text for chunk in self.chunks]))

    def said(self) -> str:
        """The call's text as AfterAgent reads it (turn.ts getResponseText): each chunk's text
        joined by spaces. Once the stream has ended, processStreamResponse has joined each run
        of text chunks into its first chunk's own part (in place), so that chunk reads as the
        whole run; a refused stream never gets there."""
        own = [chunk.text for chunk in self.chunks]
        return " ".join(self._texts(own if self.refused is not None else consolidated(own)))

    def _texts(self, own: Sequence[str | None]) -> list[str]:
        pairs = zip(self.texts, own, strict=True)
        return [text if text is not None else (mine or "") for text, mine in pairs]


def consolidated(texts: Sequence[str | None]) -> list[str | None]:
    """The chunks' texts after Gemini CLI added each text to the text before it, when that one
    is not empty (None: a function call, which ends a run)."""
    joined = list(texts)
    head: int | None = None
    for at, text in enumerate(texts):
        if text is None:
            head = None
        elif head is not None and joined[head]:
            joined[head] = f"{joined[head]}{text}"
        else:
            head = at
    return joined
