/**
 * Routing in the real agents: hookrun is started at most once per tool call that has a matching
 * hook and never for an event without hooks, with the default install (Claude Code: `--project`;
 * Gemini CLI and Qwen Code: the user install their docs recommend, which works from subfolders)
 * and with Claude Code's user install. The routing follows the hooks by itself: a hook added on
 * a new event (and trusted) runs in the next session; when the last one goes, so does its route.
 *
 * hookrun's entries run through a wrapper that logs each start's event (hook_event_name from the
 * payload on stdin) before it execs this build's hookrun.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { claudeEnv } from './claude-session.ts'
import { type FamilyAgent, GEMINI, QWEN } from './gemini-family.ts'
import { installAgent, type LabRun, labRun, type ModelServer, runAgent, type Turn } from './lab.ts'
import { startAnthropicModel } from './models/anthropic.ts'
import { ROOT } from '../helpers.ts'

const GATE = { name: 'gate', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *forbidden*) exit 2;; esac' }
/** A hook on the agent's stop: leaves a marker, so the lab sees it ran. */
const ON_STOP = { name: 'on-stop', event: 'agent:stop', command: 'touch "$HOOKRUN_PROJECT_DIR/stopped"' }

interface RoutedAgent {
  readonly name: string
  /** `hookrun install` as the test wires it. */
  readonly install: readonly string[]
  /** The file holding hookrun's entries. */
  routerFile(run: LabRun): string
  /** The agent's name of its shell tool event and of its stop event. */
  readonly toolEvent: string
  readonly stopEvent: string
  prepare(run: LabRun): void
  shell(index: number): Turn
  session(run: LabRun, turns: readonly Turn[]): Promise<{ status: number | null; output: string }>
}

async function withModel(
  start: (turns: readonly Turn[]) => Promise<ModelServer>,
  turns: readonly Turn[],
  go: (model: ModelServer) => Promise<{ status: number | null; stdout: string; stderr: string }>,
) {
  const model = await start(turns)
  try {
    const result = await go(model)
    return { status: result.status, output: result.stdout + result.stderr }
  } finally {
    await model.close()
  }
}

function claude(scope: 'project' | 'user'): RoutedAgent {
  return {
    name: `claude (${scope})`,
    install: ['install', '--agent', 'claude', ...(scope === 'project' ? ['--project'] : [])],
    routerFile: (run) =>
      scope === 'project' ? join(run.project, '.claude', 'settings.local.json') : join(run.home, '.claude', 'settings.json'),
    toolEvent: 'PreToolUse',
    stopEvent: 'Stop',
    prepare: () => {},
    shell: (index) => ({ tool: 'Bash', input: { command: `true call-${index}`, description: 'lab step' } }),
    session: (run, turns) =>
      withModel(startAnthropicModel, turns, (model) =>
        runAgent(installAgent('claude'), ['-p', 'do the lab step', '--permission-mode', 'bypassPermissions'], {
          cwd: run.project,
          env: claudeEnv(run, model.url),
          timeoutMs: 120_000,
        }),
      ),
  }
}

function family(agent: FamilyAgent): RoutedAgent {
  const settings = (dir: string) => join(dir, agent.settingsDir, 'settings.json')
  return {
    name: `${agent.name} (user)`,
    install: ['install', '--agent', agent.name],
    routerFile: (run) => settings(run.home),
    toolEvent: agent.name === 'gemini' ? 'BeforeTool' : 'PreToolUse',
    stopEvent: agent.name === 'gemini' ? 'AfterAgent' : 'Stop',
    prepare(run) {
      mkdirSync(join(run.home, agent.settingsDir), { recursive: true })
      writeFileSync(settings(run.home), `${JSON.stringify(agent.userSettings, null, 2)}\n`)
    },
    // Each call another command: Gemini CLI stops a session that repeats one.
    shell: (index) => ({ tool: 'run_shell_command', input: { command: `true call-${index}` } }),
    session: (run, turns) =>
      withModel(agent.startModel, turns, (model) =>
        runAgent(installAgent(agent.name), agent.args('Do as the lab says.'), {
          cwd: run.project,
          env: { ...run.env, ...agent.env(model) },
        }),
      ),
  }
}

