// Cline: its payloads read (recorded in the agent lab, and the events it did not send there built
// from its source), its JSON answers, the wrappers install writes, and doctor's findings.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { agentRows } from '../../src/commands/agents.ts'
import type { Decision } from '../../src/core/protocol.ts'
import { cappedContext, cline, CLINE_CONTEXT_LIMIT } from '../../src/agents/cline.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { runDoctor } from '../../src/install/doctor.ts'
import { shellWords } from '../../src/install/self.ts'
import { toolInput } from '../../src/payload/fields.ts'
import { homeAndProject, removeProject, ROOT } from '../helpers.ts'

const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures', 'cline')
const recorded = (event: string) => JSON.parse(readFileSync(join(FIXTURES, `${event}.json`), 'utf8')) as Record<string, unknown>

/** The common fields of every payload (sdk/packages/core/src/hooks/hook-file-hooks.ts createPayloadBase). */
const BASE = {
  clineVersion: '',
  timestamp: '2026-01-01T00:00:00.000Z',
  taskId: 'conv_0_lab',
  sessionContext: { rootSessionId: '0_lab' },
  workspaceRoots: ['/home/lab/project'],
  userId: 'lab',
  agent_id: 'agent_0_lab',
  parent_agent_id: null,
}
/** The events the lab did not see Cline 3.0.65 send, as its source builds them. */
const FROM_SOURCE: Record<string, Record<string, unknown>> = {
  TaskResume: { ...BASE, hookName: 'agent_resume', taskResume: { taskMetadata: {}, previousState: {} } },
  TaskCancel: { ...BASE, hookName: 'agent_abort', reason: 'aborted', taskCancel: { taskMetadata: {} } },
  TaskError: { ...BASE, hookName: 'agent_error', iteration: 1, error: { name: 'Error', message: 'boom', stack: '' } },
  UserPromptSubmit: { ...BASE, hookName: 'prompt_submit', userPromptSubmit: { prompt: 'hello', attachments: [] } },
}

function seen(payload: Record<string, unknown>) {
  const prepared = prepareDialect('cline', undefined, payload)!
  const fired = qualifyEvent(prepared.event!, prepared.payload, prepared.tool)
  return { prepared, qualified: fired.qualified, command: (toolInput(prepared.payload) as { command?: unknown } | undefined)?.command }
}

const decision = (parts: Partial<Decision>): Decision => ({
  event: 'tool:pre_execute:bash',
  decision: 'allow',
  blocked: false,
  continue: true,
  additionalContext: [],
  hooks: [],
  warnings: [],
  ...parts,
})
const deny = decision({ decision: 'deny', blocked: true, reason: 'no rm here', decidedBy: 'gate' })
const answer = (event: string, made: Decision, payload: Record<string, unknown> = recorded('PreToolUse')) => {
  const prepared = prepareDialect('cline', event, payload)!
  const rendered = renderFor(cline, made, prepared.payload, prepared.agentEvent)
  return { ...rendered, json: JSON.parse(rendered.stdout) as Record<string, unknown> }
}

