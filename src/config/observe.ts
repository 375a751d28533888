// One look at the world per fire: where its projects are, which config files there are, and the
// stat signature of each path it asks about, taken once and handed down to every stage after it.
import { type Places, placesOf } from '../core/places.ts'
import { signatureSettled, signatureTaker } from '../core/stat.ts'
import { findConfigFiles, type FoundConfigFiles, type LoadOptions } from './files.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * What a fire (or a runner's next fire) finds before its config stage: the config files found
 * from its folder (one walk from it up to `/`), its environment, and each path's stat signature as
 * first taken in this look. The plan (./plan.ts) checks its inputs against it, the config cache
 * (./cache.ts) compares its entries with it, and the long way reads the files it names: no stage
 * walks up from the folder again, and no file is stat'd twice for the same question.
 */
export interface Observation {
  readonly env: Env
  readonly found: FoundConfigFiles
  /** The caller named the files (`--config`): they replace discovery, and nothing is planned. */
  readonly named: boolean
  /** hookrun's own folders (cache, config, state) in this environment: the stages take them from here. */
  readonly places: Places
  /** A path's stat signature (src/core/stat.ts) as this look took it: `missing` when absent. */
  signature(path: string): string
  /** Whether the path, as this look saw it, was last changed long enough ago to stand for its content (`signatureSettled`). */
  settled(path: string): boolean
  /** The same projects and files looked at afresh: every signature taken again (after a read, to tell whether anything moved). */
  again(): Observation
}

/** Look once: the config files found for `options`, and a stat of each path asked about, taken at most once. */
export function observe(options: LoadOptions): Observation {
  const env = options.env ?? process.env
  return lookAt(env, findConfigFiles(options), (options.configFiles?.length ?? 0) > 0, placesOf(env))
}

function lookAt(env: Env, found: FoundConfigFiles, named: boolean, places: Places): Observation {
  const signature = signatureTaker()
  return {
    env,
    found,
    named,
    places,
    signature,
    settled: (path) => signatureSettled(signature(path)),
    again: () => lookAt(env, found, named, places),
  }
}
