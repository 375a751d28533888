// Plugin management: add (folder or git URL), list, remove.
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve, sep } from 'node:path'
import type { ConfigProblem } from '../core/types.ts'
import { parseConfigDocument, readConfigFile } from '../config/parse.ts'
import { pluginConfigHooks } from './plugin-config.ts'
import { HookrunError } from '../core/errors.ts'
import { installedPlugins, pluginNameOf, pluginsDir, pluginSources, type Scope } from '../discover/folders.ts'
import { nodeChildProcess } from '../core/builtins.ts'

/**
 * Installing, listing and removing plugins (`hookrun plugin …`). A plugin is a folder with a
 * `hooks.json`, an agent's plugin layout (a manifest, `hooks/hooks.json`), or a `hooks/` folder of
 * executables (src/discover/folders.ts `pluginSources`). It is installed as a copy: from a
 * local folder, or from a git repository (the system `git`) at an optional branch, tag or commit.
 * An install is built in a hidden folder beside its destination and renamed into place at the
 * end, so a failed or interrupted add leaves nothing that discovery could pick up.
 */

type Env = Readonly<Record<string, string | undefined>>

/** Where the source was, written into each install (`.hookrun-plugin.json`). */
const PLUGIN_METADATA_FILE = '.hookrun-plugin.json'

interface PluginSource {
  readonly kind: 'folder' | 'git'
  /** An absolute folder, or a git URL (a local repository is cloned by path). */
  readonly location: string
  readonly ref?: string
}

export interface PluginInfo {
  readonly name: string
  readonly location: Scope
  readonly path: string
  /** Every hook name: the plugin's hooks.json hooks, then its executables. */
  readonly hooks: readonly string[]
  readonly source?: string
  readonly ref?: string
  readonly commit?: string
}

interface PluginOptions {
  readonly scope: Scope
  readonly projectRoot: string
  readonly env?: Env
}

const GIT_URL = /^[a-z][a-z0-9+.-]*:\/\//i
const SCP_LIKE = /^[\w.-]+@[\w.-]+:/
const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)?$/
const COMMIT = /^[0-9a-f]{7,40}$/i

/**
 * `<path | git URL>[@ref]`. A URL (`https://…`, `file://…`, `git@host:org/repo`) is a git
 * repository; anything else is a local folder, and a folder with `@ref` is cloned as a repository.
 */
export function parsePluginSource(spec: string, cwd: string): PluginSource {
  if (GIT_URL.test(spec) || SCP_LIKE.test(spec)) {
    // The ref's `@` comes after the host part (which may hold `user@` itself).
    const pathStart = GIT_URL.test(spec) ? spec.indexOf('/', spec.indexOf('://') + 3) : spec.indexOf(':')
    const at = spec.lastIndexOf('@')
    if (pathStart >= 0 && at > pathStart) return { kind: 'git', location: spec.slice(0, at), ...nonEmptyRef(spec.slice(at + 1), spec) }
    return { kind: 'git', location: spec }
  }
  const path = resolve(cwd, spec)
  if (existsSync(path)) return { kind: 'folder', location: path }
  const at = spec.lastIndexOf('@')
  if (at > 0 && existsSync(resolve(cwd, spec.slice(0, at)))) {
    return { kind: 'git', location: resolve(cwd, spec.slice(0, at)), ...nonEmptyRef(spec.slice(at + 1), spec) }
  }
  throw new HookrunError(`no such folder '${spec}'; a plugin is a local folder or a git URL such as https://github.com/org/repo[@ref]`)
}

function nonEmptyRef(ref: string, spec: string): { ref: string } {
  if (ref === '') throw new HookrunError(`'${spec}' ends with '@' but names no branch, tag or commit after it`)
  return { ref }
}

/** The name a source installs under: `org/repo` from a URL's last two path segments, a folder's own name. */
export function pluginNameFromSource(source: PluginSource): string {
  // A local folder (copied, or cloned at a ref) is named after itself.
  if (source.kind === 'folder' || !(GIT_URL.test(source.location) || SCP_LIKE.test(source.location)))
    return pluginNameOf(basename(source.location))
  const path = source.location.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/^[^:/]*:/, '')
  const segments = path.split(/[/\\]/).filter((segment) => segment !== '')
  const last = segments.slice(-2).map((segment) => segment.replace(/\.git$/, ''))
  return last.join('/')
}

function checkPluginName(name: string): void {
  if (!NAME.test(name) || name.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new HookrunError(
      `plugin name '${name}' is not usable: expected 'org/repo' or 'name' (letters, digits, . _ -); pass --name org/repo`,
    )
  }
}

