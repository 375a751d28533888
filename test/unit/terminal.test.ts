// Whether a descriptor is a terminal: node:tty is asked only about character devices other than /dev/null.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { isTerminal } from '../../src/core/terminal.ts'

const folder = mkdtempSync(join(tmpdir(), 'hookrun-terminal-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** isTerminal on a descriptor opened on `path`, with a stand-in for node:tty that records being asked. */
function ask(path: string): { terminal: boolean; askedTty: boolean } {
  const fd = openSync(path, 'r')
  let askedTty = false
  try {
    const terminal = isTerminal(fd, () => {
      askedTty = true
      return true
    })
    return { terminal, askedTty }
  } finally {
    closeSync(fd)
  }
}

test.skipIf(process.platform === 'win32')('/dev/null is no terminal, and node:tty is not asked (a discarded stderr costs nothing)', () => {
  expect(ask('/dev/null')).toEqual({ terminal: false, askedTty: false })
})

test('a file is no terminal, without asking node:tty', () => {
  const file = join(folder, 'file')
  writeFileSync(file, 'x')
  expect(ask(file)).toEqual({ terminal: false, askedTty: false })
})

test.skipIf(process.platform === 'win32')('another character device is for node:tty to judge', () => {
  expect(ask('/dev/zero')).toEqual({ terminal: true, askedTty: true })
})

test('a closed descriptor is no terminal', () => {
  const fd = openSync(join(folder, 'closed'), 'w')
  closeSync(fd)
  expect(isTerminal(fd, () => true)).toBe(false)
})
