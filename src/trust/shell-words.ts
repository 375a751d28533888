// Shell words as a shell would split them, for trust to read the files a command or an `env` value names.

/** Split like a shell would (quotes, backslashes), expanding only the variables in `vars`. */
export function shellWords(text: string, vars: Readonly<Record<string, string>>): string[] {
  const words: string[] = []
  const variable = /\$(?:\{(\w+)\}|(\w+))/y
  let word = ''
  let inWord = false
  let quote: string | undefined
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (quote === "'") {
      if (char === "'") quote = undefined
      else word += char
      continue
    }
    if (char === '\\' && index + 1 < text.length) {
      word += text[++index]
      inWord = true
    } else if (char === '"' || char === "'") {
      quote = quote === char ? undefined : (quote ?? char)
      if (quote !== undefined && quote !== char) word += char
      inWord = true
    } else if (char === '$') {
      variable.lastIndex = index
      const match = variable.exec(text)
      const name = match?.[1] ?? match?.[2]
      if (match && name !== undefined && Object.hasOwn(vars, name)) {
        word += vars[name]
        index += match[0].length - 1
      } else word += char
      inWord = true
    } else if (quote === undefined && /\s/.test(char)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += char
      inWord = true
    }
  }
  if (inWord) words.push(word)
  return words
}
