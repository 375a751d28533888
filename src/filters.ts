import picomatch from 'picomatch'
import type { Hook } from './config/load.ts'
import { toolInput } from './env.ts'
import type { FiredEvent } from './event.ts'
import type { Payload } from './payload.ts'

/**
 * Filters a hook can carry besides its event pattern, from the shapes it may be written in:
 * pigo's `match: {tool}`, Claude Code's `matcher` and Claude Code's `if` rule.
 */
export function passesFilters(hook: Hook, event: FiredEvent, payload: Payload): boolean {
  if (hook.match !== undefined && !matchesToolList(hook.match.tool, event)) return false
  if (hook.matcher !== undefined && !matchesClaudeMatcher(hook.matcher, event, payload)) return false
  if (hook.when !== undefined && !matchesPermissionRule(hook.when, event, payload)) return false
  return true
}

/** pigo: exact tool names separated by `|` (hookrun compares names without regard to case). */
function matchesToolList(list: string, event: FiredEvent): boolean {
  if (event.tool === undefined) return false
  const tool = event.tool.toLowerCase()
  return list.split('|').some((name) => name.trim().toLowerCase() === tool)
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

const EXACT_LIST = /^[\w\- ,|]+$/
const regexCache = new Map<string, RegExp>()

/**
 * Claude Code's matcher rules: only letters, digits, `_`, `-`, spaces, `,` and `|` mean a list of
 * exact names; anything else is an unanchored regular expression. A tool matcher is tested against
 * the agent's own tool name and hookrun's subject, so `Bash` also fires for another agent's shell.
 */
export function matchesClaudeMatcher(matcher: string, event: FiredEvent, payload: Payload): boolean {
  const values = matcherValues(event, payload)
  if (values === undefined) return true
  if (EXACT_LIST.test(matcher)) {
    const names = matcher.split(/[|,]/).map((name) => name.trim().toLowerCase())
    return values.some((value) => names.includes(value.toLowerCase()))
  }
  let regex = regexCache.get(matcher)
  if (!regex) regexCache.set(matcher, (regex = new RegExp(matcher)))
  return values.some((value) => regex.test(value))
}

function matcherValues(event: FiredEvent, payload: Payload): string[] | undefined {
  const fields = MATCHER_FIELD[event.name]
  if (fields === undefined) {
    if (event.tool === undefined) return event.name.startsWith('tool:') || event.name.startsWith('permission:') ? [] : undefined
    const subject = event.segments[event.segments.length - 1]!
    return subject === event.tool ? [event.tool] : [event.tool, subject]
  }
  return fields.map((field) => payload[field]).filter((value): value is string => typeof value === 'string')
}

/** Is `matcher` usable? (A config check: an invalid regular expression would never match.) */
export function matcherProblem(matcher: string): string | undefined {
  if (matcher === '' || matcher === '*' || EXACT_LIST.test(matcher)) return undefined
  try {
    new RegExp(matcher)
    return undefined
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`
  }
}

const RULE = /^([\w*|-]+)(?:\((.*)\))?$/s

/**
 * Claude Code's `if`: one permission rule such as `Bash(git *)` or `Edit(*.ts)`. It applies to
 * tool events only (elsewhere the hook does not run, as in Claude Code). The argument is a glob
 * over the command (each `&&`, `||`, `;` part of it too) or the file path, URL or pattern.
 */
export function matchesPermissionRule(rule: string, event: FiredEvent, payload: Payload): boolean {
  const parsed = RULE.exec(rule.trim())
  if (!parsed || event.tool === undefined) return false
  const [, toolPart, argument] = parsed
  if (!toolPart!.split('|').some((name) => name === '*' || name.toLowerCase() === event.tool!.toLowerCase())) return false
  if (argument === undefined || argument === '' || argument === '*') return true
  const input = toolInput(payload) as Record<string, unknown> | undefined
  const command = typeof input?.command === 'string' ? input.command : undefined
  if (command !== undefined) {
    const glob = picomatch(argument, { bash: true, dot: true })
    const parts = [command, ...command.split(/&&|\|\||;/).map((part) => part.trim().replace(/^(\w+=\S*\s+)+/, ''))]
    return parts.some((part) => glob(part))
  }
  const target = ['file_path', 'path', 'url', 'pattern', 'query'].map((key) => input?.[key]).find((value) => typeof value === 'string') as string | undefined
  if (target === undefined) return false
  return picomatch(argument, { dot: true, basename: !argument.includes('/'), bash: true })(target)
}
