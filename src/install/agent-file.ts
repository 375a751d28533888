import type { Node } from 'jsonc-parser'
import { fnv1a } from '../core/cache-file.ts'
import { CHAIN_BUDGET_SECONDS } from '../config/defaults.ts'
import { type AgentTarget, groupsAt, hooksPathOf, isRouterCommand, ROUTER_TIMEOUT_SECONDS } from './agent-target.ts'
import {
  child,
  insertAt,
  JsonTextError,
  keysOf,
  nodeAt,
  nodeValue,
  parseJson,
  type Path,
  removeAt,
  replaceAt,
  styleOf,
} from './json-text.ts'
import { isCompiledMatcher } from './matchers.ts'
import { isServeHandler } from './serve-entries.ts'

/** What install starts a new file with: the agent's header keys (Cursor and Copilot: version 1). */
export function freshText(target: AgentTarget): string {
  return `${JSON.stringify(target.header, null, 2)}\n`
}

export function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b))
  } catch {
    return false
  }
}

export function parse(target: AgentTarget, text: string): Node {
  return parseJson(text, target.comments)
}

/** The object that maps the agent's events to their lists: `hooks`, or the file itself (`AgentTarget.hooksPath`). */
export function eventMap(target: AgentTarget, root: Node): Node | undefined {
  return nodeAt(root, hooksPathOf(target))
}

/** `hooks` must be an object of arrays, and for the groups shape each group an object. */
export function checkShape(target: AgentTarget, root: Node): void {
  if (root.type !== 'object') throw new JsonTextError('is not a JSON object')
  const hooks = eventMap(target, root)
  if (hooks === undefined) return
  if (hooks.type !== 'object') throw new JsonTextError(`"hooks" is ${describe(hooks)}, but ${target.label} expects an object of events`)
  const prefix = hooksPathOf(target)
    .map((key) => `${key}.`)
    .join('')
  for (const name of target.events) {
    const list = child(hooks, name)
    if (list === undefined) continue
    if (list.type !== 'array') throw new JsonTextError(`"${prefix}${name}" is ${describe(list)}, but ${target.label} expects an array`)
    if (!groupsAt(target, name)) continue
    for (const [index, group] of (list.children ?? []).entries()) {
      const handlers = child(group, 'hooks')
      if (group.type !== 'object' || (handlers !== undefined && handlers.type !== 'array')) {
        throw new JsonTextError(`"${prefix}${name}[${index}]" is not a { "matcher", "hooks": [...] } group`)
      }
    }
  }
}

/** hookrun's entries for one event: what to remove (a group holding nothing of the user's, else the handler) and each handler. */
export function routerEntries(target: AgentTarget, root: Node, event: string): Array<{ remove: Path; handlers: Path[] }> {
  const list = child(eventMap(target, root), event)
  if (list?.type !== 'array') return []
  const entries: Array<{ remove: Path; handlers: Path[] }> = []
  for (const [index, item] of (list.children ?? []).entries()) {
    if (item.type !== 'object') continue
    const at: Path = [...hooksPathOf(target), event, index]
    if (!groupsAt(target, event)) {
      if (
        isRouterCommand(child(item, target.commandField)?.value, target.name) ||
        (target.serves === true && isServeHandler(nodeValue(item)))
      )
        entries.push({ remove: at, handlers: [at] })
      continue
    }
    const handlers = child(item, 'hooks')
    if (handlers?.type !== 'array') continue
    const ours = (handlers.children ?? []).flatMap((handler, inner) =>
      handler.type === 'object' &&
      (isRouterCommand(child(handler, target.commandField)?.value, target.name) ||
        (target.serves === true && isServeHandler(nodeValue(handler))))
        ? [inner]
        : [],
    )
    if (ours.length === 0) continue
    const paths = ours.map((inner): Path => [...at, 'hooks', inner])
    // A group with a matcher or handlers of the user's stays; only hookrun's handlers go.
    const matcher = child(item, 'matcher')
    if (
      ours.length === handlers.children!.length &&
      (matcher === undefined || isCompiledMatcher(matcher.value) || matcher.value === target.allMatcher)
    )
      entries.push({ remove: at, handlers: paths })
    else for (const path of paths) entries.push({ remove: path, handlers: [path] })
  }
  return entries
}