/** Install a plugin; returns what was installed. */
export async function addPlugin(
  spec: string,
  options: PluginOptions & { readonly name?: string; readonly cwd: string },
): Promise<{ plugin: PluginInfo; problems: ConfigProblem[] }> {
  const env = options.env ?? process.env
  const source = parsePluginSource(spec, options.cwd)
  const name = options.name ?? pluginNameFromSource(source)
  checkPluginName(name)
  const base = pluginsDir(options.scope, options.projectRoot, env)
  const target = join(base, name.replace('/', '@'))
  if (existsSync(target)) {
    throw new HookrunError(
      `plugin '${name}' is already installed at ${target}; remove it first with 'hookrun plugin remove ${name}${options.scope === 'user' ? ' --global' : ''}'`,
    )
  }
  if (source.kind === 'folder') checkFolderSource(source.location, base)

  mkdirSync(base, { recursive: true })
  const temporary = mkdtempSync(join(base, '.add-'))
  const cleanUp = () => rmSync(temporary, { recursive: true, force: true })
  const interrupted = (signal: NodeJS.Signals) => {
    cleanUp()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)
  try {
    const commit = source.kind === 'git' ? await fetchRepository(source, temporary, env) : copyFolder(source.location, temporary)
    const problems: ConfigProblem[] = []
    const hooks = pluginHookNames(temporary, name, problems)
    if (hooks.length === 0) {
      // Every distinct reason (a hook skipped as hookrun's own router may come after a warning).
      const why = [...new Set(problems.map((problem) => problem.message))].map((message) => `; ${message}`).join('')
      throw new HookrunError(
        `${spec} has no hooks: a plugin needs a hooks.json with hooks, a plugin manifest or hooks/hooks.json with hooks, or executables in hooks/${why}; nothing was installed`,
      )
    }
    const metadata = {
      name,
      source: source.location,
      ...(source.ref !== undefined && { ref: source.ref }),
      ...(commit !== undefined && { commit }),
      installedAt: new Date().toISOString(),
    }
    writeFileSync(join(temporary, PLUGIN_METADATA_FILE), `${JSON.stringify(metadata, null, 2)}\n`)
    chmodSync(temporary, 0o755) // mkdtemp made it private; an installed plugin is an ordinary folder
    try {
      renameSync(temporary, target)
    } catch (error) {
      throw new HookrunError(`cannot install plugin '${name}' at ${target}: ${(error as Error).message}; nothing was installed`)
    }
    // Problems name the final place, where the user will find the file.
    const moved = problems.map((problem) => ({ ...problem, file: join(target, relative(temporary, problem.file)) }))
    return { plugin: describePlugin(name, options.scope, target), problems: moved }
  } catch (error) {
    cleanUp()
    throw error
  } finally {
    process.off('SIGINT', interrupted)
    process.off('SIGTERM', interrupted)
  }
}

function checkFolderSource(folder: string, base: string): void {
  if (!statSync(folder).isDirectory()) throw new HookrunError(`${folder} is a file; a plugin is a folder with hooks.json and/or hooks/`)
  const inside = relative(folder, base)
  if (inside === '' || (!inside.startsWith('..') && !inside.startsWith(sep))) {
    throw new HookrunError(`cannot add ${folder} as a plugin: the plugins folder ${base} is inside it`)
  }
}

function copyFolder(from: string, to: string): undefined {
  // Modes are kept (hooks stay executable); a repository's .git is history, not plugin.
  cpSync(from, to, { recursive: true, filter: (path) => basename(path) !== '.git' })
  return undefined
}

/** Clone `source` into `into` at its ref; returns the commit. Each way it can fail is one clear line. */
async function fetchRepository(source: PluginSource, into: string, env: Env): Promise<string> {
  const url = source.location
  const refs = await git(['ls-remote', '--', url], env)
  if (refs.exitCode !== 0) throw new HookrunError(`cannot read git repository ${url}: ${lastLine(refs.stderr)}`)
  const ref = source.ref
  const named =
    ref !== undefined &&
    refs.stdout.split('\n').some((line) => {
      const name = line.split('\t')[1]
      return name === `refs/heads/${ref}` || name === `refs/tags/${ref}` || name === ref
    })
  if (ref === undefined || named) {
    const clone = await git(['clone', '--quiet', '--depth', '1', ...(ref === undefined ? [] : ['--branch', ref]), '--', url, into], env)
    if (clone.exitCode !== 0) throw new HookrunError(`cannot clone ${url}${ref === undefined ? '' : `@${ref}`}: ${lastLine(clone.stderr)}`)
  } else {
    if (!COMMIT.test(ref)) throw new HookrunError(`no branch or tag '${ref}' in ${url}`)
    const clone = await git(['clone', '--quiet', '--no-checkout', '--', url, into], env)
    if (clone.exitCode !== 0) throw new HookrunError(`cannot clone ${url}: ${lastLine(clone.stderr)}`)
    const checkout = await git(['-C', into, 'checkout', '--quiet', '--detach', ref], env)
    if (checkout.exitCode !== 0) throw new HookrunError(`no branch, tag or commit '${ref}' in ${url}`)
  }
  const head = await git(['-C', into, 'rev-parse', 'HEAD'], env)
  rmSync(join(into, '.git'), { recursive: true, force: true })
  return head.stdout.trim()
}

