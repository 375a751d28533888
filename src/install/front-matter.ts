// The `hooks:` of a Markdown file's YAML front matter (Claude Code's skills, subagents and
// commands), read as text: no YAML library, nothing run. Only the top-level `hooks` entry is read,
// by a small reader of the YAML such front matter uses (block mappings and lists, plain, quoted and
// block scalars, flow collections); it follows no anchor, alias or tag. What it cannot read for
// certain it refuses, naming the line, so scan reports the file rather than miss a hook in it.
import { JsonTextError } from './json-text.ts'

/** One line of the front matter: its number in the file, its indentation (spaces) and the rest. */
interface Line {
  readonly number: number
  readonly indent: number
  readonly text: string
}

/** Deeper than any hooks entry: a hostile file cannot exhaust the stack. */
const MAX_DEPTH = 64

function refuse(number: number, what: string): never {
  throw new JsonTextError(`front matter line ${number}: ${what}`)
}

const isEmpty = (text: string) => /^\s*(?:#.*)?$/.test(text)
const isItem = (text: string) => text === '-' || text.startsWith('- ')

/** The lines between the opening `---` and the closing one, or undefined when the file has no front matter. */
function frontMatterLines(content: string): Line[] | undefined {
  const all = content.replace(/^\uFEFF/, '').split('\n')
  if (all[0]?.trimEnd() !== '---') return undefined
  // The first `---` line closes it: Claude Code's front matter ends there or earlier, never later.
  const end = all.findIndex((line, index) => index > 0 && line.trimEnd() === '---')
  if (end < 0) return undefined
  return all.slice(1, end).map((raw, index) => {
    const line = raw.trimEnd()
    // Only spaces indent in YAML: a tab stays in the text, where the reader refuses it.
    const text = line.replace(/^ +/, '')
    return { number: index + 2, indent: line.length - text.length, text }
  })
}

/** The end of a quoted scalar that starts at `start` (its closing quote), or -1 when it does not close. */
function closingQuote(text: string, start: number): number {
  const quote = text[start]
  for (let at = start + 1; at < text.length; at++) {
    if (quote === '"' && text[at] === '\\') at++
    else if (text[at] === quote) {
      if (quote === "'" && text[at + 1] === "'") at++
      else return at
    }
  }
  return -1
}

/** `key: rest` on a line (a plain or quoted key, then `:` and a space or the end), or undefined. */
function keyOf(line: Line): { key: string; rest: string } | undefined {
  const text = line.text
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = closingQuote(text, 0)
    const after = end < 0 ? null : /^[ \t]*:(?:[ \t]+|$)/.exec(text.slice(end + 1))
    if (after === null) return undefined
    return { key: unquote(text.slice(0, end + 1), line.number), rest: text.slice(end + 1 + after[0].length) }
  }
  if (text.startsWith('? ') || text === '?') refuse(line.number, 'an explicit key (?), which scan does not read')
  const colon = text.search(/:(?:[ \t]|$)/)
  const key = colon < 0 ? '' : text.slice(0, colon).trimEnd()
  if (key === '' || /^(?:[,[\]{}#&*!|>%@`'"]|[-?:](?:\s|$))/.test(key) || /\s#/.test(key)) return undefined
  return { key, rest: text.slice(colon + 1).trim() }
}

/** A plain scalar as YAML's core schema reads it: null, a boolean, a number, else the text. */
function plainValue(text: string): unknown {
  if (/^(?:~|null|Null|NULL)?$/.test(text)) return null
  if (/^(?:true|True|TRUE)$/.test(text)) return true
  if (/^(?:false|False|FALSE)$/.test(text)) return false
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text)
  return text
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
}

/** A quoted scalar's text (quotes included) as its value: line breaks folded, escapes decoded. */
function unquote(quoted: string, number: number): string {
  let inner = quoted.slice(1, -1)
  if (quoted.startsWith("'")) return fold(inner).replaceAll("''", "'")
  // A backslash that ends a line joins it to the next with nothing between.
  inner = inner.replace(/(?<!\\)((?:\\\\)*)\\\n[ \t]*/g, '$1')
  return fold(inner).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\s\S])/g, (_, code: string) => {
    if (code.length === 1) return ESCAPES[code] ?? refuse(number, `an unknown escape \\${code} in a quoted string`)
    const point = Number.parseInt(code.slice(1), 16)
    return point <= 0x10ffff ? String.fromCodePoint(point) : refuse(number, `an escape \\${code} past Unicode`)
  })
}