/** hookrun's entries in `file` pointed at a wrapper that logs each start's event; returns the events logged since the last call. */
function countStarts(run: LabRun, file: string): () => string[] {
  const log = join(run.root, 'starts')
  const wrapper = join(run.root, 'counting-hookrun')
  writeFileSync(
    wrapper,
    `#!/bin/sh\npayload=$(cat)\nprintf '%s' "$payload" | tr -d '\\n' | sed -n 's/.*"hook_event_name" *: *"\\([A-Za-z]*\\)".*/\\1/p' >> '${log}'\necho >> '${log}'\nprintf '%s' "$payload" | exec '${join(ROOT, 'dist', 'hookrun')}' "$@"\n`,
  )
  chmodSync(wrapper, 0o755)
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(join(ROOT, 'dist', 'hookrun'), wrapper))
  return () => {
    const events = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []
    writeFileSync(log, '')
    return events
  }
}

function writeHooks(run: LabRun, hooks: readonly object[]): void {
  mkdirSync(join(run.project, '.hookrun'), { recursive: true })
  writeFileSync(join(run.project, '.hookrun', 'hooks.json'), `${JSON.stringify({ hooks }, null, 2)}\n`)
  const trusted = run.hookrun(['trust'])
  if (trusted.status !== 0) throw new Error(`hookrun trust: ${trusted.stderr}`)
}

const tally = (events: readonly string[]) =>
  Object.fromEntries([...new Set(events)].map((event) => [event, events.filter((each) => each === event).length]))

const CALLS = 3

describe('routing follows the hooks, one hookrun start per matched tool call', () => {
  for (const agent of [claude('project'), claude('user'), family(GEMINI), family(QWEN)]) {
    test(agent.name, async () => {
      const run = labRun()
      agent.prepare(run)
      writeHooks(run, [GATE])
      const installed = run.hookrun(agent.install)
      expect(installed.status, installed.stderr).toBe(0)
      const starts = countStarts(run, agent.routerFile(run))
      const turns = [...Array.from({ length: CALLS }, (_, index) => agent.shell(index)), { text: 'All done.' }]

      const first = await agent.session(run, turns)
      expect(first.status, first.output).toBe(0)
      const seen = tally(starts())
      console.log(`${agent.name}: hookrun starts in a session of ${CALLS} shell calls: ${JSON.stringify(seen)}`)
      // Once per tool call with the matching gate; at most once per session for the session start
      // (the untrusted notice's route); never for anything else.
      expect(seen[agent.toolEvent]).toBe(CALLS)
      expect(Object.keys(seen).filter((event) => event !== agent.toolEvent && event !== 'SessionStart')).toEqual([])
      expect(seen.SessionStart ?? 0).toBeLessThanOrEqual(1)

      // A hook on a new event, trusted: it runs in the next session.
      writeHooks(run, [GATE, ON_STOP])
      const second = await agent.session(run, turns)
      expect(second.status, second.output).toBe(0)
      expect(existsSync(join(run.project, 'stopped')), `${agent.stopEvent} hook did not run`).toBe(true)
      expect(tally(starts())[agent.stopEvent]).toBeGreaterThanOrEqual(1)

      // The last hook on it goes: so does its route, and hookrun is not started for it.
      writeHooks(run, [GATE])
      const routes = Object.keys(JSON.parse(readFileSync(agent.routerFile(run), 'utf8')).hooks)
      expect(routes).not.toContain(agent.stopEvent)
      const third = await agent.session(run, turns)
      expect(third.status, third.output).toBe(0)
      expect(tally(starts())[agent.stopEvent]).toBeUndefined()
      run.remove()
    }, 300_000)
  }
})
