// hookrun started again as a detached process: work that outlives the fire that asks for it (a
// policy refresh, a narrowed install's sync, the telemetry shipper), never waited for.
import { nodeChildProcess } from './builtins.ts'

/** Start `command` (hookrun's own command line and its arguments) detached, its output ignored; a failure to start is ignored too. */
export function startDetachedSelf([command, ...args]: readonly string[], env: Readonly<Record<string, string | undefined>>): void {
  const { spawn } = nodeChildProcess()
  const child = spawn(command!, args, { detached: true, stdio: 'ignore', env: env as NodeJS.ProcessEnv })
  child.on('error', () => undefined)
  child.unref()
}
