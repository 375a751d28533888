/**
 * The generated parts of the documentation, written from what the built hookrun says of itself:
 * the event vocabulary (`hookrun events --json`), every command's help (`hookrun help <command>`),
 * the hooks.json reference (schema.json, made from the zod schemas), and each agent's events and
 * answer fields (`hookrun agents --json`) with what the agent lab saw (src/agents/lab/*.json).
 * A page is written by hand around them: a generated part sits between
 * `<!-- begin generated: NAME -->` and `<!-- end generated -->`, and only that is replaced.
 *
 *   npm run docs                  build, then rewrite every generated part
 *   bun scripts/docs.ts --check   exit 1, naming each page, when a part differs from what it would write
 *
 * It asks dist/hookrun, so build first. test/e2e/docs.test.ts runs the check.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { SCENARIOS } from '../test/agents/lab.ts'

const ROOT = resolve(import.meta.dirname, '..')
const HOOKRUN = join(ROOT, 'dist', 'hookrun')

/** What `hookrun ARGS` prints, with the environment kept from colouring or localising it. */
function hookrun(...args: string[]): string {
  const run = spawnSync(HOOKRUN, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ROOT, NO_COLOR: '1', COLUMNS: '100' } })
  if (run.status !== 0) throw new Error(`hookrun ${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return run.stdout
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

interface EventInfo {
  readonly name: string
  readonly gate: boolean
  readonly canBlock: boolean
  readonly description: string
  readonly aliases: ReadonlyArray<{ readonly alias: string; readonly from: readonly string[] }>
}

function eventsPart(): string {
  const events = JSON.parse(hookrun('events', '--json')) as EventInfo[]
  const rows = events.map((event) => {
    const kind = event.gate ? 'gate' : event.canBlock ? 'can block' : ''
    const aliases = event.aliases.map((alias) => `\`${alias.alias}\` (${alias.from.join(', ')})`).join(', ')
    return `| \`${event.name}\` | ${kind} | ${cell(event.description)} | ${cell(aliases)} |`
  })
  return ["| event | kind | when | agents' names |", '| --- | --- | --- | --- |', ...rows].join('\n')
}

function toolsPart(): string {
  return ['```text', hookrun('events', '--tools').trimEnd(), '```'].join('\n')
}

/** The commands `hookrun --help` lists (in its groups, after Usage and before Options), in its order. */
function commandNames(): string[] {
  const help = hookrun('--help')
  const section = help.slice(help.indexOf('\n\n', help.indexOf('Usage:')), help.indexOf('\nOptions:'))
  return [...section.matchAll(/^ {2}([a-z]\S*)/gm)].map((match) => match[1]!).filter((name) => name !== 'help')
}

function cliPart(): string {
  const help = (args: string[]) => ['```text', hookrun(...args).trimEnd(), '```'].join('\n')
  return [help(['--help']), ...commandNames().map((name) => `\n### hookrun ${name}\n\n${help(['help', name])}`)].join('\n')
}

type JsonSchema = {
  readonly type?: string | string[]
  readonly description?: string
  readonly properties?: Record<string, JsonSchema>
  readonly items?: JsonSchema
  readonly anyOf?: JsonSchema[]
  readonly enum?: unknown[]
  readonly default?: unknown
  readonly required?: string[]
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' or ')
  if (schema.anyOf) return [...new Set(schema.anyOf.map(typeOf))].join(' or ')
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`
  return Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any')
}

/** Each object's fields as a table row, nested objects under their path (`settings.log.path`). */
function fieldRows(schema: JsonSchema, path: string, seen: Set<JsonSchema>): string[] {
  if (seen.has(schema)) return []
  seen.add(schema)
  const rows: string[] = []
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const at = path === '' ? name : `${path}.${name}`
    const fallback = field.default === undefined ? '' : ` (default \`${JSON.stringify(field.default)}\`)`
    rows.push(`| \`${at}\` | ${cell(typeOf(field))} | ${cell((field.description ?? '') + fallback)} |`)
    const forms = [field, ...(field.anyOf ?? [])]
    for (const form of forms) if (form.properties) rows.push(...fieldRows(form, at, seen))
    for (const form of forms) if (form.items?.properties) rows.push(...fieldRows(form.items, `${at}[]`, seen))
  }
  return rows
}

function referencePart(): string {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schema.json'), 'utf8')) as JsonSchema
  return ['| field | type | meaning |', '| --- | --- | --- |', ...fieldRows(schema, '', new Set())].join('\n')
}

interface AgentInfo {
  readonly agent: string
  readonly label: string
  readonly format: string
}

interface LabFile {
  /** The file's name: the agent's, or the agent's with a way of wiring it (`claude-serve`). */
  readonly key: string
  readonly agent: string
  readonly package: string
  readonly version: string
  readonly scenarios: Record<string, { readonly verdict: string; readonly seen: string }>
}

