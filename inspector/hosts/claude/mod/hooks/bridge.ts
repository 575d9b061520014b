// hook-inspector's bridge mod for Claude Code 2.1.287 and later (docs: inspector/docs/claude-code.md,
// "Mods"). Claude Code runs a plugin's hooks module in its hooks worker and hands it each event as
// middleware: on(event, ($, e, next) => ...). This one sends each `tool.call` to the inspector's HTTP
// door (the one `install claude --http` made: a loopback port and a token, kept in
// $XDG_STATE_HOME/hook-inspector/http-hook.json) as the PreToolUse event a command hook would get,
// with `mod_event: "tool.call"`, and the inspector's answer decides: a deny is the mod's
// { deny }, an updatedInput goes on to the mods beneath and the tool, anything else goes on as it
// came. With no inspector (no file, no door, an error) the call goes on as if the mod were absent.
//
// The worker checks the module's source: `$` is only ever spelled $.noun.event(...) in a hook
// (never passed to a helper), and imports are "claude-code" and the module's own files alone.
import type { Register } from 'claude-code'

const DOOR = '/hook-inspector/claude'
// The inspector answers within this (the ?timeout= the HTTP handlers send): Claude Code 2.1.332
// gives up a mod's $.http.fetch after 30 s, and the call would then go on undecided.
const TIMEOUT_S = 25

type Answer = {
  decision?: string
  reason?: string
  hookSpecificOutput?: {
    permissionDecision?: string
    permissionDecisionReason?: string
    updatedInput?: Record<string, unknown>
  }
}

const endpointOf = (text: string): { url: string; token: string } | undefined => {
  const saved: unknown = JSON.parse(text)
  if (typeof saved !== 'object' || saved === null) return undefined
  const { port, token } = saved as { port?: unknown; token?: unknown }
  if (typeof port !== 'number' || typeof token !== 'string') return undefined
  return { url: `http://127.0.0.1:${port}${DOOR}?timeout=${TIMEOUT_S}`, token }
}

const answerOf = (status: number, text: string): Answer => {
  if (status !== 200 || text.trim() === '') return {}
  const answer: unknown = JSON.parse(text)
  return typeof answer === 'object' && answer !== null ? (answer as Answer) : {}
}

const sessionIdOf = (transcriptPath: string): string =>
  (transcriptPath.split('/').pop() ?? '').replace(/\.jsonl$/, '')

export const register: Register = on => {
  let cwd = ''
  on('session.start', ($, e, next) => {
    cwd = e.cwd
    return next(e)
  })
  on('tool.call', async ($, e, next) => {
    let answer: Answer
    try {
      const home = await $.env.get('HOME')
      const state = (await $.env.get('XDG_STATE_HOME')) || `${home}/.local/state`
      const endpoint = endpointOf(await $.fs.read(`${state}/hook-inspector/http-hook.json`))
      if (endpoint === undefined) return next(e)
      const { tool, tool_use_id, ...input } = e
      const info = await $.session.info()
      const event = {
        session_id: sessionIdOf(info.transcriptPath),
        transcript_path: info.transcriptPath,
        cwd,
        hook_event_name: 'PreToolUse',
        mod_event: 'tool.call',
        tool_name: tool,
        tool_input: input,
        tool_use_id,
      }
      const sent = await $.http.fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.token}` },
        body: JSON.stringify(event),
      })
      answer = answerOf(sent.status, sent.text)
    } catch {
      return next(e) // no inspector, or not one that answers: as if this mod were absent
    }
    const said = answer.hookSpecificOutput ?? {}
    if (said.permissionDecision === 'deny' || answer.decision === 'block') {
      const reason = said.permissionDecisionReason ?? answer.reason ?? 'denied by hook-inspector'
      return { deny: reason }
    }
    return next(said.updatedInput === undefined ? e : { ...e, ...said.updatedInput })
  })
}
