// What a project's trust by record rests on, for a fire's plan to check instead of asking trust again.
import { statSignature } from '../core/stat.ts'
import { collectFiles } from './material.ts'

/**
 * A project trusted by `hookrun trust`, as trust finds it on every fire before it would hash
 * anything (src/trust/trust.ts `resolveTrust`): the record file, the material files with the
 * signatures they were trusted at, and what decides which files are material besides the hook
 * folders: the config files and every path the commands name, a file then or not (a script
 * created after the trust makes the project changed, as it does for trust itself).
 */
export interface TrustFootprint {
  readonly record: readonly [string, string]
  /** The material files, sorted, each with its trusted signature. */
  readonly files: ReadonlyArray<readonly [string, string]>
  readonly configFiles: readonly string[]
  readonly commandPaths: readonly string[]
  /**
   * A git worktree held to its main checkout's record (src/trust/worktree.ts): the files that
   * tie the two, with their signatures. Its material files' signatures are the ones they had when
   * their hashes were found equal to the record's.
   */
  readonly links?: ReadonlyArray<readonly [string, string]>
}

/**
 * Whether trust still rests on the footprint: the record unchanged, the project's material the
 * same files as then (the hook folders walked and the named paths looked at, as trust does), each
 * with its signature. Not a hash: what trust itself accepts without one. `signatureOf` is the
 * fire's look (src/config/observe.ts), which takes each path's signature once.
 */
export function footprintHolds(
  projectRoot: string,
  footprint: TrustFootprint,
  signatureOf: (file: string) => string = statSignature,
): boolean {
  if (!recordUnchanged(footprint, signatureOf)) return false
  const material = collectFiles(projectRoot, footprint.configFiles, footprint.commandPaths)
  return (
    material.length === footprint.files.length &&
    footprint.files.every(([file, signature], index) => material[index] === file && signatureOf(file) === signature)
  )
}

/**
 * Each of `files` still as the footprint pinned it, the record (and a worktree's links) unchanged:
 * the footprint's signatures are the record's own (or, in a worktree, those its hashes were found
 * equal at), so the record would say the same. False for a file it does not name: the record's to judge.
 */
export function footprintPins(footprint: TrustFootprint, files: readonly string[], signatureOf = statSignature): boolean {
  if (!recordUnchanged(footprint, signatureOf)) return false
  const pinned = new Map(footprint.files)
  return files.every((file) => {
    const signature = pinned.get(file)
    return signature !== undefined && signatureOf(file) === signature
  })
}

/** The record file, and a worktree's links to its main checkout, as the footprint took them. */
function recordUnchanged(footprint: TrustFootprint, signatureOf: (file: string) => string): boolean {
  return (
    signatureOf(footprint.record[0]) === footprint.record[1] &&
    (footprint.links === undefined || footprint.links.every(([file, signature]) => signatureOf(file) === signature))
  )
}

/** The shape a footprint read back from a file must have (anything else is no footprint). */
export function isFootprint(value: unknown): value is TrustFootprint {
  const footprint = value as Partial<TrustFootprint> | null
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string')
  const pair = (item: unknown) => Array.isArray(item) && item.length === 2 && typeof item[0] === 'string' && typeof item[1] === 'string'
  return (
    typeof footprint === 'object' &&
    footprint !== null &&
    pair(footprint.record) &&
    Array.isArray(footprint.files) &&
    footprint.files.every(pair) &&
    strings(footprint.configFiles) &&
    strings(footprint.commandPaths) &&
    (footprint.links === undefined || (Array.isArray(footprint.links) && footprint.links.every(pair)))
  )
}
