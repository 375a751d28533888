// Node builtins beyond node:fs and node:path come through src/core/builtins.ts, loaded when first
// used: a static import anywhere in src/ is hoisted into the bundle and loaded by every fire.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, test } from 'vitest'

const SRC = join(import.meta.dirname, '../../src')
const sources = (readdirSync(SRC, { recursive: true }) as string[]).filter((name) => name.endsWith('.ts')).map((name) => join(SRC, name))
// node:process is the global `process`, loaded before any of hookrun is.
const EAGER = new Set(['node:fs', 'node:path', 'node:process'])

test('no module imports the values of a builtin other than node:fs, node:path and node:process', () => {
  const eager = sources.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^import (?!type )[^'\n]*'(node:[a-z_/]+)'/gm)]
      .filter((match) => !EAGER.has(match[1]!))
      .map((match) => `${relative(SRC, file)}: ${match[1]}`),
  )
  expect(eager).toEqual([])
})

test('only src/core/builtins.ts fetches a builtin module', () => {
  const fetching = sources
    .filter((file) => readFileSync(file, 'utf8').includes('process.getBuiltinModule('))
    .map((file) => relative(SRC, file))
  expect(fetching).toEqual(['core/builtins.ts'])
})
