// `hookrun serve` on the command line (registered by program.ts; the command itself in serve.ts).
import type { CAC } from 'cac'
import type { Io } from './io.ts'

export function registerServeCommand(cli: CAC, io: Io, setExitCode: (code: number) => void, version: string): void {
  cli
    .command(
      'serve [event]',
      "Answer agents' http hook handlers and hookrun's command clients on 127.0.0.1 with one warm hookrun (install --serve wires it)",
    )
    .option('--port <n>', 'The loopback port (default 47470; must match install --serve --port)')
    .option('--idle-minutes <n>', 'Exit after this many minutes without a request; 0: never (default 120)')
    .option('--max-concurrent <n>', 'Events answered at once; more wait their turn (default 8)')
    .option(
      '--start',
      "Start the server if none answers, then fire the event here (the agent's session-start and prompt command, and a command client's when nothing listens)",
    )
    .option('--format <agent>', 'serve --start: whose event it is (install --serve writes it)')
    .option('--status', 'Say whether hookrun serve runs and answers (exit 1 when not)')
    .option('--stop', 'Stop the running server (SIGTERM: running events finish first)')
    .example('hookrun serve                 # in the foreground; install --serve starts it from the agent by itself')
    .example('hookrun serve --status')
    .action(async (event: string | undefined, flags: Record<string, unknown>) => {
      const { serveCommand } = await import('./serve.ts')
      setExitCode(await serveCommand(io, flags, version, event))
    })
}
