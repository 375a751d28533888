// LangChain Deep Agents Code (`deepagents-code`, earlier `deepagents-cli`): fire-and-forget hooks
// on dotted event names, an argv list per entry in ~/.deepagents/hooks.json; nothing is read back.
import { join } from 'node:path'
import { agentOf, readsNothing } from './shared.ts'
import type { AgentEvents, Dialect } from './types.ts'
import type { InstallTarget } from './install.ts'

/**
 * Deep Agents Code's hook events (docs.langchain.com/oss/python/deepagents/code/hooks): `input.required`
 * is a human-in-the-loop interrupt, `task.complete` the task done.
 */
const EVENTS = {
  'session.start': 'session:start',
  'session.end': 'session:end',
  'user.prompt': 'user:prompt_submit',
  'input.required': 'notification',
  'permission.request': 'permission:prompt',
  'task.complete': 'agent:stop',
} as const satisfies AgentEvents

const DEEPAGENTS_EVENTS = new Set<string>(Object.keys(EVENTS))

/**
 * Deep Agents Code (PyPI `deepagents-code`; reference.langchain.com/python/deepagents-cli/hooks):
 * `{hooks: [{command: [argv…], events: [names]}]}`, run without a shell; the payload's `event` names
 * the event. Hooks "run fire-and-forget … They never block", so a gate there is advisory.
 */
export const deepagents: Dialect = {
  name: 'deepagents',
  label: 'Deep Agents Code',
  source: 'deepagents',
  carries: [],
  project: { variables: [] },
  caveats: [
    'ADVISORY ONLY: Deep Agents Code runs hooks fire-and-forget and reads nothing of an answer, so a gate there is advisory (it runs, it cannot stop anything)',
    'Deep Agents Code kills a hook after 5 seconds: a hook of yours that takes longer is cut off',
    'from its docs and API reference, not the agent lab (it installs from PyPI only, which cannot be reached here)',
  ],
  // `event` with a dotted name of its own: no other agent's payload has one.
  detectMarks: ['event'],
  detect: (payload) => typeof payload.event === 'string' && DEEPAGENTS_EVENTS.has(payload.event),
  eventName: (payload) => (typeof payload.event === 'string' && DEEPAGENTS_EVENTS.has(payload.event) ? payload.event : undefined),
  render: readsNothing(
    'Deep Agents Code',
    (payload, agentEvent) => agentEvent ?? deepagents.eventName(payload) ?? 'session.start',
    'the event proceeds',
    'the agent goes on',
  ),
}

/** Deep Agents Code's hooks file for `hookrun install` (src/install/json-list.ts writes it). */
const deepagentsInstall: InstallTarget = {
  file: (_scope, places) => join(places.home, '.deepagents', 'hooks.json'),
  format: 'argv-list',
  userOnly: true,
  shape: 'flat',
  // The command is an argv list (src/install/json-list.ts splits it); one entry per event.
  handler: (command, event) => ({ command, events: [event] }),
  note: 'ADVISORY ONLY: Deep Agents Code runs hooks fire-and-forget and never blocks, so a gate there cannot stop anything; it kills a hook after 5 s',
}

export const deepagentsAgent = agentOf(deepagents, { events: EVENTS, install: deepagentsInstall })
