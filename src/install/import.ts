// The hooks an agent already has in its own files, read as hookrun entries (`hookrun import`).
import { existsSync, readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { getNodeValue } from 'jsonc-parser'
import { eventPattern } from '../event/events.ts'
import { matcherProblem } from '../event/pattern.ts'
import { type HookSpec, normalizeAgentHooks } from '../config/shapes.ts'
import { hookListHooks } from '../config/agent-shapes.ts'
import type { CommandHandlers, HooksImport } from '../agents/native-config.ts'
import { agentNamed, importableNames } from '../agents/registry.ts'
import { AGENTS, agentTarget } from './agents.ts'
import { type AgentName, type AgentTarget, isRouterCommand, type Places, type Scope } from './agent-target.ts'
import { child, JsonTextError, keysOf, nodeAt, parseJson, type Path, removeAt } from './json-text.ts'
import { isServeHandler } from './serve-entries.ts'

/**
 * How an imported hook keeps working (docs/agents.md "hookrun import"): each handler becomes an entry of hookrun's list with `agent`
 * set, which keeps that agent's rules, with its defaults written out. A handler hookrun would not run the same way (its type, a field,
 * an event with no router entry, the module's `hooksImport`) stays in the agent's file, with one line saying why.
 */
export const IMPORT_AGENTS = importableNames() as AgentName[]
/** An agent of IMPORT_AGENTS (one install has a router for). */
export type ImportAgent = AgentName

/** One handler moved into hooks.json. */
interface MovedHook {
  /** Its entry in hooks.json. */
  readonly entry: Readonly<Record<string, unknown>> & { readonly name: string }
  /** Its JSON path in the agent's file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string
  /** Fields of the handler hooks.json does not carry, each with why nothing is lost. */
  readonly notCarried: readonly string[]
}

/** One of the agent's files, read for import. */
export interface AgentFileImport {
  readonly file: string
  readonly moved: readonly MovedHook[]
  /** Handlers left where they are, with why. */
  readonly staying: ReadonlyArray<{ readonly path: string; readonly why: string }>
  /** hookrun's own router entries in the file (never imported). */
  readonly routers: number
  /** The file's text without the moved handlers. */
  readonly text: string
}

/** A command that runs hookrun (a router entry of any agent, or `hookrun fire` written by hand): importing it would loop. */
function runsHookrun(command: unknown): boolean {
  if (typeof command !== 'string') return false
  return (
    AGENTS.some((agent) => isRouterCommand(command, agent.name)) || /(?:^|[\s/'"])hookrun(?:\.mjs|\.ts)?['"]?\s+fire(?:\s|$)/.test(command)
  )
}

/** Paths deepest and last first: removing in this order keeps the earlier ones where they were. */
function compareDescending(a: Path, b: Path): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const [x, y] = [a[index], b[index]]
    if (x === y) continue
    if (typeof x === 'number' && typeof y === 'number') return y - x
    return String(y).localeCompare(String(x))
  }
  return 0
}

/** How import reads the agent's files (src/agents/native-config.ts). */
function importOf(agent: ImportAgent): HooksImport {
  return agentNamed(agent)!.hooksImport!
}

/** The files import reads for an agent: its hooks file for the scope (Claude Code: both project files; Copilot: its folder's *.json). */
export function sourceFiles(agent: ImportAgent, scope: Scope, places: Places): string[] {
  const target = agentTarget(agent)!
  const installed = target.file(scope, places)
  const how = importOf(agent)
  if (how.projectFiles !== undefined && scope === 'project')
    return [...how.projectFiles.map((file) => join(places.project, ...file.split('/'))), installed]
  if (how.folder !== true) return [installed]
  const folder = dirname(installed)
  if (!existsSync(folder)) return []
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json') && name !== basename(installed))
    .sort()
    .map((name) => join(folder, name))
}

interface Handler {
  readonly path: string
  readonly remove: Path
  /** Its group's JSON path (the groups shape), whose problems concern every handler in it. */
  readonly group?: string
  readonly event: string
  readonly raw: Record<string, unknown>
}

/** Every handler object of the file, with where it is. */
function handlersOf(target: AgentTarget, hooks: Record<string, unknown>): Handler[] {
  const found: Handler[] = []
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue
    list.forEach((item, index) => {
      if (!isObject(item)) return
      if (target.shape === 'flat') {
        found.push({ path: `hooks.${event}[${index}]`, remove: ['hooks', event, index], event, raw: item })
        return
      }
      if (!Array.isArray(item.hooks)) return
      item.hooks.forEach((handler, inner) => {
        if (isObject(handler)) {
          found.push({
            path: `hooks.${event}[${index}].hooks[${inner}]`,
            remove: ['hooks', event, index, 'hooks', inner],
            group: `hooks.${event}[${index}]`,
            event,
            raw: handler,
          })
        }
      })
    })
  }
  return found
}

