// One file `hookrun scan` found, read into the hooks it makes an agent run. Text is parsed, never
// run: no shell, no spawn, no import of the code a plugin file holds.
import { basename, extname, isAbsolute, relative } from 'node:path'
import { routerTail } from '../core/router.ts'
import { frontMatterHooks } from './front-matter.ts'
import { folderAgent, wrapperText } from './hook-folder.ts'
import { JsonTextError, nodeAt, nodeValue, parseJson } from './json-text.ts'
import { PLUGIN_MARKER } from '../agents/plugins.ts'
import { pluginAgent, pluginSource } from './plugin-agents.ts'
import { PORTABLE_SELF } from './agent-target.ts'
import { commandFlags, type ScanFlag, whenFlags } from './scan-flags.ts'
import type { ScanSource } from '../agents/native-config.ts'
import { isServeHandler } from './serve-entries.ts'
import { hookTables } from './toml-hooks.ts'

/** One hook a file makes an agent run. */
export interface ScannedHook {
  readonly event: string
  readonly matcher?: string
  /** command: a shell line; http: a POST; prompt: text for a model; executable: a hook program; plugin: code the agent loads; package: code it downloads. */
  readonly kind: 'command' | 'http' | 'prompt' | 'mcp' | 'executable' | 'plugin' | 'package'
  /** What it runs, as the file says it (a program's path and first line, a plugin's path). */
  readonly runs: string
  /** One of hookrun's own router entries (or its plugin, or its wrapper). */
  readonly own: boolean
  readonly flags: readonly ScanFlag[]
  /** Where in the file: a JSON path, a TOML line. */
  readonly at: string
  readonly note?: string
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

/** A word of a command line hookrun's router is run by: a plain path or a quoted one, no shell syntax. */
const SELF_WORD = /^(?:'[^']*'|"[^"$`\\]*"|[A-Za-z0-9_./:@%+=,~-]+)$/

/** Is `self` (a router command before ` fire …`) hookrun: from PATH, or an absolute one outside the project (not a repository's own)? */
function isHookrunSelf(self: string, project: string): boolean {
  const words = self.trim().split(/\s+/)
  if (words.length === 0 || words.length > 4 || !words.every((word) => SELF_WORD.test(word))) return false
  const program = words.at(-1)!.replace(/^['"]|['"]$/g, '')
  if (!/^hookrun(?:\.mjs|\.js|\.ts|\.exe)?$/.test(basename(program))) return false
  if (program === PORTABLE_SELF) return words.length === 1
  return isAbsolute(program) && relative(project, program).startsWith('..')
}

/** A router entry install writes: `<hookrun> fire [event] --format <agent>` (or `serve --start`), with hookrun itself in front. */
export function isOwnCommand(command: string, project: string): boolean {
  const tail = routerTail()
  return tail.test(command) && isHookrunSelf(command.replace(tail, ''), project)
}

/** What a handler object runs, every variant of it (bash and powershell, per-OS commands, exec and args). */
function handlerRuns(handler: Json): { kind: ScannedHook['kind']; runs: string; all: string } {
  const type = text(handler.type)
  if (type === 'http' || (type === undefined && text(handler.url) !== undefined))
    return { kind: 'http', runs: `POST ${String(handler.url)}`, all: String(handler.url) }
  if (type === 'prompt' || type === 'agent' || type === 'askAgent')
    return { kind: 'prompt', runs: `${type}: ${String(handler.prompt ?? '')}`, all: String(handler.prompt ?? '') }
  if (type === 'mcp_tool')
    return { kind: 'mcp', runs: `mcp_tool ${String(handler.server)} ${String(handler.tool)}`, all: JSON.stringify(handler) }
  const args = Array.isArray(handler.args) ? ` ${handler.args.map(String).join(' ')}` : ''
  const variants = ['command', 'bash', 'exec', 'linux', 'osx', 'powershell', 'windows', 'commandWindows']
    .map((key) => text(handler[key]))
    .filter((value): value is string => value !== undefined)
  const runs = variants.length === 0 ? JSON.stringify(handler) : `${variants[0]}${args}`
  return { kind: 'command', runs, all: `${variants.join('\n')}${args}` }
}

function hookOf(event: string, matcher: unknown, handler: Json, at: string, project: string): ScannedHook {
  const { kind, runs, all } = handlerRuns(handler)
  // hookrun's own: its router command, and install --serve's http handlers and command clients.
  const own = kind === 'http' ? isServeHandler(handler) : kind === 'command' && (isServeHandler(handler) || isOwnCommand(runs, project))
  const match = typeof matcher === 'string' ? matcher : undefined
  const flags = own ? [] : [...whenFlags(event, match), ...commandFlags(all, project)]
  if (kind === 'http' && !own && !flags.includes('network')) flags.push('network')
  return { event, ...(match !== undefined && { matcher: match }), kind, runs, own, flags, at }
}

/** The handlers of an agent's event map: Claude's groups (`{matcher, hooks: [...]}`) and flat handlers alike. */
function eventMapHooks(map: Json, prefix: string, project: string): ScannedHook[] {
  const hooks: ScannedHook[] = []
  for (const [event, list] of Object.entries(map)) {
    if (!Array.isArray(list)) continue
    list.forEach((item, index) => {
      if (!isObject(item)) return
      const at = `${prefix}${event}[${index}]`
      if (!Array.isArray(item.hooks)) {
        hooks.push(hookOf(event, item.matcher, item, at, project))
        return
      }
      item.hooks.forEach((handler, inner) => {
        if (isObject(handler)) hooks.push(hookOf(event, item.matcher ?? handler.matcher, handler, `${at}.hooks[${inner}]`, project))
      })
    })
  }
  return hooks
}

function jsonObject(source: string): Json {
  const value = nodeValue(parseJson(source, true))
  if (!isObject(value)) throw new JsonTextError('is not a JSON object')
  return value
}

/** An agent's JSON file with an event map (`at`, default `hooks`), and what else of it makes the agent run code. */
function readEvents(source: ScanSource, content: string, project: string): ScannedHook[] {
  const root = parseJson(content, true)
  if (root.type !== 'object') throw new JsonTextError('is not a JSON object')
  const path = source.at ?? ['hooks']
  const map = nodeAt(root, path)
  const value = map === undefined ? {} : nodeValue(map)
  if (!isObject(value)) throw new JsonTextError(`"${path.join('.') || '(the file)'}" is not an object of events`)
  const hooks = eventMapHooks(value, path.map((key) => `${key}.`).join(''), project)
  return source.claudePlugins ? [...hooks, ...claudePlugins(source.agents[0]!, nodeValue(root) as Json, project)] : hooks
}

/** Where a Claude Code marketplace comes from, as its settings say (`github owner/repo`, a git or download URL, a folder). */
function marketplaceSource(source: unknown): { where: string; local: boolean } {
  const where = isObject(source) ? (text(source.repo) ?? text(source.url) ?? text(source.path) ?? text(source.package)) : undefined
  if (!isObject(source) || where === undefined) return { where: JSON.stringify(source) ?? 'no source', local: false }
  return { where: `${text(source.source) ?? '?'} ${where}`, local: source.source === 'directory' || source.source === 'file' }
}

/** The plugins and marketplaces Claude Code's settings switch on: it fetches and runs them, and their hooks are not in this file. */
function claudePlugins(label: string, root: Json, project: string): ScannedHook[] {
  const markets = new Map(
    Object.entries(isObject(root.extraKnownMarketplaces) ? root.extraKnownMarketplaces : {}).map(([name, market]) => [
      name,
      marketplaceSource(isObject(market) ? market.source : market),
    ]),
  )
  const listed = root.enabledPlugins
  const enabled = isObject(listed)
    ? Object.entries(listed).flatMap(([id, on]) => (on === false || on === null ? [] : [id]))
    : Array.isArray(listed)
      ? listed.map(String)
      : []
  const plugins = enabled.map((id): ScannedHook => {
    const market = markets.get(id.slice(id.lastIndexOf('@') + 1))
    // A plugin of a marketplace in a folder here comes from that folder, not the network.
    const flags = new Set<ScanFlag>([
      'session-start',
      'every-event',
      ...(market?.local ? commandFlags(market.where, project) : ['network' as const]),
    ])
    return {
      event: '*',
      kind: 'plugin',
      runs: `plugin ${id}${market === undefined ? '' : ` (marketplace ${market.where})`}`,
      own: false,
      flags: [...flags],
      at: `enabledPlugins.${id}`,
      note: `${label} installs this plugin from its marketplace and runs its hooks, MCP servers and skills in every session`,
    }
  })
  const marketplaces = [...markets].map(([name, market]): ScannedHook => {
    const flags = new Set<ScanFlag>([
      'session-start',
      ...(market.local ? [] : ['network' as const]),
      ...commandFlags(market.where, project),
    ])
    return {
      event: '*',
      kind: 'plugin',
      runs: `marketplace ${name}: ${market.where}`,
      own: false,
      flags: [...flags],
      at: `extraKnownMarketplaces.${name}`,
      note: `${label} fetches this plugin catalog once the folder is trusted, and offers to install the plugins it lists`,
    }
  })
  return [...plugins, ...marketplaces]
}

/** Antigravity CLI's hooks.json: hook names, each with its events (tool events in groups, `{matcher, hooks}`; the others a handler each). */
function readNamedGroups(source: ScanSource, content: string, project: string): ScannedHook[] {
  return Object.entries(jsonObject(content)).flatMap(([name, group]) => {
    // Not an object (a `"version": 1`): no hook in it.
    if (!isObject(group)) return []
    const hooks = eventMapHooks(group, `${name}.`, project)
    if (group.enabled !== false) return hooks
    return hooks.map((hook) => ({
      ...hook,
      note: `switched off ("enabled": false): ${source.agents[0]} skips "${name}" until it is switched on`,
    }))
  })
}

/** The `hooks:` of a skill's, subagent's or command's YAML front matter, in Claude Code's settings shape. */
function readFrontMatter(source: ScanSource, content: string, project: string): ScannedHook[] {
  const map = frontMatterHooks(content)
  if (map === undefined || map === null) return []
  if (!isObject(map)) throw new JsonTextError('front matter: "hooks" is not an object of events')
  // Claude Code registers them when the skill (or subagent, or command) is used: never as a session starts.
  return eventMapHooks(map, 'hooks.', project).map((hook) => ({
    ...hook,
    flags: hook.flags.filter((flag) => flag !== 'session-start'),
    ...(source.hookNote !== undefined && { note: source.hookNote }),
  }))
}

/** Kiro's standalone hooks: `{hooks: [{trigger, matcher, action: {command}}]}` (CLI 3) or `{when, then}` (the IDE's `.kiro.hook`). */
function readKiroHooks(content: string, project: string): ScannedHook[] {
  const root = jsonObject(content)
  if (isObject(root.when) && isObject(root.then)) {
    const then = root.then
    const action = { ...then, type: then.type === 'askAgent' ? 'prompt' : 'command' }
    return [hookOf(String(root.when.type ?? '?'), undefined, action, 'then', project)]
  }
  if (isObject(root.hooks)) return eventMapHooks(root.hooks, 'hooks.', project)
  if (!Array.isArray(root.hooks)) return []
  return root.hooks.flatMap((hook, index) =>
    isObject(hook)
      ? [hookOf(String(hook.trigger ?? '?'), hook.matcher, isObject(hook.action) ? hook.action : hook, `hooks[${index}]`, project)]
      : [],
  )
}

/** Vibe's (and Kimi's) `[[hooks]]` tables. */
function readTomlTables(content: string, project: string): ScannedHook[] {
  return hookTables(content).map((table) => {
    const fields = table.fields
    const event = String(fields.type ?? fields.event ?? '?')
    return hookOf(event, fields.match ?? fields.matcher, { command: fields.command ?? '' }, `line ${table.start + 1}`, project)
  })
}

const TOML_STRING = /(?:^|[\s{,])(command|matcher)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')/g

/** Codex's hooks in config.toml: every `command = "…"` under a `[hooks…]` table (or inline in one), with its event and matcher. */
function readCodexToml(content: string, project: string): ScannedHook[] {
  const hooks: ScannedHook[] = []
  let event: string | undefined
  let matcher: string | undefined
  content.split('\n').forEach((line, index) => {
    const header = /^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?/.exec(line)
    if (header !== null) {
      const path = header[1]!.split('.')
      if (path[0] !== 'hooks') event = undefined
      else {
        event = path[1] ?? '?'
        if (path.length <= 2) matcher = undefined
      }
      return
    }
    const inline = /^\s*hooks\s*=/.test(line) ? '?' : undefined
    if (event === undefined && inline === undefined) return
    for (const [, key, raw] of line.matchAll(TOML_STRING)) {
      const value = raw!.startsWith("'") ? raw!.slice(1, -1) : (JSON.parse(raw!) as string)
      if (key === 'matcher') matcher = value
      else hooks.push(hookOf(event ?? inline!, matcher, { command: value }, `line ${index + 1}`, project))
    }
  })
  return hooks
}

/** A Cline hook program: hookrun's wrapper (exactly as install writes it), or the program and its first line. */
function readExecutable(source: ScanSource, file: string, content: string, executable: boolean, project: string): ScannedHook {
  const event = basename(file, extname(file))
  const at = basename(file)
  const folder = folderAgent(source.owners[0]!)!
  const self = new RegExp(`^(?:exec )?(.+) fire --format ${folder.name}$`, 'm').exec(content)?.[1]
  if (self !== undefined && isHookrunSelf(self, project) && content === wrapperText(folder, self, event))
    return { event, kind: 'executable', runs: `${at}: hookrun's wrapper`, own: true, flags: [], at }
  const first = content.split('\n', 1)[0]!.slice(0, 120)
  return {
    event,
    kind: 'executable',
    runs: `${at} (${first})`,
    own: false,
    flags: [...whenFlags(event, undefined), ...commandFlags(content, project)],
    at,
    ...(!executable && { note: `not executable: ${source.agents[0]} skips it until it is` }),
  }
}

/** A plugin file: code the agent imports when it starts, and which sees every event after. */
function readPlugin(source: ScanSource, file: string, content: string, project: string): ScannedHook {
  const agent = source.owners[0]!
  // An agent hookrun writes no plugin for (Amp) has none of hookrun's.
  const plugin = pluginAgent(agent)
  const own = plugin !== undefined && content === pluginSource(plugin, [PORTABLE_SELF])
  const at = basename(file)
  if (own) return { event: '*', kind: 'plugin', runs: `${at}: hookrun's plugin`, own, flags: [], at }
  const flags: ScanFlag[] = ['session-start', 'every-event', ...commandFlags(content, project)]
  const note = content.startsWith(PLUGIN_MARKER)
    ? `hookrun's plugin from another hookrun, or edited: \`hookrun install --agent ${agent} --project\` writes this hookrun's`
    : 'code the agent imports and runs in its own process when it starts'
  return { event: '*', kind: 'plugin', runs: `${at} (plugin code)`, own: false, flags, at, note }
}

/** The npm packages an OpenCode config loads as plugins (downloaded and run when it starts). */
function readNpmPlugins(content: string): ScannedHook[] {
  const root = jsonObject(content)
  const plugins = Array.isArray(root.plugin) ? root.plugin : []
  return plugins.map((name, index) => ({
    event: '*',
    kind: 'package' as const,
    runs: `npm package ${String(name)}`,
    own: false,
    flags: ['session-start', 'every-event', 'network'] as ScanFlag[],
    at: `plugin[${index}]`,
    note: 'downloaded from the npm registry and run in the agent when it starts',
  }))
}

/** The hooks in one file (throws JsonTextError for one the agent could not read either). */
export function readScanned(source: ScanSource, file: string, content: string, executable: boolean, project: string): ScannedHook[] {
  switch (source.reader) {
    case 'events':
      return readEvents(source, content, project)
    case 'named-groups':
      return readNamedGroups(source, content, project)
    case 'front-matter':
      return readFrontMatter(source, content, project)
    case 'trigger-files':
      return readKiroHooks(content, project)
    case 'toml-tables':
      return readTomlTables(content, project)
    case 'toml-config':
      return readCodexToml(content, project)
    case 'executables':
      return [readExecutable(source, file, content, executable, project)]
    case 'plugin':
      return [readPlugin(source, file, content, project)]
    case 'npm-plugins':
      return readNpmPlugins(content)
  }
}
