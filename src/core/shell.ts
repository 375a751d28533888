// Shell text hookrun writes: quoting, and variables that must stay one word.

/** `word` as one word for `sh -c`, whatever characters it holds; plain words stay as they are. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/** A word of an exec form (no shell) as `sh -c` text: quoted, each `${NAME}` of `names` left in double quotes for the shell. */
export function execWord(word: string, names: ReadonlySet<string>): string {
  const parts = word.split(/(\$\{\w+\})/)
  if (!parts.some((part, index) => index % 2 === 1 && names.has(part.slice(2, -1)))) return shellQuote(word)
  return parts
    .map((part, index) => (index % 2 === 1 && names.has(part.slice(2, -1)) ? `"${part}"` : part === '' ? '' : shellQuote(part)))
    .join('')
}

/**
 * `command` with every unquoted use of the variables in `names` put in double quotes, so a value stays one word and
 * is never read as shell syntax; uses in quotes are left alone ($(…) and backticks start a new quoting context).
 */
export function quoteVariables(command: string, names: ReadonlySet<string>): string {
  type Context = { kind: 'plain'; parens: number; substitution: boolean } | { kind: 'double' } | { kind: 'backtick' }
  const stack: Context[] = [{ kind: 'plain', parens: 0, substitution: false }]
  const variable = /\$(?:\{(\w+)\}|([A-Za-z_]\w*))/y
  let out = ''
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!
    const top = stack.at(-1)!
    if (char === '\\') {
      out += command.slice(index, index + 2)
      index++
      continue
    }
    if (top.kind === 'double') {
      if (char === '"') stack.pop()
      else if (char === '`') stack.push({ kind: 'backtick' })
      else if (char === '$' && command[index + 1] === '(') {
        stack.push({ kind: 'plain', parens: 0, substitution: true })
        out += '$('
        index++
        continue
      }
      out += char
      continue
    }
    // Unquoted: at the top, inside $( … ) or inside backticks.
    if (char === "'") {
      const end = command.indexOf("'", index + 1)
      const stop = end < 0 ? command.length : end + 1
      out += command.slice(index, stop)
      index = stop - 1
      continue
    }
    if (char === '"') stack.push({ kind: 'double' })
    else if (char === '`') {
      if (top.kind === 'backtick') stack.pop()
      else stack.push({ kind: 'backtick' })
    } else if (char === '$' && command[index + 1] === '(') {
      stack.push({ kind: 'plain', parens: 0, substitution: true })
      out += '$('
      index++
      continue
    } else if (char === '(' && top.kind === 'plain') top.parens++
    else if (char === ')' && top.kind === 'plain') {
      if (top.parens > 0) top.parens--
      else if (top.substitution) stack.pop()
    } else if (char === '$') {
      variable.lastIndex = index
      const match = variable.exec(command)
      const name = match?.[1] ?? match?.[2]
      if (match !== null && name !== undefined && names.has(name)) {
        out += `"${match[0]}"`
        index += match[0].length - 1
        continue
      }
    }
    out += char
  }
  return out
}
