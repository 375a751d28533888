// Aligned columns for people (list, fire --pretty, doctor): padded by the widest cell, no trailing blanks.
import { nodeUtil } from './builtins.ts'

/** Each row as one line, every column padded to its widest cell; empty trailing cells drop out. */
export function table(rows: ReadonlyArray<readonly string[]>, gap = '  '): string[] {
  const widths: number[] = []
  for (const row of rows)
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, width(cell))
    })
  return rows.map((row) =>
    row
      .map((cell, index) => (index === row.length - 1 ? cell : cell + ' '.repeat(widths[index]! - width(cell))))
      .join(gap)
      .trimEnd(),
  )
}

/** Characters as a terminal shows them (code points, so `›` or `é` count once; colour codes not at all). */
function width(text: string): number {
  return [...nodeUtil().stripVTControlCharacters(text)].length
}
