// Where hookrun keeps the user's things: config, cache and state folders (XDG, with the usual defaults).
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { nodeOs } from './builtins.ts'

/** The user's home: $HOME, else the system's answer (node:os is loaded only then: every event would pay for it). */
export function homeOf(env: Readonly<Record<string, string | undefined>>): string {
  return env.HOME || nodeOs().homedir()
}
import { HookrunError } from './errors.ts'

type Env = Readonly<Record<string, string | undefined>>

function xdgDir(env: Env, variable: string, fallback: readonly string[]): string {
  const xdg = env[variable]
  const base = xdg?.startsWith('/') ? xdg : join(homeOf(env), ...fallback)
  return join(base, 'hookrun')
}

/** `$XDG_CONFIG_HOME/hookrun`, default `~/.config/hookrun`. */
export function userConfigDir(env: Env = process.env): string {
  return xdgDir(env, 'XDG_CONFIG_HOME', ['.config'])
}

/** `$XDG_CACHE_HOME/hookrun`, default `~/.cache/hookrun`. */
export function userCacheDir(env: Env = process.env): string {
  return xdgDir(env, 'XDG_CACHE_HOME', ['.cache'])
}

/** `$XDG_STATE_HOME/hookrun`, default `~/.local/state/hookrun`: where trust records live. */
export function stateDir(env: Env = process.env): string {
  return xdgDir(env, 'XDG_STATE_HOME', ['.local', 'state'])
}

/** hookrun's own folders for one environment: resolved once per look at the world (src/config/observe.ts), then carried as data. */
export interface Places {
  readonly config: string
  readonly cache: string
  readonly state: string
}

export function placesOf(env: Env): Places {
  return { config: userConfigDir(env), cache: userCacheDir(env), state: stateDir(env) }
}

/** Make a folder under one of hookrun's own; a failure names the folder, why, and the variable that chose it. */
export function makeOwnFolder(dir: string, env: Env = process.env, mode = 0o700): void {
  try {
    makeFolders(dir, mode)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    const variable = ['XDG_STATE_HOME', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME'].find(
      (name) => env[name]?.startsWith('/') && dir.startsWith(env[name]!),
    )
    const fix = variable ? `set ${variable} (now ${env[variable]}) to a folder you can write` : `check that ${homeOf(env)} is writable`
    throw new HookrunError(`cannot create ${dir} (${reason}); ${fix}`)
  }
}

/** `mkdir -p`, one level at a time: Node's recursive mkdirSync never returns for a path under /proc (Node 20). */
export function makeFolders(dir: string, mode = 0o777): void {
  const missing: string[] = []
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at)
  for (const each of missing) {
    try {
      mkdirSync(each, { mode })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

/** Where each system keeps the managed (organisation-wide) config folder. */
const SYSTEM_MANAGED_DIRS: Readonly<Record<string, (env: Env) => string>> = {
  linux: () => '/etc/hookrun',
  darwin: () => '/Library/Application Support/hookrun',
  win32: (env) => join(env.ProgramData || 'C:\\ProgramData', 'hookrun'),
}

/** The managed config folder; `HOOKRUN_MANAGED_DIR` replaces it only while the system folder holds no hooks.json. */
export function managedConfigDir(env: Env = process.env, platform: string = process.platform): string {
  const system = (SYSTEM_MANAGED_DIRS[platform] ?? SYSTEM_MANAGED_DIRS.linux!)(env)
  const override = env.HOOKRUN_MANAGED_DIR
  if (override && !existsSync(join(system, 'hooks.json'))) return override
  return system
}
