// The answers hook-folder executables gave to `hook` (which events they serve), cached by stat.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeJsonAtomic } from '../core/cache-file.ts'
import { userCacheDir } from '../core/places.ts'

export { userCacheDir }

/**
 * What each hook executable answered to `./hook hook`, so that a fire does not start one process
 * per file just to learn which events they serve. An answer is reused while the file's path,
 * size and modification time are unchanged; a changed file is asked again.
 *
 * The cache holds what the file said (exit code and output), not what hookrun made of it, so a
 * newer hookrun that reads answers differently needs no invalidation.
 */

type Env = Readonly<Record<string, string | undefined>>

/** What one file answered, and the size and modification time it had then. */
export interface CachedAnswer {
  readonly size: number
  readonly mtimeMs: number
  readonly exitCode: number
  readonly stdout: string
}

export function hookAnswerCacheFile(env: Env = process.env): string {
  return answerCacheIn(userCacheDir(env))
}

/** The answer cache in hookrun's cache folder (`Places.cache`, src/core/places.ts). */
export function answerCacheIn(cacheDir: string): string {
  return join(cacheDir, 'hook-answers.json')
}

/** The cached answers by path. A missing, unreadable or foreign file is an empty cache. */
export function readAnswerCache(file: string): Map<string, CachedAnswer> {
  try {
    // Checked by hand rather than with zod: this is hookrun's own file, read on every fire.
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; hooks?: Record<string, unknown> }
    if (parsed?.version !== 1 || typeof parsed.hooks !== 'object' || parsed.hooks === null) return new Map()
    return new Map(Object.entries(parsed.hooks).filter((entry): entry is [string, CachedAnswer] => isCachedAnswer(entry[1])))
  } catch {
    // Not there yet, or damaged: every file is asked again and the cache rewritten.
  }
  return new Map()
}

/** Replace the cache file atomically. Answers for files that no longer exist are dropped. */
export function writeAnswerCache(file: string, answers: ReadonlyMap<string, CachedAnswer>): void {
  const hooks: Record<string, CachedAnswer> = {}
  for (const [path, answer] of answers) if (existsSync(path)) hooks[path] = answer
  writeJsonAtomic(file, { version: 1, hooks })
}

function isCachedAnswer(value: unknown): value is CachedAnswer {
  const answer = value as Partial<CachedAnswer> | null
  return (
    typeof answer === 'object' &&
    answer !== null &&
    typeof answer.size === 'number' &&
    typeof answer.mtimeMs === 'number' &&
    typeof answer.exitCode === 'number' &&
    typeof answer.stdout === 'string'
  )
}