/** The agent lab's results, one file per agent (test/agents/*.lab.ts keeps them). */
export function labFiles(): LabFile[] {
  const dir = join(ROOT, 'src', 'agents', 'lab')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<LabFile, 'key'>), key: file.replace(/\.json$/, '') }))
}

const VERDICT_MARK: Record<string, string> = { honoured: 'yes', 'ignored, hookrun warns': 'ignored (warned)', 'not applicable': '—' }

interface AgentEvent {
  readonly name: string
  readonly fires: string
  readonly honours: readonly string[]
  /** Fields the agent was seen to ignore there (its dialect's `ignores`): hookrun warns. */
  readonly ignores?: readonly string[]
}

type AgentDetail = AgentInfo & {
  readonly mcpTools: string
  readonly alsoAnswers?: string
  readonly caveats?: readonly string[]
  readonly events: readonly AgentEvent[]
  readonly config: { readonly user: string; readonly project: string }
  readonly installs: { readonly command: string; readonly events: readonly string[]; readonly skipped: Record<string, string> }
}

function agentList(): AgentDetail[] {
  return JSON.parse(hookrun('agents', '--json')) as AgentDetail[]
}

/** The table of every agent and where its facts come from, with the lab's scenario grid. */
function agentsPart(): string {
  const lab = labFiles()
  // The standard scenarios, a column each; an agent's own (OpenCode's subagent calls) are on its page.
  const scenarios = Object.keys(SCENARIOS)
  const verified = agentList().map((agent) => {
    const results = lab.find((file) => file.key === agent.agent)
    const page = existsSync(join(ROOT, 'docs', 'agents', `${agent.agent}.md`)) ? `[${agent.label}](${agent.agent}.md)` : agent.label
    return `| ${page} | \`${agent.format}\` | ${results ? `${results.package} ${results.version} (agent lab)` : 'from its docs and source (not lab-verified)'} |`
  })
  const grid = lab.map(
    (file) =>
      `| ${file.key} ${file.version} | ${scenarios.map((scenario) => VERDICT_MARK[file.scenarios[scenario]?.verdict ?? ''] ?? 'not run').join(' | ')} |`,
  )
  // Agents hookrun serves in-process (a library, not a --format): the lab runs them too.
  const inProcess = lab
    .filter((file) => IN_PROCESS[file.agent] !== undefined)
    .map((file) => {
      const [label, how] = IN_PROCESS[file.agent]!
      return `| [${label}](${file.agent}.md) | ${how} | ${file.package} ${file.version} (agent lab) |`
    })
  return [
    '| agent | answers with | verified |',
    '| --- | --- | --- |',
    ...verified,
    ...inProcess,
    ...(lab.length === 0
      ? []
      : ['', `| agent | ${scenarios.join(' | ')} |`, `| --- | ${scenarios.map(() => '---').join(' | ')} |`, ...grid]),
  ].join('\n')
}

/** How each agent names an MCP tool, and what the lab saw its hooks do with one (the mcp-gate scenario). */
function mcpPart(): string {
  const lab = labFiles()
  const seen = (key: string) => {
    const result = lab.find((file) => file.key === key)?.scenarios['mcp-gate']
    return result === undefined ? 'not run in the lab' : `${VERDICT_MARK[result.verdict] ?? result.verdict}: ${result.seen}`
  }
  return [
    '| agent | its MCP tools | the gate in the lab |',
    '| --- | --- | --- |',
    ...agentList().map((agent) => `| ${agent.label} | ${cell(agent.mcpTools)} | ${cell(seen(agent.agent))} |`),
    ...Object.entries(IN_PROCESS).map(([key, [label]]) => `| ${label} | as Claude Code | ${cell(seen(key))} |`),
  ].join('\n')
}

/** Agents the lab runs that are not a dialect: hookrun runs inside them (label, how it answers). */
const IN_PROCESS: Record<string, readonly [string, string]> = {
  'agent-sdk': ['Claude Agent SDK', '`hookrunHooks()` (in-process)'],
}

/** What the agent lab saw of one agent, one line per scenario. */
function labPart(lab: LabFile | undefined): string {
  return lab === undefined
    ? 'Not run in the agent lab: what is said here comes from its documentation and source.'
    : [
        `Seen in the agent lab with ${lab.package} ${lab.version} (\`npm run test:agents\`):`,
        '',
        ...Object.entries(lab.scenarios).map(([scenario, result]) => `- \`${scenario}\` (${result.verdict}): ${result.seen}`),
      ].join('\n')
}

/** What `hookrun install --agent NAME` writes, and on which events (README "narrowed"). */
function installLine(name: string, agent: AgentDetail): string {
  const writes = `- \`hookrun install --agent ${agent.agent}\` writes \`${agent.installs.command}\``
  const count = agent.installs.events.length
  // Codex stops running a changed entry until it is reviewed: its user install keeps every event;
  // Cline's user wrappers are written for every event too.
  if (name === 'codex' || name === 'cline')
    return `${writes} on its ${count} events (\`--project\`: only those the project's hooks can fire on)`
  // Plugins (OpenCode, Kilo Code, Pi, OpenClaw) forward every hook; TOML tables (Kimi, Vibe), Hermes'
  // YAML and Deep Agents Code's argv lists are written for every event.
  if (NOT_NARROWED.has(name)) return `${writes} on its ${count} events`
  return `${writes} on those of its ${count} events your hooks can fire on ([narrowed](../agents.md#install--uninstall); \`--all-events\`: on every one)`
}

