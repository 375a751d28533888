// `hookrun test`: run test cases (payload + expected decision) through fire.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { z } from 'zod'
import { findProjectRoot } from '../config/files.ts'
import { loadConfig } from '../config/parse.ts'
import { untrustedNotice } from '../answer/blocks.ts'
import { mayBeAgentPayload } from '../agents/hint.ts'
import { prepareDialect, renderFor } from '../dialect.ts'
import { formatNames } from '../agents/registry.ts'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { jsonSyntaxError } from '../core/json-error.ts'
import { shortNameOf } from '../config/shapes.ts'
import { PLAIN } from '../core/paint.ts'
import { didYouMean } from '../core/suggest.ts'
import { fire } from '../fire.ts'
import type { Decision } from '../core/protocol.ts'
import { renderNative } from '../answer/render.ts'
import type { CommandOptions } from './io.ts'

/** `hookrun test`: cases (an event, a payload, what the answer must be) run through fire's pipeline with the real hooks. */
const TestExpectSchema = z
  .strictObject({
    decision: z.enum(['allow', 'deny', 'ask']).optional().meta({ description: "The decision; 'allow' also when no hook decided." }),
    decidedBy: z.string().nullable().optional().meta({ description: 'The hook whose decision stands; null: no hook decided.' }),
    blocked: z.boolean().optional(),
    reason: z.string().optional().meta({ description: 'A part of the reason.' }),
    exitCode: z.number().int().optional().meta({ description: "The exit code hookrun (or the agent's dialect) answers with." }),
    hooks: z.array(z.string()).optional().meta({ description: 'The names of the hooks that ran, in order.' }),
    context: z.string().optional().meta({ description: 'A part of the context for the model.' }),
    updatedInput: z.record(z.string(), z.unknown()).optional().meta({ description: 'Fields the rewritten tool input must have.' }),
    output: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Fields the JSON answer must have (with format: the agent’s JSON).' }),
  })
  .meta({ description: 'What the answer must be; every field given is checked.' })

const TestCaseSchema = z.strictObject({
  name: z.string().optional(),
  event: z
    .string()
    .optional()
    .meta({ description: "The event, as for 'hookrun fire' (optional with a payload that names it and format)." }),
  tool: z.string().optional(),
  format: z
    .string()
    .optional()
    .meta({
      description: `Answer in an agent's protocol: ${formatNames().join(', ')}.`,
    }),
  payload: z.record(z.string(), z.unknown()).default({}),
  env: z.record(z.string(), z.string()).optional(),
  expect: TestExpectSchema,
})

const TestFileSchema = z.union([
  TestCaseSchema,
  z.array(TestCaseSchema),
  z.strictObject({ $schema: z.string().optional(), cases: z.array(TestCaseSchema) }),
])

type TestCase = z.output<typeof TestCaseSchema>

interface TestOptions extends CommandOptions {
  readonly files: readonly string[]
}

interface CaseResult {
  readonly file: string
  readonly name: string
  readonly passed: boolean
  readonly failures: readonly string[]
}

export async function runTests(options: TestOptions): Promise<{ output: string; exitCode: number }> {
  const root = findProjectRoot(resolve(options.cwd)) ?? resolve(options.cwd)
  const files =
    options.files.length > 0 ? options.files.flatMap((file) => namedFiles(resolve(options.cwd, String(file)))) : defaultFiles(root)
  if (files.length === 0) {
    const where = options.files.length > 0 ? options.files.join(', ') : join(root, '.hookrun', 'tests')
    throw new HookrunError(
      `no test files in ${where}: put cases in .hookrun/tests/*.json (hookrun init writes examples), or name files (hookrun test FILE...)`,
    )
  }
  refuseUntrusted(root, options)
  const results: CaseResult[] = []
  for (const file of files) {
    const shown = relative(options.cwd, file) || file
    const cases = readCases(file)
    if (typeof cases === 'string') {
      results.push({ file: shown, name: '(file)', passed: false, failures: [cases] })
      continue
    }
    for (const [index, testCase] of cases.entries()) {
      const failures = await runCase(testCase, { ...options, cwd: root })
      results.push({ file: shown, name: testCase.name ?? `case ${index + 1}`, passed: failures.length === 0, failures })
    }
  }
  const failed = results.filter((result) => !result.passed).length
  const exitCode = failed > 0 ? ExitCode.Failure : ExitCode.Proceed
  if (options.json) return { output: `${JSON.stringify({ passed: results.length - failed, failed, cases: results }, null, 2)}\n`, exitCode }
  const paint = options.paint ?? PLAIN
  const lines = results.map((result) =>
    result.passed
      ? `${paint.good('pass')}  ${result.file} › ${result.name}`
      : `${paint.bad('FAIL')}  ${result.file} › ${result.name}\n${result.failures.map((failure) => `        ${failure}`).join('\n')}`,
  )
  lines.push('', (failed > 0 ? paint.bad : paint.good)(`${results.length - failed} passed, ${failed} failed`))
  return { output: `${lines.join('\n')}\n`, exitCode }
}

