/**
 * Sizes a reader can hold in their head: no source file over ~400 lines, no function over 80
 * lines unless `LONG_FUNCTIONS` says why it reads better whole. Functions are found with the
 * TypeScript compiler's own parser, so a nested arrow or a method counts as itself.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'

const MAX_FILE_LINES = 420
const MAX_FUNCTION_LINES = 80

/** `file: function` → why it is one long function. Remove an entry when its function gets short. */
const LONG_FUNCTIONS: Record<string, string> = {
  'src/explain/explain.ts: explainFire':
    "fire's pipeline again, step by step with what each stage saw; kept beside fire's order to be compared with it",
  'src/config/load.ts: resolveConfig':
    'the layers in their order (managed, policy, user, project, local) with the trust decided between them',
  'src/config/load.ts: mergeHooks':
    'one pass over the entries: names, shadowing and switching off decided together, as docs/config.md lists the rules',
  'src/run/command.ts: runCommand':
    "one process's life (spawn, stdin, capped output, timeout, group kill): its listeners share the state of that one process",
  'src/run/command.ts: new Promise(…) callback': 'the executor of runCommand: the process listeners, which close over one run',
  'src/trust/material.ts: commandMaterial':
    "a shell's reading of one command line (cd, source, interpreters, loader variables) as a single walk over its words",
  'src/commands/list.ts: listHooks': 'the rows and columns of `hookrun list` (text and --json) from one selection',
  'src/commands/import.ts: importAgents':
    "hookrun import's plan: read each agent's file, move the handlers, check before any write, then write and report",
  'src/commands/program-agents.ts: registerAgentConfigCommands':
    "install, uninstall and import's flags and examples: a flat list of cac registrations",
  'src/install/install-file.ts: installInto':
    "one agent file's install: its edit, the lines it prints and the result it answers, read top to bottom",
  'src/install/install-file.ts: editEntries':
    "one agent file's entries: found, added, narrowed and timed out in one pass over the agent's events",
  'src/install/opencode-plugin.ts: pluginText':
    "it returns the plugin's JavaScript text, which OpenCode and Kilo Code load: one template, read as the file it writes",
  'src/agents/pi-extension.ts: piExtensionText':
    "it returns the extension's JavaScript text, which Pi loads: one template, read as the file it writes",
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** A function's name as a reader finds it: its own, or the variable, property or method it is assigned to. */
function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText()
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText()
  if (ts.isCallExpression(parent)) return `${parent.expression.getText().slice(0, 40)}(…) callback`
  if (ts.isNewExpression(parent)) return `new ${parent.expression.getText().slice(0, 40)}(…) callback`
  return '(anonymous)'
}

/** Every function of the source over the limit, as `file: name` with its length. */
export function longFunctions(file: string, text: string, limit = MAX_FUNCTION_LINES): Array<{ key: string; lines: number }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<{ key: string; lines: number }> = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = end - start + 1
      if (lines > limit) found.push({ key: `${file}: ${nameOf(node)}`, lines })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const files = ['src', 'scripts'].flatMap((folder) => sourceFiles(join(ROOT, folder))).map((path) => relative(ROOT, path))

test(`no source file over ${MAX_FILE_LINES} lines`, () => {
  const long = files
    .filter((file) => file.startsWith('src/'))
    .map((file) => [file, readFileSync(join(ROOT, file), 'utf8').split('\n').length] as const)
    .filter(([, lines]) => lines > MAX_FILE_LINES)
  expect(long).toEqual([])
})

test(`no function over ${MAX_FUNCTION_LINES} lines without a reason (LONG_FUNCTIONS)`, () => {
  const long = files.flatMap((file) => longFunctions(file, readFileSync(join(ROOT, file), 'utf8')))
  expect(long.filter(({ key }) => LONG_FUNCTIONS[key] === undefined)).toEqual([])
  // An allowance whose function got short (or went) is taken out.
  expect(Object.keys(LONG_FUNCTIONS).filter((key) => !long.some((each) => each.key === key))).toEqual([])
})

test('the function finder counts a nested function as itself', () => {
  const body = Array.from({ length: 5 }, (_, index) => `  const x${index} = ${index}`).join('\n')
  const text = `function outer() {\n  const inner = () => {\n${body}\n  }\n${body}\n}\n`
  expect(longFunctions('t.ts', text, 6).map(({ key }) => key)).toEqual(['t.ts: outer', 't.ts: inner'])
})
