// Cline CLI (`cline --json PROMPT`) headless against the lab's fake chat-completions API: its provider and its command line.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect } from 'vitest'
import { installAgent, labRun, runAgent, type AgentRun, type LabRun, type ModelServer } from './lab.ts'

const CLINE = installAgent('cline')

/**
 * Without these a run starts a hub daemon that outlives it (real-agents.md, "Cline CLI 3.0.65")
 * and may look for an update.
 */
export const CLINE_ENV = { CLINE_SESSION_BACKEND_MODE: 'local', CLINE_NO_AUTO_UPDATE: '1' } as const

/** Where `cline auth` keeps the provider, under HOME. */
const PROVIDERS = join('.cline', 'data', 'settings', 'providers.json')
const URL_MARK = 'http://127.0.0.1:9/lab-model'

/** providers.json as `cline auth` writes it, with URL_MARK for the model's URL: made once per lab process. */
let providers: string | undefined

/**
 * The fake model as an OpenAI-compatible provider (~/.cline/data/settings/providers.json), as
 * `cline auth -p openai -b …` writes it. `cline auth` takes seconds to start, so it runs once, in a
 * HOME of its own, and each run gets its file with its model's URL.
 */
export function clineAuth(run: LabRun, server: ModelServer): void {
  providers ??= authOnce()
  mkdirSync(dirname(join(run.home, PROVIDERS)), { recursive: true })
  writeFileSync(join(run.home, PROVIDERS), providers.replaceAll(URL_MARK, `${server.url}/v1`))
}

function authOnce(): string {
  const run = labRun()
  try {
    const auth = spawnSync(CLINE, ['auth', '-p', 'openai', '-k', 'lab-key', '-b', URL_MARK, '-m', 'fake-model'], {
      cwd: run.project,
      env: { ...run.env, ...CLINE_ENV },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(auth.status, auth.stderr).toBe(0)
    const written = readFileSync(join(run.home, PROVIDERS), 'utf8')
    expect(written).toContain(URL_MARK)
    return written
  } finally {
    run.remove()
  }
}

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`

/**
 * `cline --json PROMPT` in a terminal of its own (`script` gives it a pseudo-terminal, as a person's
 * shell would): what hookrun writes to /dev/tty shows there. A terminal joins stdout and stderr:
 * everything the person saw is in `stdout`.
 */
export function runCline(run: LabRun, prompt: string, cwd = run.project, env: Record<string, string> = {}): Promise<AgentRun> {
  return runAgent('script', ['-qefc', [CLINE, '--json', prompt].map(quote).join(' '), '/dev/null'], {
    cwd,
    env: { ...run.env, ...CLINE_ENV, ...env },
    timeoutMs: 90_000,
  })
}

/** The JSON lines of Cline's --json output (a terminal's CR LF line ends included), the rest skipped. */
export function clineEvents(result: AgentRun): Record<string, unknown>[] {
  return result.stdout
    .split(/\r?\n/)
    .filter((line) => line.startsWith('{"ts"'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>]
      } catch {
        return []
      }
    })
}