/** An untrusted project's hooks do not run, so its cases would pass on hookrun's own block: refused. */
function refuseUntrusted(root: string, options: TestOptions): void {
  const { trust, untrustedHooks } = loadConfig({ cwd: root, configFiles: options.configFiles, env: options.env })
  // A project with no hooks to hold back (an empty hooks.json) runs its cases as it is.
  if (trust === undefined || trust.trusted || (trust.reason === 'never' && untrustedHooks.length === 0)) return
  throw new HookrunError(`no case was run: ${untrustedNotice(trust)}`)
}

/** A named folder stands for its test files: a project's .hookrun/tests, else the folder's own *.json. */
function namedFiles(path: string): string[] {
  if (!isFolder(path)) return [path]
  return isFolder(join(path, '.hookrun', 'tests')) ? defaultFiles(path) : jsonFilesIn(path)
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function defaultFiles(root: string): string[] {
  return jsonFilesIn(join(root, '.hookrun', 'tests'))
}

function jsonFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name))
}

/** The cases of one file, or what is wrong with the file: naming the case and the field. */
function readCases(file: string): TestCase[] | string {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? 'no such file; name a test file (.json) or a folder of them' : `cannot read: ${(error as Error).message}`
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return `not valid JSON: ${jsonSyntaxError(text, (error as Error).message)}`
  }
  const shape = 'a test file is one case ({ "event", "payload", "expect" }), an array of cases, or { "cases": [...] }'
  if (typeof json !== 'object' || json === null) return `${shape}; this one is ${json === null ? 'null' : `a ${typeof json}`}`
  // Check it as the shape it has, so a problem names the case and the field, not the union's guesses.
  const list = Array.isArray(json) ? json : 'cases' in json ? (json as { cases: unknown }).cases : undefined
  const parsed = list === undefined ? TestCaseSchema.safeParse(json) : TestFileSchema.safeParse(json)
  if (parsed.success) {
    const value = parsed.data
    return Array.isArray(value) ? value : 'cases' in value ? value.cases : [value as TestCase]
  }
  const issue = (list === undefined ? undefined : caseIssues(json, list)[0]) ?? parsed.error.issues[0]!
  const keys = [...issue.path]
  if (list !== undefined && !Array.isArray(json) && keys[0] === 'cases') keys.shift()
  const index = list !== undefined && typeof keys[0] === 'number' ? (keys.shift() as number) : undefined
  const named = index === undefined ? undefined : (list as Array<{ name?: unknown }>)[index]?.name
  const where = index === undefined ? '' : `case ${index + 1}${typeof named === 'string' ? ` ("${named}")` : ''}: `
  const field = keys
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
    .join('')
    .replace(/^\./, '')
  const message = /received undefined$/.test(issue.message)
    ? 'missing; every case needs it'
    : 'keys' in issue && Array.isArray(issue.keys)
      ? `unknown field ${issue.keys.map((key) => `"${key}"${didYouMean(String(key), KNOWN_FIELDS)}`).join(', ')}`
      : issue.message.replace(/^Invalid input: /, '')
  return `${where}${field === '' ? '' : `${field}: `}${message}${index === undefined && list === undefined ? ` (${shape})` : ''}`
}

const KNOWN_FIELDS = [...Object.keys(TestCaseSchema.shape), ...Object.keys(TestExpectSchema.shape)]

