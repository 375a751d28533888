// Edit an agent's JSON(C) settings in place, keeping every byte of the user's own.
import { getNodeValue, type Node, parseTree, type ParseError } from 'jsonc-parser'
import { parseErrorAt } from '../core/json-error.ts'

// Edits to a JSON(C) document as text: each touches only the bytes it adds or removes, so the rest keeps its formatting and comments
// (jsonc-parser's `modify` re-formats whole lines); removing what was appended gives the bytes back.
export type Path = ReadonlyArray<string | number>

export class JsonTextError extends Error {}

/** Indentation and line ends as the file already has them (two spaces and \n when it cannot tell). */
interface Style {
  readonly unit: string
  readonly eol: string
}

export function styleOf(text: string): Style {
  return { unit: /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ', eol: text.includes('\r\n') ? '\r\n' : '\n' }
}

export function parseJson(text: string, allowComments: boolean): Node {
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { disallowComments: !allowComments, allowTrailingComma: false })
  const error = errors[0]
  if (error !== undefined) throw new JsonTextError(`is not valid JSON (${parseErrorAt(text, error)})`)
  if (root === undefined) throw new JsonTextError('is empty, not a JSON object')
  return root
}

/** The value of property `key` of an object node. */
export function child(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object') return undefined
  return node.children?.find((property) => property.children?.[0]?.value === key)?.children?.[1]
}

/** The JSON value a node holds (comments in the text left out). */
export function nodeValue(node: Node): unknown {
  return getNodeValue(node)
}

export function keysOf(node: Node | undefined): string[] {
  return node?.type === 'object' ? (node.children ?? []).map((property) => String(property.children![0]!.value)) : []
}

/** The node at `path`, or the root itself for an empty path. */
export function nodeAt(root: Node, path: Path): Node | undefined {
  let node: Node | undefined = root
  for (const segment of path)
    node = typeof segment === 'number' ? (node?.type === 'array' ? node.children?.[segment] : undefined) : child(node, segment)
  return node
}

/** Append `value` to the array at `path`, creating the missing objects and array at the end of their parents. */
export function appendAt(text: string, style: Style, path: readonly string[], value: unknown): string {
  let node = parseJson(text, true)
  for (const [index, key] of path.entries()) {
    const next = child(node, key)
    if (next === undefined) {
      // Build what is missing from here down: { key: { … : [value] } }.
      const built = path.slice(index + 1).reduceRight<unknown>((inner, name) => ({ [name]: inner }), [value])
      return addItem(
        text,
        style,
        node,
        (base) => `${JSON.stringify(key)}: ${serialize(built, base, style)}`,
        `${JSON.stringify(key)}: ${JSON.stringify(built)}`,
      )
    }
    node = next
  }
  if (node.type !== 'array') throw new JsonTextError(`"${path.join('.')}" is not an array`)
  return addItem(text, style, node, (base) => serialize(value, base, style), JSON.stringify(value))
}

/** Add the property at `path` (its parent object exists, the property does not), laid out as its siblings are. */
export function insertAt(text: string, style: Style, path: readonly string[], value: unknown): string {
  const parent = nodeAt(parseJson(text, true), path.slice(0, -1))
  if (parent?.type !== 'object') throw new JsonTextError(`"${path.slice(0, -1).join('.')}" is not an object`)
  const key = JSON.stringify(path.at(-1))
  return addItem(text, style, parent, (base) => `${key}: ${serialize(value, base, style)}`, `${key}: ${JSON.stringify(value)}`)
}

/** Replace the value at `path` (which exists) with `value`, written compactly. */
export function replaceAt(text: string, path: Path, value: unknown): string {
  const node = nodeAt(parseJson(text, true), path)
  if (node === undefined) throw new JsonTextError(`nothing at ${path.join('.')}`)
  return splice(text, node.offset, node.length, JSON.stringify(value))
}

/** Remove the array item or object property at `path`, with the separator before it (or after it, for the first). */
export function removeAt(text: string, path: Path): string {
  const parentPath = path.slice(0, -1)
  const last = path.at(-1)!
  const container = nodeAt(parseJson(text, true), parentPath)
  const items = container?.children ?? []
  const index = typeof last === 'number' ? last : items.findIndex((property) => property.children?.[0]?.value === last)
  const item = items[index]
  if (container === undefined || item === undefined) throw new JsonTextError(`nothing at ${path.join('.')}`)
  if (items.length === 1) return splice(text, container.offset + 1, container.length - 2, '')
  if (index > 0) {
    const end = items[index - 1]!.offset + items[index - 1]!.length
    return splice(text, end, item.offset + item.length - end, '')
  }
  return splice(text, item.offset, items[1]!.offset - item.offset, '')
}

/** Add an item at the end of an array or object, laid out as its siblings are. */
function addItem(text: string, style: Style, container: Node, multiline: (base: string) => string, compact: string): string {
  const items = container.children ?? []
  const last = items.at(-1)
  if (last === undefined) {
    const base = indentAt(text, container.offset)
    const inner = base + style.unit
    return splice(text, container.offset + 1, container.length - 2, `${style.eol}${inner}${multiline(inner)}${style.eol}${base}`)
  }
  const end = last.offset + last.length
  if (!text.slice(container.offset, last.offset).includes('\n')) return splice(text, end, 0, `, ${compact}`)
  const base = indentAt(text, last.offset)
  return splice(text, end, 0, `,${style.eol}${base}${multiline(base)}`)
}

function serialize(value: unknown, base: string, style: Style): string {
  return JSON.stringify(value, null, style.unit).split('\n').join(`${style.eol}${base}`)
}

/** The whitespace that starts the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1
  return /^[ \t]*/.exec(text.slice(start))![0]
}

function splice(text: string, offset: number, length: number, content: string): string {
  return text.slice(0, offset) + content + text.slice(offset + length)
}
