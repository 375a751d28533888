// `hookrun init`: a starter hooks.json and scripts from templates.
import { didYouMean } from '../core/suggest.ts'
import { chmodSync, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { SCHEMA_FILE, writeSchemaBeside } from './schema.ts'
import { HookrunError } from '../core/errors.ts'
import { userConfigDir } from '../core/places.ts'
import { type Template, TEMPLATES } from './templates.ts'
import { agentConfigLines, projectMaterialFiles, trustedNow, trustProject } from './trust.ts'
import { appendAt, nodeValue, parseJson, removeAt, styleOf } from '../install/json-text.ts'

interface InitOptions {
  readonly cwd: string
  /** Template names; none means every template (the intrusive ones switched off). */
  readonly templates: readonly string[]
  /** Turn these templates off: their entries out of hooks.json, their unchanged files deleted. */
  readonly remove?: boolean
  readonly env: Readonly<Record<string, string | undefined>>
}

/** One file init wrote, edited, removed or kept (`--json`). */
interface InitFile {
  /** From the project folder; the user's config by its absolute path. */
  readonly file: string
  readonly status: 'written' | 'edited' | 'removed' | 'kept'
  /** Why it was kept, or what the written or edited file holds. */
  readonly reason?: string
  /** What to add to a kept file by hand: hooks for a hooks.json, settings for the user's config. */
  readonly add?: unknown
}

/** What `hookrun init` did (`--json`). */
interface InitResult {
  readonly project: string
  readonly files: readonly InitFile[]
  /** init trusted what it wrote; not when the project has hook files it did not write and was not trusted before (`untrustedFiles`). */
  readonly trusted: boolean
  readonly untrustedFiles: readonly string[]
  /** Hooks written switched off (`"enabled": false`) until the user turns them on. */
  readonly switchedOff: readonly string[]
  /** The project's narrowed agent configs brought up to date with the new hooks.json, one line each. */
  readonly agentConfigs: readonly string[]
}

/**
 * `hookrun init`: a starter `.hookrun/hooks.json`, scripts and tests; an existing hooks.json gets the entries (a text edit). A user's
 * file is never overwritten; `--remove` deletes only files still as the policy shipped them.
 */
export function initProjectResult(options: InitOptions): InitResult {
  if (options.remove === true && options.templates.length === 0)
    throw new HookrunError('--remove needs --template NAME: the policy to turn off (hookrun init --list names them)')
  const chosen = chooseTemplates(options.templates)
  const all = options.templates.length === 0
  const project = resolve(options.cwd)
  const folder = join(project, '.hookrun')
  const shown = (file: string) => relative(project, file)
  const config = join(folder, 'hooks.json')
  // A project trusted before the edit stays trusted: the user vouched for the rest already.
  const trustedBefore = existsSync(config) && trustedNow(project, options.env)
  const files: InitFile[] = []
  const written = new Set<string>()
  const changed =
    options.remove === true
      ? removeTemplates(chosen, folder, files, shown, options.env)
      : addTemplates(chosen, all, folder, files, shown, written)
  if (options.remove !== true)
    for (const template of chosen) if (template.userSettings !== undefined) files.push(addUserSettings(template.userSettings, options.env))
  // What init wrote is trusted at once; any other hook file keeps needing the user's own 'hookrun trust', unless trusted before.
  const foreign = projectMaterialFiles(project, options.env).filter((file) => !written.has(file))
  const trusted = (written.has(config) && foreign.length === 0) || (trustedBefore && existsSync(config))
  if (trusted && (changed || written.size > 0)) trustProject({ cwd: project, env: options.env, syncAgents: false })
  // A new or edited hooks.json: the project's narrowed agent configs follow it now (install.ts).
  const agentConfigs = changed || written.has(config) ? agentConfigLines(project, options.env) : []
  const switchedOff = all
    ? chosen.filter((template) => !template.onByDefault && template.hooks.length > 0).map((template) => template.name)
    : []
  return { project, files, trusted, untrustedFiles: trusted ? [] : foreign.map(shown), switchedOff, agentConfigs }
}

type Shown = (file: string) => string

/** Add the templates' entries and files; whether hooks.json was edited. */
function addTemplates(
  chosen: readonly Template[],
  all: boolean,
  folder: string,
  files: InitFile[],
  shown: Shown,
  written: Set<string>,
): boolean {
  const hooks = chosen.flatMap((template) =>
    template.hooks.map((hook) => (all && !template.onByDefault ? { ...hook, enabled: false } : hook)),
  )
  const config = join(folder, 'hooks.json')
  const write = (file: string, content: string) => {
    writeNew(file, content)
    written.add(file)
    files.push({ file: shown(file), status: 'written' })
  }
  let edited = false
  if (existsSync(config)) {
    const result = addHooks(config, hooks)
    edited = result.status === 'edited'
    files.push({ file: shown(config), ...result })
  } else {
    write(config, `${JSON.stringify({ $schema: `./${SCHEMA_FILE}`, hooks }, null, 2)}\n`)
    const schema = writeSchemaBeside(config)
    if (schema !== undefined) files.push({ file: shown(schema), status: 'written', reason: 'for editors: the $schema of hooks.json' })
  }
  for (const template of chosen) {
    for (const [path, content] of Object.entries(template.files)) {
      // A policy written switched off gets its test cases when it is turned on: they would fail now.
      if (all && !template.onByDefault && path.startsWith('tests/')) continue
      const file = join(folder, path)
      if (!existsSync(file)) write(file, content)
      else
        files.push({ file: shown(file), status: 'kept', reason: readText(file) === content ? "it is this policy's already" : 'it exists' })
    }
  }
  return edited
}

/** Take the templates' entries out of hooks.json and delete their files the user has not changed. */
function removeTemplates(chosen: readonly Template[], folder: string, files: InitFile[], shown: Shown, env: InitOptions['env']): boolean {
  const config = join(folder, 'hooks.json')
  const names = new Set(chosen.flatMap((template) => template.hooks.map((hook) => String(hook.name))))
  let edited = false
  if (names.size > 0 && existsSync(config)) {
    const result = removeHooks(config, names)
    edited = result.status === 'edited'
    files.push({ file: shown(config), ...result })
  }
  for (const template of chosen) {
    for (const [path, content] of Object.entries(template.files)) {
      const file = join(folder, path)
      if (!existsSync(file) || path === '.gitignore') continue
      if (readText(file) !== content) {
        files.push({ file: shown(file), status: 'kept', reason: 'you changed it; delete it yourself if you no longer want it' })
        continue
      }
      unlinkSync(file)
      files.push({ file: shown(file), status: 'removed' })
    }
    if (template.userSettings !== undefined)
      files.push({
        file: join(userConfigDir(env), 'hooks.json'),
        status: 'kept',
        reason: `your user config: take out ${Object.keys(template.userSettings).join(', ')} by hand to turn it off`,
      })
  }
  return edited
}

/** `hookrun init`, for a person: each file written or kept, trust, and what to do next. */
export function initProject(options: InitOptions): string {
  const result = initProjectResult(options)
  const lines: string[] = []
  const verbs = { written: 'wrote ', edited: 'edited', removed: 'removed' } as const
  for (const entry of result.files) {
    if (entry.status !== 'kept') {
      lines.push(`${verbs[entry.status]} ${entry.file}${entry.reason === undefined ? '' : ` (${entry.reason})`}`)
      continue
    }
    const isHooks = Array.isArray(entry.add)
    lines.push(
      `kept   ${entry.file} (${entry.reason})${entry.add === undefined ? '' : isHooks ? '; add these hooks to its "hooks" list:' : '; add to it:'}`,
    )
    // Hooks as a list to paste; settings as the lines inside the user's object.
    const json = entry.add === undefined ? [] : JSON.stringify(entry.add, null, 2).split('\n')
    lines.push(...(isHooks ? json.map((line) => `  ${line}`) : json.slice(1, -1)).map((line) => `       ${line}`))
  }
  const wroteConfig = result.files.some((entry) => entry.status === 'written' && entry.file.endsWith('hooks.json'))
  if (result.trusted && wroteConfig)
    lines.push(`trusted the new hooks (hookrun init wrote them); after editing them run 'hookrun trust' again`)
  else if (result.trusted) lines.push(`still trusted: the project was trusted, and init changed only its own policy files`)
  else if (result.untrustedFiles.length === 0) lines.push(`not trusted: review the project's hooks, then run: hookrun trust`)
  else
    lines.push(
      `not trusted: the project has hook files hookrun init did not write (${result.untrustedFiles.join(', ')}); review them, then run: hookrun trust`,
    )
  lines.push(...result.agentConfigs)
  if (result.switchedOff.length > 0)
    lines.push('', `switched off until you turn them on (hookrun init --template NAME): ${result.switchedOff.join(', ')}`)
  lines.push('', 'next: hookrun test   (runs .hookrun/tests/*.json)   ·   hookrun install --agent claude|cursor|gemini|codex|copilot')
  return `${lines.join('\n')}\n`
}

function chooseTemplates(names: readonly string[]): Template[] {
  if (names.length === 0) return [...TEMPLATES]
  return names.map((name) => {
    const template = TEMPLATES.find((candidate) => candidate.name === name)
    const known = TEMPLATES.map((candidate) => candidate.name)
    if (template === undefined)
      throw new HookrunError(`--template ${name} is not known${didYouMean(name, known)}; use one of: ${known.join(', ')}`)
    return template
  })
}

/** Settings only the user's config may hold (the audit log): written into a new one; for an existing one, what to add. */
function addUserSettings(settings: Readonly<Record<string, unknown>>, env: InitOptions['env']): InitFile {
  const file = join(userConfigDir(env), 'hooks.json')
  const keys = Object.keys(settings).join(', ')
  if (!existsSync(file)) {
    writeNew(file, `${JSON.stringify({ $schema: `./${SCHEMA_FILE}`, ...settings }, null, 2)}\n`)
    writeSchemaBeside(file)
    return { file, status: 'written', reason: `${keys}: your user config` }
  }
  let present: Record<string, unknown> = {}
  try {
    present = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch {
    // Unreadable or with comments: say what to add, as for any existing file.
  }
  const missing = Object.entries(settings).filter(([key]) => present[key] === undefined)
  if (missing.length === 0) return { file, status: 'kept', reason: `it has ${keys} already` }
  return { file, status: 'kept', reason: 'it exists', add: Object.fromEntries(missing) }
}

/** The entries added to an existing hooks.json (a text edit: every other byte kept), or why it was kept as it is. */
function addHooks(file: string, hooks: readonly Record<string, unknown>[]): Omit<InitFile, 'file'> {
  const text = readFileSync(file, 'utf8')
  const list = hooksList(text)
  if (typeof list === 'string') return { status: 'kept', reason: list, add: hooks }
  const present = new Set(list.map((hook) => hook.name))
  const missing = hooks.filter((hook) => !present.has(String(hook.name)))
  // An entry `hookrun init` wrote switched off is switched on by naming its policy.
  const off = hooks.flatMap((hook) => {
    const index = list.findIndex((entry) => entry.name === hook.name && entry.enabled === false && hook.enabled !== false)
    return index < 0 ? [] : [index]
  })
  if (missing.length === 0 && off.length === 0) return { status: 'kept', reason: 'it has these hooks already: the policy is on' }
  let edited = text
  for (const index of off) edited = removeAt(edited, ['hooks', index, 'enabled'])
  for (const hook of missing) edited = appendAt(edited, styleOf(edited), ['hooks'], hook)
  writeFileSync(file, edited)
  const done = [
    ...(missing.length > 0 ? [`added ${missing.map((hook) => String(hook.name)).join(', ')}`] : []),
    ...(off.length > 0 ? [`switched on ${off.map((index) => String(list[index]!.name)).join(', ')}`] : []),
  ]
  return { status: 'edited', reason: done.join('; ') }
}

/** The entries of these names taken out of hooks.json (a text edit), or why it was kept. */
function removeHooks(file: string, names: ReadonlySet<string>): Omit<InitFile, 'file'> {
  let text = readFileSync(file, 'utf8')
  const list = hooksList(text)
  if (typeof list === 'string') return { status: 'kept', reason: `${list}; take out ${[...names].join(', ')} by hand` }
  const indexes = list.flatMap((hook, index) => (names.has(String(hook.name)) ? [index] : []))
  if (indexes.length === 0) return { status: 'kept', reason: `it has no ${[...names].join(', ')}: the policy is off` }
  for (const index of indexes.reverse()) text = removeAt(text, ['hooks', index])
  writeFileSync(file, text)
  return { status: 'edited', reason: `took out ${[...names].filter((name) => list.some((hook) => hook.name === name)).join(', ')}` }
}

/** hookrun's own `hooks` list in a hooks.json text, or why init cannot edit it. */
function hooksList(text: string): Array<{ name?: unknown; enabled?: unknown }> | string {
  let root: ReturnType<typeof parseJson>
  try {
    root = parseJson(text, false)
  } catch (error) {
    return `it ${(error as Error).message}`
  }
  const value = nodeValue(root) as { hooks?: unknown }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object'
  if (value.hooks === undefined) return []
  if (!Array.isArray(value.hooks)) return 'its "hooks" is not hookrun\'s list (an agent\'s shape)'
  return value.hooks as Array<{ name?: unknown; enabled?: unknown }>
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

function writeNew(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true })
  // `wx`: fail rather than replace a file that appeared since we looked.
  writeFileSync(file, content, { flag: 'wx' })
  if (file.endsWith('.sh')) chmodSync(file, 0o755)
}

/** `hookrun init --list`: the templates, one per line. */
export function listTemplates(): string {
  const width = Math.max(...TEMPLATES.map((template) => template.name.length))
  return `${TEMPLATES.map((template) => `${template.name.padEnd(width)}  ${template.description}`).join('\n')}\n`
}