/** The handler given the timeout hookrun needs when it has none or a shorter one: an agent that kills hookrun mid-gate lets it through. */
export function withRouterTimeout(target: AgentTarget, text: string, handler: Path): string {
  if (target.timeout === undefined) return text
  const wanted = ROUTER_TIMEOUT_SECONDS * target.timeout.perSecond
  const node = nodeAt(parse(target, text), handler)
  // An http handler's timeout is in seconds whatever the agent's command timeout is in (Qwen Code: ms); install writes it whole.
  if (child(node, 'type')?.value === 'http') return text
  const current = child(node, target.timeout.field)?.value
  if (typeof current === 'number' ? current >= wanted : current === undefined && (target.timeout.agentDefault ?? 0) > CHAIN_BUDGET_SECONDS)
    return text
  if (current !== undefined) return replaceAt(text, [...handler, target.timeout.field], wanted)
  return replaceAt(text, handler, { ...(node === undefined ? {} : (nodeValue(node) as object)), [target.timeout.field]: wanted })
}

/** The router handler's keys the one at `handler` lacks (timeout aside); never where the agent reviews changed entries (Codex). */
export function withHandlerKeys(target: AgentTarget, text: string, handler: Path, wanted: Record<string, unknown>): string {
  if (target.reviewsChangedHooks) return text
  const node = nodeAt(parse(target, text), handler)
  const lacking = Object.keys(wanted).filter((key) => key !== target.timeout?.field && child(node, key) === undefined)
  if (node === undefined || lacking.length === 0) return text
  return replaceAt(text, handler, { ...(nodeValue(node) as object), ...Object.fromEntries(lacking.map((key) => [key, wanted[key]])) })
}

function describe(node: Node): string {
  return node.type === 'array' ? 'an array' : node.type === 'object' ? 'an object' : `a ${node.type}`
}

/**
 * hookrun's edit as `AgentFiles.edit`'s change. When another program changed the file but not the event map (Claude Code adds a
 * permission rule), the computed event map replaces it at once: recomputing could lose every race on a busy file.
 */
export function rebased(target: AgentTarget, compute: (text: string | undefined) => string | undefined) {
  let last: EventMapEdit | undefined
  return (text: string | undefined): string | undefined => {
    const spliced = last === undefined || text === undefined ? undefined : withEventMap(target, last, text)
    if (spliced !== undefined) return spliced
    const after = compute(text)
    last = text === undefined || after === undefined ? undefined : eventMapEdit(target, text, after)
    return after
  }
}

/** What hookrun's edit did to the event map: the value it had (JSON), and the value and text it has after. */
interface EventMapEdit {
  readonly had: string
  readonly wanted?: { readonly value: unknown; readonly text: string }
}

function eventMapEdit(target: AgentTarget, before: string, after: string): EventMapEdit | undefined {
  const path = hooksPathOf(target)
  if (path.length !== 1) return undefined
  const had = nodeAt(parse(target, before), path)
  const wanted = nodeAt(parse(target, after), path)
  return {
    had: JSON.stringify(had === undefined ? null : nodeValue(had)),
    ...(wanted !== undefined && { wanted: { value: nodeValue(wanted), text: after.slice(wanted.offset, wanted.offset + wanted.length) } }),
  }
}

/** `text` with the event map hookrun computed, when its own is the one hookrun computed from (the same value); else undefined. */
function withEventMap(target: AgentTarget, edit: EventMapEdit, text: string): string | undefined {
  const path = hooksPathOf(target)
  const now = nodeAt(parse(target, text), path)
  if (JSON.stringify(now === undefined ? null : nodeValue(now)) !== edit.had) return undefined
  if (edit.wanted === undefined) return now === undefined ? text : removeAt(text, path)
  if (now === undefined) return insertAt(text, styleOf(text), path as string[], edit.wanted.value)
  return `${text.slice(0, now.offset)}${edit.wanted.text}${text.slice(now.offset + now.length)}`
}

/** A print of each of hookrun's entries, by event: a sync compares them with the stamp's, to tell an entry edited by hand. */
export function entryPrints(target: AgentTarget, text: string): Map<string, string[]> {
  const root = parse(target, text)
  const prints = new Map<string, string[]>()
  for (const event of keysOf(eventMap(target, root)))
    for (const entry of routerEntries(target, root, event)) {
      const node = nodeAt(root, entry.remove)
      if (node !== undefined) prints.set(event, [...(prints.get(event) ?? []), fnv1a(`${event} ${JSON.stringify(nodeValue(node))}`)])
    }
  return prints
}
