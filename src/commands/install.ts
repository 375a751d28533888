// `hookrun install` / `uninstall`: router entries in agents' config files.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { Node } from 'jsonc-parser'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { type AgentTarget, agentTarget, AGENTS, defaultHome, isRouterCommand, type Scope } from '../install/agents.ts'
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
      lines.push(...(remove ? uninstallFrom(target, file, options.env) : installInto(target, file, self, options.scope, options.env)))
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      lines.push(`${target.name}: ${file}: ${error.message}; left untouched`)
      exitCode = ExitCode.Failure
    }
  }
  return { output: `${lines.join('\n')}\n`, exitCode }
}

function installInto(target: AgentTarget, file: string, self: string, scope: Scope, env: Env): string[] {
  const existed = existsSync(file)
  const fresh = freshText(target)
  let text = existed ? readFileSync(file, 'utf8') : fresh
  checkShape(target, parse(target, text))
  const style = styleOf(text)
  let added = 0
  let updated = 0
  for (const event of target.events) {
    const command = target.command(self, event)
    const found = routerEntries(target, parse(target, text), event)
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
  if (added === 0 && updated === 0) return [`${target.name}: already installed in ${file} (${target.events.length} events)`]
  write(file, text)
  if (!existed) rememberCreated(file, env, true)
  const lines = [
    `${target.name}: ${existed ? 'updated' : 'created'} ${file}: ${added} event(s) added${updated > 0 ? `, ${updated} entr(ies) pointed at this hookrun` : ''}`,
    `  command: ${target.command(self, target.events[0]!)}`,
    `  events:  ${target.events.join(', ')}`,
  ]
  for (const [event, why] of Object.entries(target.skipped)) lines.push(`  not ${event}: ${why}`)
  if (scope === 'project') lines.push("  note: the command holds this machine's path to hookrun; teammates run `hookrun install --project` on theirs, or use --user")
  if (target.note !== undefined) lines.push(`  note: ${target.note}`)
  return lines
}

function uninstallFrom(target: AgentTarget, file: string, env: Env): string[] {
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
  if (sameJson(text, freshText(target)) && rememberCreated(file, env, false)) {
    rmSync(file)
    return [`${target.name}: removed ${removed} entr(ies) and ${file}, which held only hookrun's entries`]
  }
  write(file, text)
  return [`${target.name}: removed ${removed} entr(ies) from ${file}`]
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
