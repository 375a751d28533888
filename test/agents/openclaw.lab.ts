/**
 * OpenClaw in the agent lab: `openclaw agent --local` (the embedded agent, no gateway) headless
 * against a fake chat-completions API on 127.0.0.1 (a provider of its own in
 * ~/.openclaw/openclaw.json, its workspace the lab's project), run with the lab's Node 24
 * (OpenClaw needs ≥ 24.16), hookrun's plugin installed as a user would
 * (`hookrun install --agent openclaw`: ~/.openclaw/extensions/hookrun/). A run takes minutes on a
 * busy machine, so one session serves the scenarios. OpenClaw names the shell `exec` (a call to
 * `bash` is run as `exec`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { installAgent, labNodeBin, labResults, labRun, labVersion, runAgent, type Turn } from './lab.ts'
import { isChatTurn, startOpenAIChatModel } from './models/openai-chat.ts'
import { GATE } from './scenario.ts'

const exec = (command: string): Turn => ({ tool: 'exec', input: { command } })
const REWRITE = `case "$HOOKRUN_BASH_COMMAND" in *original-marker*) printf '%s' '{"updatedInput":{"command":"touch rewritten-marker"}}';; esac`

const results = labResults('openclaw')
const version = labVersion('openclaw')

describe(`OpenClaw ${version} with hookrun`, () => {
  test('gate session: allow, deny (exec and bash), rewrite, a slow and a crashing hook, the plugin let in by install', {
    timeout: 900_000,
  }, async () => {
    const run = labRun()
    const turns = [
      exec('touch allowed-marker'),
      { tool: 'bash', input: { command: 'touch forbidden-bash' } },
      exec('touch forbidden-marker'),
      exec('touch original-marker'),
      exec('touch slow-marker'),
      exec('touch crash-marker'),
      { text: 'done' },
    ]
    const server = await startOpenAIChatModel(turns)
    try {
      const model = {
        id: 'fake-model',
        name: 'Fake',
        reasoning: false,
        input: ['text'],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 120000,
        maxTokens: 8192,
      }
      const config = {
        agents: { defaults: { workspace: run.project, model: { primary: 'lab/fake-model' } } },
        models: {
          mode: 'merge',
          providers: { lab: { baseUrl: `${server.url}/v1`, apiKey: 'lab', api: 'openai-completions', models: [model] } },
        },
      }
      mkdirSync(join(run.home, '.openclaw'), { recursive: true })
      writeFileSync(join(run.home, '.openclaw', 'openclaw.json'), `${JSON.stringify(config, null, 2)}\n`)
      const log = join(run.root, 'log.jsonl')
      const hooks = {
        hooks: [
          { name: 'lab-gate', event: 'tool:pre_execute:bash', command: GATE, timeout: 10 },
          { name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: REWRITE },
          {
            name: 'lab-slow',
            event: 'tool:pre_execute:bash',
            command: 'case "$HOOKRUN_BASH_COMMAND" in *slow*) sleep 30;; esac',
            timeout: 2,
          },
          { name: 'lab-crash', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *crash*) exit 1;; esac' },
          { name: 'lab-log', event: '*', command: `cat >> "${log}"; echo >> "${log}"` },
        ],
      }
      mkdirSync(join(run.project, '.hookrun'), { recursive: true })
      writeFileSync(join(run.project, '.hookrun', 'hooks.json'), `${JSON.stringify(hooks, null, 2)}\n`)
      // hookrun's install alone lets the plugin in (plugins.allow, plugins.entries.hookrun): nothing is added by hand.
      const install = run.hookrun(['install', '--agent', 'openclaw'])
      expect(install.status, install.stderr).toBe(0)
      expect(install.stdout).toContain('let it in:')
      expect(run.hookrun(['trust']).status).toBe(0)
      const [bin, ...rest] = run.env.PATH!.split(':')
      const env = { ...run.env, PATH: [bin, labNodeBin(), ...rest].join(':') }
      const args = ['agent', '--local', '--agent', 'main', '--session-id', 'lab', '--message', 'lab session gate']
      const result = await runAgent(installAgent('openclaw'), args, { cwd: run.project, env, timeoutMs: 800_000 })
      console.log(`openclaw gate: ${Math.round(result.ms)} ms`)
      if (process.env.LAB_DEBUG) console.log(result.stdout, result.stderr)
      expect(result.status, result.stderr.slice(-2000)).toBe(0)
      const has = (file: string) => existsSync(join(run.project, file))
      const toolResults = server.requests.filter(isChatTurn).at(-1)!.body as {
        messages: { role: string; content?: unknown; tool_call_id?: string }[]
      }
      // OpenClaw sends the fake model's call_2 back as call2.
      const resultOf = (id: string) =>
        JSON.stringify(
          toolResults.messages.find((m) => m.role === 'tool' && m.tool_call_id?.replace('_', '') === id.replace('_', ''))?.content,
        ) ?? ''
      expect(has('allowed-marker')).toBe(true)
      results.record('allow-shell', 'honoured', 'the command ran')
      expect(has('forbidden-marker')).toBe(false)
      expect(has('forbidden-bash')).toBe(false)
      expect(resultOf('call_2')).toContain('lab gate: forbidden commands are not allowed')
      results.record(
        'deny-shell',
        'honoured',
        `before_tool_call returned {block: true, blockReason}: the command did not run (also when the model called it bash, which OpenClaw ran as exec), the model got ${resultOf('call_2')}`,
      )
      expect(has('rewritten-marker')).toBe(true)
      expect(has('original-marker')).toBe(false)
      results.record('rewrite-input', 'honoured', 'before_tool_call returned params: the rewritten command ran, the original did not')
      expect(has('slow-marker')).toBe(false)
      expect(resultOf('call_4')).toMatch(/lab-slow/)
      results.record(
        'timeout-blocks',
        'honoured',
        `a gate hook past its timeout: the call did not run; the model got ${resultOf('call_4').slice(0, 200)}`,
      )
      expect(has('crash-marker')).toBe(false)
      expect(resultOf('call_5')).toMatch(/lab-crash/)
      results.record(
        'crash-blocks',
        'honoured',
        `a gate hook that exited 1: the call did not run; the model got ${resultOf('call_5').slice(0, 200)}`,
      )
      const logged = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      const hooksSeen = [...new Set(logged.map((payload) => payload.openclaw_hook))]
      expect(hooksSeen).toContain('before_agent_run')
      expect(hooksSeen).toContain('after_tool_call')
      results.record(
        'plugin-config',
        'not applicable',
        `loaded once hookrun install wrote plugins.allow: ["hookrun"] and plugins.entries.hookrun (enabled, hooks.allowConversationAccess) into openclaw.json (the folder alone was never imported by agent --local); hooks that reached hookrun: ${hooksSeen.join(', ')}`,
      )
    } finally {
      await server.close()
      run.remove()
    }
  })
})

test('results', async () => {
  await results.check()
})
