import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

type Env = Readonly<Record<string, string | undefined>>

/** `$XDG_CACHE_HOME/hookrun`, default `~/.cache/hookrun`. */
export function userCacheDir(env: Env = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.cache')
  return join(base, 'hookrun')
}

/**
 * Replace a JSON file atomically (write a temporary file beside it, then rename), so a fire
 * running at the same time reads the old content or the new, never half of either. Failing to
 * write (a read-only home) only costs speed: caches are rebuilt.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temporary = join(dirname(file), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
  try {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(temporary, `${JSON.stringify(value)}\n`)
    renameSync(temporary, file)
  } catch {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Nothing more to do.
    }
  }
}
