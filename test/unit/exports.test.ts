/**
 * No export that only its own module uses (what knip calls an unused export): every name a module
 * in src/ exports is read by another file (src/, test/, scripts/, or the library's entry
 * src/index.ts), else it is not exported. Found with the TypeScript checker: each identifier of
 * every file resolved to its declaration, so a name read through `await import()`, a re-export or
 * a destructuring counts, and two modules' exports of the same name do not stand in for each other.
 */
import { join, relative } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'

/** Exports kept although no other file reads them, with why. */
const KEPT: Record<string, string> = {}

function program(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  )!
  return ts.createProgram(config.fileNames, config.options)
}

/** `file: name` of every export declared in src/ (the library's entry aside: it is the public API). */
function exportsOf(source: ts.SourceFile): ts.Declaration[] {
  return source.statements.flatMap((statement): ts.Declaration[] => {
    if (!ts.canHaveModifiers(statement) || !ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword))
      return []
    if (ts.isVariableStatement(statement)) return [...statement.declarationList.declarations]
    return 'name' in statement && statement.name !== undefined ? [statement as ts.Declaration] : []
  })
}

const keyOf = (declaration: ts.Declaration) =>
  `${relative(ROOT, declaration.getSourceFile().fileName)}: ${(ts.getNameOfDeclaration(declaration) as ts.Identifier).text}`

/** The declarations each file reads from other files. */
function readElsewhere(files: readonly ts.SourceFile[], checker: ts.TypeChecker): Set<string> {
  const read = new Set<string>()
  const mark = (symbol: ts.Symbol | undefined, from: ts.SourceFile) => {
    if (symbol === undefined) return
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    for (const declaration of target.declarations ?? []) {
      if (declaration.getSourceFile() === from) continue
      const name = ts.getNameOfDeclaration(declaration)
      if (name !== undefined && ts.isIdentifier(name)) read.add(keyOf(declaration))
    }
  }
  for (const file of files) {
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node)) mark(checker.getSymbolAtLocation(node), file)
      // `const { name } = await import('./module.ts')`: the property read, not the local it binds.
      if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const property = node.propertyName ?? node.name
        if (ts.isIdentifier(property)) mark(checker.getTypeAtLocation(node.parent).getProperty(property.text), file)
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return read
}

test('every export of src/ is read outside its module', () => {
  const built = program()
  const checker = built.getTypeChecker()
  const files = built.getSourceFiles().filter((file) => !file.isDeclarationFile && file.fileName.startsWith(ROOT))
  const read = readElsewhere(files, checker)
  const unread = files
    .filter(
      (file) =>
        relative(ROOT, file.fileName).startsWith('src/') && !['src/index.ts', 'src/unstable.ts'].includes(relative(ROOT, file.fileName)),
    )
    .flatMap(exportsOf)
    .map(keyOf)
    .filter((key) => !read.has(key) && KEPT[key] === undefined)
  expect(unread).toEqual([])
  // A whole-tree type check: about 20 s on a quiet two-core machine, several times that beside another CPU-heavy job.
}, 300_000)
