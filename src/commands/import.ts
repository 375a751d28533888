// `hookrun import`: an agent's own hooks moved into hooks.json, and hookrun's router put in their place.
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { getNodeValue } from 'jsonc-parser'
import { count } from '../core/words.ts'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { didYouMean } from '../core/suggest.ts'
import { homeOf, makeOwnFolder, stateDir, userConfigDir } from '../core/places.ts'
import { agentNamed } from '../agents/registry.ts'
import { agentTarget } from '../install/agents.ts'
import type { Scope } from '../install/agent-target.ts'
import type { Edited } from '../install/agent-write.ts'
import { type AgentFileImport, IMPORT_AGENTS, type ImportAgent, readAgentFile, sourceFiles } from '../install/import.ts'
import type { Node } from 'jsonc-parser'
import { appendAt, child, JsonTextError, parseJson, replaceAt, styleOf } from '../install/json-text.ts'
import { routedEventsIn } from '../install/overlaps.ts'
import { installAgents } from './install.ts'
import { followsNarrowed } from '../install/narrowed-sync.ts'
import { type AgentFiles, diskFiles } from '../install/results.ts'
import { SCHEMA_FILE, writeSchemaBeside } from './schema.ts'

interface ImportOptions {
  readonly agents: readonly string[]
  readonly scope: Scope
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** `--dry-run`: write nothing, print the diff of every file that would change. */
  readonly dryRun: boolean
  /** The command agents run for hookrun (install's default: this hookrun). */
  readonly self?: string
}

/** Every file import touches, as it was and as it will be: nothing is written until all are known. */
class PlannedFiles implements AgentFiles {
  readonly before = new Map<string, string | undefined>()
  readonly after = new Map<string, string>()
  private readonly disk: AgentFiles
  constructor(disk: AgentFiles) {
    this.disk = disk
  }
  read(file: string): string | undefined {
    return this.after.has(file) ? this.after.get(file) : this.disk.read(file)
  }
  write(file: string, text: string): void {
    if (!this.before.has(file)) this.before.set(file, this.disk.read(file))
    this.after.set(file, text)
  }
  edit(file: string, change: (text: string | undefined) => string | undefined): Edited {
    const text = this.read(file)
    const next = change(text)
    if (next === undefined || next === text) return { written: false, created: false }
    this.write(file, next)
    return { written: true, created: text === undefined }
  }
  /** What is planned so far, to go back to when an agent's part cannot be finished. */
  checkpoint(): Map<string, string> {
    return new Map(this.after)
  }
  rollback(to: Map<string, string>): void {
    for (const file of [...this.after.keys()]) if (!to.has(file)) this.after.delete(file)
    for (const [file, text] of to) this.after.set(file, text)
  }
  /** The files whose text changes, with both texts. */
  changed(): Array<{ file: string; before: string | undefined; after: string }> {
    return [...this.after]
      .filter(([file, after]) => this.before.get(file) !== after)
      .map(([file, after]) => ({ file, before: this.before.get(file), after }))
  }
}

/**
 * `hookrun import`: an agent's own hooks (src/install/import.ts) become entries of the scope's hooks.json, with install's router
 * entries in their place. All is planned, then written with backups (`--dry-run`: the diffs); importing again changes nothing.
 */
