// `hookrun scan`: every hook the files of a project make an agent run, hookrun's own told apart
// from foreign ones, each foreign one flagged by what it does. Parses; runs nothing the project holds.
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { nodeChildProcess } from '../core/builtins.ts'
import { JsonTextError } from './json-text.ts'
import { readScanned, type ScannedHook } from './scan-read.ts'
import { SCAN_ORDER } from '../agents/registry.ts'
import type { ScanSource } from '../agents/native-config.ts'

// Every project file some known agent reads hooks or plugins from, in the registry's scan order (each module's `scan`).
export const SCAN_SOURCES: readonly ScanSource[] = SCAN_ORDER.flatMap((agent) => agent.scan?.sources ?? [])

/** Agents hookrun knows that read no hook file from a project, and why. */
const NO_PROJECT_FILE: Readonly<Record<string, string>> = Object.fromEntries(
  SCAN_ORDER.flatMap((agent) => (agent.scan?.noProjectFile === undefined ? [] : [[agent.name, agent.scan.noProjectFile]])),
)

/** The agents scan speaks of, in the order it lists what it looked at, each with its name there. */
const SCAN_AGENTS: ReadonlyArray<readonly [string, string]> = SCAN_ORDER.map((agent) => [agent.name, agent.scan?.label ?? agent.label])

/** Larger than any hooks file; a plugin past it is reported, not read. */
const MAX_BYTES = 4 * 1024 * 1024

export interface ScannedFile {
  /** Relative to the project. */
  readonly file: string
  readonly agents: readonly string[]
  /** Tracked by git: true, false, or 'unknown' (no git, or not a repository). */
  readonly tracked: boolean | 'unknown'
  /** A file the agents cannot read either (not JSON, not the shape they expect, not a regular file, too large). */
  readonly problem?: string
  readonly hooks: readonly ScannedHook[]
  /** The agent `hookrun import --agent X --project` moves this file's hooks for. */
  readonly importAgent?: string
}

export interface ScanReport {
  readonly project: string
  readonly files: readonly ScannedFile[]
  /** Per agent, the project files looked at (a folder ends with `/`). */
  readonly looked: ReadonlyArray<{
    readonly agent: string
    readonly label: string
    readonly files: readonly string[]
    readonly note?: string
  }>
  /** Why git could not say which files it tracks, when it could not. */
  readonly gitUnknown?: string
}

/** Sub-folders deep enough for any layout of subagents or commands; a deeper tree is not walked. */
const MAX_DEPTH = 8

/** The files a source names that exist in the project (a folder's matching entries, sorted). */
function filesOf(source: ScanSource, project: string): string[] {
  const base = join(project, source.path)
  if (source.entries === undefined && source.nested === undefined) return exists(base) ? [base] : []
  if (source.nested !== undefined)
    return namesIn(base)
      .map((name) => join(base, name, source.nested!))
      .filter(exists)
  return entriesOf(base, source.entries!, source.recursive === true ? MAX_DEPTH : 0)
}

/** A folder's entries whose names match, and (with `depth`) its sub-folders' too, linked folders not followed. */
function entriesOf(folder: string, entries: RegExp, depth: number): string[] {
  return namesIn(folder).flatMap((name) => {
    const path = join(folder, name)
    // A folder among hook programs or plugins is not one: the agents skip it.
    if (isFolder(path)) return depth > 0 && lstatSync(path).isDirectory() ? entriesOf(path, entries, depth - 1) : []
    return entries.test(name) ? [path] : []
  })
}

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder).sort()
  } catch {
    return []
  }
}

function isFolder(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() === true
}

function exists(file: string): boolean {
  try {
    lstatSync(file)
    return true
  } catch {
    return false
  }
}

/** The file's text, or why the agent could not read it either; never opens a FIFO or a device (it would hang). */
function readSafely(file: string): { content: string; executable: boolean } | { problem: string } {
  let stat: ReturnType<typeof statSync>
  try {
    stat = statSync(file)
  } catch {
    return { problem: 'a link to nothing' }
  }
  if (stat.isDirectory()) return { problem: 'a folder, not a file' }
  if (!stat.isFile()) return { problem: 'not a regular file (a pipe or a device): not read' }
  if (stat.size > MAX_BYTES) return { problem: `${stat.size} bytes, over the ${MAX_BYTES} scan reads: look at it yourself` }
  try {
    return { content: readFileSync(file, 'utf8'), executable: (stat.mode & 0o111) !== 0 }
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` }
  }
}

/** Which of `files` git tracks, asked of the user's git with no shell and `core.fsmonitor` off (a repository's config may name a program). */
function trackedFiles(project: string, files: readonly string[], env: Readonly<Record<string, string | undefined>>): Set<string> | string {
  if (files.length === 0) return new Set()
  try {
    const out = nodeChildProcess().execFileSync(
      'git',
      ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-C', project, 'ls-files', '-z', '--', ...files],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_LITERAL_PATHSPECS: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
    )
    return new Set(out.split('\0').filter((name) => name !== ''))
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim()
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'git is not installed'
    return /not a git repository/i.test(stderr) ? 'not a git repository' : `git ls-files failed: ${stderr.split('\n')[0] || String(error)}`
  }
}

/** Read every file a known agent reads hooks from in `project`; nothing in them is run. */
export function scanProject(project: string, env: Readonly<Record<string, string | undefined>>): ScanReport {
  const found: Array<{ source: ScanSource; file: string; read: ReturnType<typeof readSafely> }> = []
  for (const source of SCAN_SOURCES) for (const file of filesOf(source, project)) found.push({ source, file, read: readSafely(file) })
  const names = found.map((each) => relative(project, each.file))
  const tracked = trackedFiles(project, names, env)
  const scanned = found.map(({ source, file, read }, index): ScannedFile => {
    const name = names[index]!
    const isTracked = typeof tracked === 'string' ? ('unknown' as const) : tracked.has(name)
    const base = {
      file: name,
      agents: source.agents,
      tracked: isTracked,
      ...(source.importAgent !== undefined && { importAgent: source.importAgent }),
    }
    if ('problem' in read) return { ...base, problem: read.problem, hooks: [] }
    try {
      const hooks = readScanned(source, file, read.content, read.executable, project).map((hook) =>
        !hook.own && isTracked === false ? { ...hook, flags: [...hook.flags, 'untracked' as const] } : hook,
      )
      return { ...base, hooks }
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      return { ...base, problem: error.message, hooks: [] }
    }
  })
  // A skill or subagent without hooks is no finding, and a project may have hundreds.
  const files = scanned.filter((file, index) => !found[index]!.source.onlyWithHooks || file.problem !== undefined || file.hooks.length > 0)
  const looked = SCAN_AGENTS.map(([agent, label]) => {
    const sources = SCAN_SOURCES.filter((source) => source.owners.includes(agent))
    const note = NO_PROJECT_FILE[agent]
    return {
      agent,
      label,
      files: sources.map((source) =>
        source.nested !== undefined ? `${source.path}/*/${source.nested}` : `${source.path}${source.entries === undefined ? '' : '/'}`,
      ),
      ...(note !== undefined && { note }),
    }
  })
  return { project, files, looked, ...(typeof tracked === 'string' && { gitUnknown: tracked }) }
}
