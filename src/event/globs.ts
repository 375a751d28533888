// Glob matching (picomatch), loaded when an event's hooks may need it rather than on every event.
import type Picomatch from 'picomatch'

let loaded: typeof Picomatch | undefined

/**
 * Load picomatch. Loading it with every event cost a compiled hookrun about 0.8 ms, so it loads
 * only where globs may be matched: a fire that selected from some hooks (src/fire.ts), the config
 * stage, every other command (src/commands/program.ts) and the library (src/index.ts). Pattern
 * compilation is synchronous, so it reads the module loaded here.
 */
export async function loadGlobs(): Promise<void> {
  loaded ??= (await import('picomatch')).default
}

/**
 * A glob compiled by picomatch, once `loadGlobs` has run; before that a programming error that
 * names the glob (a fire that fails on a gate blocks).
 */
export function compileGlob(glob: string, options: Picomatch.PicomatchOptions): Picomatch.Matcher {
  if (loaded === undefined) throw new Error(`internal error: the glob '${glob}' was compiled before loadGlobs() ran`)
  return loaded(glob, options)
}
