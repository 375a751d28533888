// hookrun serve's private files: the per-user secret (made once, 0600, refused when others can read
// it), the proof a server gives without sending it, and each session's recorded project.
import { chmodSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  configFingerprint,
  differingVariables,
  registerSession,
  sameSecret,
  secretProof,
  serveSecret,
  sessionProject,
} from '../../src/serve/state.ts'
import { makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

function stateHome() {
  const home = makeProject()
  dirs.push(home)
  return { env: { HOME: home, XDG_STATE_HOME: join(home, 'state') }, file: join(home, 'state', 'hookrun', 'serve', 'secret') }
}

describe('serve state', () => {
  test('the secret is made once, 64 hex digits, readable by the user alone', () => {
    const { env, file } = stateHome()
    const secret = serveSecret(env)
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    expect(serveSecret(env)).toBe(secret)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700)
  })

  test('a secret file others can read is refused with one line that says how to fix it', () => {
    const { env, file } = stateHome()
    serveSecret(env)
    chmodSync(file, 0o644)
    expect(() => serveSecret(env)).toThrow(new RegExp(`${file} can be read by others \\(mode 644\\); run chmod 600 ${file}`))
  })

  test('the proof depends on the nonce and the secret; the secret is compared whole', () => {
    expect(secretProof('a'.repeat(64), '00'.repeat(8))).not.toBe(secretProof('a'.repeat(64), '11'.repeat(8)))
    expect(secretProof('a'.repeat(64), '00'.repeat(8))).not.toBe(secretProof('b'.repeat(64), '00'.repeat(8)))
    expect(sameSecret('a'.repeat(64), 'a'.repeat(64))).toBe(true)
    expect(sameSecret('a'.repeat(63), 'a'.repeat(64))).toBe(false)
    expect(sameSecret(undefined, 'a'.repeat(64))).toBe(false)
  })

  test("a session's project is recorded in a private file by a hash of its id", () => {
    const { env } = stateHome()
    expect(sessionProject(env, 'session-1')).toBeUndefined()
    registerSession(env, 'session-1', '/work/project')
    expect(sessionProject(env, 'session-1')).toBe('/work/project')
    expect(sessionProject(env, 'session-2')).toBeUndefined()
  })

  test("the config variables a session and a server differ in: each named; a value holding '|' names them all", () => {
    const server = configFingerprint({ HOME: '/home/a', XDG_CONFIG_HOME: '/home/a/.config' })
    expect(differingVariables(server, server)).toEqual([])
    expect(differingVariables(configFingerprint({ HOME: '/home/a', HOOKRUN_CONFIG: '/tmp/x.json' }), server)).toEqual([
      'HOOKRUN_CONFIG',
      'XDG_CONFIG_HOME',
    ])
    expect(differingVariables(configFingerprint({ HOME: '/home/a|b' }), server)).toHaveLength(5)
  })
})
