import { claude, claudeEvents, claudeTools } from './claude.ts'
import type { AgentTools, Dialect } from './types.ts'
import { agentOf, renderAsClaude } from './shared.ts'
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { type InstallTarget, commandHandler } from './install.ts'
import type { ProjectScan } from './native-config.ts'

const EVENTS = claudeEvents(
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Notification',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'SubagentStop',
  'PreCompact',
)

const TOOLS: AgentTools = {
  ...claudeTools('Read', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'LS', 'WebSearch', 'Task', 'TodoWrite'),
  Execute: 'bash',
  Create: 'write',
  ApplyPatch: 'edit',
  FetchUrl: 'webfetch',
  AskUser: 'ask',
}

/**
 * Factory Droid (docs.factory.ai/reference/hooks-reference): Claude Code's protocol with Droid's own
 * tool names and `$FACTORY_PROJECT_DIR`. A payload naming a Droid-only tool is Droid's; any other
 * reads as Claude Code's, so `--format droid` changes only the warnings' wording and the project.
 */
const DROID_EVENTS = new Set<string>(Object.keys(EVENTS))
const DROID_ONLY_TOOLS = new Set(['Execute', 'Create', 'FetchUrl', 'ApplyPatch', 'AskUser', 'Create-PR'])

export const droid: Dialect = {
  name: 'droid',
  label: 'Factory Droid',
  // Answered with Claude Code's renderer, which places the fields it carries.
  carries: claude.carries,
  source: 'droid',
  project: { variables: ['FACTORY_PROJECT_DIR'] },
  detectMarks: ['tool_name'],
  detect: (payload) =>
    typeof payload.hook_event_name === 'string' &&
    DROID_EVENTS.has(payload.hook_event_name) &&
    typeof payload.tool_name === 'string' &&
    DROID_ONLY_TOOLS.has(payload.tool_name),
  eventName: claude.eventName,
  render: renderAsClaude(claude, 'Factory Droid'),
}

const droidInstall: InstallTarget = {
  // docs.factory.ai/harness/hooks: a hooks.json beside settings.json wins over settings.json's `hooks`, so
  // hookrun writes it where it exists, else settings.json (Factory-AI/factory#3: 0.186 ran no hooks.json).
  file: (scope, places) => {
    const dir = scope === 'user' ? join(places.home, '.factory') : join(places.project, '.factory')
    return existsSync(join(dir, 'hooks.json')) ? join(dir, 'hooks.json') : join(dir, 'settings.json')
  },
  hooksPathFor: (file) => (basename(file) === 'hooks.json' ? [] : ['hooks']),
  ignoredFiles: (scope, places) => {
    const dir = scope === 'user' ? join(places.home, '.factory') : join(places.project, '.factory')
    return existsSync(join(dir, 'hooks.json')) ? [join(dir, 'settings.json')] : []
  },
  shape: 'groups',
  ...commandHandler(1),
  note: 'an organisation hooks policy in Factory may ignore hooks it does not manage',
}

const DROID_SCAN: ProjectScan = {
  projectVariables: ['FACTORY_PROJECT_DIR'],
  sources: [
    { path: '.factory/settings.json', reader: 'events', agents: ['Factory Droid'], owners: ['droid'], hookrunFile: true },
    { path: '.factory/hooks.json', reader: 'events', at: [], agents: ['Factory Droid'], owners: ['droid'], hookrunFile: true },
  ],
}

export const droidAgent = agentOf(droid, {
  events: EVENTS,
  tools: TOOLS,
  install: droidInstall,
  scan: DROID_SCAN,
  pluginLayout: { manifest: ['.factory-plugin', 'plugin.json'], rootVariables: ['DROID_PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT'] },
})