export async function importAgents(options: ImportOptions): Promise<{ output: string; exitCode: number }> {
  if (options.agents.length === 0) throw new HookrunError(`--agent is required: one of ${IMPORT_AGENTS.join(', ')}`)
  const agents = options.agents.map((name): ImportAgent => {
    const found = IMPORT_AGENTS.find((agent) => agent === name.toLowerCase())
    if (found !== undefined) return found
    throw new HookrunError(`--agent ${name}: hookrun import reads ${IMPORT_AGENTS.join(', ')}${didYouMean(name, IMPORT_AGENTS)}`)
  })
  const project = resolve(options.cwd)
  const places = { home: homeOf(options.env), project, env: options.env }
  const hooksFile = options.scope === 'project' ? join(project, '.hookrun', 'hooks.json') : join(userConfigDir(options.env), 'hooks.json')
  const files = new PlannedFiles(diskFiles(options.env))
  const lines: string[] = []
  let exitCode: number = ExitCode.Proceed
  // A file teammates share (Claude Code's project settings.json) whose hooks moved: they need hookrun too.
  let shared: { file: string; agent: ImportAgent; label: string } | undefined

  for (const agent of [...new Set(agents)]) {
    const target = agentTarget(agent)!
    const start = files.checkpoint()
    const before = lines.length
    const sources = sourceFiles(agent, options.scope, places)
    let read: AgentFileImport[]
    try {
      read = sources.flatMap((file) => {
        const text = files.read(file)
        if (text === undefined) return []
        try {
          return [readAgentFile(agent, file, text, options.scope)]
        } catch (error) {
          if (error instanceof JsonTextError) throw new JsonTextError(`${file} ${error.message}`)
          throw error
        }
      })
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      lines.push(`${agent}: ${error.message}; nothing imported from ${target.label} (fix the file and run import again)`)
      exitCode = ExitCode.Failure
      continue
    }
    // Codex may hold hooks inline in config.toml too; import reads hooks.json only, and says so.
    const how = agentNamed(agent)!.hooksImport!
    const unread = how.unreadFile
    const unreadFile = unread === undefined ? undefined : join(dirname(target.file(options.scope, places)), unread.name)
    if (unreadFile !== undefined && unread!.holdsHooks.test(files.read(unreadFile) ?? '')) {
      lines.push(
        `${agent}: ${unreadFile} has ${unread!.what}, which import does not read: move them to ${target.file(options.scope, places)} and import again`,
      )
    }
    const moved = read.reduce((sum, each) => sum + each.moved.length, 0)
    const held = read.reduce((sum, each) => sum + each.moved.length + each.staying.length + each.routers, 0)
    // Only Copilot's folder can hold no file at all.
    const where = sources.length === 0 ? join(dirname(target.file(options.scope, places)), '*.json') : sources.join(', ')
    if (held === 0) {
      lines.push(
        `${agent}: no hooks to import: ${where} ${sources.length > 1 ? 'hold' : 'holds'} no ${target.label} hooks${options.scope === 'project' ? ' (for your own, use --user)' : " (for a project's, use --project)"}`,
      )
      exitCode = ExitCode.Failure
      continue
    }
    const routed = read.some((each) => each.routers > 0)
    if (moved === 0) lines.push(`${agent}: nothing to move from ${where}${routed ? " (hookrun's router is there already)" : ''}`)
    for (const each of read) {
      if (each.moved.length > 0) {
        const placed = each.moved.map((hook) => `  ${hook.path} → ${placeEntry(files, hooksFile, hook.entry)}`)
        lines.push(`${agent}: moved ${count(each.moved.length, 'hook')} from ${each.file} into ${hooksFile}`, ...placed)
        files.write(each.file, each.text)
        if (how.sharedFile !== undefined && options.scope === 'project' && each.file.endsWith(join(...how.sharedFile.split('/'))))
          shared = { file: each.file, agent, label: target.label }
      }
      for (const hook of each.moved) for (const field of hook.notCarried) lines.push(`  not carried: ${each.file}: ${hook.path}.${field}`)
      for (const stay of each.staying) lines.push(`  stays in ${each.file}: ${stay.path}: ${stay.why}`)
    }
    if (moved === 0 && !routed) continue
    // The router where the hooks were (install, on the planned files); an --events install keeps its events plus the moved ones'.
    const installed = files.read(target.file(options.scope, places))
    const already = installed === undefined ? [] : routedEventsIn(installed, agent)
    const needed = read.flatMap((each) => each.moved.map((hook) => hook.path.replace(/^hooks\.([^[]+)\[.*$/, '$1')))
    const events = already.length > 0 ? [...new Set([...already, ...needed])].filter((event) => target.events.includes(event)) : undefined
    // A new or followed router is narrowed after trust; with nothing moved, a followed one is left as it was compiled.
    const followed = options.scope === 'project' && already.length > 0 && followsNarrowed(project, options.env, agent)
    if (followed && moved === 0) continue
    const narrowAfterTrust = options.scope === 'project' && (already.length === 0 || followed)
    const install = installAgents(
      {
        agents: [agent],
        scope: options.scope,
        cwd: project,
        env: options.env,
        files,
        dryRun: options.dryRun,
        narrowAfterTrust,
        ...(events !== undefined && { events }),
        ...(options.self !== undefined && { self: options.self }),
      },
      false,
    )
    if (install.exitCode !== ExitCode.Proceed) {
      // No router, so nothing moves: the agent keeps running its hooks where they are.
      files.rollback(start)
      if (shared?.agent === agent) shared = undefined
      lines.splice(
        before,
        lines.length - before,
        ...install.output.trimEnd().split('\n'),
        `${agent}: nothing imported from ${target.label}: its hooks stay where they are until hookrun's router can be installed`,
      )
      exitCode = ExitCode.Failure
      continue
    }
    lines.push(...install.output.trimEnd().split('\n'))
  }

  const changed = files.changed()
  if (changed.some((each) => each.file === hooksFile)) {
    if (shared !== undefined) {
      lines.push(
        `note: ${shared.file} is shared: teammates' ${shared.label} now runs these hooks through hookrun, so they need hookrun, \`hookrun install --agent ${shared.agent} --project\` and \`hookrun trust\` too`,
      )
    }
    // HOOKRUN_CONFIG replaces discovery: fire would not read the file the hooks went to.
    if (options.env.HOOKRUN_CONFIG)
      lines.push(
        `note: HOOKRUN_CONFIG is set (${options.env.HOOKRUN_CONFIG}), so fire reads only the files it names, not ${hooksFile}: add it there, or unset it`,
      )
    if (options.scope === 'project') {
      lines.push(
        `next: run \`hookrun trust${options.cwd === process.cwd() ? '' : ` ${project}`}\`: ${hooksFile} changed, and a project's hooks run only once you trust them (until now the agent ran them under its own trust)`,
      )
    }
  }
  if (options.dryRun) {
    const { createTwoFilesPatch, FILE_HEADERS_ONLY } = await import('diff')
    const diffs = changed.map((each) =>
      createTwoFilesPatch(
        each.before === undefined ? '/dev/null' : each.file,
        each.file,
        each.before ?? '',
        each.after,
        undefined,
        undefined,
        { context: 3, headerOptions: FILE_HEADERS_ONLY },
      ),
    )
    const header =
      changed.length === 0
        ? 'dry run: nothing would change'
        : `dry run: nothing written; import would change ${count(changed.length, 'file')}:`
    return { output: `${header}\n${lines.join('\n')}\n${diffs.join('')}`, exitCode }
  }
  if (changed.length > 0) lines.push(...commit(changed, hooksFile, options.env))
  return { output: `${lines.join('\n')}\n`, exitCode }
}

/** One moved hook put into hooks.json (planned): appended; the same entry kept, a different one of its name replaced. Says where. */
function placeEntry(files: PlannedFiles, hooksFile: string, entry: Readonly<Record<string, unknown>> & { readonly name: string }): string {
  const text = files.read(hooksFile) ?? `${JSON.stringify({ $schema: `./${SCHEMA_FILE}`, hooks: [] }, null, 2)}\n`
  let root: Node
  try {
    root = parseJson(text, false)
  } catch (error) {
    if (error instanceof JsonTextError)
      throw new HookrunError(`${hooksFile} ${error.message}; fix it, then run import again (nothing was changed)`)
    throw error
  }
  const list = child(root, 'hooks')
  if (root.type !== 'object' || (list !== undefined && list.type !== 'array')) {
    throw new HookrunError(
      `${hooksFile}: "hooks" is written in an agent's object form, and import adds to hookrun's list ([ … ]); rewrite it as a list or import into the other scope (${hooksFile.includes('.hookrun') ? '--user' : '--project'}); nothing was changed`,
    )
  }
  const existing = list === undefined ? [] : (getNodeValue(list) as unknown[])
  const index = existing.findIndex((item) => typeof item === 'object' && item !== null && (item as { name?: unknown }).name === entry.name)
  const label = `"${entry.name}"`
  if (index >= 0 && canonical(existing[index]) === canonical(entry)) return `already in hooks.json as hooks[${index}] ${label}`
  if (index >= 0) {
    files.write(hooksFile, replaceAt(text, ['hooks', index], entry))
    return `hooks[${index}] ${label} (it replaced the entry of that name)`
  }
  files.write(hooksFile, appendAt(text, styleOf(text), ['hooks'], entry))
  return `hooks[${existing.length}] ${label}`
}

/** JSON with object keys in order, to compare two entries by what they say. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  )
}

/** Write every planned file, each one that existed backed up first; the lines that say how to undo it. */
function commit(
  changed: ReadonlyArray<{ file: string; before: string | undefined; after: string }>,
  hooksFile: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const backups = join(stateDir(env), 'import-backups', new Date().toISOString().replace(/[:.]/g, '-'))
  const existed = changed.filter((each) => each.before !== undefined)
  if (existed.length > 0) {
    makeOwnFolder(backups, env)
    existed.forEach((each, index) => {
      writeFileSync(join(backups, `${index + 1}-${each.file.replaceAll('/', '_')}`), each.before!, { mode: 0o600 })
    })
  }
  const disk = diskFiles(env)
  // Planned from the file as it was: a file another program changed since is still replaced whole (backed up above).
  for (const each of changed) disk.edit(each.file, () => each.after, each.before === undefined && each.file !== hooksFile)
  const created = changed.filter((each) => each.before === undefined).map((each) => each.file)
  // A hooks.json import created names its schema beside it (`$schema`): written with it.
  if (created.includes(hooksFile)) {
    const schema = writeSchemaBeside(hooksFile)
    if (schema !== undefined) created.push(schema)
  }
  return [
    ...(existed.length > 0
      ? [
          `backup: ${backups} holds ${existed.map((each) => each.file).join(', ')} as ${existed.length > 1 ? 'they were (to undo, copy them back)' : 'it was (to undo, copy it back)'}`,
        ]
      : []),
    ...(created.length > 0 ? [`created: ${created.join(', ')} (to undo, delete ${created.length > 1 ? 'them' : 'it'})`] : []),
  ]
}
