// Goose's dialect: its plugin hooks' payloads in, its block answers out.
import { claudeEvents } from './claude.ts'
import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import { agentOf, Answer, blockReason, jsonLine, stringField } from './shared.ts'
import type { AgentTools, Dialect, Normalized } from './types.ts'
import { dirname, isAbsolute, join } from 'node:path'
import { type InstallTarget, type Places, ROUTER_TIMEOUT_SECONDS } from './install.ts'
import type { PluginSwitches } from './plugins.ts'
import type { ProjectScan } from './native-config.ts'

const EVENTS = claudeEvents('PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop')

const TOOLS: AgentTools = { shell: 'bash', edit: 'edit', write: 'write' }

/**
 * Goose (aaif-goose/goose crates/goose/src/hooks/mod.rs; the agent lab, 1.50.0). Hooks live only in
 * plugins; the payload names the event in `event` and always carries `matcher_context`. Only
 * PreToolUse and Stop can be stopped, by `{"decision":"block","reason"}`; empty stdout or
 * `{"decision":"allow"}` is allow, and any other stdout a failed hook. No rewrite, context or
 * message, but a SessionStart `{"banner"}`, which `goose session` prints: hookrun's notices and
 * what Goose could not take at session start go there.
 */
const GATE_EVENTS = new Set(['PreToolUse', 'Stop'])

function gooseEvent(payload: Record<string, unknown>, agentEvent: string | undefined): string {
  if (agentEvent !== undefined) return agentEvent
  return typeof payload.event === 'string' ? payload.event : 'PreToolUse'
}