describe('Cline payloads, as `hookrun fire --format cline` reads them', () => {
  const expected: Record<string, { qualified: string; command?: string }> = {
    TaskStart: { qualified: 'session:start' },
    PreToolUse: { qualified: 'tool:pre_execute:bash', command: 'echo lab-fixture' },
    PostToolUse: { qualified: 'tool:post_execute:bash', command: 'echo lab-fixture' },
    TaskComplete: { qualified: 'agent:stop' },
    SessionShutdown: { qualified: 'session:end' },
  }
  test('the lab recorded these events', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(
      Object.keys(expected)
        .map((event) => `${event}.json`)
        .sort(),
    )
  })
  test.each(Object.keys(expected))('%s (recorded): event, tool, command, and detected without --format', (event) => {
    const payload = recorded(event)
    const read = seen(payload)
    expect(read.prepared.agentEvent).toBe(event)
    expect(read.qualified).toBe(expected[event]!.qualified)
    expect(read.command).toBe(expected[event]!.command)
    expect(resolveDialect(undefined, payload)?.name).toBe('cline')
    // Cline runs hooks in the workspace root; hookrun's project is the one it names.
    expect(read.prepared.payload.cwd).toBe('/home/lab/project')
  })
  test.each(
    Object.entries({
      TaskResume: 'session:start',
      TaskCancel: 'user:interrupt',
      TaskError: 'agent:error',
      UserPromptSubmit: 'user:prompt_submit',
    }),
  )('%s (from source) fires %s', (event, qualified) => {
    const read = seen(FROM_SOURCE[event]!)
    expect(read.prepared.agentEvent).toBe(event)
    expect(read.qualified).toBe(qualified)
  })
  test('UserPromptSubmit: the prompt as hookrun reads prompts', () => {
    expect(seen(FROM_SOURCE.UserPromptSubmit!).prepared.payload.prompt).toBe('hello')
  })
  test('the raw tool_call.input wins over the stringified parameters; without it they are parsed back', () => {
    const payload = recorded('PreToolUse')
    const several = {
      ...payload,
      tool_call: { id: 'c', name: 'run_commands', input: { commands: ['ls', { command: 'rm', args: ['-rf', 'a b'] }] } },
    }
    expect(seen(several).command).toBe("ls\nrm -rf 'a b'")
    const { tool_call: _raw, ...parametersOnly } = payload
    expect(seen(parametersOnly).command).toBe('echo lab-fixture')
    const editor = { ...payload, tool_call: { id: 'c', name: 'editor', input: { path: 'a.ts', old_text: 'x', new_text: 'y' } } }
    expect(seen(editor).qualified).toBe('tool:pre_execute:edit')
  })
  test("the VS Code extension's payload (hookName is the file's name, parameters only) reads the same way", () => {
    const vscode = {
      clineVersion: '4.1.0',
      hookName: 'PreToolUse',
      timestamp: '1767225600000',
      taskId: 't',
      workspaceRoots: ['/home/lab/project'],
      userId: 'u',
      preToolUse: { toolName: 'execute_command', parameters: { command: 'rm -rf /', requires_approval: 'true' } },
    }
    expect(resolveDialect(undefined, vscode)?.name).toBe('cline')
    const read = seen(vscode)
    expect(read.qualified).toBe('tool:pre_execute:bash')
    expect(read.command).toBe('rm -rf /')
    expect(seen({ ...vscode, preToolUse: { toolName: 'write_to_file', parameters: { path: 'a', content: 'b' } } }).qualified).toBe(
      'tool:pre_execute:write',
    )
  })
  test('an unknown hookName is not Cline by detection; with --format it passes with {}', () => {
    const unknown = { ...BASE, hookName: 'something_new' }
    expect(resolveDialect(undefined, unknown)?.name).not.toBe('cline')
    expect(answer('something_new', deny, unknown).json).toEqual({})
  })
})

