// Event patterns and Claude matchers: checked, then compiled once per process.
import type { FiredEvent, Hook } from '../core/types.ts'
import { compileGlob } from './globs.ts'
import { resolveAlias } from './events.ts'
import { canonicalTool } from './tools.ts'
import { looseMcpName } from './mcp.ts'

/**
 * Event patterns (docs/events.md): `tool:pre_execute`, `tool:*`, `tool:*:write`, `tool:pre_execute:bash|write`,
 * `session:start,session:end`, `*`; N segments match the event's first N, case-insensitively. An alternative may
 * start with an event alias (`PreToolUse:Bash`); a literal subject is a tool name in any agent's spelling.
 */
export interface EventPattern {
  readonly source: string
  matches(segments: readonly string[]): boolean
  /** Does it match the event by its segments or by another reading of its MCP tool's name (src/event/mcp.ts)? */
  matchesEvent(event: Pick<FiredEvent, 'segments' | 'alternates'>): boolean
}

type SegmentTest = (segment: string) => boolean

const GLOB_CHARS = /[*?[\]{}()!+@]/
const anySegment: SegmentTest = () => true

const compiled = new Map<string, EventPattern>()

/** Compile once per process: the same pattern text always returns the same matcher. */
export function compilePattern(source: string | readonly string[]): EventPattern {
  const text = String(source)
  let pattern = compiled.get(text)
  if (!pattern) {
    pattern = buildPattern(text)
    compiled.set(text, pattern)
  }
  return pattern
}

function buildPattern(text: string): EventPattern {
  const alternatives = alternativesOf(text).map((segments) => segments.map((choices, index) => compileSegment(choices, index === SUBJECT)))
  return {
    source: text,
    matches(segments) {
      return alternatives.some((tests) => tests.length <= segments.length && tests.every((test, index) => test(segments[index]!)))
    },
    matchesEvent(event) {
      return this.matches(event.segments) || (event.alternates?.some((segments) => this.matches(segments)) ?? false)
    },
  }
}

/** A pattern's alternatives, each a list of segments, each segment its choices (lowercased, trimmed; an alias expanded). */
function alternativesOf(text: string): string[][][] {
  return text
    .split(',')
    .map((alternative) => alternative.trim())
    .filter((alternative) => alternative !== '')
    .map((alternative) =>
      expandAlias(alternative.split(':')).map((segment) =>
        segment
          .toLowerCase()
          .split('|')
          .map((choice) => choice.trim()),
      ),
    )
}

/** `PreToolUse:Bash` → `['tool', 'pre_execute', 'Bash']`; other segments stay as they are. */
export function expandAlias(segments: string[]): string[] {
  const canonical = resolveAlias(segments[0]!.trim())
  return canonical === undefined ? segments : [...canonical.split(':'), ...segments.slice(1)]
}

/** The third segment of an event is its subject (the tool). */
const SUBJECT = 2

/** Literal segments compare as strings; only real globs pay for picomatch. */
function compileSegment(segment: readonly string[], subject = false): SegmentTest {
  const choices = segment.map((choice) => (subject && !GLOB_CHARS.test(choice) ? canonicalTool(choice) : choice))
  // An MCP subject also in its loose spelling (src/event/mcp.ts), outside a bracket's ranges.
  if (subject)
    for (const choice of [...choices]) if (choice.startsWith('mcp__') && !choice.includes('[')) choices.push(looseMcpName(choice))
  if (choices.includes('*')) return anySegment
  const tests = choices.map((choice): SegmentTest => {
    if (!GLOB_CHARS.test(choice)) return (value) => value === choice
    // A segment never contains `/`, so picomatch's path rules do not apply to it.
    const glob = compileGlob(choice, { nocase: true, dot: true, nonegate: false })
    return (value) => glob(value)
  })
  return tests.length === 1 ? tests[0]! : (value) => tests.some((test) => test(value))
}

/** Does matching this pattern need picomatch (src/event/globs.ts): a glob other than a whole-segment `*`? */
export function usesGlobs(source: string | readonly string[]): boolean {
  return alternativesOf(String(source)).some((segments) =>
    segments.some((choices) => choices.some((choice) => choice !== '*' && GLOB_CHARS.test(choice))),
  )
}

/**
 * The index keys of a pattern, so that selection compiles only the patterns an event can match: per alternative its
 * literal leading segments, then `*` (`tool:pre_execute:bash`, `tool:pre_execute:*`, `tool:*`, `*`). The parser stores them.
 */
