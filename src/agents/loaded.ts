// The agents this process has evaluated. A fire names its agent (`--format claude`) and loads only
// that agent's module and those of the agents that run its entries whose marks the fire has
// (`loadAgentsFor`): evaluating all of them cost each fire about a fifth of its time
// (src/agents/vocabulary.ts holds what a fire needs of the others). Whatever imports the registry
// has them all.
import type { Payload } from '../core/types.ts'
import { type Caller, marked } from './callers.ts'
import type { Agent, Dialect } from './types.ts'
import { VOCABULARY } from './vocabulary.ts'

/** One fire's payload and environment: the callers whose marks it has are the ones that may have sent it. */
interface Fired {
  readonly payload: Payload
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** Each agent's module, by the agent's name (a test holds it to the registry). */
const MODULES: Readonly<Record<string, () => Promise<Agent>>> = {
  claude: async () => (await import('./claude.ts')).claudeAgent,
  codex: async () => (await import('./codex.ts')).codexAgent,
  gemini: async () => (await import('./gemini.ts')).geminiAgent,
  cursor: async () => (await import('./cursor.ts')).cursorAgent,
  copilot: async () => (await import('./copilot.ts')).copilotAgent,
  windsurf: async () => (await import('./windsurf.ts')).windsurfAgent,
  vibe: async () => (await import('./vibe.ts')).vibeAgent,
  kiro: async () => (await import('./kiro.ts')).kiroAgent,
  auggie: async () => (await import('./auggie.ts')).auggieAgent,
  qwen: async () => (await import('./qwen.ts')).qwenAgent,
  cline: async () => (await import('./cline.ts')).clineAgent,
  opencode: async () => (await import('./opencode.ts')).opencodeAgent,
  letta: async () => (await import('./letta.ts')).lettaAgent,
  droid: async () => (await import('./droid.ts')).droidAgent,
  crush: async () => (await import('./crush.ts')).crushAgent,
  kimi: async () => (await import('./kimi.ts')).kimiAgent,
  goose: async () => (await import('./goose.ts')).gooseAgent,
  devin: async () => (await import('./devin.ts')).devinAgent,
  vscode: async () => (await import('./vscode.ts')).vscodeAgent,
  'agent-sdk': async () => (await import('./agent-sdk.ts')).agentSdkAgent,
  kilo: async () => (await import('./kilo.ts')).kiloAgent,
  grok: async () => (await import('./grok.ts')).grokAgent,
  amp: async () => (await import('./amp.ts')).ampAgent,
  antigravity: async () => (await import('./antigravity.ts')).antigravityAgent,
  codebuddy: async () => (await import('./codebuddy.ts')).codebuddyAgent,
  reasonix: async () => (await import('./reasonix.ts')).reasonixAgent,
  junie: async () => (await import('./junie.ts')).junieAgent,
  hermes: async () => (await import('./hermes.ts')).hermesAgent,
  deepagents: async () => (await import('./deepagents.ts')).deepagentsAgent,
  pi: async () => (await import('./pi.ts')).piAgent,
  openclaw: async () => (await import('./openclaw.ts')).openclawAgent,
}

const LOADED = new Map<string, Agent>()

/** Count these agents as loaded (the registry counts every agent). */
export function addLoaded(agents: readonly Agent[]): void {
  for (const agent of agents) LOADED.set(agent.name, agent)
}

/**
 * Load what speaking `format` needs: its agent and the agents that run its entries (those whose
 * marks this fire has, when it is given); to detect the agent (no format, or `auto`), the agents
 * whose marks the payload has (`Dialect.detectMarks`), and theirs, or every agent where no fire is
 * given; none for hookrun's own.
 */
export async function loadAgentsFor(format: string | undefined, fired?: Fired): Promise<void> {
  const names = format === undefined || format === 'auto' ? mayHaveSent(fired?.payload) : MODULES[format] === undefined ? [] : [format]
  addLoaded(await Promise.all(names.filter((name) => !LOADED.has(name)).map((name) => MODULES[name]!())))
  const callers = names.flatMap((name) => callerNames(name, fired)).filter((name) => !LOADED.has(name))
  addLoaded(await Promise.all([...new Set(callers)].map((name) => MODULES[name]!())))
}

/** The agents that run `owner`'s entries and may have sent this fire (all of them, where no fire is given). */
function callerNames(owner: string, fired: Fired | undefined): readonly string[] {
  const names = agentNamed(owner)?.callers ?? []
  if (fired === undefined) return names
  return names.filter((name) => {
    const marks = VOCABULARY.callers.find(([caller]) => caller === name)?.[1].marks
    return marks === undefined || marked(marks, fired.payload, fired.env ?? {})
  })
}

/** The agent by its name (`--format`, `install --agent`). An agent whose module was not loaded is a mistake in hookrun, said loudly. */
export function agentNamed(name: string): Agent | undefined {
  const agent = LOADED.get(name)
  if (agent === undefined && MODULES[name] !== undefined)
    throw new Error(`hookrun: agent ${name} was asked for before its module was loaded (src/agents/loaded.ts loadAgentsFor)`)
  return agent
}

/**
 * Every dialect, in detection order (src/agents/registry.ts `DIALECTS` says why that order); of a
 * payload, those whose marks it has (`Dialect.detectMarks`): no other can detect it.
 */
export function dialectsInDetectionOrder(payload?: Payload): Dialect[] {
  return (payload === undefined ? VOCABULARY.formats : mayHaveSent(payload)).map((name) => agentNamed(name)!.dialect!)
}

/** The dialects whose marks this payload has, in detection order; every agent, where no payload is given. */
function mayHaveSent(payload: Payload | undefined): string[] {
  if (payload === undefined) return Object.keys(MODULES)
  return VOCABULARY.detectMarks.flatMap(([name, fields]) => (marked({ fields }, payload, {}) ? [name] : []))
}

/**
 * The agents that run this agent's entries, each with its name, label and how it does
 * (src/agents/callers.ts), in detection order: of a fire, those whose marks it has. Each one's
 * `detect` and `reading.from` hold only where its marks are there, whoever asks.
 */
export function callersOf(owner: string, fired?: Fired): Array<Caller & { readonly name: string; readonly label: string }> {
  return callerNames(owner, fired).flatMap((name) => {
    const agent = agentNamed(name)
    const caller = agent?.caller
    if (caller === undefined) return []
    const reading = caller.reading
    return [
      {
        ...caller,
        name: agent!.name,
        label: caller.label ?? agent!.label,
        detect: (payload: Payload, env: Readonly<Record<string, string | undefined>>) =>
          marked(caller.marks, payload, env) && caller.detect(payload, env),
        ...(reading !== undefined && {
          reading: { ...reading, from: (payload: Payload) => marked(caller.marks, payload, {}) && reading.from(payload) },
        }),
      },
    ]
  })
}
