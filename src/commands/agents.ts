// `hookrun agents`: the capability matrix, generated from the dialect and install tables.
import { type Paint, PLAIN } from '../core/paint.ts'
import { namesOf, resolveAlias } from '../event/events.ts'
import { AGENTS, DIALECTS, callersOf } from '../agents/registry.ts'
import type { Dialect } from '../agents/types.ts'
import { ignores } from '../agents/shared.ts'
import type { Decision } from '../core/protocol.ts'
import { agentTarget } from '../install/agents.ts'
import { folderAgent } from '../install/hook-folder.ts'
import { pluginAgent } from '../install/plugin-agents.ts'
import { LAB_VERIFIED, type LabVerified } from '../agents/verified.ts'
import { DEFAULT_MCP_NAMING_OF } from '../agents/defaults.ts'

/** One agent in `hookrun agents`, read from the tables that drive hookrun, never written by hand. */
interface AgentRow {
  readonly agent: string
  readonly label: string
  readonly format: string
  readonly events: ReadonlyArray<{
    readonly name: string
    readonly fires: string
    readonly honours: readonly string[]
    readonly ignores?: readonly string[]
  }>
  readonly config?: { readonly user: string; readonly project: string }
  readonly installs?: { readonly command: string; readonly events: readonly string[]; readonly skipped: Readonly<Record<string, string>> }
  /** Another agent that runs this one's hook files, answered in its own shape (`Dialect.alsoAnswers`). */
  readonly alsoAnswers?: string
  /** What a user must know beyond the fields it honours (`Dialect.caveats`). */
  readonly caveats?: readonly string[]
  /** How it names an MCP tool, and how hookrun reads that into `mcp__<server>__<tool>` (docs/events.md "MCP tools"). */
  readonly mcpTools: string
  /** What the agent lab saw the real CLI do (src/agents/verified.ts); absent: known from its docs and source only. */
  readonly verified?: VerifiedRow
  /** Other agents that run this agent's hook files (Claude Code's: src/agents/callers.ts), and when. */
  readonly alsoRunBy?: readonly string[]
  /** hookrun in the agent's own process (the Claude Agent SDK's `hookrunHooks()`), and what the lab saw of it. */
  readonly inProcess?: { readonly how: string; readonly verified?: VerifiedRow }
}

const BASE: Decision = { event: 'probe', decision: 'allow', blocked: false, continue: true, additionalContext: [], hooks: [], warnings: [] }

/** One decision per answer field, the words of a dialect's warning that drops it, and the probe it must differ from (default: none). */
const PROBES: ReadonlyArray<{
  readonly field: string
  readonly decision: Partial<Decision>
  readonly dropped: RegExp
  readonly over?: string
}> = [
  { field: 'block', decision: { decision: 'deny', blocked: true, reason: 'r', decidedBy: 'h' }, dropped: /a block|'deny'/ },
  { field: 'ask', decision: { decision: 'ask', reason: 'r', decidedBy: 'h' }, dropped: /'ask'/ },
  { field: 'allow', decision: { decision: 'allow', decidedBy: 'h' }, dropped: /'allow'/ },
  {
    field: 'updatedInput',
    decision: { decision: 'allow', decidedBy: 'h', updatedInput: { command: 'x' } },
    dropped: /updatedInput/,
    over: 'allow',
  },
  { field: 'updatedPrompt', decision: { updatedPrompt: 'p' }, dropped: /updatedPrompt/ },
  { field: 'additionalContext', decision: { additionalContext: ['c'] }, dropped: /additionalContext/ },
  { field: 'continue', decision: { continue: false, stopReason: 's' }, dropped: /continue: false/ },
  { field: 'systemMessage', decision: { systemMessage: 'm' }, dropped: /systemMessage/ },
  { field: 'suppressOutput', decision: { suppressOutput: true }, dropped: /suppressOutput/ },
]

