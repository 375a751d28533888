// `hookrun doctor`: the checks of src/install/doctor.ts, one screen for a person (or JSON).
import { DOCTOR_CHECKS, runDoctor } from '../install/doctor.ts'
import type { DoctorCheck, DoctorLine } from '../install/doctor-types.ts'
import { pluginSwitchesCheck } from '../install/plugin-switches.ts'
import { staleAgentConfigs } from '../install/narrowed-sync.ts'
import { pluginCheck } from '../install/plugin-agents.ts'
import { unroutedCheck } from '../install/unrouted.ts'
import { count } from '../core/words.ts'
import { PLAIN } from '../core/paint.ts'
import type { CommandOptions } from './io.ts'

interface DoctorCommandOptions extends CommandOptions {
  readonly version: string
  /** Lines of checks that had to ask over the network first (is hookrun serve answering). */
  readonly extra?: readonly DoctorLine[]
}

const LABEL = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const
const COLOUR = { ok: 'good', warn: 'warn', fail: 'bad' } as const

/** An agent config that leaves a hook's event or tool unasked: that gate is not in force. */
const narrowedCheck: DoctorCheck = (context) =>
  staleAgentConfigs(context.cwd, context.env).map(({ what, fix }) => ({ status: 'fail' as const, what, fix }))

export function doctorCommand(options: DoctorCommandOptions): { output: string; exitCode: number } {
  const { lines, exitCode } = runDoctor({
    ...options,
    checks: [...DOCTOR_CHECKS, pluginSwitchesCheck, narrowedCheck, unroutedCheck, pluginCheck, () => [...(options.extra ?? [])]],
  })
  if (options.json) return { output: `${JSON.stringify({ ok: exitCode === 0, lines }, null, 2)}\n`, exitCode }
  const paint = options.paint ?? PLAIN
  const out = lines.flatMap((line) => [
    `${paint[COLOUR[line.status]](LABEL[line.status])}  ${line.what}`,
    ...(line.fix === undefined ? [] : [`      ${paint.dim('fix:')} ${line.fix}`]),
  ])
  const failed = lines.filter((line) => line.status === 'fail').length
  out.push(
    '',
    failed === 0
      ? paint.good('every gate is in force')
      : paint.bad(`${count(failed, 'problem')} ${failed === 1 ? 'keeps' : 'keep'} gates from running (exit 1)`),
  )
  return { output: `${out.join('\n')}\n`, exitCode }
}