export function patternKeys(source: string | readonly string[]): string[] {
  const keys = new Set<string>()
  for (const segments of alternativesOf(String(source))) {
    let prefixes = ['']
    let literal = 0
    for (const choices of segments.slice(0, SUBJECT + 1)) {
      if (choices.some((choice) => GLOB_CHARS.test(choice)) || prefixes.length * choices.length > MAX_KEYS) break
      const names = literal === SUBJECT ? choices.map(canonicalTool) : choices
      prefixes = prefixes.flatMap((prefix) => names.map((name) => `${prefix}${name}:`))
      literal++
    }
    // Events have at most three segments: three literal ones are a whole key.
    for (const prefix of prefixes) keys.add(literal > SUBJECT ? prefix.slice(0, -1) : `${prefix}*`)
  }
  return [...keys]
}

/** More choices than this in a pattern's segments are indexed by the segments before them. */
const MAX_KEYS = 64

/** The keys of `patternKeys` that stand for an event (its segments as `qualifyEvent` made them, and its other readings). */
export function eventKeys(segments: readonly string[], alternates: readonly (readonly string[])[] = []): string[] {
  const keys = ['*']
  for (let length = 1; length <= Math.min(segments.length, SUBJECT); length++) keys.push(`${segments.slice(0, length).join(':')}:*`)
  if (segments.length > SUBJECT) keys.push(segments.slice(0, SUBJECT + 1).join(':'))
  for (const other of alternates) if (other.length > SUBJECT) keys.push(other.slice(0, SUBJECT + 1).join(':'))
  return keys
}

/** The longest event segment patterns are matched against: with MAX_WILDCARDS it bounds a glob match to milliseconds. */
export const MAX_SEGMENT_LENGTH = 256

/** `*` wildcards allowed in one segment choice; each one more multiplies the worst-case work. */
export const MAX_WILDCARDS = 3

