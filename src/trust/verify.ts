// Trust checked at the moment of use: a project hook's files are looked at again right before it runs.
import { HANDLER_VARIABLES } from '../agents/vocabulary.ts'
import { dirname, resolve } from 'node:path'
import type { Hook } from '../core/types.ts'
import { needsTrust } from '../core/types.ts'
import { statSignature } from '../core/stat.ts'
import { commandPaths, relativePath } from './material.ts'
import type { ProjectTrust } from './trust.ts'
import type { TrustRecord } from './records.ts'
import { footprintPins, type TrustFootprint } from './footprint.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * What changed in a project hook's own files since the project was trusted (`scripts/gate.sh edited`),
 * looked at right before the hook is spawned: an earlier hook of the same fire may edit a later gate's
 * script after trust was decided. Its files are those trust pins (src/trust/material.ts); a matching
 * stat signature stands in for the hash. Undefined when the project is not trusted by a record or the
 * hook is not a project's. Made once per fire; the record is read on the first project hook whose files
 * its `footprints` (what the fire's trust rested on) do not vouch for.
 */
export function materialCheck(
  trusts: readonly ProjectTrust[],
  env: Env,
  footprints?: ReadonlyMap<string, TrustFootprint>,
): ((hook: Hook) => Promise<string[]>) | undefined {
  const byRecord = new Map(trusts.filter((trust) => trust.trusted && trust.via === 'record').map((trust) => [trust.root, trust]))
  if (byRecord.size === 0) return undefined
  // The project's own trust is the last; an enclosing project's hook names its own root.
  const own = trusts.at(-1)?.root
  const records = new Map<
    string,
    Promise<{ record: TrustRecord | undefined; hash: typeof import('./material-hash.ts').hashProjectMaterial }>
  >()
  return async (hook) => {
    const root = hook.projectRoot ?? own
    if (!needsTrust(hook.source.layer) || root === undefined || !byRecord.has(root)) return []
    const files = hookFiles(root, hook)
    const footprint = footprints?.get(root)
    if (footprint !== undefined && footprintPins(footprint, files)) return []
    // Loaded only when a project hook runs: most fires' plans never load the records. A git
    // worktree with no record of its own is held to its main checkout's.
    if (!records.has(root))
      records.set(
        root,
        Promise.all([import('./records.ts'), import('./material-hash.ts')]).then(([stored, material]) => ({
          record: stored.trustRecordFor(root, env),
          hash: material.hashProjectMaterial,
        })),
      )
    const { record: trusted, hash } = await records.get(root)!
    if (trusted === undefined) return ['the trust record removed']
    return files.flatMap((file) => {
      const path = relativePath(root, file)
      const recorded = trusted.files[path]
      const signature = statSignature(file)
      if (signature === 'missing') return recorded === undefined ? [] : [`${path} removed`]
      if (recorded === undefined) return [`${path} added`]
      if (recorded.stat !== null && recorded.stat === signature) return []
      const now = hash(root, [file]).files[path]
      return now !== undefined && now.sha256 === recorded.sha256 && now.executable === recorded.executable ? [] : [`${path} edited`]
    })
  }
}

/** The project files a hook runs: its hook folder's executable, and the paths its command names. */
function hookFiles(root: string, hook: Hook): string[] {
  const cwd = hook.cwd === undefined ? root : resolve(root, hook.cwd)
  const vars = {
    HOOKRUN_CONFIG_DIR: dirname(hook.source.file),
    HOOKRUN_PROJECT_DIR: root,
    ...Object.fromEntries(HANDLER_VARIABLES.map((name) => [name, root])),
    ...hook.env,
  }
  const named = commandPaths(root, { command: hook.command, cwd, vars })
  return [...new Set([...(hook.source.executable ? [hook.source.file] : []), ...named])]
}
