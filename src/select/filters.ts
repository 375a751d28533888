// Filters besides the event pattern: pigo's match, Claude's matcher and `if` rule.
import { compileGlob } from '../event/globs.ts'
import type { FiredEvent, Hook, Payload } from '../core/types.ts'
import { toolInput } from '../payload/fields.ts'
import { canonicalTool } from '../event/tools.ts'
import { isToolEventName } from '../event/event.ts'
import { EXACT_LIST, MAX_MATCHED_LENGTH, MAX_RULE_TEXT_LENGTH, matcherProblem, permissionRuleProblem } from '../event/pattern.ts'

/** Filters a hook can carry besides its event pattern: pigo's `match: {tool}`, Claude Code's `matcher` and `if` rule. */
export function passesFilters(hook: Hook, event: FiredEvent, payload: Payload): boolean {
  return failedFilter(hook, event, payload) === undefined
}

/** The filter that keeps a hook from running, with why in words (for `explain`), or undefined. */
export function failedFilter(
  hook: Hook,
  event: FiredEvent,
  payload: Payload,
): { filter: 'match' | 'matcher' | 'if'; detail: string } | undefined {
  // An event about no tool: say so, rather than "does not match no tool".
  const tool = event.tool === undefined ? `any tool (${event.qualified} is not about a tool)` : `tool ${describeTool(event)}`
  if (hook.match !== undefined && !matchesToolList(hook.match.tool, event)) {
    return { filter: 'match', detail: `match.tool '${hook.match.tool}' does not name ${tool}` }
  }
  if (hook.matcher !== undefined && !matchesClaudeMatcher(hook.matcher, event, payload)) {
    const values = matcherValues(event, payload)
    const against = values?.length ? values.map((value) => `'${value}'`).join(' / ') : tool
    return { filter: 'matcher', detail: `matcher '${hook.matcher}' does not match ${against}` }
  }
  if (hook.when !== undefined && !matchesPermissionRule(hook.when, event, payload)) {
    const command = (toolInput(payload) as { command?: unknown } | undefined)?.command
    const what = typeof command === 'string' ? `command '${command}'` : tool
    return {
      filter: 'if',
      detail: `if '${hook.when}' does not match ${what}${isToolEventName(event.name) ? '' : ' (an if rule only runs on tool events)'}`,
    }
  }
  return undefined
}

function describeTool(event: FiredEvent): string {
  const subject = event.segments[event.segments.length - 1]!
  return subject === event.tool ? event.tool : `${event.tool} (${subject})`
}

/** Does a name given in a config stand for this event's tool? Its own spelling, or the same canonical subject. */
function namesTool(name: string, event: FiredEvent): boolean {
  const lower = name.trim().toLowerCase()
  const subject = canonicalTool(lower)
  return (
    lower === event.tool!.toLowerCase() ||
    subject === event.segments[event.segments.length - 1] ||
    (event.alternates?.some((segments) => segments[segments.length - 1] === subject) ?? false)
  )
}

/** pigo: exact tool names separated by `|` (hookrun compares names without regard to case). */
function matchesToolList(list: string, event: FiredEvent): boolean {
  if (event.tool === undefined) return false
  return list.split('|').some((name) => namesTool(name, event))
}

/** What Claude Code compares a matcher against, per event; events not listed ignore matchers. */
const MATCHER_FIELD: Readonly<Record<string, readonly string[]>> = {
  'session:start': ['source'],
  'session:end': ['reason'],
  'session:setup': ['trigger'],
  'session:directory_added': ['source'],
  notification: ['notification_type'],
  'subagent:start': ['agent_type'],
  'subagent:stop': ['agent_type'],
  'context:pre_compact': ['trigger'],
  'context:post_compact': ['trigger'],
  'context:instructions_loaded': ['load_reason'],
  'config:change': ['source'],
  'agent:stop_failure': ['error'],
  'user:prompt_expansion': ['command_name'],
  'mcp:elicitation': ['mcp_server_name'],
  'mcp:elicitation_result': ['mcp_server_name'],
  'file:changed': ['file_path'],
}

const regexCache = new Map<string, RegExp | null>()

/**
 * Claude Code's matcher: a plain list of names (`EXACT_LIST`) or an unanchored regular expression, tested against the
 * agent's tool name and hookrun's subject (`Bash` also fires for another agent's shell).
 */
export function matchesClaudeMatcher(matcher: string, event: FiredEvent, payload: Payload): boolean {
  const values = matcherValues(event, payload)
  if (values === undefined) return true
  if (EXACT_LIST.test(matcher)) {
    const names = matcher.split(/[|,]/).map((name) => name.trim().toLowerCase())
    if (event.tool !== undefined && MATCHER_FIELD[event.name] === undefined) return names.some((name) => namesTool(name, event))
    return values.some((value) => names.includes(value.toLowerCase()))
  }
  // A refused matcher (only the library can give one) counts as matching: a gate is never skipped.
  let regex = regexCache.get(matcher)
  if (regex === undefined) {
    regex = matcherProblem(matcher) === undefined ? new RegExp(matcher) : null
    regexCache.set(matcher, regex)
  }
  if (regex === null) return true
  return values.some((value) => value.length > MAX_MATCHED_LENGTH || regex.test(value))
}

function matcherValues(event: FiredEvent, payload: Payload): string[] | undefined {
  const fields = MATCHER_FIELD[event.name]
  if (fields === undefined) {
    if (event.tool === undefined) return isToolEventName(event.name) ? [] : undefined
    const subject = event.segments[event.segments.length - 1]!
    const others = event.alternates?.map((segments) => segments[segments.length - 1]!) ?? []
    return subject === event.tool ? [event.tool, ...others] : [event.tool, subject, ...others]
  }
  return fields.map((field) => payload[field]).filter((value): value is string => typeof value === 'string')
}

const RULE = /^([\w*|-]+)(?:\((.*)\))?$/s

/** Claude Code's `if` (`Bash(git *)`, `Edit(*.ts)`), on tool events only: a glob over the command (and each part) or the path. */
export function matchesPermissionRule(rule: string, event: FiredEvent, payload: Payload): boolean {
  const parsed = RULE.exec(rule.trim())
  if (!parsed || event.tool === undefined) return false
  const [, toolPart, argument] = parsed
  if (!toolPart!.split('|').some((name) => name === '*' || namesTool(name, event))) return false
  if (argument === undefined || argument === '' || argument === '*') return true
  // Bounded like a matcher: a refused glob, or a text too long to test cheaply, counts as matching.
  if (permissionRuleProblem(rule) !== undefined) return true
  const input = toolInput(payload) as Record<string, unknown> | undefined
  const command = typeof input?.command === 'string' ? input.command : undefined
  if (command !== undefined) {
    const glob = compileGlob(argument, { bash: true, dot: true })
    const parts = [command, ...command.split(/&&|\|\||\$\(|[;&|\n()`]/).map((part) => part.trim().replace(/^(\w+=\S*\s+)+/, ''))]
    return parts.some((part) => part.length > MAX_RULE_TEXT_LENGTH || glob(part))
  }
  const target = ['file_path', 'path', 'url', 'pattern', 'query'].map((key) => input?.[key]).find((value) => typeof value === 'string') as
    | string
    | undefined
  if (target === undefined) return false
  if (target.length > MAX_RULE_TEXT_LENGTH) return true
  return compileGlob(argument, { dot: true, basename: !argument.includes('/'), bash: true })(target)
}