/** Characters an event name segment can hold (see `qualifyEvent`); the subject may hold more. */
const EVENT_SEGMENT_CHARS = /^[\w.\-/@$]*$/
/** picomatch syntax, stripped before checking what is left against EVENT_SEGMENT_CHARS. */
const GLOB_SYNTAX = /[*?[\]{}()!+@^]/g
/** Extglob groups (`+(a)`, `*(a)`, …): nested quantifiers, the classic way to make a regex backtrack. */
const EXTGLOB = /[*+?@!]\(/

/** What makes a pattern useless or dangerous (the hook is skipped): empty parts, too many segments, never-matching parts, backtracking globs. */
export function patternProblem(source: string): string | undefined {
  const alternatives = source.split(',').map((alternative) => alternative.trim())
  if (alternatives.every((alternative) => alternative === '')) return 'is empty'
  if (/\{[^{}]*,[^{}]*\}/.test(source)) {
    return "uses {a,b} braces, but ',' separates whole patterns here; write the choices with '|' inside the segment (tool:pre_execute|post_execute)"
  }
  for (const alternative of alternatives) {
    if (alternative === '') return `has an empty alternative (a stray comma)`
    const segments = expandAlias(alternative.split(':'))
    if (segments.length > 3) return `'${alternative}' has ${segments.length} segments; at most 3 (domain:action:subject)`
    for (const [index, segment] of segments.entries()) {
      for (const raw of segment.split('|')) {
        const choice = raw.trim()
        if (choice === '') return `'${alternative}' has an empty segment or choice`
        const problem = choiceProblem(choice, index < 2)
        if (problem !== undefined) return `'${alternative}': ${problem}`
      }
    }
  }
  return undefined
}

function choiceProblem(choice: string, inEventName: boolean): string | undefined {
  if (choice.length > MAX_SEGMENT_LENGTH) return `a segment is longer than ${MAX_SEGMENT_LENGTH} characters`
  if (EXTGLOB.test(choice)) return `'${choice}' uses an extglob group, which can make matching backtrack; use '|' inside a segment`
  const wildcards = choice.split('*').length - 1
  if (wildcards > MAX_WILDCARDS)
    return `'${choice}' has ${wildcards} '*' wildcards; at most ${MAX_WILDCARDS} in one segment (more can make matching backtrack)`
  if (!balanced(choice, '[', ']') || !balanced(choice, '{', '}') || !balanced(choice, '(', ')')) {
    return `'${choice}' has an unbalanced bracket, brace or parenthesis, so it can never match`
  }
  if (choice.includes('\\')) return `'${choice}' uses a backslash; event names hold no characters that need escaping, so it can never match`
  if (inEventName && !EVENT_SEGMENT_CHARS.test(choice.replace(GLOB_SYNTAX, ''))) {
    return `'${choice}' holds characters no event name has (letters, digits and _ . - / @ $ only), so it can never match`
  }
  return undefined
}

function balanced(text: string, open: string, close: string): boolean {
  let depth = 0
  for (const char of text) {
    if (char === open) depth++
    else if (char === close && --depth < 0) return false
  }
  return depth === 0
}

/** A Claude Code matcher that is a plain list of names (`Write|Edit`, `Bash`), not a regular expression. */
export const EXACT_LIST = /^[\w\- ,|]+$/

/** Is `matcher` usable? (A config check: an invalid regular expression would never match.) */
export function matcherProblem(matcher: string): string | undefined {
  if (matcher === '' || matcher === '*' || EXACT_LIST.test(matcher)) return undefined
  try {
    new RegExp(matcher)
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`
  }
  return backtrackingProblem(matcher)
}

/** The longest value a matcher or an `if` glob is tested against; a longer one counts as matching (a gate is never skipped). */
export const MAX_MATCHED_LENGTH = 256
export const MAX_RULE_TEXT_LENGTH = 4096

/** Unbounded quantifiers (`*`, `+`, `{n,}`) allowed in one matcher: each one more multiplies the worst case. */
const MAX_UNBOUNDED = 2

/** Regular expressions that can backtrack for minutes: `(a+)+`, `(a|aa)*`, backreferences, more than MAX_UNBOUNDED unbounded quantifiers. */
function backtrackingProblem(source: string): string | undefined {
  const groups: Array<{ quantified: boolean; alternation: boolean }> = [{ quantified: false, alternation: false }]
  let closed: { quantified: boolean; alternation: boolean } | undefined
  let unbounded = 0
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!
    const quantifier = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/.exec(source.slice(index))
    if (quantifier && index > 0) {
      const [text, , comma, max] = quantifier
      const repeats = text !== '?' && !(text.startsWith('{') && (comma === undefined || max === '0' || max === '1'))
      const isUnbounded = text === '*' || text === '+' || (comma !== undefined && max === '')
      if (repeats && closed !== undefined && (closed.quantified || closed.alternation)) {
        return `repeats a group that holds a quantifier or an alternation, which can make matching backtrack for minutes; write it without the nested repetition`
      }
      if (isUnbounded) unbounded++
      if (repeats) groups[groups.length - 1]!.quantified = true
      index += text.length - 1
      if (source[index + 1] === '?') index++ // lazy
      closed = undefined
      continue
    }
    closed = undefined
    if (char === '\\') {
      if (/[1-9k]/.test(source[index + 1] ?? ''))
        return 'uses a backreference, which can make matching backtrack; hookrun does not accept one'
      index++
    } else if (char === '[') {
      for (index++; index < source.length && source[index] !== ']'; index++) if (source[index] === '\\') index++
    } else if (char === '(') {
      groups.push({ quantified: false, alternation: false })
      const prefix = /^\?(?:[:=!]|<[=!]|<\w+>)/.exec(source.slice(index + 1))
      if (prefix) index += prefix[0].length
    } else if (char === ')' && groups.length > 1) {
      closed = groups.pop()!
      const parent = groups[groups.length - 1]!
      parent.quantified ||= closed.quantified
      parent.alternation ||= closed.alternation
    } else if (char === '|') groups[groups.length - 1]!.alternation = true
  }
  if (unbounded > MAX_UNBOUNDED)
    return `has ${unbounded} unbounded quantifiers (*, +, {n,}); at most ${MAX_UNBOUNDED}, more can make matching backtrack`
  return undefined
}

/** Is Claude Code's `if` rule usable? Its glob may hold at most 2 `*` and no extglob groups (either can make matching backtrack). */
export function permissionRuleProblem(rule: string): string | undefined {
  const argument = /\((.*)\)$/s.exec(rule.trim())?.[1]
  if (argument === undefined) return undefined
  if (EXTGLOB.test(argument)) return `'${argument}' uses an extglob group, which can make matching backtrack`
  const wildcards = argument.split('*').length - 1
  if (wildcards > MAX_UNBOUNDED)
    return `'${argument}' has ${wildcards} '*' wildcards; at most ${MAX_UNBOUNDED} (more can make matching backtrack)`
  return undefined
}

/** The enabled hooks whose event pattern matches the event, before their filters (a plan remembers them per event). */
export function hooksMatching(hooks: readonly Hook[], event: FiredEvent): Hook[] {
  const keys = eventKeys(event.segments, event.alternates)
  // Plain loops: this runs once per configured hook on every event the plan does not answer.
  const matching: Hook[] = []
  for (const hook of hooks) {
    if (hook.enabled && sharesKey(hook.eventKeys, keys) && compilePattern(hook.event).matchesEvent(event)) matching.push(hook)
  }
  return matching
}

/** Does a hook with these index keys (none stored: it may) share one with the event? */
export function sharesKey(hookKeys: readonly string[] | undefined, keys: readonly string[]): boolean {
  if (hookKeys === undefined) return true
  for (const key of hookKeys) if (keys.includes(key)) return true
  return false
}
