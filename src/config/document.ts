// One config file as read: the unit the parser produces, the cache stores and trust hashes.
import type { ConfigFileRef, ConfigProblem } from '../core/types.ts'
import type { FileSettings } from './settings-schema.ts'
import type { HookSpec } from './shapes.ts'

export interface ParsedEntry {
  readonly ref: ConfigFileRef
  readonly index: number
  readonly entry: HookSpec
  /** The index keys of its event pattern (`patternKeys`): selection skips a hook whose keys the event lacks. */
  readonly eventKeys?: readonly string[]
}

/** One config file as read: its text (what trust hashes), settings, valid entries and problems. */
export interface ConfigDocument {
  readonly ref: ConfigFileRef
  /** Undefined when the file could not be read. */
  readonly text?: string
  readonly settings: FileSettings
  readonly entries: ParsedEntry[]
  readonly problems: ConfigProblem[]
  /** A project file's: the paths its commands name, which trust pins when they are files (src/trust/material-hash.ts `withCommandPaths`). */
  readonly commandPaths?: { readonly root: string; readonly paths: readonly string[] }
}

/** Reads one config file into a document (src/config/parse.ts, or its cache in src/config/cache.ts). */
export type DocumentReader = (ref: ConfigFileRef) => ConfigDocument
