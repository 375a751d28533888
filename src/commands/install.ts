import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { applyEdits, type FormattingOptions, type JSONPath, modify, type Node, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser'
import { ExitCode, HookrunError } from '../errors.ts'
import { type AgentTarget, agentTarget, AGENTS, defaultHome, isRouterCommand, type Scope } from '../install/agents.ts'
import { selfCommand, shellWords } from '../install/self.ts'

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
      lines.push(...(remove ? uninstallFrom(target, file) : installInto(target, file, self, options.scope)))
    } catch (error) {
      if (!(error instanceof ConfigShapeError)) throw error
      lines.push(`${target.name}: ${file}: ${error.message}; left untouched`)
      exitCode = ExitCode.Failure
    }
  }
  return { output: `${lines.join('\n')}\n`, exitCode }
}

/** The file is not something hookrun may edit. */
class ConfigShapeError extends Error {}

interface Document {
  readonly text: string
  readonly root: Node
}

function installInto(target: AgentTarget, file: string, self: string, scope: Scope): string[] {
  const existed = existsSync(file)
  let text = existed ? readFileSync(file, 'utf8') : `${JSON.stringify({ ...target.header }, null, 2)}\n`
  const formatting = formattingOf(text)
  const { root } = parse(target, text)
  checkShape(target, root)
  let added = 0
  let updated = 0
  for (const event of target.events) {
    const command = target.command(self, event)
    const found = routerEntries(target, parse(target, text).root, event)
    if (found.length === 0) {
      const entry = target.shape === 'groups' ? { hooks: [target.handler(command)] } : target.handler(command)
      text = edit(text, ['hooks', event, -1], entry, formatting, true)
      added++
      continue
    }
    // Already there: keep it, but point it at this hookrun if it moved.
    for (const handler of found.flatMap((entry) => entry.handlers)) {
      const path = [...handler, target.commandField]
      if (nodeAt(parse(target, text).root, path)?.value !== command) {
        text = edit(text, path, command, formatting)
        updated++
      }
    }
  }
  if (added === 0 && updated === 0) return [`${target.name}: already installed in ${file} (${target.events.length} events)`]
  write(file, text)
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

function uninstallFrom(target: AgentTarget, file: string): string[] {
  if (!existsSync(file)) return [`${target.name}: nothing to remove (${file} does not exist)`]
  let text = readFileSync(file, 'utf8')
  const formatting = formattingOf(text)
  checkShape(target, parse(target, text).root)
  const hooks = child(parse(target, text).root, 'hooks')
  const events = hooks?.children?.map((property) => String(property.children![0]!.value)) ?? []
  let removed = 0
  for (const event of events) {
    const before = child(child(parse(target, text).root, 'hooks'), event)?.children?.length ?? 0
    // Back to front, so the paths still to remove keep their indexes.
    for (const entry of routerEntries(target, parse(target, text).root, event).reverse()) {
      text = edit(text, entry.remove, undefined, formatting)
      removed++
    }
    const after = child(child(parse(target, text).root, 'hooks'), event)
    // An event list that only held hookrun's entries goes with them.
    if (before > 0 && after?.type === 'array' && after.children?.length === 0) text = edit(text, ['hooks', event], undefined, formatting)
  }
  if (removed === 0) return [`${target.name}: nothing to remove (no hookrun entries in ${file})`]
  const rest = parse(target, text).root
  const hooksLeft = child(rest, 'hooks')
  if (hooksLeft?.type === 'object' && hooksLeft.children?.length === 0) text = edit(text, ['hooks'], undefined, formatting)
  const keys = (parse(target, text).root.children ?? []).map((property) => String(property.children![0]!.value))
  if (keys.every((key) => key in target.header)) {
    rmSync(file)
    return [`${target.name}: removed ${removed} entr(ies) and ${file}, which held only hookrun's entries`]
  }
  write(file, text)
  return [`${target.name}: removed ${removed} entr(ies) from ${file}`]
}

function parse(target: AgentTarget, text: string): Document {
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { disallowComments: !target.comments, allowTrailingComma: false })
  if (errors.length > 0 || root === undefined) {
    const error = errors[0]
    if (error === undefined) throw new ConfigShapeError('is empty, not a JSON object')
    const before = text.slice(0, error.offset)
    const line = before.split('\n').length
    const column = error.offset - before.lastIndexOf('\n')
    throw new ConfigShapeError(`is not valid JSON (${printParseErrorCode(error.error)} at line ${line}, column ${column})`)
  }
  return { text, root }
}

/** `hooks` must be an object of arrays, and for the groups shape each group an object. */
function checkShape(target: AgentTarget, root: Node): void {
  if (root.type !== 'object') throw new ConfigShapeError('is not a JSON object')
  const hooks = child(root, 'hooks')
  if (hooks === undefined) return
  if (hooks.type !== 'object') throw new ConfigShapeError(`"hooks" is ${describe(hooks)}, but ${target.label} expects an object of events`)
  for (const property of hooks.children ?? []) {
    const name = String(property.children![0]!.value)
    const list = property.children![1]!
    if (!target.events.includes(name) && list.type !== 'array') continue
    if (list.type !== 'array') throw new ConfigShapeError(`"hooks.${name}" is ${describe(list)}, but ${target.label} expects an array`)
    if (target.shape === 'groups') {
      for (const [index, group] of (list.children ?? []).entries()) {
        const handlers = group.type === 'object' ? child(group, 'hooks') : undefined
        if (group.type !== 'object' || (handlers !== undefined && handlers.type !== 'array')) {
          if (target.events.includes(name)) throw new ConfigShapeError(`"hooks.${name}[${index}]" is not a { "matcher", "hooks": [...] } group`)
        }
      }
    }
  }
}

/**
 * hookrun's router entries for one event: what to remove (a whole group when it holds nothing of
 * the user's, else the handler) and where each handler is (to update its command).
 */
function routerEntries(target: AgentTarget, root: Node, event: string): Array<{ remove: JSONPath; handlers: JSONPath[] }> {
  const list = child(child(root, 'hooks'), event)
  if (list?.type !== 'array') return []
  const entries: Array<{ remove: JSONPath; handlers: JSONPath[] }> = []
  for (const [index, item] of (list.children ?? []).entries()) {
    if (item.type !== 'object') continue
    const at: JSONPath = ['hooks', event, index]
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
    const paths = ours.map((inner): JSONPath => [...at, 'hooks', inner])
    // A group with a matcher or handlers of the user's stays; only hookrun's handlers go.
    if (ours.length === handlers.children!.length && child(item, 'matcher') === undefined) entries.push({ remove: at, handlers: paths })
    else for (const path of paths) entries.push({ remove: path, handlers: [path] })
  }
  return entries
}

function child(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') return undefined
  return node.children?.find((property) => property.children?.[0]?.value === key)?.children?.[1]
}

function nodeAt(root: Node, path: JSONPath): Node | undefined {
  let node: Node | undefined = root
  for (const segment of path) node = typeof segment === 'number' ? (node?.type === 'array' ? node.children?.[segment] : undefined) : child(node, segment)
  return node
}

function edit(text: string, path: JSONPath, value: unknown, formattingOptions: FormattingOptions, isArrayInsertion = false): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions, isArrayInsertion }))
}

/** Indent new entries the way the file already is (two spaces when it cannot tell). */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol }
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
