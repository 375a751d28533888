/** The markdown pages a reader of the repository sees: the top-level ones and everything in docs/. */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../helpers.ts'

export function markdownPages(): string[] {
  const top = readdirSync(ROOT)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, name))
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : []
    })
  return [...top, ...(existsSync(join(ROOT, 'docs')) ? walk(join(ROOT, 'docs')) : [])]
}
