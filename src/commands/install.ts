// `hookrun install` / `uninstall`: router entries in agents' config files.
import { count } from '../core/words.ts'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { Node } from 'jsonc-parser'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { type AgentTarget, agentTarget, AGENTS, defaultHome, isRouterCommand, type Places, type Scope } from '../install/agents.ts'
import { describeOverlap, findOverlaps, FOREIGN_READS, routedEvents } from '../install/overlaps.ts'
import { appendAt, child, JsonTextError, keysOf, nodeAt, parseJson, type Path, removeAt, replaceAt, styleOf } from '../install/json-text.ts'
import { selfCommand, shellWords } from '../install/self.ts'
import { writeJsonAtomic } from '../core/cache-file.ts'
import { stateDir } from '../core/places.ts'

type Env = Readonly<Record<string, string | undefined>>

export interface InstallOptions {
  readonly agents: readonly string[]
  readonly scope: Scope
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** The command agents run for hookrun; default: this hookrun (src/install/self.ts). */
  readonly self?: string
}

/**
 * `hookrun install --agent NAME [--user|--project]` and `hookrun uninstall`: hookrun's router
 * entries in the agent's own config file. The file is edited in place, as text: everything else
 * in it (the user's own hooks, other settings, formatting, comments) keeps its bytes. Installing
 * twice changes nothing; a moved hookrun gets its entries' command updated. A file that is not
 * JSON, or whose `hooks` is not what the agent expects, is reported and left untouched.
 */
export function installAgents(options: InstallOptions, remove: boolean): { output: string; exitCode: number } {
  const targets = options.agents.map((name) => {
    const target = agentTarget(name)
    if (target === undefined) throw new HookrunError(`--agent ${name} is not known; use one of: ${AGENTS.map((agent) => agent.name).join(', ')}`)
    return target
  })
  if (targets.length === 0) throw new HookrunError(`--agent is required: one of ${AGENTS.map((agent) => agent.name).join(', ')}`)
  const places = { home: defaultHome(options.env), project: resolve(options.cwd), env: options.env }
  const self = options.self ?? shellWords(selfCommand())
  const lines: string[] = []
  let exitCode: number = ExitCode.Proceed
  for (const target of targets) {
    const file = target.file(options.scope, places)
    try {
      lines.push(...(remove ? uninstallFrom(target, file, places) : installInto(target, file, self, options.scope, places)))
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      lines.push(`${target.name}: ${file}: ${error.message}; left untouched`)
      exitCode = ExitCode.Failure
    }
  }
  return { output: `${lines.join('\n')}\n`, exitCode }
}

function installInto(target: AgentTarget, file: string, self: string, scope: Scope, places: Places): string[] {
  const existed = existsSync(file)
  const fresh = freshText(target)
  let text = existed ? readFileSync(file, 'utf8') : fresh
  checkShape(target, parse(target, text))
  const style = styleOf(text)
  const covered = coveredEvents(target, scope, places)
  let added = 0
  let updated = 0
  let dropped = 0
  for (const event of target.events) {
    const found = routerEntries(target, parse(target, text), event)
    if (covered.has(event)) {
      // The agent already gets this event through another agent's file: an entry here would
      // answer it twice. One hookrun put here before goes.
      for (const entry of found.reverse()) {
        text = removeAt(text, entry.remove)
        dropped++
      }
      if (found.length > 0 && nodeAt(parse(target, text), ['hooks', event])?.children?.length === 0) text = removeAt(text, ['hooks', event])
      continue
    }
    const command = target.command(self, event)
    if (found.length === 0) {
      text = appendAt(text, style, ['hooks', event], target.shape === 'groups' ? { hooks: [target.handler(command)] } : target.handler(command))
      added++
      continue
    }
    // Already there: keep it, but point it at this hookrun if it moved.
    for (const handler of found.flatMap((entry) => entry.handlers)) {
      const path = [...handler, target.commandField]
      if (nodeAt(parse(target, text), path)?.value !== command) {
        text = replaceAt(text, path, command)
        updated++
      }
    }
  }
  const events = target.events.filter((event) => !covered.has(event))
  const unchanged = added === 0 && updated === 0 && dropped === 0
  if (!unchanged) {
    write(file, text)
    if (!existed) rememberCreated(file, places.env, true)
  }
  // Read after writing: this file may be the one another agent runs too.
  const overlapLines = [
    ...coveredLines(target, covered),
    ...findOverlaps(places).filter((overlap) => overlap.owner === target.name && overlap.twice.length > 0).map((overlap) => `  overlap: ${describeOverlap(overlap)}`),
  ]
  if (unchanged) return [`${target.name}: already installed in ${file} (${events.length} events)`, ...overlapLines]
  const lines = [
    `${target.name}: ${existed ? 'updated' : 'created'} ${file}: ${count(added, 'event')} added${updated > 0 ? `, ${count(updated, 'entry', 'entries')} pointed at this hookrun` : ''}${dropped > 0 ? `, removed ${count(dropped, 'entry', 'entries')} ${target.label} would run twice` : ''}`,
    `  command: ${target.command(self, target.events[0]!)}`,
    `  events:  ${events.join(', ')}`,
  ]
  for (const [event, why] of Object.entries(target.skipped)) lines.push(`  not ${event}: ${why}`)
  lines.push(...overlapLines)
  if (scope === 'project') lines.push("  note: the command holds this machine's path to hookrun; teammates run `hookrun install --project` on theirs, or use --user")
  if (target.note !== undefined) lines.push(`  note: ${target.note}`)
  return lines
}