/** The answer fields a dialect carries on an event: whose probe changes what the agent receives, with no warning it was dropped. */
export function honouredFields(dialect: Dialect, event: string): string[] {
  const answer = (decision: Partial<Decision>) => dialect.render({ ...BASE, ...decision }, {}, event)
  const sent = (rendered: ReturnType<typeof answer>) =>
    JSON.stringify([rendered.stdout, rendered.stderr ?? '', rendered.exitCode, rendered.terminal ?? ''])
  return PROBES.filter((probe) => {
    if (ignores(dialect, probe.field, event)) return false
    const rendered = answer(probe.decision)
    if (rendered.warnings.some((warning) => probe.dropped.test(warning))) return false
    const baseline = PROBES.find((other) => other.field === probe.over)?.decision ?? {}
    return sent(rendered) !== sent(answer(baseline))
  }).map((probe) => probe.field)
}

export function agentRows(): AgentRow[] {
  const places = { home: '~', project: '.', env: {} }
  return DIALECTS.map((dialect) => {
    const target = agentTarget(dialect.name)
    const plugin = pluginAgent(dialect.name)
    const callers = callersOf(dialect.name)
    const inProcess = AGENTS.find((agent) => agent.inProcess?.of === dialect.name)
    return {
      agent: dialect.name,
      label: dialect.label,
      format: `--format ${dialect.name}`,
      events: [...namesOf(dialect.source)].map((name) => {
        const ignored = (dialect.ignores ?? []).filter((row) => row.events.includes(name)).map((row) => row.field)
        return {
          name,
          fires: resolveAlias(name) ?? name,
          honours: honouredFields(dialect, name),
          ...(ignored.length > 0 && { ignores: ignored }),
        }
      }),
      ...(target !== undefined && {
        // Kimi Code CLI reads one file for every project: no project file.
        config: { user: target.file('user', places), project: target.userOnly ? '' : target.file('project', places) },
        installs: { command: target.command('hookrun', target.events[0] ?? ''), events: target.events, skipped: target.skipped },
      }),
      ...(target === undefined && folderRow(dialect.name, places)),
      // OpenCode runs plugins, not commands: install writes hookrun's plugin, which fires every event.
      ...(plugin !== undefined && {
        config: { user: plugin.file('user', places), project: plugin.userOnly !== undefined ? '' : plugin.file('project', places) },
        installs: {
          command: `hookrun fire <hook> --format ${dialect.name} (from hookrun's plugin)`,
          events: [...namesOf(dialect.source)],
          skipped: {},
        },
      }),
      ...(dialect.alsoAnswers !== undefined && { alsoAnswers: dialect.alsoAnswers }),
      ...(dialect.caveats !== undefined && { caveats: dialect.caveats }),
      mcpTools: mcpToolsLine(dialect),
      ...(LAB_VERIFIED[dialect.name] !== undefined && { verified: verifiedRow(LAB_VERIFIED[dialect.name]!) }),
      ...(callers.length > 0 && { alsoRunBy: callers.map((caller) => `${caller.label} (${caller.when})`) }),
      ...(inProcess?.inProcess !== undefined && {
        inProcess: {
          how: inProcess.inProcess.how,
          ...(LAB_VERIFIED[inProcess.name] !== undefined && { verified: verifiedRow(LAB_VERIFIED[inProcess.name]!) }),
        },
      }),
    }
  })
}

/** An agent that reads hook files from a folder (Cline): its folders, and the wrappers install writes there. */
function folderRow(name: string, places: { home: string; project: string; env: Record<string, string> }): Partial<AgentRow> {
  const agent = folderAgent(name)
  if (agent === undefined) return {}
  return {
    config: { user: `${agent.dir('user', places)}/`, project: `${agent.dir('project', places)}/` },
    installs: {
      command: `exec hookrun fire --format ${agent.name}`,
      events: agent.events,
      skipped: agent.skipped,
    },
  }
}

interface VerifiedRow {
  readonly package: string
  readonly version: string
  readonly scenarios: Readonly<Record<string, string>>
  /** Wired with `install --serve`: what the lab saw then. */
  readonly serve?: VerifiedRow
}

function verifiedRow(lab: LabVerified): VerifiedRow {
  return {
    package: lab.package,
    version: lab.version,
    scenarios: Object.fromEntries(Object.entries(lab.scenarios).map(([name, result]) => [name, result.verdict])),
    ...(lab.serve !== undefined && { serve: verifiedRow(lab.serve) }),
  }
}