/** One of the agent's files: the handlers that move (as entries), those that stay and why, the text without the moved ones. */
export function readAgentFile(agent: ImportAgent, file: string, text: string, scope: Scope): AgentFileImport {
  const target = agentTarget(agent)!
  const root = parseJson(text, target.comments)
  if (root.type !== 'object') throw new JsonTextError('is not a JSON object')
  const hooksNode = child(root, 'hooks')
  if (hooksNode === undefined) return { file, moved: [], staying: [], routers: 0, text }
  if (hooksNode.type === 'array' && agentNamed(agent)!.nativeConfig?.hookList !== undefined)
    return readHookList(agent, file, text, getNodeValue(root) as Record<string, unknown>)
  if (hooksNode.type !== 'object')
    throw new JsonTextError(
      `"hooks" is ${hooksNode.type === 'array' ? 'an array' : `a ${hooksNode.type}`}, but ${target.label} expects an object of events`,
    )
  const hooks = getNodeValue(hooksNode) as Record<string, unknown>
  const how = importOf(agent)
  // Gemini CLI's `hooks.disabled`: names of handlers switched off (they stay switched off, where they are).
  const disabledList = how.disabledKey === undefined ? undefined : hooks[how.disabledKey]
  const disabled = Array.isArray(disabledList)
    ? new Set(disabledList.filter((name): name is string => typeof name === 'string'))
    : new Set<string>()
  const events = Object.fromEntries(
    Object.entries(hooks).filter(([key, list]) => Array.isArray(list) && key !== how.disabledKey),
  ) as Record<string, unknown[]>

  const problems: Array<{ path: string; message: string }> = []
  const specs =
    how.commands !== undefined ? [] : normalizeAgentHooks(how.readsAs ?? agent, events, (path, message) => problems.push({ path, message }))
  const byPath = new Map<string, HookSpec>(specs.map((spec) => [spec.path, spec]))

  const moved: MovedHook[] = []
  const removed: Path[] = []
  const staying: Array<{ path: string; why: string }> = []
  const told = new Set<{ path: string; message: string }>()
  let routers = 0
  for (const handler of handlersOf(target, events)) {
    const command = handler.raw[target.commandField]
    if (isRouterCommand(command, target.name) || (how.serveEntries === true && isServeHandler(handler.raw))) {
      routers++
      continue
    }
    const stay = (why: string) => void staying.push({ path: handler.path, why })
    const about = problems.filter(
      (problem) =>
        problem.path === handler.path ||
        problem.path.startsWith(`${handler.path}.`) ||
        (handler.group !== undefined &&
          (problem.path === handler.group ||
            (problem.path.startsWith(`${handler.group}.`) && !problem.path.startsWith(`${handler.group}.hooks[`)))),
    )
    for (const problem of about) told.add(problem)
    const why = whyItStays(target, handler, command, about)
    if (why !== undefined) {
      stay(why)
      continue
    }
    const converted =
      how.commands !== undefined
        ? commandEntry(agent, how.commands, handler)
        : agentEntry(agent, how, handler, byPath.get(handler.path), disabled, scope, file)
    if (typeof converted === 'string') stay(converted)
    else {
      moved.push({ ...converted, path: handler.path })
      removed.push(handler.remove)
    }
  }
  // What is not a handler at all (a group that is not an object, a string among handlers) stays too, said once.
  for (const problem of problems) if (!told.has(problem)) staying.push({ path: problem.path, why: problem.message })
  return { file, moved, staying, routers, text: withoutMoved(target, text, removed) }
}

/** Why a handler stays in the agent's file: it runs hookrun, is on an event hookrun does not route, or has a field hookrun cannot keep. */
function whyItStays(
  target: AgentTarget,
  handler: { readonly path: string; readonly event: string },
  command: unknown,
  about: ReadonlyArray<{ path: string; message: string }>,
): string | undefined {
  if (runsHookrun(command)) return 'it runs hookrun itself; moved into hooks.json it would call hookrun again'
  if (!target.events.includes(handler.event)) {
    const skipped = target.skipped[handler.event]
    return skipped !== undefined
      ? `hookrun's router has no entry on ${handler.event}: ${skipped}`
      : `${handler.event} is not an event hookrun routes for ${target.label}`
  }
  if (about.length === 0) return undefined
  const said = (problem: { path: string; message: string }) =>
    `${problem.path === handler.path ? '' : `${problem.path}: `}${problem.message.replace(/, ignored \(see `hookrun schema` for the fields\)$/, ' to hookrun')}`
  return about.map(said).join('; ')
}