describe("Cline's answers", () => {
  test('PreToolUse block: cancel with errorMessage, the reason for the terminal, and the warning that the run ends', () => {
    const rendered = answer('PreToolUse', deny)
    expect(rendered.json).toEqual({ cancel: true, errorMessage: 'no rm here' })
    expect(rendered.exitCode).toBe(0)
    expect(rendered.terminal).toBe("hookrun stopped Cline's run (PreToolUse run_commands): no rm here\n")
    expect(rendered.warnings.join('\n')).toMatch(/ends the whole run .* the model never sees the reason/)
  })
  test('ask is answered with a cancel, and says so', () => {
    const rendered = answer('PreToolUse', decision({ decision: 'ask', reason: 'sure?', decidedBy: 'gate' }))
    expect(rendered.json).toEqual({ cancel: true, errorMessage: 'sure?' })
    expect(rendered.warnings.join('\n')).toContain("Cline cannot apply decision 'ask' on PreToolUse; answered with a cancel")
  })
  test('a rewrite of command becomes overrideInput in Cline shape (commands), replacing the input whole', () => {
    expect(answer('PreToolUse', decision({ updatedInput: { command: 'ls -la' }, decidedBy: 'r' })).json).toEqual({
      overrideInput: { commands: ['ls -la'] },
    })
    // A hook that edits the input it was given: hookrun's `command` goes, the new one is the commands.
    const edited = { ...(seen(recorded('PreToolUse')).prepared.payload.tool_input as object), command: 'pwd' }
    expect(answer('PreToolUse', decision({ updatedInput: edited })).json).toEqual({ overrideInput: { commands: ['pwd'] } })
    // One that rewrote `commands` itself keeps them.
    expect(answer('PreToolUse', decision({ updatedInput: { commands: ['a', 'b'], command: 'echo lab-fixture' } })).json).toEqual({
      overrideInput: { commands: ['a', 'b'] },
    })
  })
  test('context: contextModification on PreToolUse and PostToolUse; a PostToolUse block reaches the model as context', () => {
    expect(answer('PreToolUse', decision({ additionalContext: ['a', 'b'] })).json).toEqual({ contextModification: 'a\n\nb' })
    const post = answer(
      'PostToolUse',
      decision({ decision: 'deny', blocked: true, reason: 'tests failed', decidedBy: 'h' }),
      recorded('PostToolUse'),
    )
    expect(post.json).toEqual({ contextModification: 'tests failed' })
    expect(post.warnings.join('\n')).toContain('the tool already ran; the reason goes to the model as contextModification')
  })
  test("context over Cline's 50,000-character cap is cut by hookrun, with a line that says so", () => {
    const long = 'x'.repeat(60_000)
    const rendered = answer('PreToolUse', decision({ additionalContext: [long] }))
    const text = rendered.json.contextModification as string
    expect(text.length).toBeLessThanOrEqual(CLINE_CONTEXT_LIMIT)
    expect(text).toMatch(/\[hookrun: context cut to Cline's limit of 50,000 characters; \d+ characters left out\]$/)
    const cut = cappedContext(long).cut
    expect(text.length - (60_000 - cut)).toBeGreaterThan(0)
    expect(text.slice(0, 60_000 - cut)).toBe(long.slice(0, 60_000 - cut))
    expect(rendered.warnings.join('\n')).toContain('characters of additionalContext')
    expect(answer('PreToolUse', decision({ additionalContext: ['short'] })).json.contextModification).toBe('short')
  })
  test.each(['TaskStart', 'UserPromptSubmit', 'TaskComplete', 'SessionShutdown'])(
    '%s runs detached: a block is not claimed, and every field is named as not acted on',
    (event) => {
      const payload = event in FROM_SOURCE ? FROM_SOURCE[event]! : recorded(event)
      const rendered = answer(event, { ...deny, additionalContext: ['c'], systemMessage: 'm' }, payload)
      expect(rendered.json).toEqual({})
      expect(rendered.terminal).toBeUndefined()
      for (const field of ['a block', 'additionalContext', 'systemMessage'])
        expect(rendered.warnings).toContain(
          `Cline cannot apply ${field} on ${event}; Cline does not act on this: it runs this hook detached and reads none of its output`,
        )
    },
  )
  test('hookrun agents: block and rewrite on PreToolUse only; nothing on the detached events; caveats and the hooks folders', () => {
    const row = agentRows().find((each) => each.agent === 'cline')!
    const honours = Object.fromEntries(row.events.map((event) => [event.name, event.honours]))
    expect(honours.PreToolUse).toEqual(expect.arrayContaining(['block', 'updatedInput', 'additionalContext', 'systemMessage']))
    expect(honours.PreToolUse).not.toContain('ask')
    expect(honours.PostToolUse).not.toContain('block')
    for (const event of ['TaskStart', 'UserPromptSubmit', 'TaskComplete', 'TaskCancel', 'TaskError', 'SessionShutdown', 'TaskResume'])
      expect(honours[event]).toEqual([])
    expect(row.caveats?.join('\n')).toMatch(/model never sees the reason/)
    expect(row.config).toEqual({ user: '~/.cline/hooks/', project: '.cline/hooks/' })
    expect(row.verified?.version).toBe('3.0.65')
  })
})

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

describe('install --agent cline', () => {
  // What the CLI passes: this hookrun's command as shell words (src/install/self.ts, quoted by src/core/shell.ts).
  const SELF = shellWords(['/opt/my tools/hookrun'])
  const install = (where: ReturnType<typeof homeAndProject>, remove = false, scope: 'user' | 'project' = 'user', events?: string[]) =>
    installAgents({ agents: ['cline'], scope, cwd: where.project, env: where.env, self: SELF, ...(events && { events }) }, remove)

  test('user: an executable wrapper per event that execs this hookrun (quoted); uninstall removes exactly them', () => {
    const where = homeAndProject(dirs)
    const dir = join(where.home, '.cline', 'hooks')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'PreToolUse'), '#!/bin/sh\necho mine\n')
    writeFileSync(join(dir, 'notes.txt'), 'keep\n')
    const result = install(where)
    expect(result.exitCode).toBe(0)
    const files = readdirSync(dir).sort()
    expect(files).toEqual(
      [
        'PostToolUse',
        'PreToolUse',
        'PreToolUse.sh',
        'SessionShutdown',
        'TaskCancel',
        'TaskComplete',
        'TaskError',
        'TaskResume',
        'TaskStart',
        'UserPromptSubmit',
        'notes.txt',
      ].sort(),
    )
    // The user's own PreToolUse stays; hookrun's goes beside it.
    expect(readFileSync(join(dir, 'PreToolUse'), 'utf8')).toBe('#!/bin/sh\necho mine\n')
    const wrapper = readFileSync(join(dir, 'PreToolUse.sh'), 'utf8')
    expect(wrapper).toMatch(/^#!\/bin\/sh\n/)
    expect(wrapper).toContain("\n'/opt/my tools/hookrun' fire --format cline\n")
    expect(readFileSync(join(dir, 'PostToolUse'), 'utf8')).toContain("\nexec '/opt/my tools/hookrun' fire --format cline\n")
    expect(statSync(join(dir, 'TaskStart')).mode & 0o777).toBe(0o755)
    expect(install(where).output).toContain('already installed')
    install(where, true)
    expect(readdirSync(dir).sort()).toEqual(['PreToolUse', 'notes.txt'])
  })

  test('CLINE_DIR moves the user folder; --events narrows; a project install runs hookrun from PATH and goes with its folders', () => {
    const where = homeAndProject(dirs)
    const clineDir = join(where.home, 'cline-home')
    install({ ...where, env: { ...where.env, CLINE_DIR: clineDir } }, false, 'user', ['pretooluse'])
    expect(readdirSync(join(clineDir, 'hooks'))).toEqual(['PreToolUse'])
    install(where, false, 'project', ['PreToolUse', 'PostToolUse'])
    const dir = join(where.project, '.cline', 'hooks')
    expect(readdirSync(dir).sort()).toEqual(['PostToolUse', 'PreToolUse'])
    expect(readFileSync(join(dir, 'PostToolUse'), 'utf8')).toContain('\nexec hookrun fire --format cline\n')
    // Fewer events: the wrapper no longer asked for goes.
    install(where, false, 'project', ['PreToolUse'])
    expect(readdirSync(dir)).toEqual(['PreToolUse'])
    install(where, true, 'project')
    expect(existsSync(join(where.project, '.cline'))).toBe(false)
    expect(() => install(where, false, 'project', ['PreCompact'])).toThrow(/left out on purpose: Cline declares it but never fires it/)
  })

  test('doctor: a missing PreToolUse wrapper fails, a non-executable one warns, and so does a provider that runs tools itself', () => {
    const where = homeAndProject(dirs)
    install(where)
    const dir = join(where.home, '.cline', 'hooks')
    const doctor = () =>
      runDoctor({ cwd: where.project, env: where.env, version: '0.0.0' }).lines.filter((line) => line.what.startsWith('Cline'))
    expect(
      doctor()
        .filter((line) => line.status !== 'ok')
        .map((line) => line.status),
    ).toEqual(['warn'])
    chmodSync(join(dir, 'PostToolUse'), 0o644)
    expect(doctor().find((line) => line.what.includes('is not executable'))?.status).toBe('warn')
    // A user deleting hookrun's PreToolUse wrapper: no gate runs before Cline's tool calls.
    rmSync(join(dir, 'PreToolUse'))
    expect(doctor().find((line) => line.what.includes('no hookrun wrapper for PreToolUse'))?.status).toBe('fail')
    const settings = join(where.home, '.cline', 'data', 'settings')
    mkdirSync(settings, { recursive: true })
    writeFileSync(join(settings, 'providers.json'), JSON.stringify({ version: 1, lastUsedProvider: 'claude-code' }))
    expect(doctor().find((line) => line.what.includes('runs tools itself'))).toMatchObject({ status: 'fail' })
  })
})

describe('hookrun fire --format cline tells the person why a cancel ended the run', () => {
  test('the reason goes to the terminal (io.terminal) beside the cancel on stdout; an allow writes nothing there', async () => {
    const { main } = await import('../../src/cli.ts')
    const { makeProject, cliEnvironment, trustProjectFor } = await import('../helpers.ts')
    const project = makeProject({
      '.hookrun/hooks.json': {
        hooks: [
          {
            name: 'gate',
            event: 'tool:pre_execute:bash',
            command: 'case "$HOOKRUN_BASH_COMMAND" in *forbidden*) echo "not here" >&2; exit 2;; esac',
          },
        ],
      },
    })
    dirs.push(project)
    trustProjectFor(project)
    const fireWith = async (command: string) => {
      const out: string[] = []
      const shown: string[] = []
      const payload = {
        ...recorded('PreToolUse'),
        workspaceRoots: [project],
        tool_call: { id: 'c', name: 'run_commands', input: { commands: [command] } },
      }
      const code = await main(['fire', '--format', 'cline', '--cwd', project], {
        stdout: (text) => void out.push(text),
        stderr: () => undefined,
        env: cliEnvironment(project),
        stdin: (async function* () {
          yield new TextEncoder().encode(JSON.stringify(payload))
        })(),
        terminal: (text) => {
          shown.push(text)
          return true
        },
      })
      return { code, stdout: out.join(''), shown: shown.join('') }
    }
    const denied = await fireWith('touch forbidden')
    expect(denied.code).toBe(0)
    expect(JSON.parse(denied.stdout)).toEqual({ cancel: true, errorMessage: 'not here' })
    expect(denied.shown).toBe("hookrun stopped Cline's run (PreToolUse run_commands): not here\n")
    const allowed = await fireWith('ls')
    expect(JSON.parse(allowed.stdout)).toEqual({})
    expect(allowed.shown).toBe('')
  })
})

describe("a gate answers before Cline's 120 s kill", () => {
  test("Cline's fires get a budget 10 s under it; agents that wait for hookrun keep hookrun's own", async () => {
    const { fireBudgetMs } = await import('../../src/dialect.ts')
    const { claude } = await import('../../src/agents/claude.ts')
    expect(fireBudgetMs(cline)).toBe(110_000)
    expect(fireBudgetMs(claude)).toBeUndefined()
  })
  test('fire() spends no more than the budget it is given: past it the gate blocks', async () => {
    const { fire } = await import('../../src/fire.ts')
    const { makeProject, cliEnvironment, trustProjectFor } = await import('../helpers.ts')
    const project = makeProject({
      '.hookrun/hooks.json': { hooks: [{ name: 'slow', event: 'tool:pre_execute:bash', command: 'sleep 30', timeout: 60 }] },
    })
    dirs.push(project)
    trustProjectFor(project)
    const decided = await fire({
      event: 'tool:pre_execute',
      tool: 'bash',
      payload: { tool_name: 'bash', tool_input: { command: 'ls' } },
      cwd: project,
      env: cliEnvironment(project),
      budgetMs: 500,
    })
    // The hook sleeps 30 s and would then allow: blocked means the budget ended it first.
    expect(decided.blocked).toBe(true)
  })
})

describe("a narrowed project install of Cline's wrappers follows hooks.json", () => {
  test('hookrun trust after an edit adds the wrapper a new hook needs, and drops the one no hook needs', async () => {
    const { makeProject, cliEnvironment } = await import('../helpers.ts')
    const { syncNarrowedConfigs } = await import('../../src/install/narrowed-sync.ts')
    const { trustProject } = await import('../../src/commands/trust.ts')
    const post = { hooks: [{ name: 'log', event: 'tool:post_execute:bash', command: 'true' }] }
    const project = makeProject({ '.hookrun/hooks.json': post })
    dirs.push(project)
    const env = cliEnvironment(project)
    trustProject({ cwd: project, env })
    installAgents({ agents: ['cline'], scope: 'project', cwd: project, env, narrow: true }, false)
    const dir = join(project, '.cline', 'hooks')
    expect(readdirSync(dir)).toEqual(['PostToolUse'])
    writeFileSync(
      join(project, '.hookrun', 'hooks.json'),
      JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'exit 0' }] }),
    )
    // Not trusted yet (changed since): the start events are routed too, for hookrun's notice.
    const lines = syncNarrowedConfigs(project, env)
    expect(lines.join('\n')).toContain('brought the wrappers in .cline/hooks up to date')
    expect(readdirSync(dir).sort()).toEqual(['PreToolUse', 'TaskResume', 'TaskStart'])
    trustProject({ cwd: project, env })
    expect(readdirSync(dir)).toEqual(['PreToolUse'])
    expect(readFileSync(join(dir, 'PreToolUse'), 'utf8')).toContain('\nhookrun fire --format cline\n')
  })
})

