// Stage config, first step: which config files there are for a working directory (docs/config.md).
// Kept apart from the rest of the stage so a fire that has a plan (./plan.ts) loads only this.
import { existsSync, statSync } from 'node:fs'
import { delimiter, dirname, join, resolve } from 'node:path'
import { HookrunError } from '../core/errors.ts'
import { managedConfigDir, userConfigDir } from '../core/places.ts'
import type { ConfigFileRef } from '../core/types.ts'

export interface LoadOptions {
  /** Working directory to discover the project from. */
  readonly cwd: string
  /** Files named by the caller (`--config`); they replace discovery. */
  readonly configFiles?: readonly string[]
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** The config files found for a working directory, in layer order. */
export interface FoundConfigFiles {
  readonly files: ConfigFileRef[]
  /** The project's root (the nearest project at or above the working directory), else the working directory. */
  readonly projectRoot: string
  /** A project (a folder with hooks in `.hookrun/`) was found at or above the working directory. */
  readonly inProject: boolean
  /**
   * Every project at or above the working directory, outermost first; the last is `projectRoot`.
   * The enclosing ones' hooks.json files are layers too, each project with its own trust.
   */
  readonly projects: readonly string[]
}

/**
 * Find the config layers (docs/config.md): managed, user, then each project at or above the working
 * directory, outermost first, with its hooks.json and hooks.local.json — or managed and the files
 * the caller named. A nested project adds its layers after the enclosing ones and never hides
 * them: an empty `sub/.hookrun/` does not take a repository's gates away.
 */
export function findConfigFiles(options: LoadOptions): FoundConfigFiles {
  const env = options.env ?? process.env
  const cwd = resolve(options.cwd)
  const named = options.configFiles?.length ? options.configFiles : splitList(env.HOOKRUN_CONFIG)
  // The organisation's managed config comes first, and --config does not replace it.
  const managedFile = join(managedConfigDir(env), 'hooks.json')
  const managed: ConfigFileRef[] = existsSync(managedFile) ? [{ layer: 'managed', file: managedFile }] : []
  if (named.length > 0) {
    const files = named.map((file) => ({ layer: 'config' as const, file: resolve(cwd, file) }))
    for (const { file } of files) {
      const by = options.configFiles?.length ? '--config' : 'HOOKRUN_CONFIG'
      if (!existsSync(file)) throw new HookrunError(`config file ${file} (named by ${by}) does not exist; check the path`)
      if (statSync(file).isDirectory()) {
        const inside = existsSync(join(file, 'hooks.json')) ? join(file, 'hooks.json') : join(file, '.hookrun', 'hooks.json')
        throw new HookrunError(`config file ${file} (named by ${by}) is a folder; name a file, such as ${inside}`)
      }
    }
    return { files: [...managed, ...files], projectRoot: cwd, inProject: false, projects: [] }
  }
  const files: ConfigFileRef[] = [...managed]
  const userFile = join(userConfigDir(env), 'hooks.json')
  if (existsSync(userFile)) files.push({ layer: 'user', file: userFile })
  const projects = projectsAbove(cwd)
  for (const { root, markers } of projects) {
    const project = join(root, '.hookrun', 'hooks.json')
    // The user's own file can sit at ~/.hookrun too when the project is the home folder: read it once.
    if (markers.includes('hooks.json') && project !== userFile) files.push({ layer: 'project', file: project })
    if (markers.includes('hooks.local.json')) files.push({ layer: 'local', file: join(root, '.hookrun', 'hooks.local.json') })
  }
  const projectRoot = projects.at(-1)?.root
  return { files, projectRoot: projectRoot ?? cwd, inProject: projectRoot !== undefined, projects: projects.map(({ root }) => root) }
}

/** What makes a folder's `.hookrun/` a project: a config file, a hook folder or installed plugins. */
const PROJECT_MARKERS = ['hooks.json', 'hooks.local.json', 'hooks', 'plugins']

/** The markers a folder's `.hookrun/` holds (none: not a project); a folder without `.hookrun/` costs one look. */
function projectMarkers(dir: string): string[] {
  const folder = join(dir, '.hookrun')
  return existsSync(folder) ? PROJECT_MARKERS.filter((marker) => existsSync(join(folder, marker))) : []
}

/** The nearest folder at or above `cwd` whose `.hookrun/` holds hooks.json, hooks.local.json, hooks/ or plugins/. */
export function findProjectRoot(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const folder = join(dir, '.hookrun')
    if (existsSync(folder) && PROJECT_MARKERS.some((marker) => existsSync(join(folder, marker)))) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/** Every project folder at or above `cwd` (as `findProjectRoot` tells one), outermost first, with the markers that make it one. */
function projectsAbove(cwd: string): Array<{ root: string; markers: string[] }> {
  const roots: Array<{ root: string; markers: string[] }> = []
  for (let dir = cwd; ; dir = dirname(dir)) {
    const markers = projectMarkers(dir)
    if (markers.length > 0) roots.unshift({ root: dir, markers })
    if (dirname(dir) === dir) return roots
  }
}

function splitList(value: string | undefined): string[] {
  return value ? value.split(delimiter).filter((item) => item !== '') : []
}