/**
 * The agent's events that hookrun's entries in another agent's file already answer there
 * (src/install/overlaps.ts), with that file. A user-level install is trimmed only by user-level
 * files: a project's entries do not serve the user's other projects.
 */
function coveredEvents(target: AgentTarget, scope: Scope, places: Places): Map<string, { file: string; owner: string; source: string }> {
  const covered = new Map<string, { file: string; owner: string; source: string }>()
  for (const overlap of findOverlaps(places)) {
    if (overlap.reader !== target.name || (scope === 'user' && overlap.scope !== 'user')) continue
    for (const event of overlap.events) if (!covered.has(event)) covered.set(event, { file: overlap.file, owner: agentTarget(overlap.owner)!.label, source: overlap.source })
  }
  return covered
}

function coveredLines(target: AgentTarget, covered: ReadonlyMap<string, { file: string; owner: string; source: string }>): string[] {
  const byFile = new Map<string, { events: string[]; owner: string; source: string }>()
  for (const [event, { file, owner, source }] of covered) {
    const entry = byFile.get(file) ?? { events: [], owner, source }
    entry.events.push(event)
    byFile.set(file, entry)
  }
  return [...byFile].map(
    ([file, { events, owner, source }]) =>
      `  not ${events.join(', ')}: ${target.label} runs hookrun's ${owner} entries in ${file} for these, so an entry here would answer them twice (${source}; it needs ${target.label}'s third-party hooks setting on)`,
  )
}

function uninstallFrom(target: AgentTarget, file: string, places: Places): string[] {
  const env = places.env
  if (!existsSync(file)) return [`${target.name}: nothing to remove (${file} does not exist)`]
  let text = readFileSync(file, 'utf8')
  checkShape(target, parse(target, text))
  let removed = 0
  for (const event of keysOf(child(parse(target, text), 'hooks'))) {
    const entries = routerEntries(target, parse(target, text), event)
    // Back to front, so the paths still to remove keep their indexes.
    for (const entry of entries.reverse()) {
      text = removeAt(text, entry.remove)
      removed++
    }
    // An event list that only held hookrun's entries goes with them.
    if (entries.length > 0 && nodeAt(parse(target, text), ['hooks', event])?.children?.length === 0) text = removeAt(text, ['hooks', event])
  }
  if (removed === 0) return [`${target.name}: nothing to remove (no hookrun entries in ${file})`]
  if (keysOf(child(parse(target, text), 'hooks')).length === 0) text = removeAt(text, ['hooks'])
  // A file install created that now holds nothing but its starting keys goes too; a file the user
  // had (even an empty one) stays.
  const notes = readersLeftShort(target, places)
  if (sameJson(text, freshText(target)) && rememberCreated(file, env, false)) {
    rmSync(file)
    return [`${target.name}: removed ${count(removed, 'entry', 'entries')} and ${file}, which held only hookrun's entries`, ...notes]
  }
  write(file, text)
  return [`${target.name}: removed ${count(removed, 'entry', 'entries')} from ${file}`, ...notes]
}

/** Agents that answered some events through the entries just removed, and have hookrun entries of their own. */
function readersLeftShort(target: AgentTarget, places: Places): string[] {
  return FOREIGN_READS.filter((read) => read.owner === target.name)
    .filter((read) => (['project', 'user'] as const).some((scope) => routedEvents(agentTarget(read.reader)!.file(scope, places), read.reader).length > 0))
    .map((read) => `  note: ${agentTarget(read.reader)!.label} answered some events through these entries; run \`hookrun install --agent ${read.reader}\` again to give them entries of its own`)
}

