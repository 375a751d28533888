import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { writeFileAtomic } from '../../src/core/atomic-write.ts'
import { writeJsonAtomic } from '../../src/core/cache-file.ts'
import { lockHeld, releaseLock, takeLock, withLock } from '../../src/core/lock.ts'
import { diskFiles } from '../../src/install/results.ts'

// The plumbing every writer of hookrun's files shares (src/core/atomic-write.ts, src/core/lock.ts).
const dir = mkdtempSync(join(tmpdir(), 'hookrun-own-files-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const posix = process.platform !== 'win32'

describe('writeFileAtomic', () => {
  test('replaces the file whole, with exactly the mode given (the umask does not narrow it)', () => {
    const file = join(dir, 'settings.json')
    writeFileSync(file, 'old')
    const umask = process.umask(0o077)
    try {
      writeFileAtomic(file, 'new', 0o644)
    } finally {
      process.umask(umask)
    }
    expect(readFileSync(file, 'utf8')).toBe('new')
    if (posix) expect(statSync(file).mode & 0o777).toBe(0o644)
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  test('a failed rename leaves no temporary file behind, and the error is thrown', () => {
    const place = join(dir, 'failing')
    mkdirSync(join(place, 'target', 'occupied'), { recursive: true })
    expect(() => writeFileAtomic(join(place, 'target'), 'text', 0o600)).toThrow()
    expect(readdirSync(place)).toEqual(['target'])
  })

  test.skipIf(!posix)('a link at the name is replaced, never written through', () => {
    const victim = join(dir, 'victim')
    writeFileSync(victim, 'mine')
    const file = join(dir, 'linked.json')
    symlinkSync(victim, file)
    writeFileAtomic(file, 'hookrun', 0o600)
    expect(readFileSync(victim, 'utf8')).toBe('mine')
    expect(lstatSync(file).isSymbolicLink()).toBe(false)
    expect(readFileSync(file, 'utf8')).toBe('hookrun')
  })

  test("install's writes leave no temporary file beside an agent's file when they fail", () => {
    const place = join(dir, 'agent')
    mkdirSync(join(place, 'settings.json', 'occupied'), { recursive: true })
    expect(() => diskFiles({ ...process.env, XDG_STATE_HOME: join(dir, 'state') }).edit(join(place, 'settings.json'), () => '{}')).toThrow()
    expect(readdirSync(place)).toEqual(['settings.json'])
  })

  test('writeJsonAtomic answers false instead of throwing, and leaves nothing behind', () => {
    const place = join(dir, 'json')
    mkdirSync(join(place, 'cache.json', 'occupied'), { recursive: true })
    expect(writeJsonAtomic(join(place, 'cache.json'), { a: 1 })).toBe(false)
    expect(readdirSync(place)).toEqual(['cache.json'])
    expect(writeJsonAtomic(join(place, 'fresh.json'), { a: 1 })).toBe(true)
    expect(JSON.parse(readFileSync(join(place, 'fresh.json'), 'utf8'))).toEqual({ a: 1 })
  })
})

describe('takeLock', () => {
  const lock = join(dir, 'test.lock')

  test('a free lock is taken; one a live holder has is not, when no wait is allowed', () => {
    expect(takeLock(lock, { staleMs: 5000 })).toBe(true)
    expect(takeLock(lock, { staleMs: 5000 })).toBe(false)
    releaseLock(lock)
    expect(existsSync(lock)).toBe(false)
    expect(takeLock(lock, { staleMs: 5000 })).toBe(true)
    releaseLock(lock)
  })

  test('a lock is held while it is there and fresh', () => {
    expect(lockHeld(lock, 5000)).toBe(false)
    expect(takeLock(lock, { staleMs: 5000 })).toBe(true)
    expect(lockHeld(lock, 5000)).toBe(true)
    const old = new Date(Date.now() - 10_000)
    utimesSync(lock, old, old)
    expect(lockHeld(lock, 5000)).toBe(false)
    releaseLock(lock)
  })

  test('a stale lock (its holder crashed) is broken and taken', () => {
    writeFileSync(lock, '', { mode: 0o600 })
    const old = new Date(Date.now() - 10_000)
    utimesSync(lock, old, old)
    expect(takeLock(lock, { staleMs: 5000 })).toBe(true)
    expect(statSync(lock).mtimeMs).toBeGreaterThan(old.getTime() + 5000)
    releaseLock(lock)
  })

  test('a live holder is waited for, then given up on, or broken when the caller must go on', () => {
    writeFileSync(lock, '', { mode: 0o600 })
    const started = Date.now()
    expect(takeLock(lock, { staleMs: 60_000, waitMs: 100 })).toBe(false)
    expect(Date.now() - started).toBeGreaterThanOrEqual(100)
    expect(withLock(lock, { staleMs: 60_000, waitMs: 100 }, () => existsSync(lock))).toBe(true)
    expect(existsSync(lock)).toBe(false)
  })

  test('a lock that can be neither taken nor removed is an error naming it, never a wait without end', () => {
    mkdirSync(join(lock, 'inside'), { recursive: true })
    expect(() => takeLock(lock, { staleMs: 0, waitMs: 50, breakWhenDue: true })).toThrow(`its lock ${lock} cannot be taken or removed`)
    rmSync(lock, { recursive: true })
  })

  test.skipIf(!posix)('a link planted at the lock name is not followed', () => {
    const victim = join(dir, 'victim-lock-target')
    symlinkSync(victim, lock)
    expect(() => takeLock(lock, { staleMs: 60_000 })).not.toThrow()
    expect(existsSync(victim)).toBe(false)
    rmSync(lock, { force: true })
  })
})