/** Line breaks in a quoted scalar as YAML folds them: one break a space, each blank line a newline. */
function fold(text: string): string {
  return text.replace(/[ \t]*\n((?:[ \t]*\n)*)[ \t]*/g, (_, blanks: string) =>
    blanks === '' ? ' ' : '\n'.repeat(blanks.split('\n').length - 1),
  )
}

/** Is the quote at `at` the start of a quoted scalar (at a scalar's start), not a letter of a plain one (`it's`)? */
function opensQuote(text: string, at: number): boolean {
  return (text[at] === '"' || text[at] === "'") && /(?:^|[[{,:\s])$/.test(text.slice(Math.max(0, at - 1), at))
}

/** Text without its comments (`#` at a line's start or after a space, outside quoted scalars, to the line's end). */
function uncommented(text: string): string {
  let out = ''
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!
    if (opensQuote(text, at)) {
      const end = closingQuote(text, at)
      if (end < 0) return out + text.slice(at)
      out += text.slice(at, end + 1)
      at = end
    } else if (char === '#' && (at === 0 || /\s/.test(text[at - 1]!))) {
      const end = text.indexOf('\n', at)
      if (end < 0) break
      out += '\n'
      at = end
    } else out += char
  }
  return out.replace(/[ \t]+$/gm, '')
}

/** A flow collection (`[a, b]`, `{k: v}`), strictly: a key inside `[ ]` or text after the close is refused. */
function flowValue(text: string, number: number, depth: number): unknown {
  let at = 0
  const fail = (what: string): never => refuse(number, `${what} in a flow collection ([ ] or { })`)
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++
  }
  const scalar = (isKey: boolean, level: number): unknown => {
    skipSpace()
    const char = text[at]
    if (char === '[' || char === '{') return collection(level + 1)
    if (char === '&' || char === '*' || char === '!') fail(`an anchor, alias or tag (${char})`)
    if (char === '"' || char === "'") {
      const end = closingQuote(text, at)
      if (end < 0) fail('a quote that does not close')
      const value = unquote(text.slice(at, end + 1), number)
      at = end + 1
      return value
    }
    const start = at
    while (at < text.length && !/[,[\]{}]/.test(text[at]!) && !(text[at] === ':' && /^(?:[\s,[\]{}]|$)/.test(text.slice(at + 1, at + 2))))
      at++
    const plain = text.slice(start, at).trim()
    return isKey ? plain : plainValue(plain)
  }
  const collection = (level: number): unknown => {
    if (level > MAX_DEPTH) fail('nesting too deep')
    const open = text[at++]
    const close = open === '[' ? ']' : '}'
    const list: unknown[] = []
    const map: Record<string, unknown> = {}
    for (;;) {
      skipSpace()
      if (text[at] === close) break
      const first = scalar(open === '{', level)
      skipSpace()
      if (open === '{' && typeof first !== 'string') fail('a key that is not text')
      if (open === '[') {
        if (text[at] === ':') fail('a key: value pair inside [ ]')
        list.push(first)
      } else {
        let value: unknown = null
        if (text[at] === ':') {
          at++
          value = scalar(false, level)
          skipSpace()
        }
        define(map, String(first), value, number)
      }
      if (text[at] === ',') at++
      else if (text[at] !== close) fail(`"${text[at] ?? 'the end'}" where , or ${close} was expected`)
    }
    at++
    return open === '[' ? list : map
  }
  const value = collection(depth)
  skipSpace()
  if (at < text.length) fail(`text after the closing bracket ("${text.slice(at, at + 20)}")`)
  return value
}

/** Fed a flow collection line by line: says on which line it closes (quotes and comments passed over). */
function flowCloser(): (line: string) => boolean {
  let depth = 0
  let quote: string | undefined
  return (line) => {
    for (let at = 0; at < line.length; at++) {
      const char = line[at]!
      if (quote !== undefined) {
        if (quote === '"' && char === '\\') at++
        else if (char === quote && quote === "'" && line[at + 1] === "'") at++
        else if (char === quote) quote = undefined
      } else if (opensQuote(line, at)) quote = char
      else if (char === '#' && (at === 0 || /\s/.test(line[at - 1]!))) break
      else if (char === '[' || char === '{') depth++
      else if ((char === ']' || char === '}') && --depth === 0) return true
    }
    return false
  }
}

