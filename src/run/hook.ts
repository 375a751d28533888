// Stage run for one hook: its folder and environment, the checks right before it starts, then its command run,
// its POST sent, or its start in the background, as a `HookRun` (src/answer/hook-result.ts reads it).
import { dirname, resolve } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import type { FiredEvent, Hook, HookRun, HttpRun, Payload } from '../core/types.ts'
import { isGate } from '../event/events.ts'
import type { ProjectTrust } from '../trust/trust.ts'
import type { TrustFootprint } from '../trust/footprint.ts'
import type { ChildInput } from './child.ts'
import { runCommand, startDetached } from './command.ts'
import { hookEnvironment, variablesWithNul } from './env.ts'
import { FIRE_ID_VARIABLE } from './escapees.ts'

/** NDJSON records of `--events` (the SDK spec's hook_started / hook_output / hook_finished). */
export type ProgressRecord =
  | { readonly type: 'hook_started'; readonly hook: string; readonly event: string; readonly time: string }
  | { readonly type: 'hook_output'; readonly hook: string; readonly stream: 'stdout' | 'stderr'; readonly line: string }
  | {
      readonly type: 'hook_finished'
      readonly hook: string
      readonly outcome: string
      readonly exitCode: number | null
      readonly durationMs: number
      readonly timedOut: boolean
    }

/** What running a hook needs of the fire: the caller's environment, the project, the signals, the trust to check again. */
export interface HookContext {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly depth: number
  readonly projectRoot: string
  readonly signal?: AbortSignal
  readonly progress?: (record: ProgressRecord) => void
  /** The marker blocking command hooks carry (src/run/escapees.ts); made by `runChain` when the caller has none. */
  readonly fireId?: string
  /** Each project's trust as the fire found it (outermost first): project hooks' files are checked again as each runs. */
  readonly trusts?: readonly ProjectTrust[]
  /** What each project's trust by record rested on when the fire found it (src/trust/footprint.ts): checked instead of the record. */
  readonly footprints?: ReadonlyMap<string, TrustFootprint>
  /** What changed in a project hook's files since trust (src/trust/verify.ts); made once per chain by `StepRunner`. */
  readonly verifyMaterial?: (hook: Hook) => Promise<string[]>
}

/** Run one hook on `payload` (stdin `input`); `variables` are the hook's own (its project's, and its `env`). */
export async function runHook(
  hook: Hook,
  event: FiredEvent,
  payload: Payload,
  input: ChildInput,
  variables: Readonly<Record<string, string>> | undefined,
  context: HookContext,
): Promise<HookRun> {
  if (hook.http !== undefined) {
    const sent = postHttpHook(hook, textOf(input), context)
    return hook.blocking
      ? { kind: 'http', run: await sent }
      : { kind: 'started', handoff: sent.then((run) => httpWarnings(hook, run)), letGo: false }
  }
  if (!hook.blocking) {
    // Started detached, its input handed over at the end of the chain; it gives no decision.
    const changed = await changedMaterial(hook, context)
    if (changed !== undefined) return changed
    const { env, cwd } = commandSetup(hook, event, payload, variables, context)
    const handoff = startDetached(hook.command, { cwd, env, input }).then((error) =>
      error === undefined ? [] : [`hook '${hook.name}' (blocking: false) ${error}`],
    )
    return { kind: 'started', handoff, letGo: true }
  }
  // A gate must not judge a value cut short: it fails closed instead of running.
  const cut = variablesWithNul(event, payload)
  if (cut.length > 0 && isGate(event.name)) return { kind: 'cut', variables: cut }
  const { env, cwd } = commandSetup(hook, event, payload, variables, context)
  if (env.HOOKRUN_BASH_COMMAND_TRUNCATED === '1' && isGate(event.name)) return { kind: 'incomplete' }
  // Last before the spawn: what an earlier hook (or anyone) changed meanwhile shows here.
  const changed = await changedMaterial(hook, context)
  if (changed !== undefined) return changed
  const progress = context.progress
  const run = await runCommand(hook.command, {
    cwd,
    env: context.fireId === undefined ? env : { ...env, [FIRE_ID_VARIABLE]: context.fireId },
    input,
    timeoutMs: hook.timeout * 1000,
    signal: context.signal,
    allowAsync: true,
    onLine: progress && ((stream, line) => progress({ type: 'hook_output', hook: hook.name, stream, line })),
  })
  return { kind: 'command', run, path: env.PATH, cut }
}

/** A command hook's environment and folder: hookrun's variables, its own, and its project as the folder. */
function commandSetup(
  hook: Hook,
  event: FiredEvent,
  payload: Payload,
  variables: Readonly<Record<string, string>> | undefined,
  context: HookContext,
) {
  // An enclosing project's hooks (src/config/files.ts) run in their own project, as trust pinned them.
  const projectRoot = hook.projectRoot ?? context.projectRoot
  const env = hookEnvironment(
    context.env,
    event,
    payload,
    { hookName: hook.name, projectDir: projectRoot, configDir: dirname(hook.source.file), depth: context.depth },
    variables,
    hook.envPrefixes,
  )
  const cwd = hook.cwd === undefined ? projectRoot : resolve(projectRoot, hook.cwd)
  return { env, cwd }
}

/** Trust checked at the moment of use: what changed in a project hook's own files since trust; such a hook does not run. */
async function changedMaterial(hook: Hook, context: HookContext): Promise<HookRun | undefined> {
  const changed = await context.verifyMaterial?.(hook)
  const trust = context.trusts?.find((one) => one.root === hook.projectRoot) ?? context.trusts?.at(-1)
  if (changed === undefined || changed.length === 0 || trust === undefined) return undefined
  return { kind: 'changed', changed, project: { root: trust.root, command: trust.command } }
}

/** An http hook's body is text (its runner sends strings). */
function textOf(input: ChildInput): string {
  return typeof input === 'string' ? input : new TextDecoder().decode(input instanceof Uint8Array ? input : Buffer.concat(input))
}

/** POST the payload to an http hook; its code loads only when one runs. */
async function postHttpHook(hook: Hook, body: string, context: HookContext): Promise<HttpRun> {
  const { postHook } = await import('./http.ts')
  return postHook(hook.http!, body, {
    timeoutMs: hook.timeout * 1000,
    env: context.env,
    signal: context.signal,
    userAgent: `hookrun/${pkg.version}`,
  })
}

/** What a `blocking: false` http hook's POST says at the end of the chain: its header warnings, and a failure. */
function httpWarnings(hook: Hook, run: HttpRun): string[] {
  const warnings = (run.warnings ?? []).map((warning) => `hook '${hook.name}' ${warning}`)
  if (run.failure !== undefined || run.timedOut)
    warnings.push(`hook '${hook.name}' (blocking: false) ${run.failure ?? 'did not answer in time'}`)
  return warnings
}
