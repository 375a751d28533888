// `hookrun init`: a starter hooks.json and scripts from templates.
import { didYouMean } from '../core/suggest.ts'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { SCHEMA_FILE, writeSchemaBeside } from './schema.ts'
import { HookrunError } from '../core/errors.ts'
import { userConfigDir } from '../core/places.ts'
import { type Template, TEMPLATES } from './templates.ts'
import { agentConfigLines, projectMaterialFiles, trustProject } from './trust.ts'

interface InitOptions {
  readonly cwd: string
  /** Template names; none means every template (the intrusive ones switched off). */
  readonly templates: readonly string[]
  readonly env: Readonly<Record<string, string | undefined>>
}

/** One file init wrote or kept (`--json`). */
interface InitFile {
  /** From the project folder; the user's config by its absolute path. */
  readonly file: string
  readonly status: 'written' | 'kept'
  /** Why it was kept, or what the written file holds. */
  readonly reason?: string
  /** What to add to a kept file by hand: hooks for a hooks.json, settings for the user's config. */
  readonly add?: unknown
}

/** What `hookrun init` did (`--json`). */
interface InitResult {
  readonly project: string
  readonly files: readonly InitFile[]
  /** init trusted what it wrote; not when the project has hook files it did not write (`untrustedFiles`). */
  readonly trusted: boolean
  readonly untrustedFiles: readonly string[]
  /** Hooks written switched off (`"enabled": false`) until the user turns them on. */
  readonly switchedOff: readonly string[]
  /** The project's narrowed agent configs brought up to date with the new hooks.json, one line each. */
  readonly agentConfigs: readonly string[]
}

/**
 * `hookrun init [--template NAME]`: a starter `.hookrun/hooks.json` with scripts (and test cases
 * for the gate) in the project. An existing file is never overwritten: it is reported, and for
 * an existing hooks.json the entries to add are given instead.
 */
export function initProjectResult(options: InitOptions): InitResult {
  const chosen = chooseTemplates(options.templates)
  const all = options.templates.length === 0
  const project = resolve(options.cwd)
  const folder = join(project, '.hookrun')
  const shown = (file: string) => relative(project, file)
  const files: InitFile[] = []
  const hooks = chosen.flatMap((template) =>
    template.hook === undefined ? [] : [all && !template.onByDefault ? { ...template.hook, enabled: false } : template.hook],
  )

  const config = join(folder, 'hooks.json')
  const written = new Set<string>()
  const write = (file: string, content: string) => {
    writeNew(file, content)
    written.add(file)
    files.push({ file: shown(file), status: 'written' })
  }
  if (existsSync(config)) {
    const present = namesIn(config)
    const missing = hooks.filter((hook) => !present.has(String(hook.name)))
    files.push(
      missing.length === 0
        ? { file: shown(config), status: 'kept', reason: 'it has these hooks already' }
        : { file: shown(config), status: 'kept', reason: 'it exists', add: missing },
    )
  } else {
    write(config, `${JSON.stringify({ $schema: `./${SCHEMA_FILE}`, hooks }, null, 2)}\n`)
    const schema = writeSchemaBeside(config)
    if (schema !== undefined) files.push({ file: shown(schema), status: 'written', reason: 'for editors: the $schema of hooks.json' })
  }
  for (const template of chosen) {
    for (const [path, content] of Object.entries(template.files)) {
      const file = join(folder, path)
      if (existsSync(file)) files.push({ file: shown(file), status: 'kept', reason: 'it exists' })
      else write(file, content)
    }
  }
  for (const template of chosen) if (template.userSettings !== undefined) files.push(addUserSettings(template.userSettings, options.env))
  // What init wrote itself is trusted at once; any other hook file in the project (a clone's
  // scripts, hook folder, plugins, hooks.local.json) keeps needing the user's own 'hookrun trust':
  // init must not vouch for what it did not write.
  const foreign = projectMaterialFiles(project, options.env).filter((file) => !written.has(file))
  const trusted = written.has(config) && foreign.length === 0
  if (trusted) trustProject({ cwd: project, env: options.env, syncAgents: false })
  // A new hooks.json: the project's narrowed agent configs follow it now (install.ts).
  const agentConfigs = written.has(config) ? agentConfigLines(project, options.env) : []
  const switchedOff = hooks.filter((hook) => hook.enabled === false).map((hook) => String(hook.name))
  return { project, files, trusted, untrustedFiles: trusted ? [] : foreign.map(shown), switchedOff, agentConfigs }
}

/** `hookrun init`, for a person: each file written or kept, trust, and what to do next. */
export function initProject(options: InitOptions): string {
  const result = initProjectResult(options)
  const lines: string[] = []
  for (const entry of result.files) {
    if (entry.status === 'written') {
      lines.push(`wrote  ${entry.file}${entry.reason === undefined ? '' : ` (${entry.reason})`}`)
      continue
    }
    const isHooks = Array.isArray(entry.add)
    lines.push(
      `kept   ${entry.file} (${entry.reason})${entry.add === undefined ? '' : isHooks ? '; add these hooks to its "hooks" list:' : '; add to it:'}`,
    )
    if (isHooks)
      lines.push(
        ...JSON.stringify(entry.add, null, 2)
          .split('\n')
          .map((line) => `         ${line}`),
      )
    else if (entry.add !== undefined)
      lines.push(
        ...JSON.stringify(entry.add, null, 2)
          .split('\n')
          .slice(1, -1)
          .map((line) => `       ${line}`),
      )
  }
  if (result.trusted) lines.push(`trusted the new hooks (hookrun init wrote them); after editing them run 'hookrun trust' again`)
  else
    lines.push(
      `not trusted: the project has hook files hookrun init did not write (${result.untrustedFiles.join(', ')}); review them, then run: hookrun trust`,
    )
  lines.push(...result.agentConfigs)
  if (result.switchedOff.length > 0) lines.push('', `switched off until you set "enabled": true: ${result.switchedOff.join(', ')}`)
  lines.push('', 'next: hookrun test   (runs .hookrun/tests/*.json)   ·   hookrun install --agent claude|cursor|gemini|codex|copilot')
  return `${lines.join('\n')}\n`
}

function chooseTemplates(names: readonly string[]): Template[] {
  if (names.length === 0) return [...TEMPLATES]
  return names.map((name) => {
    const template = TEMPLATES.find((candidate) => candidate.name === name)
    if (template === undefined) {
      throw new HookrunError(
        `--template ${name} is not known${didYouMean(
          name,
          TEMPLATES.map((candidate) => candidate.name),
        )}; use one of: ${TEMPLATES.map((candidate) => candidate.name).join(', ')}`,
      )
    }
    return template
  })
}

/**
 * Settings that only the user's own config may hold (the audit log): a new user hooks.json holds
 * them; an existing one is never rewritten, so what to add is given, unless it has them already.
 */
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

/** The hook names an existing hooks.json already has (none when it cannot be read). */
function namesIn(file: string): Set<string> {
  try {
    const hooks = (JSON.parse(readFileSync(file, 'utf8')) as { hooks?: unknown }).hooks
    return new Set(Array.isArray(hooks) ? hooks.flatMap((hook) => (typeof hook?.name === 'string' ? [hook.name] : [])) : [])
  } catch {
    return new Set()
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
