/// <reference types="bun" />
/**
 * What the benches share: the hello-world floor, a project trusted the way a long-trusted project is
 * (its config settled, so fires compare stat signatures and hash nothing), and the two events Claude
 * Code sends most, as it sends them.
 */
import { mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileBinary } from '../build.ts'
import { readTrustRecord } from '../src/trust/records.ts'

type Env = Readonly<Record<string, string | undefined>>

/** A hello-world compiled exactly as hookrun is (build.ts), in `dir`: the floor of any Bun program. */
export async function compileHello(dir: string): Promise<string> {
  writeFileSync(join(dir, 'hello.ts'), "console.log('hello world')\n")
  await compileBinary(join(dir, 'hello'), { entrypoint: join(dir, 'hello.ts') })
  return join(dir, 'hello')
}

/** `project`'s .hookrun/hooks.json as `config`, dated back: a user's config is not seconds old, and hookrun plans only settled files. */
export function writeSettledConfig(project: string, config: object): string {
  const file = join(project, '.hookrun', 'hooks.json')
  mkdirSync(join(project, '.hookrun'), { recursive: true })
  writeFileSync(file, JSON.stringify(config))
  const past = new Date(Date.now() - 3_600_000)
  utimesSync(file, past, past)
  return file
}

/**
 * Wait until `file`'s change time is old enough for trust to record its stat signature: trusted
 * within moments of a change, a file is hashed on every fire (src/trust/records.ts `settled`).
 */
export function waitUntilSettled(file: string): void {
  const { ctimeNs } = statSync(file, { bigint: true })
  const coarse = ctimeNs % 1_000_000_000n === 0n
  const wait = Number(ctimeNs / 1_000_000n) + (coarse ? 2000 : 100) + 50 - Date.now()
  if (wait > 0) Bun.sleepSync(wait)
}

/** `hookrun trust project` with `hookrun`, checked to have recorded every file's signature (else every fire would hash them). */
export function trustProject(hookrun: string, project: string, env: Env): void {
  const trusted = Bun.spawnSync({ cmd: [hookrun, 'trust', project], env, stdout: 'ignore', stderr: 'pipe' })
  if (trusted.exitCode !== 0) throw new Error(`hookrun trust ${project}: ${trusted.stderr.toString()}`)
  const record = readTrustRecord(project, env)
  if (record === undefined || Object.values(record.files).some((file) => file.stat === null))
    throw new Error(`hookrun trust ${project}: the record would have fires hash the project`)
}

/** How installs run hookrun for Claude Code. */
export const AS_CLAUDE = ['fire', '--format', 'claude', '--payload', '-']

/** The one gate of the Claude cases: on shell calls, running `true`. */
export const BASH_GATE = { name: 'check', event: 'tool:pre_execute:bash', command: 'true' }

/** Claude Code's two commonest events from `cwd`: (n) a PostToolUse of Read no hook matches, (m) a PreToolUse of Bash the gate runs on. */
export function claudeFires(cwd: string): { readonly n: Uint8Array; readonly m: Uint8Array } {
  const event = (fields: object) =>
    new TextEncoder().encode(JSON.stringify({ session_id: 'bench', transcript_path: join(cwd, 't.jsonl'), cwd, ...fields }))
  return {
    n: event({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'x' }, tool_response: {} }),
    m: event({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' } }),
  }
}