/** A handler of Claude Code, Codex, Gemini CLI or Cursor as a hooks.json entry, or why it stays. */
function agentEntry(
  agent: ImportAgent,
  how: HooksImport,
  handler: Handler,
  spec: HookSpec | undefined,
  disabled: ReadonlySet<string>,
  scope: Scope,
  file: string,
): Omit<MovedHook, 'path'> | string {
  // Every handler read from an agent's file has a name (src/config/shapes.ts).
  if (spec?.name === undefined) return 'hookrun does not run it'
  const raw = handler.raw
  const stays = how.stays?.(raw, disabled)
  if (stays !== undefined) return stays
  // Claude's exec form substitutes ${CLAUDE_PROJECT_DIR} into each argument; sh would not expand it inside quotes.
  if (Array.isArray(raw.args) && raw.args.some((arg) => typeof arg === 'string' && arg.includes('$')))
    return 'its args use ${…} placeholders, which only the exec form substitutes'
  const screen = how.screenFields ?? {}
  const notCarried = Object.keys(screen)
    .filter((key) => key in raw)
    .map((key) => `${key} (${screen[key]})`)
  const timeout = how.defaultTimeout !== undefined && raw.timeout === undefined ? how.defaultTimeout : spec.timeout
  const entry = {
    // The name hookrun gives the handler read from the agent's file, so a copy in another layer
    // still runs once; Codex's names are Claude Code's, so they say whose they are.
    name: how.namePrefixed === true ? `${agent} ${spec.identity ?? spec.name}` : (spec.identity ?? spec.name),
    agent,
    event: spec.event,
    ...(spec.matcher !== undefined && { matcher: spec.matcher }),
    ...(spec.when !== undefined && { if: spec.when }),
    ...(spec.command !== undefined && { command: spec.command }),
    ...(spec.url !== undefined && { url: spec.url }),
    ...(spec.headers !== undefined && { headers: spec.headers }),
    ...(spec.allowedEnvVars !== undefined && { allowedEnvVars: spec.allowedEnvVars }),
    timeout,
    ...(!spec.blocking && { blocking: false }),
    ...(spec.onError !== undefined && { onError: spec.onError }),
    // Cursor runs user-level hooks in ~/.cursor, where their relative paths point.
    ...(how.userHooksRunInFileFolder === true && scope === 'user' && { cwd: dirname(file) }),
    ...(spec.sequential === true && { sequential: true }),
    ...(spec.description !== undefined && { description: spec.description }),
  }
  return { entry, notCarried }
}

/** A command handler (Copilot's) as an entry, or why it stays; the agent's fail-closed event and default timeout written out. */
function commandEntry(agent: ImportAgent, how: CommandHandlers, handler: Handler): Omit<MovedHook, 'path'> | string {
  const raw = handler.raw
  if (raw.type !== undefined && raw.type !== 'command')
    return `type '${String(raw.type)}' handlers are ${how.who}'s own; hookrun runs commands`
  const unknown = Object.keys(raw).filter((key) => !how.fields.includes(key))
  if (unknown.length > 0) return `${unknown.map((key) => `${handler.path}.${key}`).join(', ')}: unknown to hookrun`
  const command = raw[how.command]
  if (typeof command !== 'string' || command === '') return how.noCommand
  const env = raw.env
  if (
    env !== undefined &&
    (typeof env !== 'object' || env === null || Object.values(env).some((value) => typeof value !== 'string' || value.includes('$')))
  ) {
    return `its env expands variables (or is not text), which ${how.who} does and hookrun does not`
  }
  if (raw.cwd !== undefined && (typeof raw.cwd !== 'string' || raw.cwd === '')) return 'its cwd is not a folder name'
  const seconds = raw[how.timeoutField]
  if (seconds !== undefined && (typeof seconds !== 'number' || seconds <= 0 || seconds > 86_400))
    return `its ${how.timeoutField} is not a number of seconds`
  const matcher = typeof raw.matcher === 'string' && raw.matcher !== '' && raw.matcher !== '*' ? raw.matcher : undefined
  if (raw.matcher !== undefined && typeof raw.matcher !== 'string') return 'its matcher is not text'
  if (matcher !== undefined && matcherProblem(matcher) !== undefined) return `matcher '${matcher}' ${matcherProblem(matcher)}`
  const entry = {
    // Cursor's events have the same names: Copilot's hooks say whose they are.
    name: `${agent} ${handler.event}[${matcher ?? '*'}] ${command}`,
    event: eventPattern(handler.event),
    ...(matcher !== undefined && { matcher }),
    command,
    timeout: (seconds as number | undefined) ?? how.defaultTimeout,
    onError: handler.event === how.failsClosedOn ? 'block' : 'allow',
    ...(typeof raw.cwd === 'string' && { cwd: raw.cwd }),
    ...(env !== undefined && { env }),
  }
  const other = how.otherCommand
  return { entry, notCarried: typeof raw[other.field] === 'string' ? [`${other.field} (${other.what})`] : [] }
}