/** Fed a quoted scalar line by line (the first from its opening quote): says on which line it closes. */
function quoteCloser(quote: string): (line: string) => boolean {
  let first = true
  return (line) => {
    // A later line starts inside the quotes: put the quote back in front to look for the close.
    const closes = closingQuote(first ? line : `${quote}${line}`, 0) >= 0
    first = false
    return closes
  }
}

/** Set a mapping's key as its own property (a `__proto__` key too), refusing a key given twice, as YAML does. */
function define(map: Record<string, unknown>, key: string, value: unknown, number: number): void {
  if (Object.hasOwn(map, key)) refuse(number, `"${key}" given twice`)
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Block YAML, read line by line: a node's indentation says where it ends. */
class Block {
  readonly lines: Line[]
  at = 0
  constructor(lines: Line[]) {
    this.lines = lines
  }

  /** The next line holding something (blank and comment lines passed over). */
  peek(): Line | undefined {
    while (this.at < this.lines.length && isEmpty(this.lines[this.at]!.text)) this.at++
    return this.lines[this.at]
  }

  /** The node that starts on the next line holding something, when it is indented at least `min`. */
  node(min: number, depth: number): unknown {
    const line = this.peek()
    if (line === undefined || line.indent < min) return null
    if (depth > MAX_DEPTH) refuse(line.number, 'nesting too deep')
    if (line.text.startsWith('\t')) refuse(line.number, 'a tab in the indentation')
    if (isItem(line.text)) return this.list(line.indent, depth)
    if (keyOf(line) !== undefined) return this.mapping(line.indent, depth)
    this.at++
    return this.inline(line.text, line, line.indent - 1, depth)
  }

  list(indent: number, depth: number): unknown[] {
    const items: unknown[] = []
    for (let line = this.peek(); line !== undefined && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) refuse(line.number, 'indented where a list item was expected')
      if (!isItem(line.text)) break
      const content = line.text.slice(1).trimStart()
      if (isEmpty(content)) this.at++
      // `- key: value` or `- - x`: the rest of the line is a node of its own, indented where it starts.
      else this.lines[this.at] = { number: line.number, indent: indent + line.text.length - content.length, text: content }
      items.push(this.node(indent + 1, depth + 1))
    }
    return items
  }

  mapping(indent: number, depth: number): Record<string, unknown> {
    const map: Record<string, unknown> = {}
    for (let line = this.peek(); line !== undefined && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) refuse(line.number, 'indented where a key was expected')
      const entry = (!isItem(line.text) && keyOf(line)) || refuse(line.number, 'not a `key: value` line where one was expected')
      this.at++
      define(map, entry.key, this.value(entry.rest, line, indent, depth + 1), line.number)
    }
    return map
  }

  /** What follows `key:` (the rest of its line, or the lines under it; a list may start at the key's own indentation). */
  value(rest: string, line: Line, indent: number, depth: number): unknown {
    if (!isEmpty(rest)) return this.inline(rest, line, indent, depth)
    const next = this.peek()
    if (next !== undefined && next.indent === indent && isItem(next.text)) return this.list(indent, depth)
    return this.node(indent + 1, depth)
  }

  /** A value that starts within a line; the lines after it that are indented past `parent` may continue it. */
  inline(text: string, line: Line, parent: number, depth: number): unknown {
    const first = text[0]
    if (first === '&' || first === '*' || first === '!')
      refuse(
        line.number,
        `${first === '!' ? 'a tag' : first === '&' ? 'an anchor' : 'an alias'} (${text.split(/\s/)[0]}), which scan does not follow`,
      )
    if (first === '|' || first === '>') return this.blockScalar(text, line, parent)
    if (first === '"' || first === "'") {
      const whole = this.joined(text, parent, false, quoteCloser(first)) ?? refuse(line.number, 'a quote that does not close')
      const end = closingQuote(whole, 0)
      if (uncommented(whole.slice(end + 1)).trim() !== '') refuse(line.number, 'text after the closing quote')
      return unquote(whole.slice(0, end + 1), line.number)
    }
    if (first === '[' || first === '{') {
      const whole = this.joined(text, parent, true, flowCloser()) ?? refuse(line.number, 'a [ or { that does not close')
      return flowValue(uncommented(whole), line.number, depth)
    }
    // A plain scalar: folded over the more indented lines after it, up to a blank or comment line.
    // Quotes inside one are letters; ` #` ends it.
    const plain = (part: string) => part.replace(/\s+#.*$/, '')
    const parts = [plain(text)]
    for (let next = this.lines[this.at]; next !== undefined && next.indent > parent && !isEmpty(next.text); next = this.lines[++this.at])
      parts.push(plain(next.text))
    return plainValue(parts.join(' '))
  }

  /**
   * `text` and the lines after it that continue it (indented past `parent`; a flow collection's
   * closing bracket may stand at `parent`), up to the line `closes` says ends it; undefined when
   * none does. Each line is looked at once, so a long value costs its length and no more.
   */
  joined(text: string, parent: number, flow: boolean, closes: (line: string) => boolean): string | undefined {
    const lines = [text]
    for (let done = closes(text); !done; ) {
      const next = this.lines[this.at]
      if (next === undefined || (next.text !== '' && next.indent <= parent && !(flow && /^[\]}]/.test(next.text)))) return undefined
      this.at++
      lines.push(next.text)
      done = closes(next.text)
    }
    return lines.join('\n')
  }

  /** `|` or `>` and the lines indented under it: kept as written (`|`) or folded (`>`), with their chomping. */
  blockScalar(header: string, line: Line, parent: number): string {
    const match =
      /^([|>])(?:([1-9])([-+])?|([-+])([1-9])?)?(?:[ \t]+#.*)?$/.exec(header) ?? refuse(line.number, `a block scalar header "${header}"`)
    const given = match[2] ?? match[5]
    const chomp = match[3] ?? match[4]
    let first = this.lines[this.at]
    for (let ahead = this.at; first?.text === ''; ) first = this.lines[++ahead]
    const found = first !== undefined && first.indent > parent ? first.indent : parent + 1
    const indent = given === undefined ? found : parent + Number(given)
    const body: string[] = []
    for (let next = this.lines[this.at]; next !== undefined && (next.text === '' || next.indent >= indent); next = this.lines[++this.at])
      body.push(next.text === '' ? '' : `${' '.repeat(next.indent - indent)}${next.text}`)
    let trailing = 0
    while (body.length > 0 && body.at(-1) === '') {
      body.pop()
      trailing++
    }
    // Folded (`>`): a line break between two lines of text is a space; a blank line is a newline,
    // and breaks around a more indented line stay.
    let text = match[1] === '|' ? body.join('\n') : (body[0] ?? '')
    if (match[1] === '>')
      for (const [index, each] of body.entries()) {
        const before = body[index - 1]
        if (before === undefined) continue
        text += each === '' ? '\n' : before === '' ? each : `${/^\s/.test(each) || /^\s/.test(before) ? '\n' : ' '}${each}`
      }
    if (chomp === '-' || text === '') return text
    return chomp === '+' ? `${text}${'\n'.repeat(trailing + 1)}` : `${text}\n`
  }
}

