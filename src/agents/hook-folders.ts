// Agents whose hooks are executable files named after their events in a folder (Cline): where the
// folder is, and what doctor must know of the agent (src/install/hook-folder.ts writes the wrappers).

type Env = Readonly<Record<string, string | undefined>>

/** hookrun's wrappers in one agent's hook folder. */
export interface HookFolderFacts {
  /** The folder the agent reads hook files from, for this scope. */
  dir(scope: 'project' | 'user', places: { readonly home: string; readonly project: string; readonly env: Env }): string
  /** Events hookrun writes no wrapper for, with why. */
  readonly skipped: Readonly<Record<string, string>>
  /** What install tells the person after writing them. */
  readonly note: string
  /** The events whose answers the agent acts on (it runs the others detached). */
  readonly answered: readonly string[]
  /** Providers of the agent's that run tools themselves, when it then runs no hook for them. */
  readonly toolRunningProviders?: {
    /** The provider it runs with, from its own settings. */
    readonly file: (env: Env, home: string) => string
    readonly key: string
    readonly names: readonly string[]
    /** Where that is known from. */
    readonly source: string
    readonly fix: string
  }
}