test("install --json: a hook folder's notes are its note, warning and left-out lines, as a JSON file's are (not the lines that restate its fields)", async () => {
  const { makeProject, cliEnvironment } = await import('../helpers.ts')
  const project = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'log', event: 'tool:post_execute:bash', command: 'true' }] } })
  dirs.push(project)
  const [result] = installAgents({ agents: ['cline'], scope: 'project', cwd: project, env: cliEnvironment(project) }, false).results
  expect(result!.notes).toEqual(
    expect.arrayContaining([expect.stringMatching(/^not PreCompact: /), expect.stringContaining('hookrun on PATH')]),
  )
  expect(result!.notes.filter((note) => /^(command|events|narrowed|after editing)/.test(note))).toEqual([])
})

test('install --project --sync without --agent includes Cline when its project folder holds hookrun wrappers', async () => {
  const { makeProject, cliEnvironment } = await import('../helpers.ts')
  const project = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'log', event: 'tool:post_execute:bash', command: 'true' }] } })
  dirs.push(project)
  const env = cliEnvironment(project)
  installAgents({ agents: ['cline'], scope: 'project', cwd: project, env, events: ['PreToolUse'] }, false)
  const synced = installAgents({ agents: [], scope: 'project', cwd: project, env, sync: true }, false)
  expect(synced.results.map((result) => result.agent)).toEqual(['cline'])
  // Narrowed again: PreToolUse goes, PostToolUse comes (and the start events, for the untrusted project's notice).
  expect(readdirSync(join(project, '.cline', 'hooks')).sort()).toEqual(['PostToolUse', 'TaskResume', 'TaskStart'])
})