async function git(args: string[], env: Env): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const { spawnSync } = nodeChildProcess()
  // Never wait for a password prompt: a private or missing repository is an error.
  const result = spawnSync('git', args, {
    env: { ...env, GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new HookrunError('git is not installed or not on PATH; it is needed to add a plugin from a repository')
  if (result.error !== undefined) throw result.error
  return { exitCode: result.status ?? undefined, stdout: result.stdout, stderr: result.stderr }
}

function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('warning:'))
  return lines.find((line) => line.startsWith('fatal:'))?.replace(/^fatal: /, '') ?? lines.at(-1) ?? 'git failed'
}

/** A plugin folder's hook names, as fire would name them; problems of its manifest and hooks files are collected. */
function pluginHookNames(dir: string, name: string, problems: ConfigProblem[] = []): string[] {
  const plugin = { name, dir, scope: 'project' as const }
  const reader = { readConfigFile, parseConfigDocument }
  return pluginSources(plugin, 'project-plugin', [], problems).flatMap((source) => {
    if (source.kind === 'executable') return [source.name]
    const { hooks, ignored } = pluginConfigHooks(source, problems, reader)
    for (const event of ignored) {
      problems.push({
        severity: 'warning',
        file: source.file,
        path: `hooks.${event}`,
        message: `event '${event}' is not one hookrun knows; its hooks are ignored, as the Open Plugins spec requires`,
      })
    }
    return hooks.map((hook) => hook.name)
  })
}

/** Installed plugins, the project's first. */
export function listPlugins(options: { readonly projectRoot: string; readonly env?: Env }): PluginInfo[] {
  const env = options.env ?? process.env
  return (['project', 'user'] as const).flatMap((scope) =>
    installedPlugins(scope, options.projectRoot, env).map((plugin) => describePlugin(plugin.name, scope, plugin.dir)),
  )
}

function describePlugin(name: string, location: Scope, path: string): PluginInfo {
  return { name, location, path, ...readMetadata(path), hooks: pluginHookNames(path, name) }
}

function readMetadata(dir: string): { source?: string; ref?: string; commit?: string } {
  try {
    const { source, ref, commit } = JSON.parse(readFileSync(join(dir, PLUGIN_METADATA_FILE), 'utf8')) as Record<string, unknown>
    return {
      ...(typeof source === 'string' && { source }),
      ...(typeof ref === 'string' && { ref }),
      ...(typeof commit === 'string' && { commit }),
    }
  } catch {
    return {} // placed by hand: a plugin all the same
  }
}

/** Remove an installed plugin (`org/repo` or its folder name `org@repo`). */
export function removePlugin(name: string, options: PluginOptions): PluginInfo {
  const env = options.env ?? process.env
  const wanted = pluginNameOf(name)
  const installed = installedPlugins(options.scope, options.projectRoot, env)
  const plugin = installed.find((candidate) => candidate.name === wanted)
  if (plugin === undefined) {
    const where = options.scope === 'user' ? 'for the user' : 'in this project'
    const elsewhere = installedPlugins(options.scope === 'user' ? 'project' : 'user', options.projectRoot, env).some(
      (candidate) => candidate.name === wanted,
    )
    const hint = elsewhere
      ? options.scope === 'user'
        ? '; it is installed in the project: drop --global'
        : '; it is installed for the user: add --global'
      : ''
    const names = installed.map((candidate) => candidate.name).join(', ')
    throw new HookrunError(
      `no plugin '${name}' installed ${where} (${pluginsDir(options.scope, options.projectRoot, env)}${names === '' ? '' : `: ${names}`})${hint}`,
    )
  }
  const info = describePlugin(plugin.name, options.scope, plugin.dir)
  // Out of discovery's sight first, then deleted: a fire never sees half a plugin.
  const doomed = join(plugin.dir, '..', `.remove-${basename(plugin.dir)}-${process.pid}`)
  renameSync(plugin.dir, doomed)
  rmSync(doomed, { recursive: true, force: true })
  return info
}
