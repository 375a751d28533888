import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { explainCommand } from '../../src/commands/explain.ts'
import { prepareDialect } from '../../src/dialect.ts'
import { addExclusionCheck, explainFire } from '../../src/explain/explain.ts'
import { makeProject, removeProject, trustFolderIn } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

function project() {
  const dir = makeProject({
    'home/.config/hookrun/hooks.json': {
      hooks: [
        { name: 'lint', event: 'tool:post_execute', command: 'true' },
        { name: 'ask-first', event: 'tool:pre_execute', command: `echo '{"decision":"ask","reason":"user decides"}'` },
      ],
    },
    '.hookrun/hooks.json': {
      hooks: [
        { name: 'context', event: 'tool:pre_execute', command: 'echo \'{"additionalContext":"be careful"}\'' },
        { name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'echo "sudo is not allowed" >&2; exit 2' },
        { name: 'ask-first', event: 'tool:pre_execute', command: `echo '{"decision":"allow","reason":"fine"}'` },
        { name: 'writes', event: 'tool:*:write', command: 'true' },
        { name: 'old', event: '*', command: 'true', enabled: false },
        { name: 'git-only', event: 'tool:pre_execute', match: { tool: 'write' }, command: 'true' },
        { name: 'after', event: 'tool:pre_execute', command: 'touch after-ran' },
      ],
    },
  })
  dirs.push(dir)
  trustFolderIn(dir, join(dir, 'home', '.config'))
  return { cwd: dir, env: { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config') } }
}

describe('explain', () => {
  test('every configured hook, run or why not, and how the decision was reached', async () => {
    const where = project()
    const explanation = await explainFire({
      event: 'tool:pre_execute',
      payload: { tool_name: 'run_shell_command', tool_input: { command: 'sudo ls' } },
      ...where,
    })
    const byName = Object.fromEntries(explanation.hooks.map((hook) => [`${hook.name}@${hook.layer}`, hook]))
    expect(explanation.event).toBe('tool:pre_execute:bash')
    expect(byName['lint@user']).toMatchObject({
      status: 'skipped',
      exclusion: 'pattern',
      detail: "'tool:post_execute' does not match tool:pre_execute:bash",
    })
    expect(byName['ask-first@user']).toMatchObject({ exclusion: 'shadowed' })
    expect(byName['ask-first@user']!.detail).toMatch(/^replaced by the project hook of the same name in .*hooks\.json \(hooks\[2\]\)$/)
    expect(byName['context@project']).toMatchObject({ status: 'ran', result: { context: ['be careful'] } })
    expect(byName['no-sudo@project']).toMatchObject({
      status: 'ran',
      result: { decision: 'deny', report: { exitCode: 2, reason: 'sudo is not allowed' } },
    })
    // A later layer's hook of the same name takes the earlier one's place in the run order.
    expect(byName['ask-first@project']).toMatchObject({ status: 'ran', result: { decision: 'allow' } })
    expect(byName['after@project']).toMatchObject({
      status: 'skipped',
      exclusion: 'after-block',
      detail: "the chain stopped at 'no-sudo' (deny)",
    })
    expect(byName['writes@project']).toMatchObject({ exclusion: 'pattern' })
    expect(byName['old@project']).toMatchObject({ exclusion: 'disabled', detail: 'enabled: false' })
    expect(byName['git-only@project']).toMatchObject({
      exclusion: 'filtered',
      detail: "match.tool 'write' does not name tool run_shell_command (bash)",
    })
    expect(explanation.decision).toMatchObject({ decision: 'deny', decidedBy: 'no-sudo' })
    expect(explanation.how).toEqual([
      '4 hooks matched; 3 ran',
      "rule 'chain' for hookrun's own hooks: in order, each seeing earlier rewrites, stopping at the first block",
      "'no-sudo' decided deny by exiting 2",
      "it beats allow from 'ask-first': deny beats ask beats allow, and the first of equals stands",
      "the chain stopped at 'no-sudo': 1 later hook did not run",
      "context for the model from 'context', in that order",
    ])
  })

  test('without a decision, explain says the agent’s own rules apply; weaker decisions are named', async () => {
    const where = project()
    const quiet = await explainFire({
      event: 'tool:pre_execute',
      payload: { tool_name: 'Read' },
      ...where,
      configFiles: [join(where.cwd, 'home/.config/hookrun/hooks.json')],
    })
    expect(quiet.how).toContain("'ask-first' decided ask by its JSON answer")
    const none = await explainFire({ event: 'session:start', payload: {}, ...where })
    expect(none.how).toEqual([
      'no hook matched session:start',
      "no hook gave a decision: allow without one, so the agent's own permission rules apply",
    ])
  })

  test('a dry run selects and runs nothing', async () => {
    const where = project()
    const dry = await explainFire({ event: 'tool:pre_execute', payload: { tool_name: 'Read' }, ...where, dryRun: true })
    expect(dry.decision).toBeUndefined()
    expect(dry.hooks.filter((hook) => hook.status === 'would-run').map((hook) => hook.name)).toEqual(['ask-first', 'context', 'after'])
    expect(dry.how).toEqual([
      "dry run: 'ask-first', 'context', 'after' would run, in this order",
      "rule 'chain' for hookrun's own hooks: in order, each seeing earlier rewrites, stopping at the first block",
    ])
  })

  test('the human text and the agent answer', async () => {
    const where = project()
    const payload = {
      hook_event_name: 'BeforeTool',
      timestamp: '2026-01-01T00:00:00Z',
      session_id: 's',
      cwd: where.cwd,
      tool_name: 'run_shell_command',
      tool_input: { command: 'sudo ls' },
    }
    const prepared = prepareDialect(undefined, undefined, payload)!
    const { output, exitCode } = await explainCommand(
      { event: prepared.event!, payload: prepared.payload, ...where },
      { prepared, json: false, dryRun: false },
    )
    expect(exitCode).toBe(0)
    expect(output).toContain('event     tool:pre_execute:bash   (tool: run_shell_command)')
    expect(output).toMatch(/ran\s+no-sudo\s+project \.hookrun\/hooks\.json hooks\[1\]\n\s+exit 2 in \d+ ms → deny: sudo is not allowed/)
    expect(output).toContain('decision  deny — blocked: sudo is not allowed')
    expect(output).toContain('answer    gemini (BeforeTool), exit 0: {"decision":"deny","reason":"sudo is not allowed"}')
  })

  test('an exclusion check (the trust feature’s hook point) keeps a hook out of the run and says why', async () => {
    const where = project()
    addExclusionCheck((hook) =>
      hook.name === 'context' ? { exclusion: 'untrusted', detail: 'project file not trusted (hookrun trust)' } : undefined,
    )
    const explanation = await explainFire({ event: 'tool:pre_execute', payload: { tool_name: 'Read' }, ...where })
    expect(explanation.hooks.find((hook) => hook.name === 'context')).toMatchObject({
      status: 'skipped',
      exclusion: 'untrusted',
      detail: 'project file not trusted (hookrun trust)',
    })
    expect(explanation.decision?.additionalContext).toEqual([])
  })
})
