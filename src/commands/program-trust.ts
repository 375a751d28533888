// The commands that decide what may run and ship what ran: trust, untrust, policy, telemetry (registered by program.ts).
import type { CAC } from 'cac'
import { ExitCode, HookrunError } from '../core/errors.ts'
import type { ColourMode } from '../core/paint.ts'
import { count } from '../core/words.ts'
import { required } from './help.ts'
import { bool, cwdOf, folder, type Io, paintFor, printer, text } from './io.ts'

/** The 'Trust and policy' commands of `hookrun --help`, and `telemetry flush`, which fires start in the background. */
export function registerTrustCommands(cli: CAC, io: Io, setExitCode: (code: number) => void, colour: ColourMode): void {
  cli
    .command('trust [dir]', "Let the project's hooks run: trust its hook files as they are now (any change revokes it)")
    .option('--diff', 'Show what changed since the project was trusted; trust nothing')
    .option('--json', 'Print the result as JSON: the project, the files pinned, what trust does not cover, the hooks it refused')
    .example('hookrun trust            # the project at or above the current folder')
    .example('hookrun trust --diff     # what changed since you trusted it')
    .action(async (dir: string | undefined, flags: { diff?: boolean; json?: boolean }) => {
      const { trustDiff, trustProject, trustProjectResult } = await import('./trust.ts')
      const options = {
        dir: dir === undefined ? undefined : String(dir),
        cwd: process.cwd(),
        env: io.env,
        paint: await paintFor(io, colour, 'stdout'),
      }
      const diff = bool(flags.diff, 'diff')
      if (bool(flags.json, 'json')) {
        if (diff) throw new HookrunError('--json goes with trust, not --diff (which shows the changes for a person)')
        const result = trustProjectResult(options)
        await io.stdout(`${JSON.stringify(result, null, 2)}\n`)
        // Refused: the exit code says so, as the error line does without --json.
        if (!result.trusted) setExitCode(ExitCode.Failure)
        return
      }
      await io.stdout(diff ? trustDiff(options) : trustProject(options))
    })

  registerScanCommand(cli, io, setExitCode, colour)

  cli
    .command('untrust [dir]', "Stop the project's hooks: forget the trust given with 'hookrun trust'")
    .example('hookrun untrust')
    .action(async (dir: string | undefined) => {
      const { untrustProject } = await import('./trust.ts')
      await io.stdout(untrustProject({ dir: dir === undefined ? undefined : String(dir), cwd: process.cwd(), env: io.env }))
    })

  cli
    .command(
      'policy <action> [file]',
      "The managed config's remote policy: status, pull (fetch now), sign --key PRIVATE.pem FILE (make the signed file to serve)",
    )
    .option('--key <file>', 'sign: the Ed25519 private key (PEM)', required({ for: 'sign' }))
    .option('--quiet', 'pull: print nothing (as the background refresh runs it)')
    .option('--cwd <dir>', 'Discover the config from this folder')
    .example('hookrun policy status')
    .example('openssl genpkey -algorithm ed25519 -out policy-key.pem && hookrun policy sign --key policy-key.pem policy.json > signed.json')
    .action(async (action: string, file: string | undefined, flags: { key?: string; quiet?: boolean; cwd?: string }) => {
      const { policyCommand } = await import('./policy.ts')
      const options = { cwd: cwdOf(flags), env: io.env, quiet: flags.quiet === true, key: text(flags.key, 'key'), file }
      await printer(io, setExitCode)(await policyCommand(action, options))
    })

  cli
    .command(
      'telemetry <action>',
      'flush: export the spans fires spooled to the OpenTelemetry collector now (fires start this in the background)',
    )
    .option('--linger', 'Keep shipping what new fires spool until none has come for 10 s (how fires start it)')
    .example('hookrun telemetry flush')
    .action(async (action: string, flags: { linger?: boolean }) => {
      if (action !== 'flush') throw new HookrunError(`hookrun telemetry ${action}: unknown action; use 'hookrun telemetry flush'`)
      const { flushSpool } = await import('../telemetry/export.ts')
      const result = await flushSpool(io.env, flags.linger === true)
      if (result.alreadyRunning) return void (await io.stdout('another hookrun telemetry flush is running; it ships the spool\n'))
      for (const failure of result.failures) await io.stderr(`hookrun: warning: telemetry export to ${failure}\n`)
      await io.stdout(
        `${count(result.shipped, 'fire')} exported${result.failures.length > 0 ? `, ${count(result.failures.length, 'export')} failed` : ''}\n`,
      )
      if (result.failures.length > 0) setExitCode(ExitCode.Failure)
    })
}

/** `hookrun scan`: the hooks a project makes agents run, read before anyone trusts it (docs/scan.md). */
function registerScanCommand(cli: CAC, io: Io, setExitCode: (code: number) => void, colour: ColourMode): void {
  cli
    .command(
      'scan [dir]',
      "List every hook an agent would run from this project's files, hookrun's own and foreign, and flag what the foreign ones do; runs none of them; exit 3 when any is foreign",
    )
    .option('--cwd <dir>', 'The project folder (default: the current one; or give it as DIR)')
    .option('--json', 'Print JSON (the schema is in docs/scan.md)')
    .example('hookrun scan                     # before you trust a repository you cloned')
    .example('hookrun scan --json > scan.json  # in CI: exit 3 when a foreign hook is there')
    .action(async (dir: string | undefined, flags: { cwd?: string; json?: boolean }) => {
      const given = dir === undefined ? folder(flags.cwd) : String(dir)
      if (dir !== undefined && flags.cwd !== undefined) throw new HookrunError('give the folder as DIR or --cwd, not both')
      const { scanCommand } = await import('./scan.ts')
      const options = { cwd: given ?? process.cwd(), ...(given !== undefined && { given }), env: io.env, json: bool(flags.json, 'json') }
      await printer(io, setExitCode)(scanCommand({ ...options, paint: await paintFor(io, colour, 'stdout') }))
    })
}
