// The contract every way of starting a process keeps (src/run/spawn.ts picks one).

/** What a child reads on stdin: text, bytes, or pieces of bytes written in order (a large payload is never copied). */
export type ChildInput = string | Uint8Array | readonly Uint8Array[]

export interface SpawnRequest {
  readonly argv: readonly string[]
  readonly cwd: string
  /** The complete environment; keys with `undefined` values are left out. */
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdout: 'pipe' | 'ignore'
  readonly stderr: 'pipe' | 'ignore'
}

/** One output pipe of a child, read as it comes. */
export interface ChildOutput {
  /** Each chunk as it arrives; every listener sees every chunk. */
  onData(listener: (chunk: Uint8Array) => void): void
  /** Settles when every holder of the pipe has closed it (or reading failed or was stopped). */
  readonly ended: Promise<void>
  /** Stop reading and close hookrun's end: a grandchild still writing gets EPIPE. */
  stop(): void
}

interface ChildExit {
  /** Exit status, or null when killed by a signal. */
  readonly code: number | null
  readonly signal: string | null
}

export interface Child {
  readonly pid: number
  readonly stdout?: ChildOutput
  readonly stderr?: ChildOutput
  /** Settles once, when the process itself has exited (its pipes may still be held open). */
  readonly exited: Promise<ChildExit>
  /** Write the input to stdin and close it; settles when handed over, or when the child closed its end unread. */
  writeInput(input: ChildInput): Promise<void>
  /** Close stdin now, whatever was written. */
  closeInput(): void
  /** hookrun may exit while the child runs on. */
  unref(): void
}

/** The environment without `undefined` values (what every spawn primitive wants). */
export function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const defined: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value
  return defined
}