const NOT_NARROWED = new Set(['opencode', 'kilo', 'pi', 'openclaw', 'kimi', 'vibe', 'hermes', 'deepagents'])

/** One agent's events and answer fields as hookrun knows them, and what the lab saw of it. */
function agentPart(name: string): string {
  const agent = agentList().find((one) => one.agent === name)
  if (agent === undefined) throw new Error(`hookrun agents does not list ${name}`)
  const lab = labFiles().find((file) => file.key === name)
  const served = labFiles().find((file) => file.key === `${name}-serve`)
  const skipped = Object.entries(agent.installs.skipped).map(([event, why]) => `- not \`${event}\`: ${why}`)
  return [
    agent.config.project === ''
      ? `- reads hooks from \`${agent.config.user}\` (user), for every project (no project file)`
      : `- reads hooks from \`${agent.config.user}\` (user) and \`${agent.config.project}\` (project)`,
    installLine(name, agent),
    ...skipped,
    ...(agent.alsoAnswers === undefined ? [] : [`- also answers ${agent.alsoAnswers}`]),
    ...(agent.caveats ?? []).map((caveat) => `- ${caveat}`),
    `- MCP tools: ${agent.mcpTools} ([MCP tools](../events.md#mcp-tools))`,
    '',
    `The events it sends, what hookrun fires for each and the answer fields the agent honours (\`hookrun agents\`):`,
    '',
    '| event | fires | answer fields it honours |',
    '| --- | --- | --- |',
    ...agent.events.map((event) => {
      const ignored = event.ignores === undefined ? '' : ` (ignores ${event.ignores.join(', ')}: hookrun warns)`
      return `| \`${event.name}\` | \`${event.fires}\` | ${cell((event.honours.join(', ') || '(none: output is ignored)') + ignored)} |`
    }),
    '',
    labPart(lab),
    ...(served === undefined
      ? []
      : [
          '',
          `Seen in the agent lab with ${served.package} ${served.version} wired by \`hookrun install --agent ${name} --serve\`:`,
          '',
          ...Object.entries(served.scenarios).map(([scenario, result]) => `- \`${scenario}\` (${result.verdict}): ${result.seen}`),
        ]),
  ].join('\n')
}

/** Every generated part by name; `agent:NAME` for each agent hookrun speaks. */
export function generatedParts(): Record<string, () => string> {
  return {
    events: eventsPart,
    tools: toolsPart,
    cli: cliPart,
    reference: referencePart,
    agents: agentsPart,
    mcp: mcpPart,
    ...Object.fromEntries(agentList().map((agent) => [`agent:${agent.agent}`, () => agentPart(agent.agent)])),
    ...Object.fromEntries(
      Object.keys(IN_PROCESS).map((name) => [`lab:${name}`, () => labPart(labFiles().find((file) => file.agent === name))]),
    ),
  }
}

const PART = /(<!-- begin generated: (\S+) -->\n)[\s\S]*?(<!-- end generated -->)/g

/** A page with each of its generated parts written anew; an unknown part's name is an error. */
export function regenerate(text: string, page: string, parts = generatedParts()): string {
  return text.replace(PART, (_, begin: string, name: string, end: string) => {
    const part = parts[name]
    if (part === undefined) throw new Error(`${page}: no generated part named ${name} (known: ${Object.keys(parts).join(', ')})`)
    return `${begin}${part()}\n${end}`
  })
}

/** The markdown pages that hold generated parts: docs/ and the top-level pages. */
function pagesWithParts(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    )
  return [
    ...readdirSync(ROOT)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(ROOT, name)),
    ...walk(join(ROOT, 'docs')),
  ].filter((file) => readFileSync(file, 'utf8').includes('<!-- begin generated: '))
}

if (import.meta.main) {
  const check = process.argv.includes('--check')
  const parts = generatedParts()
  const stale: string[] = []
  const used = new Set<string>()
  for (const file of pagesWithParts()) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(PART)) used.add(match[2]!)
    const next = regenerate(text, file, parts)
    if (next === text) continue
    if (check) stale.push(file.slice(ROOT.length + 1))
    else writeFileSync(file, next)
  }
  const missing = Object.keys(parts).filter((name) => !used.has(name))
  if (missing.length > 0) {
    console.error(
      `generated parts no page holds: ${missing.join(', ')} (add <!-- begin generated: NAME --> … <!-- end generated --> to a page)`,
    )
    process.exit(1)
  }
  if (stale.length > 0) {
    console.error(`stale generated parts in ${stale.join(', ')}: run npm run docs`)
    process.exit(1)
  }
}