/** The text without the given handlers; a group, event or `hooks` left empty goes with them. */
function withoutMoved(target: AgentTarget, text: string, paths: readonly Path[]): string {
  // Last first, so the paths still to remove keep their indexes.
  const ordered = [...paths].sort((a, b) => compareDescending(a, b))
  let out = text
  for (const path of ordered) {
    out = removeAt(out, path)
    const root = parseJson(out, true)
    if (target.shape === 'groups' && nodeAt(root, path.slice(0, -1))?.children?.length === 0) out = removeAt(out, path.slice(0, -2))
    if (nodeAt(parseJson(out, true), ['hooks', path[1]!])?.children?.length === 0) out = removeAt(out, ['hooks', path[1]!])
  }
  if (paths.length > 0 && keysOf(child(parseJson(out, true), 'hooks')).length === 0 && child(parseJson(out, true), 'hooks') !== undefined)
    out = removeAt(out, ['hooks'])
  return out
}

/** A standalone hook file (Kiro CLI v3's): each command entry moves, read as a pasted file is; what stays keeps the file a valid list. */
function readHookList(agent: ImportAgent, file: string, text: string, root: Record<string, unknown>): AgentFileImport {
  const target = agentTarget(agent)!
  const native = agentNamed(agent)!.nativeConfig!
  if (root.version !== native.hookList!.version)
    throw new JsonTextError(
      `"version" is ${JSON.stringify(root.version)}, but ${target.label}'s hook files say "${native.hookList!.version}"`,
    )
  const entries = root.hooks as unknown[]
  const problems: Array<{ path: string; message: string }> = []
  const specs = hookListHooks(agentNamed(agent)!, entries, [], (path, message) => problems.push({ path, message }), { next: 0 })
  const byPath = new Map<string, HookSpec>(specs.map((spec) => [spec.path, spec]))
  const moved: MovedHook[] = []
  const removed: Path[] = []
  const staying: Array<{ path: string; why: string }> = []
  let routers = 0
  for (const [index, raw] of entries.entries()) {
    const path = `hooks[${index}]`
    const about = problems.filter((problem) => problem.path === path || problem.path.startsWith(`${path}.`))
    const spec = byPath.get(path)
    const why = whyListEntryStays(target, raw as Record<string, unknown>, spec, about)
    if (why === 'router') routers++
    else if (why !== undefined) staying.push({ path, why })
    else {
      const entry = {
        name: spec!.identity ?? spec!.name!,
        agent,
        event: spec!.event,
        ...(spec!.matcher !== undefined && { matcher: spec!.matcher }),
        command: spec!.command,
        timeout: spec!.timeout,
        // Switched off in the agent's file: kept off in hooks.json.
        ...(!spec!.enabled && { enabled: false }),
        description: `${target.label}'s ${spec!.name}`,
      }
      moved.push({ entry: entry as MovedHook['entry'], path, notCarried: [] })
      removed.push(['hooks', index])
    }
  }
  let out = text
  for (const path of [...removed].sort(compareDescending)) out = removeAt(out, path)
  return { file, moved, staying, routers, text: out }
}

/** Why a hook-list entry stays in the agent's file (`router`: it is hookrun's own), or undefined when it moves. */
function whyListEntryStays(
  target: AgentTarget,
  raw: Record<string, unknown>,
  spec: HookSpec | undefined,
  about: ReadonlyArray<{ path: string; message: string }>,
): string | undefined {
  if (spec === undefined) return about.map((problem) => problem.message).join('; ') || 'hookrun does not run it'
  if (isRouterCommand(spec.command, target.name)) return 'router'
  if (runsHookrun(spec.command)) return 'it runs hookrun itself; moved into hooks.json it would call hookrun again'
  const trigger = raw.trigger as string
  if (!target.events.includes(trigger)) {
    const skipped = target.skipped[trigger]
    return skipped !== undefined
      ? `hookrun's router has no entry on ${trigger}: ${skipped}`
      : `${trigger} is not an event hookrun routes for ${target.label}`
  }
  if (about.length > 0) return about.map((problem) => `${problem.path}: ${problem.message}`).join('; ')
  return undefined
}
