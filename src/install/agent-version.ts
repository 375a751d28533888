// Which version of an agent the user has, for the agents whose hooks file changed shape between
// versions (Kiro CLI, Mistral Vibe): its program found on PATH and asked `--version`, run by its
// absolute path with no shell. What it cannot tell, it says, and install writes the current shape.
import { nodeChildProcess } from '../core/builtins.ts'
import { onPath } from './on-path.ts'

type Env = Readonly<Record<string, string | undefined>>

/** An agent's version as `[major, minor, patch]`, with the program and the line it printed; or why it is not known. */
export type AgentVersion =
  | { readonly known: true; readonly program: string; readonly version: readonly number[]; readonly text: string }
  | { readonly known: false; readonly why: string }

/** The first `N.N[.N]` in what `program --version` printed (`kiro-cli 2.21.3`, `vibe 2.21.0`). */
function parseVersion(printed: string): readonly number[] | undefined {
  const found = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(printed)
  return found === null ? undefined : [Number(found[1]), Number(found[2]), Number(found[3] ?? 0)]
}

/** Whether `version` is at least `floor` (both `[major, minor, patch]`). */
export function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let index = 0; index < floor.length; index++) {
    const have = version[index] ?? 0
    if (have !== floor[index]) return have > floor[index]!
  }
  return true
}

/** What `program --version` says, the program found on PATH and run by its absolute path, no shell. */
export function installedVersion(program: string, env: Env): AgentVersion {
  const path = onPath(program, env)
  if (path === undefined) return { known: false, why: `no ${program} on PATH` }
  const { spawnSync } = nodeChildProcess()
  const result = spawnSync(path, ['--version'], { env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 5000, shell: false })
  if (result.error !== undefined || result.signal !== null)
    return { known: false, why: `${path} --version did not answer (${result.error?.message ?? result.signal})` }
  const printed = `${result.stdout ?? ''}${result.stderr ?? ''}`
  const text = printed.trim().split('\n')[0]?.slice(0, 80) ?? ''
  const version = parseVersion(printed)
  if (version === undefined) return { known: false, why: `${path} --version printed no version${text ? ` (${text})` : ''}` }
  return { known: true, program: path, version, text }
}
