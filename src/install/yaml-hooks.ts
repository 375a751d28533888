// Hermes Agent's config.yaml: hookrun's entries under `hooks:` (`{<event>: [{command, timeout, fail_closed}]}`), edited with the yaml
// package's Document API so the user's comments, order and style stay; uninstall gives the file back as it was.
import { isMap, isScalar, isSeq, parseDocument, type Document, type Pair, type YAMLMap, type YAMLSeq } from 'yaml'
import { type AgentName, type AgentTarget, isRouterCommand } from './agent-target.ts'
import { JsonTextError } from './json-text.ts'
import { installedLines, type OwnFormat, uninstallOwnEntries } from './results.ts'

/** How hookrun prints a document: no folding of long lines, so a line of the user's stays one line. */
const PRINT = { lineWidth: 0 } as const

/**
 * `after` with the user's own bytes wherever the edit left a line alone (yaml prints an unedited document a little differently);
 * `after` as it is where the print of `before` does not map line for line onto `original`.
 */
function keepingUserBytes(original: string, before: string, after: string): string {
  const from = original.split('\n')
  const base = before.split('\n')
  const next = after.split('\n')
  if (from.length !== base.length) return after
  // Longest common subsequence of the printed lines, base against next (small files: a table).
  const table = Array.from({ length: base.length + 1 }, () => new Array<number>(next.length + 1).fill(0))
  for (let i = base.length - 1; i >= 0; i--)
    for (let j = next.length - 1; j >= 0; j--)
      table[i]![j] = base[i] === next[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!)
  const out: string[] = []
  let i = 0
  let j = 0
  while (i < base.length || j < next.length) {
    if (i < base.length && j < next.length && base[i] === next[j]) {
      out.push(from[i]!)
      i++
      j++
    } else if (j < next.length && (i === base.length || table[i]![j + 1]! >= table[i + 1]![j]!)) out.push(next[j++]!)
    else i++
  }
  return out.join('\n')
}

/** The file as a YAML document with a mapping at its root (an empty file is one); anything else is refused. */
function documentOf(text: string | undefined): Document.Parsed | Document {
  const doc = parseDocument(text ?? '')
  if (doc.errors.length > 0) throw new JsonTextError(`is not valid YAML (${doc.errors[0]!.message.split('\n')[0]})`)
  if (doc.contents !== null && !isMap(doc.contents)) throw new JsonTextError('is not a YAML mapping at its top level')
  return doc
}

/** The `hooks:` mapping, if there is one; one that is not a mapping is refused. */
function hooksOf(doc: Document, label: string): YAMLMap | undefined {
  const hooks = doc.get('hooks', true)
  if (hooks === undefined || (isScalar(hooks) && hooks.value === null)) return undefined
  if (!isMap(hooks)) throw new JsonTextError(`"hooks" is not a mapping of events, as ${label} expects`)
  return hooks
}

/** The entries of one event's list that are hookrun's, by index. */
function routerIndexes(list: unknown, agent: AgentName): number[] {
  if (!isSeq(list)) return []
  return list.items.flatMap((item, index) => (isMap(item) && isRouterCommand(item.get('command'), agent) ? [index] : []))
}

const eventKey = (pair: Pair): string => (isScalar(pair.key) ? String(pair.key.value) : String(pair.key))

/** Every event with a router entry of hookrun's, and how many. */
function routed(doc: Document, target: AgentTarget): Map<string, number> {
  const found = new Map<string, number>()
  for (const pair of hooksOf(doc, target.label)?.items ?? []) {
    const event = eventKey(pair)
    const count = routerIndexes(pair.value, target.name).length
    if (count > 0) found.set(event, count)
  }
  return found
}

/** Take hookrun's entries out of the document; an event list, or `hooks:`, left empty by that goes too. */
function removeRouters(doc: Document, target: AgentTarget, keep: (event: string) => boolean): string[] {
  const hooks = hooksOf(doc, target.label)
  if (hooks === undefined) return []
  const removed: string[] = []
  for (const pair of [...hooks.items]) {
    const event = eventKey(pair)
    if (keep(event)) continue
    const indexes = routerIndexes(pair.value, target.name)
    if (indexes.length === 0) continue
    const list = pair.value as YAMLSeq
    for (const index of indexes.reverse()) list.items.splice(index, 1)
    removed.push(event)
    if (list.items.length === 0) hooks.delete(pair.key)
  }
  if (hooks.items.length === 0) doc.delete('hooks')
  return removed
}

export const YAML: OwnFormat = {
  routers: (text, target) =>
    (hooksOf(documentOf(text), target.label)?.items ?? []).flatMap((pair) =>
      isSeq(pair.value)
        ? pair.value.items.flatMap((item) => {
            const command = isMap(item) ? item.get('command') : undefined
            return isRouterCommand(command, target.name) ? [{ event: eventKey(pair), command: command as string }] : []
          })
        : [],
    ),
  /** hookrun's entries for the events chosen, after the user's own in each list; the rest of the file as it was. */
  install(target, file, self, chosen, _narrowing, files) {
    const events = target.events.filter((event) => chosen === undefined || chosen.has(event))
    let found = { existed: false, events, added: [] as string[], removed: [] as string[] }
    const edited = files.edit(file, (before) => {
      const doc = documentOf(before)
      const had = routed(doc, target)
      // Entries of events not chosen go; the others are brought to what install writes now.
      const removed = removeRouters(doc, target, (event) => events.includes(event))
      for (const event of events) {
        const handler = target.handler(target.command(self, event), event)
        const hooks = hooksOf(doc, target.label)
        const list: unknown = hooks?.get(event, true)
        if (list !== undefined && !isSeq(list) && !(isScalar(list) && list.value === null))
          throw new JsonTextError(`"hooks.${event}" is not a list, as ${target.label} expects`)
        const at = isSeq(list) ? routerIndexes(list, target.name) : []
        if (at.length > 0) {
          // Already there: pointed at this hookrun, with the keys a gate needs (fail_closed).
          const entry = (list as YAMLSeq).items[at[0]!] as YAMLMap
          for (const [key, value] of Object.entries(handler)) if (entry.get(key) !== value) entry.set(key, value)
          continue
        }
        if (isSeq(list)) list.add(doc.createNode(handler))
        else doc.setIn(['hooks', event], doc.createNode([handler]))
      }
      found = { existed: before !== undefined, events, added: events.filter((event) => !had.has(event)), removed }
      const text =
        before === undefined ? doc.toString(PRINT) : keepingUserBytes(before, documentOf(before).toString(PRINT), doc.toString(PRINT))
      return text === before ? undefined : text
    })
    return installedLines(target, file, self, edited, found, undefined, true)
  },
  /** hookrun's entries out, every byte of the user's kept; the file goes when install made it and nothing else is in it. */
  uninstall: (target, file, env, files) =>
    uninstallOwnEntries(
      target.name,
      file,
      env,
      files,
      (text) => {
        const doc = documentOf(text)
        const ours = [...routed(doc, target)].flatMap(([event, count]) => Array.from({ length: count }, () => event))
        const printed = doc.toString(PRINT)
        removeRouters(doc, target, () => false)
        const left = text === undefined ? doc.toString(PRINT) : keepingUserBytes(text, printed, doc.toString(PRINT))
        return { ours, text: left, empty: left.trim() === '' || left.trim() === '{}' }
      },
      (event) => event,
    ),
}
