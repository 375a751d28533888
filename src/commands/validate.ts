// `hookrun validate`: every config problem, with file and field.
import { count } from '../core/words.ts'
import { PLAIN } from '../core/paint.ts'
import { basename, dirname, resolve } from 'node:path'
import { mergeHooks } from '../config/load.ts'
import { type ConfigFileRef, type ConfigProblem, formatProblem } from '../core/types.ts'
import { eventPath, readConfigDocument, readConfigFile } from '../config/parse.ts'
import { projectMaterial } from '../trust/material-hash.ts'
import { ExitCode } from '../core/errors.ts'
import { CANONICAL_EVENTS, eventAliases } from '../event/events.ts'
import { didYouMean } from '../core/suggest.ts'
import { compilePattern, expandAlias } from '../event/pattern.ts'
import { shortNameOf } from '../config/shapes.ts'
import type { ParsedEntry } from '../config/document.ts'
import { findConfigFiles, findProjectRoot } from '../config/files.ts'
import { DIALECTS } from '../agents/registry.ts'
import { resolveAlias } from '../event/events.ts'
import { agentTarget } from '../install/agents.ts'
import type { AgentName } from '../install/agent-target.ts'
import { routedEvents } from '../install/overlaps.ts'
import { homeOf } from '../core/places.ts'
import { agentConfigLines } from './trust.ts'
import type { CommandOptions } from './io.ts'

interface ValidateOptions extends CommandOptions {
  readonly files: readonly string[]
}

const CANONICAL_NAMES = CANONICAL_EVENTS.map((event) => event.name)
const EVENT_NAMES = [...CANONICAL_NAMES, ...eventAliases().map((alias) => alias.alias)]

/** Every problem in the given (or discovered) config files; stricter than `fire` (unknown keys, duplicate names, dead patterns). */
export function validateConfig(options: ValidateOptions): { output: string; exitCode: number } {
  const refs: ConfigFileRef[] =
    options.files.length > 0
      ? options.files.map((file) => ({ layer: 'config', file: resolve(options.cwd, file) }))
      : findConfigFiles({ cwd: options.cwd, env: options.env }).files
  const problems: ConfigProblem[] = []
  const allEntries: ParsedEntry[] = []
  for (const ref of refs) {
    const found: ConfigProblem[] = []
    const entries = readConfigFile(ref, found)
    mergeHooks(entries, found)
    allEntries.push(...entries)
    problems.push(...found.map((problem) => ({ ...problem, severity: 'error' as const })))
    problems.push(...missingScripts(ref))
    for (const { entry } of entries) {
      // A switch-off written with the long name an agent's handler had before: it works; say the short one.
      const short = entry.name !== undefined && entry.command === undefined && entry.url === undefined ? shortNameOf(entry.name) : undefined
      if (short !== undefined && short !== entry.name) {
        problems.push({
          severity: 'warning',
          file: ref.file,
          path: `${entry.path}.name`,
          message: `'${entry.name}' is the long name earlier versions gave an agent's handler; it still switches it off, and its short name is '${short}' (see 'hookrun list')`,
        })
      }
      for (const pattern of eventPatterns(entry.event)) {
        // A typo of a known name already has its own error, with the name it was surely meant to be.
        const typo = found.some((problem) => problem.path === eventPath(entry) && problem.brokenHook !== undefined)
        if (!typo && !matchesAny(pattern, CANONICAL_NAMES)) {
          problems.push({
            severity: 'warning',
            file: ref.file,
            // Where the pattern is written: a field, or the event key of an agent-shaped file.
            path: eventPath(entry),
            message: `pattern '${pattern}' matches no known event${didYouMean(pattern, EVENT_NAMES, (name) => `'${name}'`)}; it only fires for events an agent names itself (see 'hookrun events')`,
          })
        }
      }
    }
  }
  problems.push(...ignoredAnswerWarnings(allEntries, options))
  const errors = problems.filter((problem) => problem.severity === 'error').length
  const exitCode = errors > 0 ? ExitCode.Failure : ExitCode.Proceed
  // Valid discovered config: the narrowed agent configs follow it now, as after hookrun trust.
  const synced = errors === 0 && options.files.length === 0 ? agentConfigLines(options.cwd, options.env) : []
  if (options.json) return { output: `${JSON.stringify({ files: refs, problems }, null, 2)}\n`, exitCode }
  const paint = options.paint ?? PLAIN
  const lines = problems.map(
    (problem) => `${(problem.severity === 'error' ? paint.bad : paint.warn)(`${problem.severity}:`)} ${formatProblem(problem)}`,
  )
  if (refs.length === 0) lines.push(paint.warn('no config files found to validate'))
  else
    lines.push(
      (errors > 0 ? paint.bad : paint.good)(
        `${count(refs.length, 'file')} checked: ${count(errors, 'error')}, ${count(problems.length - errors, 'warning')}`,
      ),
    )
  lines.push(...synced)
  return { output: `${lines.join('\n')}\n`, exitCode }
}