/**
 * The agent config files `install` created (not edited), in hookrun's state folder, so that
 * `uninstall` removes only those. `add` records `file`; otherwise it is forgotten, and the answer
 * says whether it was recorded.
 */
function rememberCreated(file: string, env: Env, add: boolean): boolean {
  const record = join(stateDir(env), 'installed-files.json')
  let files: string[] = []
  try {
    const parsed = JSON.parse(readFileSync(record, 'utf8')) as { files?: unknown }
    if (Array.isArray(parsed.files)) files = parsed.files.filter((entry): entry is string => typeof entry === 'string')
  } catch {
    // No record yet.
  }
  const had = files.includes(file)
  const next = add ? (had ? files : [...files, file]) : files.filter((entry) => entry !== file)
  if (next !== files) writeJsonAtomic(record, { files: next })
  return had
}

/** What install starts a new file with: the agent's header keys (Cursor and Copilot: version 1). */
function freshText(target: AgentTarget): string {
  return `${JSON.stringify(target.header, null, 2)}\n`
}

function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b))
  } catch {
    return false
  }
}

function parse(target: AgentTarget, text: string): Node {
  return parseJson(text, target.comments)
}

/** `hooks` must be an object of arrays, and for the groups shape each group an object. */
function checkShape(target: AgentTarget, root: Node): void {
  if (root.type !== 'object') throw new JsonTextError('is not a JSON object')
  const hooks = child(root, 'hooks')
  if (hooks === undefined) return
  if (hooks.type !== 'object') throw new JsonTextError(`"hooks" is ${describe(hooks)}, but ${target.label} expects an object of events`)
  for (const name of target.events) {
    const list = child(hooks, name)
    if (list === undefined) continue
    if (list.type !== 'array') throw new JsonTextError(`"hooks.${name}" is ${describe(list)}, but ${target.label} expects an array`)
    if (target.shape !== 'groups') continue
    for (const [index, group] of (list.children ?? []).entries()) {
      const handlers = child(group, 'hooks')
      if (group.type !== 'object' || (handlers !== undefined && handlers.type !== 'array')) {
        throw new JsonTextError(`"hooks.${name}[${index}]" is not a { "matcher", "hooks": [...] } group`)
      }
    }
  }
}

/**
 * hookrun's router entries for one event: what to remove (a whole group when it holds nothing of
 * the user's, else the handler) and where each handler is (to update its command).
 */
function routerEntries(target: AgentTarget, root: Node, event: string): Array<{ remove: Path; handlers: Path[] }> {
  const list = child(child(root, 'hooks'), event)
  if (list?.type !== 'array') return []
  const entries: Array<{ remove: Path; handlers: Path[] }> = []
  for (const [index, item] of (list.children ?? []).entries()) {
    if (item.type !== 'object') continue
    const at: Path = ['hooks', event, index]
    if (target.shape === 'flat') {
      if (isRouterCommand(child(item, target.commandField)?.value, target.name)) entries.push({ remove: at, handlers: [at] })
      continue
    }
    const handlers = child(item, 'hooks')
    if (handlers?.type !== 'array') continue
    const ours = (handlers.children ?? []).flatMap((handler, inner) =>
      handler.type === 'object' && isRouterCommand(child(handler, target.commandField)?.value, target.name) ? [inner] : [],
    )
    if (ours.length === 0) continue
    const paths = ours.map((inner): Path => [...at, 'hooks', inner])
    // A group with a matcher or handlers of the user's stays; only hookrun's handlers go.
    if (ours.length === handlers.children!.length && child(item, 'matcher') === undefined) entries.push({ remove: at, handlers: paths })
    else for (const path of paths) entries.push({ remove: path, handlers: [path] })
  }
  return entries
}

function describe(node: Node): string {
  return node.type === 'array' ? 'an array' : node.type === 'object' ? 'an object' : `a ${node.type}`
}

/** Write beside the file, then rename over it: an agent reading it never sees half a file. */
function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true })
  const temporary = `${file}.hookrun-${process.pid}.tmp`
  // Keep the file's mode: a settings file with tokens in it may be private.
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644
  writeFileSync(temporary, text, { mode })
  chmodSync(temporary, mode)
  renameSync(temporary, file)
}
