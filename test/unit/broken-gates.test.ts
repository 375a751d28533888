// A gate entry that cannot be read is a failed gate, not a missing one (issue 12).
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { validateConfig } from '../../src/commands/validate.ts'
import { fire } from '../../src/fire.ts'
import { makeProject, removeProject } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function configFile(config: unknown): { dir: string; file: string; env: Record<string, string> } {
  const dir = makeProject({ 'hooks.json': typeof config === 'string' ? config : JSON.stringify(config) })
  projects.push(dir)
  return {
    dir,
    file: join(dir, 'hooks.json'),
    env: {
      PATH: process.env.PATH!,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, '.xdg-config'),
      XDG_STATE_HOME: join(dir, '.xdg-state'),
      XDG_CACHE_HOME: join(dir, '.xdg-cache'),
    },
  }
}

async function fireWith(config: unknown, event: string) {
  const { dir, file, env } = configFile(config)
  return {
    file,
    decision: await fire({
      event,
      cwd: dir,
      env,
      configFiles: [file],
      payload: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
    }),
  }
}

const good = { name: 'log', event: '*', command: 'true' }

describe('a broken entry on a gate event blocks, naming file and field', () => {
  test.each([
    ['typo in command', { hooks: [good, { name: 'gate', event: 'tool:pre_execute', comand: 'exit 2' }] }, 'hooks[1].command'],
    ['wrong type', { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'exit 2', timeout: 'ten' }] }, 'hooks[0].timeout'],
    ['typo in event key: any gate', { hooks: [{ name: 'gate', evnt: 'tool:pre_execute', command: 'exit 2' }] }, 'hooks[0].event'],
    [
      'Claude shape',
      { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', comand: 'exit 2' }] }] } },
      'hooks.PreToolUse[0].hooks[0].command',
    ],
    ['not an array', { hooks: 5 }, 'hooks'],
  ])('%s', async (_name, config, field) => {
    const { file, decision } = await fireWith(config, 'tool:pre_execute')
    expect(decision).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'hookrun' })
    expect(decision.reason).toContain(`${file}: ${field}`)
    expect(decision.reason).toContain("a gate entry that cannot be read blocks; fix it (see 'hookrun validate')")
  })

  test('a file caught mid-write (invalid JSON) blocks gate events', async () => {
    const { file, decision } = await fireWith('{"hooks": [{"name": "gate", "event": "tool:pre_execute", "comm', 'tool:pre_execute')
    expect(decision).toMatchObject({ decision: 'deny', blocked: true })
    expect(decision.reason).toContain(`${file}: not valid JSON`)
  })

  test('the same broken entry only warns on events it was not for, and on events that are not gates', async () => {
    const config = { hooks: [good, { name: 'gate', event: 'tool:pre_execute', comand: 'exit 2' }] }
    expect((await fireWith(config, 'user:prompt_submit')).decision).toMatchObject({ decision: 'allow', blocked: false })
    const info = await fireWith({ hooks: [{ name: 'x', evnt: '*', command: 'true' }] }, 'tool:post_execute')
    expect(info.decision).toMatchObject({ decision: 'allow', blocked: false })
    expect(info.decision.warnings.join('\n')).toContain('hooks[0].event')
  })

  test('a broken setting is not a gate', async () => {
    const { decision } = await fireWith({ log: 5, hooks: [good] }, 'tool:pre_execute')
    expect(decision).toMatchObject({ blocked: false })
  })
})

describe('an unknown event name near a known one', () => {
  test('fire treats the entry as a broken gate for the event it was surely meant for', async () => {
    const config = { hooks: [{ name: 'gate', event: 'tool:pre_exectue', command: 'exit 2' }] }
    const { decision } = await fireWith(config, 'tool:pre_execute')
    expect(decision).toMatchObject({ decision: 'deny', blocked: true })
    expect(decision.reason).toContain("hooks[0].event: unknown event 'tool:pre_exectue'; did you mean 'tool:pre_execute'?")
    // Far from every known name: a custom event, allowed.
    const custom = await fireWith({ hooks: [{ name: 'mine', event: 'deploy:started', command: 'true' }] }, 'tool:pre_execute')
    expect(custom.decision).toMatchObject({ blocked: false })
  })

  test('Claude-shaped event keys too', async () => {
    const { decision } = await fireWith({ hooks: { PreToolUs: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] } }, 'tool:pre_execute')
    expect(decision.reason).toContain("unknown event 'PreToolUs'; did you mean 'PreToolUse'?")
  })

  test('validate names the suggestion', () => {
    const { dir, file, env } = configFile({ hooks: [{ name: 'gate', event: 'tool:pre_exectue', command: 'exit 2' }] })
    const result = validateConfig({ files: [file], cwd: dir, env, json: false })
    expect(result.exitCode).toBe(1)
    expect(result.output).toContain(`error: ${file}: hooks[0].event: unknown event 'tool:pre_exectue'; did you mean 'tool:pre_execute'?`)
  })

  test('firing an unknown event name warns with the nearest one', async () => {
    const { decision } = await fireWith({ hooks: [good] }, 'tool:pre_exectue')
    expect(decision.warnings).toContain("unknown event 'tool:pre_exectue'; did you mean 'tool:pre_execute'?")
  })
})

test('a config file rewritten in place is read again when the first read is cut short', async () => {
  const { dir, file, env } = configFile('{"hooks": [')
  // Another process finishes the write while hookrun reads.
  const whole = JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'echo no >&2; exit 2' }] })
  spawn('sh', ['-c', `sleep 0.03; printf '%s' '${whole}' > '${file}'`], { stdio: 'ignore' })
  const decision = await fire({ event: 'tool:pre_execute', cwd: dir, env, configFiles: [file] })
  expect([decision.decidedBy, decision.reason]).toEqual(['gate', 'no'])
})
