// What `hookrun doctor`'s checks are: a function of what doctor knows, giving lines (doctor.ts runs them).
import type { Places, Scope } from './agent-target.ts'

/** One finding: `fail` a gate is not in force (exit 1), `warn` worth fixing, `ok` fine; `fix`: the command that fixes it. */
export interface DoctorLine {
  readonly status: 'ok' | 'warn' | 'fail'
  readonly what: string
  readonly fix?: string
}

export interface DoctorContext {
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly places: Places
  /** This hookrun's version, to compare with the one on PATH. */
  readonly version: string
  /** The command that runs this hookrun (src/install/self.ts selfCommand): a router running it is this version. */
  readonly self: readonly string[]
}

/** A check adds lines; other modules add their own checks to `DOCTOR_CHECKS`. */
export type DoctorCheck = (context: DoctorContext) => DoctorLine[]

/** The command that (re)writes an agent's hookrun entries in that scope's file. */
export const installCommand = (agent: string, scope: Scope) => `hookrun install --agent ${agent}${scope === 'project' ? ' --project' : ''}`
