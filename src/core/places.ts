// Where hookrun keeps the user's things: config, cache and state folders (XDG, with the usual defaults).
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

type Env = Readonly<Record<string, string | undefined>>

function xdgDir(env: Env, variable: string, fallback: readonly string[]): string {
  const xdg = env[variable]
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), ...fallback)
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

/** Where each system keeps the managed (organisation-wide) config folder. */
const SYSTEM_MANAGED_DIRS: Readonly<Record<string, (env: Env) => string>> = {
  linux: () => '/etc/hookrun',
  darwin: () => '/Library/Application Support/hookrun',
  win32: (env) => join(env.ProgramData || 'C:\\ProgramData', 'hookrun'),
}

/**
 * The managed config folder: `/etc/hookrun` on Linux (and other Unix systems), `/Library/Application
 * Support/hookrun` on macOS, `%ProgramData%\hookrun` on Windows. `HOOKRUN_MANAGED_DIR` replaces it
 * only while the system folder holds no hooks.json, so tests (and a machine without a policy) can
 * use one, but a user can never point hookrun away from the organisation's file.
 */
export function managedConfigDir(env: Env = process.env, platform: string = process.platform): string {
  const system = (SYSTEM_MANAGED_DIRS[platform] ?? SYSTEM_MANAGED_DIRS.linux!)(env)
  const override = env.HOOKRUN_MANAGED_DIR
  if (override && !existsSync(join(system, 'hooks.json'))) return override
  return system
}
