// A git worktree of a repository is the same project for trust: where its main checkout is.
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { isDirectory } from '../discover/folders.ts'

/**
 * The folder in the repository's main checkout that `projectRoot` is in a linked worktree
 * (`git worktree add`, `claude -w`): `<worktree>/pkg` → `<main>/pkg`; undefined otherwise, or when
 * the worktree's files do not say so consistently. Read from git's files with no git process (a fire
 * runs this): the `.git` file's `gitdir:`, that folder's `commondir`, and its `gitdir` pointing back,
 * so a stray `.git` file cannot claim any repository.
 */
export function mainCheckoutOf(projectRoot: string): string | undefined {
  return linkedWorktreeOf(projectRoot)?.main
}

/** `mainCheckoutOf`, with the files git keeps that say so (a plan rests on them too). */
export function linkedWorktreeOf(projectRoot: string): { readonly main: string; readonly links: readonly string[] } | undefined {
  const top = gitTopOf(resolve(projectRoot))
  if (top === undefined) return undefined
  const dotGit = join(top, '.git')
  const pointer = /^gitdir: (.+?)\s*$/m.exec(readText(dotGit) ?? '')?.[1]
  if (pointer === undefined) return undefined
  const gitDir = resolve(top, pointer)
  const commonDir = readText(join(gitDir, 'commondir'))?.trim()
  const back = readText(join(gitDir, 'gitdir'))?.trim()
  if (!commonDir || !back || !samePath(resolve(gitDir, back), dotGit)) return undefined
  const common = resolve(gitDir, commonDir)
  if (basename(common) !== '.git' || !isDirectory(common)) return undefined
  const main = dirname(common)
  if (main === top) return undefined
  return { main: join(main, relative(top, resolve(projectRoot))), links: [dotGit, join(gitDir, 'commondir'), join(gitDir, 'gitdir')] }
}

/** The nearest folder at or above `dir` with a `.git` file: a linked worktree's top (a `.git` folder there: none). */
function gitTopOf(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    try {
      const stat = statSync(join(at, '.git'))
      return stat.isFile() ? at : undefined
    } catch {
      // no .git here: look further up
    }
    if (dirname(at) === at) return undefined
  }
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true
  try {
    return realpathSync(a) === realpathSync(b)
  } catch {
    return false
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}
