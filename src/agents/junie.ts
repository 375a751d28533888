// JetBrains Junie CLI: one event (SessionStart), which never blocks; hookrun's entry in the user's
// ~/.junie/config.json.
import { join } from 'node:path'
import { agentOf, readsNothing } from './shared.ts'
import { claudeEvents } from './claude.ts'
import type { Dialect } from './types.ts'
import { type InstallTarget, commandHandler } from './install.ts'

/** Junie CLI's only hook event (junie.jetbrains.com/docs/junie-cli-hooks.html, "Triggering events"). */
const EVENTS = claudeEvents('SessionStart')

/**
 * JetBrains Junie CLI (junie.jetbrains.com/docs/junie-cli-hooks.html). Hooks live in the user's
 * `~/.junie/config.json` (or a file given with `--config-location`); a project's
 * `.junie/config.json` hooks are ignored unless passed that way. The shape is Claude Code's groups
 * (`hooks.SessionStart: [{matcher, hooks: [{type: "command", command, timeout}]}]`), the matcher a
 * regex on the session's source (`startup` or `resume`), the timeout in seconds (default 10), the
 * command run by `sh -c`. The hook gets one line of JSON on stdin, "the input format used by Gemini
 * and Codex hooks"; no field of Junie's own was found, so a fire names it with `--format junie`.
 *
 * "Hook output and exit status do not block Junie startup": nothing of an answer is read. A gate
 * in Junie is advisory, and hookrun says so wherever one would count on it.
 */
export const junie: Dialect = {
  name: 'junie',
  label: 'Junie CLI',
  source: 'junie',
  carries: [],
  project: { variables: [], payloadField: 'cwd' },
  caveats: [
    "ADVISORY ONLY: Junie CLI reads nothing of a hook's answer and never blocks, so a gate there is advisory (it runs, it cannot stop anything)",
    'only SessionStart exists; the project file .junie/config.json is ignored unless passed with --config-location',
    'from the Junie CLI docs page, not the agent lab (its npm package downloads the binary from GitHub, which cannot run here)',
  ],
  // No field of Junie's own is documented: install names it (`--format junie`), detection never guesses it.
  detectMarks: [],
  detect: () => false,
  eventName: (payload) => (payload.hook_event_name === 'SessionStart' ? 'SessionStart' : undefined),
  render: readsNothing('Junie CLI', (_payload, agentEvent) => agentEvent ?? 'SessionStart', 'the session starts', 'the session starts'),
}

/** Junie CLI's hooks config for `hookrun install` (src/agents/install.ts): the user's file only. */
const junieInstall: InstallTarget = {
  file: (_scope, places) => join(places.home, '.junie', 'config.json'),
  userOnly: true,
  shape: 'groups',
  // Seconds, default 10: a session-start hook of the user's may take longer.
  ...commandHandler(1),
  note: 'ADVISORY ONLY: Junie CLI never blocks on a hook and reads nothing of its answer, so a gate there cannot stop anything; only SessionStart runs',
}

export const junieAgent = agentOf(junie, { events: EVENTS, install: junieInstall })