/** The issues of a list of cases, each case checked on its own (a union would report its own guess). */
function caseIssues(json: object, list: unknown): Array<{ path: PropertyKey[]; message: string; keys?: string[] }> {
  if (!Array.isArray(list)) return [{ path: ['cases'], message: `expected an array of cases, got ${typeof list}` }]
  const prefix = Array.isArray(json) ? [] : ['cases']
  for (const [index, item] of list.entries()) {
    const result = TestCaseSchema.safeParse(item)
    if (!result.success) return result.error.issues.map((issue) => ({ ...issue, path: [...prefix, index, ...issue.path] }))
  }
  const rest = z.strictObject({ $schema: z.string().optional(), cases: z.array(z.unknown()) }).safeParse(json)
  return rest.success ? [] : rest.error.issues
}

async function runCase(testCase: TestCase, options: TestOptions): Promise<string[]> {
  let decision: Decision
  let rendered: { stdout: string; exitCode: number }
  try {
    const prepared =
      testCase.format !== undefined || mayBeAgentPayload(testCase.payload)
        ? prepareDialect(testCase.format, testCase.event, testCase.payload)
        : undefined
    const event = prepared === undefined ? testCase.event : prepared.event
    if (event === undefined) return ['no event: give "event" (or a payload that names it, with "format")']
    const payload = prepared?.payload ?? testCase.payload
    decision = await fire({
      event,
      payload,
      tool: testCase.tool ?? prepared?.tool,
      cwd: options.cwd,
      configFiles: options.configFiles,
      env: { ...options.env, ...testCase.env },
    })
    rendered = prepared ? renderFor(prepared.dialect, decision, payload, prepared.agentEvent) : renderNative(decision)
  } catch (error) {
    if (!(error instanceof HookrunError)) throw error
    const expected = testCase.expect.exitCode
    return expected === error.exitCode ? [] : [`hookrun refused: ${error.message}`]
  }
  return compare(testCase.expect, decision, rendered)
}

function compare(expect: z.output<typeof TestExpectSchema>, decision: Decision, rendered: { stdout: string; exitCode: number }): string[] {
  const failures: string[] = []
  const check = (field: string, ok: boolean, expected: unknown, actual: unknown) => {
    if (!ok) failures.push(`${field}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
  }
  if (expect.decision !== undefined) check('decision', decision.decision === expect.decision, expect.decision, decision.decision)
  // An agent's handler named by its long name (earlier versions) is the same hook.
  if (expect.decidedBy !== undefined)
    check(
      'decidedBy',
      (decision.decidedBy ?? null) === (expect.decidedBy && shortNameOf(expect.decidedBy)),
      expect.decidedBy,
      decision.decidedBy ?? null,
    )
  if (expect.blocked !== undefined) check('blocked', decision.blocked === expect.blocked, expect.blocked, decision.blocked)
  const includes = (field: string, text: string, part: string | undefined, actual: unknown = text) => {
    if (part !== undefined && !text.includes(part))
      failures.push(`${field}: expected to contain ${JSON.stringify(part)}, got ${JSON.stringify(actual)}`)
  }
  includes('reason', decision.reason ?? '', expect.reason, decision.reason ?? null)
  if (expect.exitCode !== undefined) check('exitCode', rendered.exitCode === expect.exitCode, expect.exitCode, rendered.exitCode)
  if (expect.hooks !== undefined) {
    const ran = decision.hooks.map((hook) => hook.name)
    check('hooks', JSON.stringify(ran) === JSON.stringify(expect.hooks.map(shortNameOf)), expect.hooks, ran)
  }
  includes('context', decision.additionalContext.join('\n\n'), expect.context)
  if (expect.updatedInput !== undefined)
    check('updatedInput', contains(decision.updatedInput, expect.updatedInput), expect.updatedInput, decision.updatedInput ?? null)
  if (expect.output !== undefined) {
    const last = rendered.stdout.trim().split('\n').at(-1) ?? ''
    let output: unknown
    try {
      output = JSON.parse(last)
    } catch {
      output = last
    }
    check('output', contains(output, expect.output), expect.output, output)
  }
  // A failing case shows what hookrun warned about: often the why.
  if (failures.length > 0) failures.push(...decision.warnings.map((warning) => `(warning: ${warning})`))
  return failures
}

/** Does `actual` have every field of `expected` (objects compared field by field, the rest by value)? */
function contains(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected))
    return JSON.stringify(actual) === JSON.stringify(expected)
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
  return Object.entries(expected).every(([key, value]) => contains((actual as Record<string, unknown>)[key], value))
}