/** An installed agent that ignores an answer field on an event it routes (`Dialect.ignores`): a warning naming the hooks it affects. */
function ignoredAnswerWarnings(entries: readonly ParsedEntry[], options: ValidateOptions): ConfigProblem[] {
  const places = { home: homeOf(options.env), project: findProjectRoot(resolve(options.cwd)) ?? resolve(options.cwd), env: options.env }
  const warnings: ConfigProblem[] = []
  for (const dialect of DIALECTS) {
    const target = dialect.ignores === undefined ? undefined : agentTarget(dialect.name)
    if (target === undefined) continue
    const files = [target.file('project', places), target.file('user', places)]
    const routed = new Map(files.flatMap((file) => routedEvents(file, dialect.name as AgentName).map((event) => [event, file] as const)))
    for (const row of dialect.ignores!) {
      for (const event of row.events) {
        const file = routed.get(event)
        const canonical = resolveAlias(event) ?? event
        const hooks = entries.filter(
          ({ entry }) => entry.enabled !== false && eventPatterns(entry.event).some((pattern) => matchesAny(pattern, [canonical])),
        )
        if (file === undefined || hooks.length === 0) continue
        const names = hooks.map(({ entry }) => entry.name ?? entry.path)
        warnings.push({
          severity: 'warning',
          file: hooks[0]!.ref.file,
          path: eventPath(hooks[0]!.entry),
          message: `${dialect.label} (routed by ${file}) ignores ${row.field} on ${event}: ${row.why}; hooks it would apply to: ${names.join(', ')}`,
        })
      }
    }
  }
  return warnings
}

function eventPatterns(event: string | readonly string[] | undefined): readonly string[] {
  return typeof event === 'string' ? [event] : (event ?? [])
}

/** Does a pattern's event part (its first two segments: any subject) match one of these canonical events? */
function matchesAny(pattern: string, canonical: readonly string[]): boolean {
  return pattern.split(',').some((alternative) => {
    const compiled = compilePattern(expandAlias(alternative.trim().split(':')).slice(0, 2).join(':'))
    return canonical.some((event) => compiled.matches(event.split(':')))
  })
}

/** A script a hook runs that does not exist (as trust finds them): on a gate it fails and blocks, so say so first. */
function missingScripts(ref: ConfigFileRef): ConfigProblem[] {
  const folder = dirname(ref.file)
  const root = basename(folder) === '.hookrun' ? dirname(folder) : folder
  let notCovered: readonly string[]
  try {
    notCovered = projectMaterial(root, [readConfigDocument(ref)]).notCovered
  } catch {
    return [] // a file that cannot be read has its own error
  }
  return notCovered
    .filter((line) => line.includes(' does not exist (yet)'))
    .map((line) => {
      const [where, what] = line.split(/: (?=[^:]*does not exist)/) as [string, string]
      return {
        severity: 'warning' as const,
        file: ref.file,
        path: where.replace(/^\S+ /, ''),
        message: `runs ${what.replace(' does not exist (yet); the trust is revoked if it appears', '')}, which does not exist: on a gate event the hook fails and blocks`,
      }
    })
}