describe('the PreToolUse wrapper fails closed by itself (Cline reads no exit code)', () => {
  const run = (wrapper: string, bin: string) =>
    spawnSync('sh', [wrapper], { input: '{}', encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin`, HOME: bin } })
  test('hookrun not on PATH, or killed: a HOOK_CONTROL cancel; hookrun answering: its answer alone', async () => {
    const { wrapperText, HOOK_FOLDER_AGENT } = await import('../../src/install/hook-folder.ts')
    const where = homeAndProject(dirs)
    const wrapper = join(where.home, 'PreToolUse')
    writeFileSync(wrapper, wrapperText(HOOK_FOLDER_AGENT, 'hookrun', 'PreToolUse'))
    const missing = run(wrapper, join(where.home, 'empty'))
    const control = missing.stdout.split('\n').find((line) => line.startsWith('HOOK_CONTROL\t'))
    expect(JSON.parse(control!.slice('HOOK_CONTROL\t'.length))).toEqual({
      cancel: true,
      errorMessage: 'hookrun could not answer (exit 127), so the call was blocked: run hookrun doctor',
    })
    const bin = join(where.home, 'bin')
    mkdirSync(bin)
    const fake = (body: string) => {
      writeFileSync(join(bin, 'hookrun'), `#!/bin/sh\n${body}\n`)
      chmodSync(join(bin, 'hookrun'), 0o755)
    }
    fake(`printf '{"cancel":false}'; kill -9 $$`)
    expect(run(wrapper, bin).stdout).toMatch(/\nHOOK_CONTROL\t\{"cancel":true,"errorMessage":"hookrun could not answer \(exit 137\)/)
    fake(`cat > /dev/null; printf '{}'`)
    expect(run(wrapper, bin).stdout).toBe('{}')
    // Other events exec hookrun: nothing of the wrapper's own.
    expect(wrapperText(HOOK_FOLDER_AGENT, 'hookrun', 'PostToolUse')).toMatch(/\nexec hookrun fire --format cline\n$/)
  })
})
