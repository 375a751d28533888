import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'

/**
 * What each hook executable answered to `./hook hook`, so that a fire does not start one process
 * per file just to learn which events they serve. An answer is reused while the file's path,
 * size and modification time are unchanged; a changed file is asked again.
 *
 * The cache holds what the file said (exit code and output), not what hookrun made of it, so a
 * newer hookrun that reads answers differently needs no invalidation.
 */

type Env = Readonly<Record<string, string | undefined>>

const CacheEntrySchema = z.object({
  size: z.number(),
  mtimeMs: z.number(),
  exitCode: z.number(),
  stdout: z.string(),
})

const CacheFileSchema = z.object({
  version: z.literal(1),
  hooks: z.record(z.string(), CacheEntrySchema),
})

export type CachedAnswer = z.output<typeof CacheEntrySchema>

/** `$XDG_CACHE_HOME/hookrun`, default `~/.cache/hookrun`. */
export function userCacheDir(env: Env = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.cache')
  return join(base, 'hookrun')
}

export function hookAnswerCacheFile(env: Env = process.env): string {
  return join(userCacheDir(env), 'hook-answers.json')
}

/** The cached answers by path. A missing, unreadable or foreign file is an empty cache. */
export function readAnswerCache(file: string): Map<string, CachedAnswer> {
  try {
    const parsed = CacheFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    if (parsed.success) return new Map(Object.entries(parsed.data.hooks))
  } catch {
    // Not there yet, or damaged: every file is asked again and the cache rewritten.
  }
  return new Map()
}

/**
 * Replace the cache file atomically (write a temporary file beside it, then rename), so a fire
 * running at the same time reads the old cache or the new one, never half of either. Answers for
 * files that no longer exist are dropped. Failing to write (a read-only home) only costs speed.
 */
export function writeAnswerCache(file: string, answers: ReadonlyMap<string, CachedAnswer>): void {
  const hooks: Record<string, CachedAnswer> = {}
  for (const [path, answer] of answers) if (existsSync(path)) hooks[path] = answer
  const dir = join(file, '..')
  const temporary = join(dir, `.hook-answers.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
  try {
    mkdirSync(dir, { recursive: true })
    writeFileSync(temporary, `${JSON.stringify({ version: 1, hooks })}\n`)
    renameSync(temporary, file)
  } catch {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Nothing more to do: the next fire asks again.
    }
  }
}
