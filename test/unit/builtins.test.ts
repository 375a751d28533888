// Node builtins beyond node:fs and node:path come through src/core/builtins.ts, loaded when first
// used: a static import anywhere in src/ is hoisted into the bundle and loaded by every fire.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const SRC = join(import.meta.dirname, '../../src')
const sources = (readdirSync(SRC, { recursive: true }) as string[]).filter((name) => name.endsWith('.ts')).map((name) => join(SRC, name))
// node:process is the global `process`, loaded before any of hookrun is.
const EAGER = new Set(['node:fs', 'node:path', 'node:process'])

test('no module imports the values of a builtin other than node:fs, node:path and node:process', () => {
  // Import declarations as TypeScript reads them: an `import` inside a string (the OpenCode plugin's
  // text) or a comment is not one.
  const eager = sources.flatMap((file) =>
    ts
      .createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
      .statements.filter(ts.isImportDeclaration)
      .filter((declaration) => !declaration.importClause?.isTypeOnly)
      .map((declaration) => (declaration.moduleSpecifier as ts.StringLiteral).text)
      .filter((specifier) => specifier.startsWith('node:') && !EAGER.has(specifier))
      .map((specifier) => `${relative(SRC, file)}: ${specifier}`),
  )
  expect(eager).toEqual([])
})
