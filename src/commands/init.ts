// `hookrun init`: a starter hooks.json and scripts from templates.
import { didYouMean } from '../core/suggest.ts'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { SCHEMA_FILE, writeSchemaBeside } from './schema.ts'
import { HookrunError } from '../core/errors.ts'
import { userConfigDir } from '../core/places.ts'
import { type Template, TEMPLATES } from './templates.ts'
import { agentConfigLines, projectMaterialFiles, trustProject } from './trust.ts'

export interface InitOptions {
  readonly cwd: string
  /** Template names; none means every template (the intrusive ones switched off). */
  readonly templates: readonly string[]
  readonly env: Readonly<Record<string, string | undefined>>
}

/**
 * `hookrun init [--template NAME]`: a starter `.hookrun/hooks.json` with scripts (and test cases
 * for the gate) in the project. An existing file is never overwritten: it is reported, and for
 * an existing hooks.json the entries to add are printed instead.
 */
export function initProject(options: InitOptions): string {
  const chosen = chooseTemplates(options.templates)
  const all = options.templates.length === 0
  const folder = join(resolve(options.cwd), '.hookrun')
  const shown = (file: string) => relative(resolve(options.cwd), file)
  const lines: string[] = []
  const hooks = chosen.flatMap((template) => (template.hook === undefined ? [] : [all && !template.onByDefault ? { ...template.hook, enabled: false } : template.hook]))

  const config = join(folder, 'hooks.json')
  const written = new Set<string>()
  const write = (file: string, content: string) => {
    writeNew(file, content)
    written.add(file)
  }
  if (existsSync(config)) {
    const present = namesIn(config)
    const missing = hooks.filter((hook) => !present.has(String(hook.name)))
    if (missing.length === 0) lines.push(`kept   ${shown(config)} (it has these hooks already)`)
    else {
      lines.push(`kept   ${shown(config)} (it exists); add these hooks to its "hooks" list:`)
      lines.push(...JSON.stringify(missing, null, 2).split('\n').map((line) => `         ${line}`))
    }
  } else {
    write(config, `${JSON.stringify({ $schema: `./${SCHEMA_FILE}`, hooks }, null, 2)}\n`)
    lines.push(`wrote  ${shown(config)}`)
    const schema = writeSchemaBeside(config)
    if (schema !== undefined) lines.push(`wrote  ${shown(schema)} (for editors: the $schema of hooks.json)`)
  }
  for (const template of chosen) {
    for (const [path, content] of Object.entries(template.files)) {
      const file = join(folder, path)
      if (existsSync(file)) {
        lines.push(`kept   ${shown(file)} (it exists)`)
        continue
      }
      write(file, content)
      lines.push(`wrote  ${shown(file)}`)
    }
  }
  for (const template of chosen) if (template.userSettings !== undefined) lines.push(...addUserSettings(template.userSettings, options.env))
  // What init wrote itself is trusted at once; any other hook file in the project (a clone's
  // scripts, hook folder, plugins, hooks.local.json) keeps needing the user's own 'hookrun trust':
  // init must not vouch for what it did not write.
  const foreign = projectMaterialFiles(resolve(options.cwd), options.env).filter((file) => !written.has(file))
  if (written.has(config) && foreign.length === 0) {
    trustProject({ cwd: resolve(options.cwd), env: options.env, syncAgents: false })
    lines.push(`trusted the new hooks (hookrun init wrote them); after editing them run 'hookrun trust' again`)
  } else {
    const other = foreign.map(shown).join(', ')
    lines.push(`not trusted: the project has hook files hookrun init did not write (${other}); review them, then run: hookrun trust`)
  }
  if (written.has(config)) lines.push(...agentConfigLines(resolve(options.cwd), options.env))
  const off = hooks.filter((hook) => hook.enabled === false).map((hook) => String(hook.name))
  if (off.length > 0) lines.push('', `switched off until you set "enabled": true: ${off.join(', ')}`)
  lines.push('', 'next: hookrun test   (runs .hookrun/tests/*.json)   ·   hookrun install --agent claude|cursor|gemini|codex|copilot')
  return `${lines.join('\n')}\n`
}

function chooseTemplates(names: readonly string[]): Template[] {
  if (names.length === 0) return [...TEMPLATES]
  return names.map((name) => {
    const template = TEMPLATES.find((candidate) => candidate.name === name)
    if (template === undefined) {
      throw new HookrunError(`--template ${name} is not known${didYouMean(name, TEMPLATES.map((candidate) => candidate.name))}; use one of: ${TEMPLATES.map((candidate) => candidate.name).join(', ')}`)
    }
    return template
  })
}

/**
 * Settings that only the user's own config may hold (the audit log): a new user hooks.json holds
 * them; an existing one is never rewritten, so what to add is printed, unless it has them already.
 */
function addUserSettings(settings: Readonly<Record<string, unknown>>, env: InitOptions['env']): string[] {
  const file = join(userConfigDir(env), 'hooks.json')
  if (!existsSync(file)) {
    writeNew(file, `${JSON.stringify({ $schema: `./${SCHEMA_FILE}`, ...settings }, null, 2)}\n`)
    writeSchemaBeside(file)
    return [`wrote  ${file} (${Object.keys(settings).join(', ')}: your user config)`]
  }
  let present: Record<string, unknown> = {}
  try {
    present = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch {
    // Unreadable or with comments: say what to add, as for any existing file.
  }
  const missing = Object.entries(settings).filter(([key]) => present[key] === undefined)
  if (missing.length === 0) return [`kept   ${file} (it has ${Object.keys(settings).join(', ')} already)`]
  return [`kept   ${file} (it exists); add to it:`, ...JSON.stringify(Object.fromEntries(missing), null, 2).split('\n').slice(1, -1).map((line) => `       ${line}`)]
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
