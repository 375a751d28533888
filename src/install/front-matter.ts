// The `hooks:` of a Markdown file's YAML front matter (Claude Code's skills, subagents, commands),
// read as data by the yaml library: never executed, aliases bounded, a duplicate key refused.
import { parseDocument } from 'yaml'
import { JsonTextError } from './json-text.ts'

/** The front matter's lines, or undefined when the file has none (or it never closes). */
function frontMatterLines(content: string): string[] | undefined {
  const lines = content.replace(/^\uFEFF/, '').split('\n')
  if (lines[0]?.trimEnd() !== '---') return undefined
  // The first `---` line closes it: Claude Code's front matter ends there or earlier, never later.
  const end = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---')
  return end < 0 ? undefined : lines.slice(1, end)
}

/** The front matter's line numbers in the file start after the opening `---`. */
const FIRST_LINE = 2

/**
 * The front matter's top-level `hooks`, each top-level entry read on its own (a loose YAML description does not hide the hooks).
 * Throws JsonTextError, naming the line, for an entry that may be `hooks` and cannot be read for certain.
 */
export function frontMatterHooks(content: string): unknown {
  const lines = frontMatterLines(content)
  if (lines === undefined) return undefined
  const starts = lines.flatMap((line, index) => (/^[^\s#]/.test(line) ? [index] : []))
  if (lines.some((line, index) => index < (starts[0] ?? lines.length) && line.trim() !== '' && !line.trimStart().startsWith('#')))
    return entryHooks(lines.join('\n'), FIRST_LINE) // indented as a whole: one entry
  let found: { value: unknown; line: number } | undefined
  for (const [at, start] of starts.entries()) {
    const text = lines.slice(start, starts[at + 1] ?? lines.length).join('\n')
    const line = start + FIRST_LINE
    // A list item or another key's value cannot be `hooks`, unless its key is quoted (an escape may spell it).
    const mayBeHooks = /^(?:hooks\s*:|["'?{[&!*])/.test(text)
    const value = mayBeHooks ? entryHooks(text, line) : quietly(() => entryHooks(text, line))
    if (value === undefined) continue
    if (found !== undefined) throw new JsonTextError(`front matter line ${line}: "hooks" given twice`)
    found = { value: value.hooks, line }
  }
  return found?.value
}

/** One entry parsed: `{hooks}` when it is the hooks key, else undefined. */
function entryHooks(text: string, firstLine: number): { hooks: unknown } | undefined {
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false })
  const error = document.errors[0]
  if (error !== undefined)
    throw new JsonTextError(`front matter line ${(error.linePos?.[0]?.line ?? 1) + firstLine - 1}: ${error.message.split('\n')[0]}`)
  let data: unknown
  try {
    // A few aliases are YAML; thousands are an expansion bomb.
    data = document.toJS({ maxAliasCount: 100 })
  } catch (thrown) {
    throw new JsonTextError(`front matter line ${firstLine}: ${(thrown as Error).message}`)
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !Object.hasOwn(data, 'hooks')) return undefined
  return { hooks: (data as Record<string, unknown>).hooks }
}

function quietly<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}
