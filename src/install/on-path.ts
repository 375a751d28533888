// Which hookrun a command line or PATH finds, for doctor (and the plugin agents' check).
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import { nodeChildProcess } from '../core/builtins.ts'

type Env = Readonly<Record<string, string | undefined>>

/** The executable `PATH` finds for `name`, in absolute folders only: a relative entry could find a cloned repository's `hookrun`. */
export function onPath(name: string, env: Env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue
    const file = join(dir, name)
    try {
      if (statSync(file).isFile()) {
        accessSync(file, constants.X_OK)
        return file
      }
    } catch {
      // Not here.
    }
  }
  return undefined
}

/** The version the program at `file` answers (`hookrun 0.1.0 (…)`: commands/usage.ts), or why none; started directly, no shell. */
export function versionOfFile(file: string, env: Env): { version?: string; problem?: string } {
  const { spawnSync } = nodeChildProcess()
  const result = spawnSync(file, ['--version'], {
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 5_000,
    shell: false,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const version = /^hookrun (\S+) \(/.exec(result.stdout ?? '')?.[1]
  if (version !== undefined) return { version }
  if (result.error !== undefined || result.signal !== null)
    return { problem: `did not answer --version (${result.error?.message ?? result.signal})` }
  const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0]?.slice(0, 80)
  return { problem: `does not answer --version as hookrun does${said ? ` (it printed: ${said})` : ''}` }
}
