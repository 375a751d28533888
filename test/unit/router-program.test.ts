// doctor's reading of a router entry's program (src/install/router-program.ts): nothing with shell
// syntax, nothing not named hookrun and nothing inside the project is run; an installed hookrun
// package's version is read, not asked.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { findProgram, plainWords } from '../../src/install/router-program.ts'
import { foldersIn, removeProject } from '../helpers.ts'

const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

/** A program that leaves `marker` behind when run, answering --version as hookrun `version` does. */
function program(file: string, marker: string, version = '0.0.9'): string {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\necho 'hookrun ${version} (node 22.0.0, linux-x64)'\n`, { mode: 0o755 })
  return file
}

function setup() {
  const { root, project, bin } = foldersIn(folders, 'project', 'bin')
  const marker = join(root, 'ran')
  const context = { env: { PATH: `${bin}:/usr/bin:/bin` }, version: '0.0.0', self: ['/nowhere/this-hookrun'], project }
  return { root, project, bin, marker, context }
}

describe('plainWords', () => {
  test.each([
    ['/usr/local/bin/hookrun', ['/usr/local/bin/hookrun']],
    ["'/opt/my tools/hookrun'", ['/opt/my tools/hookrun']],
    ["'/opt/it'\\''s/hookrun'", ["/opt/it's/hookrun"]],
    ['/usr/bin/node /opt/hookrun/dist/hookrun.mjs', ['/usr/bin/node', '/opt/hookrun/dist/hookrun.mjs']],
  ])('%s is plain words', (text, words) => expect(plainWords(text)).toEqual(words))

  test.each([
    '/bin/touch x; /bin/true',
    '$(touch x)',
    '`touch x`',
    'a && b',
    'a | b',
    'a > b',
    '~/bin/hookrun',
    '"/opt/x"',
    'H=1 hookrun',
    "'unclosed",
    '',
  ])('%s is shell syntax (or nothing)', (text) => expect(plainWords(text)).toBeUndefined())
})

describe('findProgram', () => {
  test('a program not named hookrun, or with arguments, is refused and never run', () => {
    const { bin, marker, context } = setup()
    const other = program(join(bin, 'true-ish'), marker)
    expect(findProgram(`${other} fire --format claude`, context)).toMatchObject({ kind: 'refused' })
    expect(findProgram(`/bin/sh ${other} fire --format claude`, context)).toMatchObject({ kind: 'refused' })
    expect(findProgram(`./hookrun fire --format claude`, context)).toMatchObject({ kind: 'refused' })
    expect(existsSync(marker)).toBe(false)
  })

  test('a hookrun inside the project is not run (it came with the clone); one outside it is asked, with no shell', () => {
    const { project, bin, marker, context } = setup()
    const inside = program(join(project, 'tools', 'hookrun'), marker)
    expect(findProgram(`${inside} fire --format cursor`, context)).toMatchObject({ kind: 'unknown' })
    expect(existsSync(marker)).toBe(false)
    const outside = program(join(bin, 'hookrun-old'), marker)
    expect(findProgram(`${outside} fire --format cursor`, context)).toEqual({ kind: 'version', program: outside, version: '0.0.9' })
    expect(existsSync(marker)).toBe(true)
  })

  test("an installed hookrun package's version is read from its package.json, not asked; this hookrun's own command is this version", () => {
    const { root, marker, context } = setup()
    const pkg = join(root, 'lib', 'node_modules', 'hookrun')
    mkdirSync(pkg, { recursive: true })
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'hookrun', version: '1.2.3' }))
    const launcher = program(join(pkg, 'bin', 'hookrun'), marker)
    expect(findProgram(`${launcher} fire --format claude`, context)).toMatchObject({ kind: 'version', version: '1.2.3' })
    const bundle = join(pkg, 'dist', 'hookrun.mjs')
    mkdirSync(join(pkg, 'dist'))
    writeFileSync(bundle, `require('fs').writeFileSync('${marker}', '')\n`)
    expect(findProgram(`${process.execPath} ${bundle} fire --format claude`, context)).toMatchObject({ kind: 'version', version: '1.2.3' })
    expect(existsSync(marker)).toBe(false)
    const self = program(join(root, 'self', 'hookrun'), marker)
    expect(findProgram(`${self} fire --format claude`, { ...context, self: [self] })).toMatchObject({ kind: 'version', version: '0.0.0' })
    expect(existsSync(marker)).toBe(false)
  })
})
