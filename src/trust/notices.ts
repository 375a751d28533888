// Which agent sessions were already shown a project's trust notice (once per session, not per fire).
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { stateDir } from '../core/places.ts'
import { nodeCrypto } from '../core/builtins.ts'

type Env = Readonly<Record<string, string | undefined>>

/** Sessions remembered at most; past it the older half is forgotten. */
const MAX_NOTICES = 500

/**
 * True the first time a session fires in an untrusted project (and whenever the agent sends no
 * session id: it cannot be told apart). One empty file per (project, session) in the state folder,
 * created exclusively, so parallel fires of one session show the notice once between them.
 * When the folder cannot be written the notice is shown: visible beats quiet.
 */
export function firstNoticeOf(projectRoot: string, sessionId: unknown, env: Env): boolean {
  if (typeof sessionId !== 'string' || sessionId === '') return true
  const dir = join(stateDir(env), 'notices')
  const key = nodeCrypto().createHash('sha256').update(`${projectRoot}\0${sessionId}`).digest('hex').slice(0, 32)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    closeSync(openSync(join(dir, key), 'wx', 0o600))
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EEXIST'
  }
  forgetOldNotices(dir)
  return true
}

function forgetOldNotices(dir: string): void {
  try {
    const names = readdirSync(dir)
    if (names.length <= MAX_NOTICES) return
    // Keep the newest half; a forgotten session only sees its notice once more.
    const byAge = names.map((name) => ({ file: join(dir, name), at: statSync(join(dir, name)).mtimeMs })).sort((a, b) => b.at - a.at)
    for (const { file } of byAge.slice(MAX_NOTICES / 2)) rmSync(file, { force: true })
  } catch {
    // Another fire pruned at the same time; nothing is lost.
  }
}