/** One line: which version the lab ran and what it saw, by verdict; or that the lab has not run it. */
function verifiedLine(row: AgentRow): string {
  if (row.verified === undefined) return '  verified          not in the agent lab: from its docs and source'
  const line = `  verified          ${labSaw(row.verified)}`
  const serve = row.verified.serve
  if (serve === undefined) return line
  const names = Object.entries(serve.scenarios).map(([scenario, verdict]) =>
    verdict === 'honoured' ? scenario : `${scenario} (${verdict})`,
  )
  return `${line}\n  with --serve      ${serve.version} in the agent lab: ${names.join(', ')} honoured through hookrun serve (install --serve)`
}

/** `S-T` (Copilot CLI), with where the server's exact name comes from when the payload or the agent's config tells it. */
function mcpToolsLine(dialect: Dialect): string {
  const naming = dialect.mcpNaming
  if (naming === undefined)
    return `how it names MCP tools is not known to hookrun (a name of ${DEFAULT_MCP_NAMING_OF}'s shape, \`mcp__<server>__<tool>\`, is read as one): an MCP gate may not hold here`
  const from = [
    ...(dialect.mcpCall !== undefined ? ['the server its payload names'] : []),
    ...(dialect.mcpServers !== undefined ? ['the servers in its config, where the name has several readings'] : []),
  ]
  return `named \`${naming.prefix}<server>${naming.separator}<tool>\`${from.length > 0 ? `; hookrun reads ${from.join(', and ')}` : ''}`
}

function labSaw(verified: VerifiedRow): string {
  const byVerdict = new Map<string, string[]>()
  for (const [scenario, verdict] of Object.entries(verified.scenarios))
    byVerdict.set(verdict, [...(byVerdict.get(verdict) ?? []), scenario])
  const said = [...byVerdict].map(([verdict, scenarios]) =>
    verdict === 'honoured' ? `${scenarios.length} scenarios honoured` : `${verdict}: ${scenarios.join(', ')}`,
  )
  return `${verified.package} ${verified.version} in the agent lab: ${said.join('; ')}`
}

export function formatAgents(json: boolean, paint: Paint = PLAIN): string {
  const rows = agentRows()
  if (json) return `${JSON.stringify(rows, null, 2)}\n`
  const blocks = rows.map((row) => {
    const width = Math.max(...row.events.map((event) => event.name.length))
    const fireWidth = Math.max(...row.events.map((event) => event.fires.length))
    const lines = [`${paint.strong(row.label)} ${paint.dim(`(${row.format})`)}`]
    lines.push(verifiedLine(row))
    if (row.alsoAnswers) lines.push(`  also answers      ${row.alsoAnswers}`)
    for (const caveat of row.caveats ?? []) lines.push(`  caveat            ${caveat}`)
    for (const caller of row.alsoRunBy ?? []) lines.push(`  also run by       ${caller}`)
    if (row.inProcess) {
      lines.push(`  in-process        ${row.inProcess.how}`)
      if (row.inProcess.verified) lines.push(`                    ${labSaw(row.inProcess.verified)}`)
    }
    if (row.config)
      lines.push(
        `  reads hooks from  ${row.config.user} (user), ${row.config.project === '' ? 'no project file' : `${row.config.project} (project)`}`,
      )
    if (row.installs) {
      lines.push(`  hookrun installs  \`${row.installs.command}\` on ${row.installs.events.length} of ${row.events.length} events`)
      const byReason = new Map<string, string[]>()
      for (const [event, why] of Object.entries(row.installs.skipped)) byReason.set(why, [...(byReason.get(why) ?? []), event])
      for (const [why, events] of byReason) lines.push(`    not ${events.join(', ')}: ${why}`)
    }
    lines.push(`  MCP tools         ${row.mcpTools}`)
    lines.push(`  ${paint.dim(`${'event'.padEnd(width)}  ${'fires'.padEnd(fireWidth)}  answer fields it honours`)}`)
    for (const event of row.events) {
      const ignored = event.ignores === undefined ? '' : paint.dim(`  (ignores ${event.ignores.join(', ')})`)
      lines.push(
        `  ${event.name.padEnd(width)}  ${event.fires.padEnd(fireWidth)}  ${event.honours.join(', ') || paint.dim('(none: output is ignored)')}${ignored}`,
      )
    }
    return lines.join('\n')
  })
  return `${blocks.join('\n\n')}\n`
}
