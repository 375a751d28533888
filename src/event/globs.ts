// Glob matching (picomatch), loaded when an event's hooks may need it rather than on every event.

/** The picomatch options hookrun uses. */
interface GlobOptions {
  readonly nocase?: boolean
  readonly dot?: boolean
  readonly nonegate?: boolean
  readonly bash?: boolean
  readonly basename?: boolean
}

/** What hookrun uses of picomatch, written here so the published type declarations need no picomatch types. */
interface GlobModule {
  (glob: string, options?: GlobOptions): (text: string) => boolean
  scan(text: string): { readonly isGlob: boolean }
}

let loaded: GlobModule | undefined

/** Load picomatch (~0.8 ms), only where globs may be matched; compilation is synchronous and reads the module loaded here. */
export async function loadGlobs(): Promise<void> {
  loaded ??= (await import('picomatch')).default
}

/** Hand over picomatch imported statically (the library, src/index.ts): patterns then compile with no await first. */
export function provideGlobs(module: GlobModule): void {
  loaded ??= module
}

/** A glob compiled by picomatch, once `loadGlobs` has run (before: an internal error, which blocks a gate). */
export function compileGlob(glob: string, options: GlobOptions): (text: string) => boolean {
  if (loaded === undefined) throw new Error(`the glob '${glob}' was compiled before loadGlobs() ran`) // shown as an internal error
  return loaded(glob, options)
}

/** Whether `text` is a glob at all (picomatch's own scan), once `loadGlobs` has run. */
export function isGlob(text: string): boolean {
  if (loaded === undefined) throw new Error(`the glob '${text}' was scanned before loadGlobs() ran`) // shown as an internal error
  return loaded.scan(text).isGlob
}