export const goose: Dialect = {
  name: 'goose',
  label: 'Goose',
  source: 'goose',
  // Goose runs hooks in the folder it was started in (where it read the project's plugins) and
  // sends its session folder as `working_dir` on tool events and Stop.
  project: { variables: [], payloadField: 'working_dir' },
  ignores: [
    {
      field: 'updatedInput',
      events: ['PreToolUse'],
      why: 'Goose has no rewrite, so the tool would run with its original input',
    },
  ],
  // An extension's tool is `<extension>__<tool>` (Goose 1.50.0; its built-in platform tools have no prefix).
  mcpNaming: { prefix: '', separator: '__' },
  detectMarks: ['matcher_context'],
  detect: (payload) =>
    payload.hook_event_name === undefined &&
    typeof payload.event === 'string' &&
    typeof payload.session_id === 'string' &&
    'matcher_context' in payload,
  eventName: stringField('event'),
  normalize(payload): Normalized {
    // Hooks written for Claude Code read `cwd` (and HOOKRUN_WORK_DIR comes from it).
    if ('cwd' in payload || typeof payload.working_dir !== 'string') return { payload }
    return { payload: spreadKeepingLongStrings(payload, { cwd: payload.working_dir }) }
  },
  render(decision, payload, agentEvent) {
    const event = gooseEvent(payload, agentEvent)
    const answer = new Answer('Goose', event)
    const out: Record<string, unknown> = {}
    const gate = GATE_EVENTS.has(event)
    const reasons = [decision.blocked ? blockReason(decision) : undefined]
    if (decision.decision === 'ask' && !decision.blocked) {
      if (event === 'PreToolUse') {
        answer.cannot("decision 'ask'", 'answered block: Goose asks nobody, and a hook wanted a person to confirm')
        reasons[0] = `hook '${decision.decidedBy ?? 'unknown'}' wants a person to confirm this call, and Goose cannot ask${decision.reason ? `: ${decision.reason}` : ''}`
      } else answer.cannot("decision 'ask'")
    }
    if (!decision.continue) {
      if (event === 'PreToolUse') {
        answer.cannot('continue: false', 'Goose cannot end the session; the call was blocked instead')
        reasons.push(decision.stopReason ?? `hook '${decision.decidedBy ?? 'unknown'}' asked to stop the session`)
      } else answer.cannot('continue: false', 'the agent goes on')
    }
    const reason = [...new Set(reasons.filter((text): text is string => text !== undefined))].join('\n')
    if (reason !== '') {
      if (gate) {
        out.decision = 'block'
        out.reason = reason
      } else answer.cannot('a block', 'the event proceeds')
    } else if (gate && decision.decidedBy !== undefined && decision.decision === 'allow') out.decision = 'allow'
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Goose cannot rewrite a prompt')
    answer.cannotTake(decision, ['additionalContext', 'suppressOutput'])
    if (event === 'SessionStart') {
      // The one text Goose shows: its banner. It carries the message and what Goose could not take.
      const banner = [decision.systemMessage, ...answer.warnings.map((warning) => `hookrun: ${warning}`)].filter(Boolean).join('\n')
      if (banner !== '') out.banner = banner
    } else if (decision.systemMessage !== undefined) answer.cannot('systemMessage')
    // Nothing but a decision may reach Goose's stdout: any other text is a failed hook to it.
    return { stdout: Object.keys(out).length === 0 ? '' : jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

const GOOSE_TOOL_TWICE =
  'PreToolUse / PostToolUse already fire for this tool, and Goose takes no block here; a second entry would run your hooks twice'

/** Goose's user folder: $GOOSE_PATH_ROOT when it is an absolute path, else the home folder. */
function gooseRoot(places: Pick<Places, 'home' | 'env'>): string {
  const root = places.env.GOOSE_PATH_ROOT
  return root !== undefined && isAbsolute(root) ? root : places.home
}

const gooseInstall: InstallTarget = {
  // aaif-goose/goose crates/goose/src/plugins/discovery.rs: plugins in <start folder>/.agents/plugins/
  // and ~/.agents/plugins/ ($GOOSE_PATH_ROOT/.agents/plugins/ when set); hooks only in a plugin's
  // hooks/hooks.json (the Open Plugins layout). hookrun brings a plugin of its own, `hookrun`.
  file: (scope, places) =>
    join(scope === 'user' ? gooseRoot(places) : places.project, '.agents', 'plugins', 'hookrun', 'hooks', 'hooks.json'),
  shape: 'groups',
  skipped: {
    BeforeShellExecution: GOOSE_TOOL_TWICE,
    AfterShellExecution: GOOSE_TOOL_TWICE,
    BeforeReadFile: GOOSE_TOOL_TWICE,
    AfterFileEdit: GOOSE_TOOL_TWICE,
    PreToolUseResult: "it reports the decision PreToolUse's hooks (hookrun's among them) already made",
  },
  // Goose's default timeout is 30 s, and a PreToolUse hook that fails, times out or prints no
  // decision lets the call through unless `on_failure` is `block` (only PreToolUse takes it).
  handler: (command, event) => ({
    type: 'command',
    command,
    timeout: ROUTER_TIMEOUT_SECONDS,
    ...(event === 'PreToolUse' && { on_failure: 'block' }),
  }),
  timeout: { field: 'timeout', perSecond: 1 },
  allMatcher: '.*',
  manifest: {
    file: (hooksFile) => join(dirname(dirname(hooksFile)), 'plugin.json'),
    content: { name: 'hookrun', version: '1.0.0', description: 'Routes Goose hook events to hookrun (hookrun install --agent goose)' },
  },
  note: "Goose honours only blocks (PreToolUse, Stop): a hook's rewrite is refused (the call is blocked), its context and messages reach nobody; a SessionStart banner shows in goose session",
  projectFileOnlyWhereStarted: true,
}

/**
 * Goose (aaif-goose/goose crates/goose/src/plugins/discovery.rs) drops a plugin by name when
 * `disabledPlugins` lists it in the first of `<start folder>/.config/goose/settings.local.json`,
 * `<start folder>/.config/goose/settings.json` and `~/.config/goose/settings.json` that names it
 * (in `enabledPlugins` or `disabledPlugins`), and by folder when its `config.yaml` has
 * `plugins: {<folder>: {enabled: false}}` (the switch in Goose's own settings; Goose adds every
 * plugin it finds there as enabled).
 */
const PLUGIN_SWITCHES: PluginSwitches = {
  settingsFiles: (start, places) => {
    const dir = join(start, '.config', 'goose')
    return [join(dir, 'settings.local.json'), join(dir, 'settings.json'), join(gooseRoot(places), '.config', 'goose', 'settings.json')]
  },
  // config.yaml: `$GOOSE_PATH_ROOT/config/`, else `$XDG_CONFIG_HOME/goose/` (~/.config/goose/).
  configFile: (places) => {
    const root = places.env.GOOSE_PATH_ROOT
    if (root !== undefined && isAbsolute(root)) return join(root, 'config', 'config.yaml')
    return join(places.env.XDG_CONFIG_HOME || join(places.home, '.config'), 'goose', 'config.yaml')
  },
}

const GOOSE_SCAN: ProjectScan = {
  sources: [
    {
      path: '.agents/plugins',
      nested: 'hooks/hooks.json',
      reader: 'events',
      agents: ['Goose'],
      owners: ['goose'],
      hookrunFile: true,
    },
  ],
}

export const gooseAgent = agentOf(goose, {
  events: EVENTS,
  tools: TOOLS,
  install: gooseInstall,
  pluginSwitches: PLUGIN_SWITCHES,
  scan: GOOSE_SCAN,
})
