// A hook's run (src/run/hook.ts) → its HookResult: a hook hookrun did not run gets hookrun's own block or notice.
import type { FiredEvent, Hook, HookResult, HookRun } from '../core/types.ts'
import { isGate } from '../event/events.ts'
import { hookrunBlock, untrustedNotice } from './blocks.ts'
import { interpretHttp, interpretRun } from './interpret.ts'
import { readAnswer } from './read.ts'

/** What the hook's run means: its answer, or why hookrun did not run it. A hook let go to the background decides nothing. */
export async function hookResult(hook: Hook, event: FiredEvent, ran: HookRun): Promise<HookResult> {
  switch (ran.kind) {
    case 'started':
      return undecided(hook, 'background')
    case 'http': {
      const { run } = ran
      const parsed =
        run.failure === undefined && run.status !== undefined && Math.floor(run.status / 100) === 2 ? await readAnswer(run.body) : {}
      return interpretHttp(hook, event, run, parsed)
    }
    case 'command': {
      const result = interpretRun(hook, event, ran.run, { PATH: ran.path }, await readAnswer(ran.run.stdout))
      return ran.cut.length === 0
        ? result
        : { ...result, warnings: [...result.warnings, `hook '${hook.name}': ${nulWarning(ran.cut)}; it ran with the value cut there`] }
    }
    default:
      return notRun(hook, event, ran)
  }
}

/**
 * Why hookrun did not run a hook: a gate never judges a value it cannot see (a NUL, a command longer than a variable
 * holds), and a project hook whose files changed since trust does not run. A gate blocks; elsewhere the hook is skipped.
 */
function notRun(hook: Hook, event: FiredEvent, ran: Extract<HookRun, { kind: 'cut' | 'incomplete' | 'changed' }>): HookResult {
  const reason =
    ran.kind === 'cut'
      ? nulWarning(ran.variables)
      : ran.kind === 'incomplete'
        ? 'the command is longer than an environment variable can hold (128 KiB), so HOOKRUN_BASH_COMMAND would hold only its start and a gate reading it would judge part of the command'
        : untrustedNotice({ ...ran.project, trusted: false, reason: 'changed', changed: ran.changed })
  const gate = isGate(event.name)
  // A hook let go decides nothing: what it would have said is a warning of the chain's.
  if (!hook.blocking)
    return undecided(hook, 'background', [`hook '${hook.name}'${gate ? ' (blocking: false)' : ''} was not run: ${reason}`])
  if (gate) {
    const blocked = hookrunBlock(ran.kind === 'changed' ? reason : `hook '${hook.name}' was not run: ${reason}`, hook.source.file)
    return { ...blocked, report: { ...blocked.report, name: hook.name, source: hook.source.layer } }
  }
  return undecided(hook, 'error', [`hook '${hook.name}' was not run: ${reason}`], reason)
}

function nulWarning(variables: readonly string[]): string {
  return `${variables.join(', ')} would hold a NUL character, which an environment variable cannot carry (the hook would see only the part before it)`
}

/** A hook that decides nothing: started in the background, or not run (`reason`). */
function undecided(hook: Hook, outcome: 'background' | 'error', warnings: string[] = [], reason?: string): HookResult {
  const { layer: source, file } = hook.source
  const report = {
    name: hook.name,
    source,
    file,
    outcome,
    exitCode: null,
    durationMs: 0,
    timedOut: false,
    ...(reason !== undefined && { reason }),
  }
  return { report, blocks: false, context: [], warnings }
}
