"""The result a live OpenClaw Gateway's hook gets back through the bridge plugin: the merged
outcome of the inspector's own OpenClaw plugin (and of the person), written as one handler's
return value in the shape OpenClaw reads.

before_tool_call: `{block, blockReason}`, `{params}` (the hooks' params, which OpenClaw merges
over the tool's own), or `{requireApproval}` when nobody at the inspector could answer it (the
Gateway then asks its own approvers); a person's allow or deny goes back as the answer itself,
because OpenClaw cannot route an approval for runs started from the CLI or cron.
message_sending: `{cancel: true}` or `{content}`. Other hooks: the merged fields. What a person
changed in a held call (params, content) goes back too, unless a hook answered over it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.hosts.host import HookOutput, Relayed
from inspector.hosts.openclaw.chain import OpenClawPlugin
from inspector.hosts.openclaw.merge import (
    APPROVAL,
    BEFORE_TOOL_CALL,
    BLOCK,
    CANCEL,
    MESSAGE_SENDING,
    Merge,
)

JSONObject = dict[str, Any]
CONTINUE = "continue"
MODIFY = "modify"
# The event field a person may edit in a held call, by hook, which the hook's result can carry.
EDITABLE = {BEFORE_TOOL_CALL: "params", MESSAGE_SENDING: "content"}
EDITABLE_TYPE: dict[str, type] = {"params": dict, "content": str}


async def relay_output(plugin: OpenClawPlugin | None, relayed: Relayed) -> HookOutput:
    """A live Gateway's call, answered by the session's own plugin (None: it has none) and by
    what a person changed while it was held."""
    hook, request = relayed.event, relayed.payload
    merge = None
    if plugin is not None and plugin.handlers(hook):
        merge = await plugin.fire(
            hook,
            _object(request.get("event")),
            _object(request.get("ctx")),
            source=relayed.source,
            turn=relayed.turn,
            answer_by=relayed.ask_by,
        )
    edit = _edit(hook, relayed.sent, request) if relayed.sent is not None else {}
    answered = answer(hook, merge, edit)
    return HookOutput(action=answered.action, result=answered.result)


def _edit(hook: str, sent: JSONObject, edited: JSONObject) -> JSONObject:
    """What a person's edit of a held call changes, as result fields OpenClaw reads: a
    before_tool_call's params, a message_sending's content ({} when neither changed)."""
    field = EDITABLE.get(hook)
    if field is None:
        return {}
    before = _object(sent.get("event")).get(field)
    after = _object(edited.get("event")).get(field)
    return {field: after} if after != before and isinstance(after, EDITABLE_TYPE[field]) else {}


def _object(value: Any) -> JSONObject:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class BridgeAnswer:
    result: JSONObject | None  # what the bridge plugin's handler returns (None: no decision)
    action: str  # what the exchange list shows


NO_DECISION = BridgeAnswer(None, CONTINUE)


def tool_call_answer(merge: Merge | None, edited_params: JSONObject | None) -> BridgeAnswer:
    """before_tool_call: `merge` of the inspector's hooks (None: it has none), over params a
    person edited while the call was held (None: not edited)."""
    if merge is not None and merge.verdict == BLOCK:
        return BridgeAnswer({"block": True, "blockReason": merge.reason}, BLOCK)
    if merge is not None and merge.verdict == APPROVAL:
        approval = dict(merge.approval or {})
        result: JSONObject = {"requireApproval": approval}
        params = _params(merge, edited_params)
        if params is not None:
            result["params"] = params
        return BridgeAnswer(result, APPROVAL)
    params = _params(merge, edited_params)
    return BridgeAnswer({"params": params}, MODIFY) if params is not None else NO_DECISION


def hook_answer(merge: Merge | None, edit: JSONObject) -> BridgeAnswer:
    """Any other hook that decides; `edit`: the result fields a person's edit set (a
    message_sending's content), which the inspector's own hooks' answers override."""
    if merge is not None and merge.hook_name == MESSAGE_SENDING and merge.verdict == CANCEL:
        return BridgeAnswer({"cancel": True}, CANCEL)
    fields = edit | (merge.fields if merge is not None else {})
    return BridgeAnswer(fields, MODIFY) if fields else NO_DECISION


def answer(hook_name: str, merge: Merge | None, edit: JSONObject | None = None) -> BridgeAnswer:
    """`edit`: what a person's edit of the held call changed, as result fields."""
    edit = edit or {}
    if hook_name == BEFORE_TOOL_CALL:
        return tool_call_answer(merge, edit.get("params"))
    return hook_answer(merge, edit)


def _params(merge: Merge | None, edited: JSONObject | None) -> JSONObject | None:
    hooks = merge.params if merge is not None else None
    if edited is None:
        return hooks
    return edited | (hooks or {})
