// Where hookrun keeps the user's things: config, cache and state folders (XDG, with the usual defaults).
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