/**
 * The value of the front matter's top-level `hooks` key (JSON-like: objects, arrays, strings,
 * numbers, booleans, null), or undefined when the file has no front matter or no `hooks` in it.
 * Throws JsonTextError, naming the line, for what scan cannot read for certain.
 */
export function frontMatterHooks(content: string): unknown {
  const lines = frontMatterLines(content)
  if (lines === undefined) return undefined
  // The top-level keys start where the first one does (at the left edge, or all indented alike).
  const edge = lines.find((line) => !isEmpty(line.text))?.indent ?? 0
  const keys: Array<{ index: number; key: string; rest: string }> = []
  lines.forEach((line, index) => {
    if (line.indent < edge && !isEmpty(line.text)) refuse(line.number, 'indented less than the keys above it')
    // A line at the edge starts a key, or (`- x`) is a list item of the key above.
    if (line.indent > edge || isEmpty(line.text) || isItem(line.text)) return
    if (line.text.startsWith('\t')) refuse(line.number, 'a tab in the indentation')
    const entry = keyOf(line) ?? refuse(line.number, 'not a `key: value` line: scan cannot tell whether it holds hooks')
    keys.push({ index, ...entry })
  })
  const hooks = keys.filter((entry) => entry.key === 'hooks')
  if (hooks.length === 0) return undefined
  if (hooks.length > 1) refuse(lines[hooks[1]!.index]!.number, '"hooks" given twice')
  const start = hooks[0]!
  const end = keys.find((entry) => entry.index > start.index)?.index ?? lines.length
  const block = new Block(lines.slice(start.index + 1, end))
  const value = block.value(start.rest, lines[start.index]!, edge, 0)
  const left = block.peek()
  if (left !== undefined) refuse(left.number, 'indented where nothing more of "hooks" was expected')
  return value
}
