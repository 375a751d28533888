/**
 * The library's in-process hooks (createRunner), as plain async cases with node:assert, so the
 * one file runs under Node (vitest: runner.test.ts), Bun and Deno (run.ts). Each case builds a
 * throw-away project with its own HOME, so no developer config leaks in.
 */
import assert from 'node:assert/strict'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  allow,
  ask,
  createRunner,
  DecisionSchema,
  deny,
  fire,
  type HookContext,
  HookrunError,
  none,
  type Runner,
  type RunnerOptions,
} from '../../src/index.ts'
import { type Files, makeProject, removeProject, trustFolderIn } from '../helpers.ts'

export interface LibraryCase {
  readonly name: string
  run(): Promise<void>
}

export const CASES: LibraryCase[] = []
const test = (name: string, run: () => Promise<void>) => CASES.push({ name, run })

/** A project with `.hookrun/hooks.json` holding `hooks`, plus any other files; removed afterwards. */
async function inProject(hooks: object[], files: Files, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = makeProject({ '.hookrun/hooks.json': { hooks }, ...files })
  trustFolderIn(dir, join(dir, '.xdg'))
  try {
    await body(dir)
  } finally {
    removeProject(dir)
  }
}

function runnerIn(dir: string, options: RunnerOptions = {}): Runner {
  const env: Record<string, string | undefined> = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg') }
  delete env.HOOKRUN_CONFIG
  delete env.HOOKRUN_DEPTH
  return createRunner({ cwd: dir, env, ...options })
}

const names = (decision: { hooks: { name: string }[] }) => decision.hooks.map((hook) => hook.name)
/** A command hook that appends its name to log.txt, so the run order is what actually happened. */
const logging = (name: string, event = '*') => ({ name, event, command: `echo ${name} >> log.txt` })
const logLines = (dir: string) => readFileSync(join(dir, 'log.txt'), 'utf8').trim().split('\n')

test('function and command hooks run interleaved in one chain: first, before/after a config hook, last', async () => {
  await inProject([logging('cmd-a'), logging('cmd-b'), logging('cmd-c')], {}, async (dir) => {
    const log = (name: string) => () => appendFileSync(join(dir, 'log.txt'), `${name}\n`)
    const runner = runnerIn(dir)
      .on('*', log('fn-last'))
      .on('*', log('fn-first'), { name: 'fn-first', order: 'first' })
      .on('*', log('fn-after-a'), { name: 'fn-after-a', after: 'cmd-a' })
      .on('*', log('fn-before-c'), { name: 'fn-before-c', before: 'cmd-c' })
      .on('session:*', log('fn-other-event'), { name: 'fn-other-event' })
    const decision = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'ls' } })
    const order = ['fn-first', 'cmd-a', 'fn-after-a', 'cmd-b', 'fn-before-c', 'cmd-c', 'function#1']
    assert.deepEqual(names(decision), order)
    assert.deepEqual(
      logLines(dir),
      order.map((name) => (name === 'function#1' ? 'fn-last' : name)),
    )
    assert.deepEqual(
      decision.hooks.map((hook) => hook.source),
      ['function', 'project', 'function', 'project', 'function', 'project', 'function'],
    )
    assert.equal(decision.warnings.length, 0)
  })
})

test('a before/after hook whose config hook does not run for the event runs at its order place', async () => {
  await inProject([{ name: 'bash-only', event: 'tool:pre_execute:bash', command: 'true' }, logging('any')], {}, async (dir) => {
    const runner = runnerIn(dir)
      .on('*', () => {}, { name: 'late' })
      .on('*', () => {}, { name: 'next-to-bash', after: 'bash-only' })
      .on('*', () => {}, { name: 'ghost-anchor', before: 'no-such-hook', order: 'first' })
    const onBash = await runner.fire('tool:pre_execute', { tool_name: 'Bash' })
    assert.deepEqual(names(onBash), ['ghost-anchor', 'bash-only', 'next-to-bash', 'any', 'late'])
    const onWrite = await runner.fire('tool:pre_execute', { tool_name: 'Write' })
    assert.deepEqual(names(onWrite), ['ghost-anchor', 'any', 'late', 'next-to-bash'])
    assert.match(onWrite.warnings.join('\n'), /'ghost-anchor' is placed before 'no-such-hook', which no config layer defines/)
  })
})

test("rewrites cross both ways: a command hook gets a function hook's change, and the other way round", async () => {
  // The command hook reads file_path from its stdin, appends .bak, and says what it saw.
  const script = [
    '#!/bin/sh',
    'path=$(sed -n \'s/.*"file_path":"\\([^"]*\\)".*/\\1/p\')',
    'printf \'{"updatedInput":{"file_path":"%s.bak"},"additionalContext":"cmd saw %s"}\' "$path" "$path"',
  ].join('\n')
  await inProject([{ name: 'cmd-bak', event: 'tool:pre_execute', command: './bak.sh' }], { 'bak.sh': script }, async (dir) => {
    let lastSaw: unknown
    const runner = runnerIn(dir)
      // Idempotent, as a rewriting hook must be: the gates before a rewrite judge it again
      // (README "Rewrites are judged again"), so 'sandbox' sees cmd-bak's rewrite and leaves it.
      .on(
        'tool:pre_execute:write',
        (ctx) => {
          const path = String(ctx.toolInput!.file_path)
          if (!path.startsWith('/sandbox/')) ctx.toolInput!.file_path = `/sandbox${path}`
        },
        { name: 'sandbox', order: 'first' },
      )
      .on(
        'tool:pre_execute',
        (ctx) => {
          lastSaw = ctx.toolInput?.file_path
        },
        { name: 'observer' },
      )
    const payload = { tool_name: 'Write', tool_input: { file_path: '/a.txt', content: 'x' } }
    const decision = await runner.fire('tool:pre_execute', payload)
    assert.deepEqual(names(decision), ['sandbox', 'cmd-bak', 'observer'])
    assert.deepEqual(decision.additionalContext, ['cmd saw /sandbox/a.txt'])
    assert.equal(lastSaw, '/sandbox/a.txt.bak')
    assert.deepEqual(decision.updatedInput, { file_path: '/sandbox/a.txt.bak' })
    // The caller's payload is never changed in place.
    assert.deepEqual(payload.tool_input, { file_path: '/a.txt', content: 'x' })
  })
})

test('an explicit updatedInput or updatedPrompt in the answer wins over a change in place', async () => {
  await inProject([], {}, async (dir) => {
    const runner = runnerIn(dir).on('tool:pre_execute', (ctx) => {
      ctx.toolInput = { command: 'in place' }
      return { updatedInput: { command: 'returned' } }
    })
    const decision = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'ls' } })
    assert.deepEqual(decision.updatedInput, { command: 'returned' })
    assert.equal(decision.decidedBy, undefined)
  })
})

test("a hanging function hook is timed out: the chain does not wait, a gate blocks, the hook's signal is aborted", async () => {
  await inProject([logging('after-hang')], {}, async (dir) => {
    let seen: AbortSignal | undefined
    const runner = runnerIn(dir).on(
      'tool:pre_execute',
      (ctx) => {
        seen = ctx.signal
        return new Promise(() => {})
      },
      { name: 'hang', timeout: 0.3, order: 'first' },
    )
    const started = performance.now()
    const decision = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'ls' } })
    const elapsed = performance.now() - started
    // It waited for the timeout (the hook never settles, so an answer at all means hookrun stopped waiting).
    assert.ok(elapsed >= 250, `fire took ${elapsed} ms`)
    assert.equal(decision.blocked, true)
    assert.match(decision.reason ?? '', /^hook 'hang' timed out after 0\.3s; hookrun stopped waiting/)
    assert.deepEqual(
      decision.hooks.map(({ name, outcome, timedOut }) => ({ name, outcome, timedOut })),
      [{ name: 'hang', outcome: 'error', timedOut: true }],
    )
    assert.equal(seen?.aborted, true)

    // Not a gate: the timeout is a warning and the chain goes on.
    const anywhere = runnerIn(dir).on('*', () => new Promise(() => {}), { name: 'hang-anywhere', timeout: 0.3, order: 'first' })
    const post = await anywhere.fire('tool:post_execute', { tool_name: 'Bash' })
    assert.equal(post.blocked, false)
    assert.deepEqual(names(post), ['hang-anywhere', 'after-hang'])
    assert.match(post.warnings.join('\n'), /hook 'hang-anywhere' timed out after 0\.3s.*the event proceeds \(onError: allow\)/)
  })
})

test('a throwing function hook: onError block stops the chain, onError allow warns and goes on', async () => {
  await inProject([logging('cmd-after')], {}, async (dir) => {
    const blocking = runnerIn(dir).on(
      'tool:pre_execute',
      () => {
        throw new Error('boom')
      },
      { name: 'thrower', order: 'first' },
    )
    const blocked = await blocking.fire('tool:pre_execute', { tool_name: 'Bash' })
    assert.equal(blocked.decision, 'deny')
    assert.equal(blocked.reason, "hook 'thrower' threw: boom")
    assert.deepEqual(names(blocked), ['thrower'])

    const allowing = runnerIn(dir).on(
      'tool:pre_execute',
      async () => {
        throw new Error('async boom')
      },
      { name: 'thrower', order: 'first', onError: 'allow' },
    )
    const allowed = await allowing.fire('tool:pre_execute', { tool_name: 'Bash' })
    assert.equal(allowed.blocked, false)
    assert.deepEqual(names(allowed), ['thrower', 'cmd-after'])
    assert.deepEqual(allowed.warnings, ["hook 'thrower' threw: async boom; the event proceeds (onError: allow)"])
    assert.equal(allowed.hooks[0]!.outcome, 'error')

    // onError: block also holds where failures would only warn.
    const strict = runnerIn(dir).on(
      'tool:post_execute',
      () => {
        throw new Error('late boom')
      },
      { name: 'thrower', order: 'first', onError: 'block' },
    )
    assert.equal((await strict.fire('tool:post_execute', { tool_name: 'Bash' })).blocked, true)
  })
})

test("an answer that does not fit fails like a broken gate; Claude's hookSpecificOutput form is understood", async () => {
  await inProject([], {}, async (dir) => {
    const typo = runnerIn(dir).on('tool:pre_execute', () => ({ decison: 'deny' }) as never, { name: 'typo' })
    const failed = await typo.fire('tool:pre_execute', { tool_name: 'Bash' })
    assert.equal(failed.blocked, true)
    assert.match(failed.reason ?? '', /^hook 'typo' returned an answer that does not fit: .*decison/)

    const wrongValue = runnerIn(dir).on(
      'tool:pre_execute',
      (ctx) => {
        ctx.toolInput = ['not', 'an', 'object'] as never
      },
      { name: 'bad-input' },
    )
    assert.match(
      (await wrongValue.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: {} })).reason ?? '',
      /set toolInput to an array; expected an object/,
    )

    const claude = runnerIn(dir).on('tool:pre_execute', () => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'check with the user' },
    }))
    const asked = await claude.fire('tool:pre_execute', { tool_name: 'Bash' })
    assert.deepEqual([asked.decision, asked.reason, asked.blocked], ['ask', 'check with the user', false])
  })
})

test('the context: event, qualified event, hook name, payload, tool, prompt, session id and a shared metadata map', async () => {
  await inProject([], {}, async (dir) => {
    const seen: Record<string, unknown>[] = []
    const runner = runnerIn(dir).on(
      'tool:*',
      (ctx: HookContext) => {
        const count = Number(ctx.metadata.get('calls') ?? 0) + 1
        ctx.metadata.set('calls', count)
        seen.push({
          event: ctx.event,
          qualified: ctx.qualifiedEvent,
          hook: ctx.hookName,
          tool: ctx.toolName,
          input: ctx.toolInput,
          prompt: ctx.prompt,
          session: ctx.sessionId,
          model: ctx.payload.model,
          count,
        })
      },
      { name: 'spy' },
    )
    await runner.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's-1', model: 'm', prompt: 'hi' })
    await runner.fire('tool:post_execute', { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's-1' })
    assert.deepEqual(seen, [
      {
        event: 'tool:pre_execute',
        qualified: 'tool:pre_execute:bash',
        hook: 'spy',
        tool: 'Bash',
        input: { command: 'ls' },
        prompt: 'hi',
        session: 's-1',
        model: 'm',
        count: 1,
      },
      {
        event: 'tool:post_execute',
        qualified: 'tool:post_execute:bash',
        hook: 'spy',
        tool: 'Bash',
        input: { command: 'ls' },
        prompt: undefined,
        session: 's-1',
        model: undefined,
        count: 2,
      },
    ])
    assert.equal(runner.metadata.get('calls'), 2)
    // A fire may bring its own map.
    const own = new Map<string, unknown>([['calls', 10]])
    await runner.fire('tool:pre_execute', { tool_name: 'Bash' }, { metadata: own })
    assert.deepEqual([own.get('calls'), runner.metadata.get('calls')], [11, 2])
  })
})

test('a runner reads the config again at the fire after a file it came from changed; reload() reads it now', async () => {
  await inProject([{ name: 'say', event: 'session:start', command: 'echo first' }], {}, async (dir) => {
    const runner = runnerIn(dir)
    assert.deepEqual((await runner.fire('session:start')).additionalContext, ['first'])
    writeFileSync(
      join(dir, '.hookrun/hooks.json'),
      JSON.stringify({ hooks: [{ name: 'say', event: 'session:start', command: 'echo second, longer' }] }),
    )
    assert.deepEqual((await runner.fire('session:start')).additionalContext, ['second, longer'])
    writeFileSync(
      join(dir, '.hookrun/hooks.json'),
      JSON.stringify({ hooks: [{ name: 'say', event: 'session:start', command: 'echo third' }] }),
    )
    const config = await runner.reload()
    assert.deepEqual(
      config.hooks.map((hook) => hook.command),
      ['echo third'],
    )
    assert.deepEqual((await runner.fire('session:start')).additionalContext, ['third'])
  })
})

test('config problems: a warning in every decision, or with strict a rejected fire and reload', async () => {
  await inProject(
    [
      { name: 'ok', event: 'session:start', command: 'echo fine' },
      { name: 'broken', event: 'session:start', timeout: 'soon', command: 'true' },
    ],
    {},
    async (dir) => {
      const lenient = await runnerIn(dir).fire('session:start')
      assert.deepEqual([names(lenient), lenient.additionalContext], [['ok'], ['fine']])
      assert.match(lenient.warnings.join('\n'), /hooks\.json: hooks\[1\]\.timeout/)
      const strict = runnerIn(dir, { strict: true })
      await assert.rejects(
        strict.fire('session:start'),
        (error: unknown) => error instanceof HookrunError && /hooks\[1\]\.timeout/.test(error.message),
      )
      await assert.rejects(strict.reload(), HookrunError)
      writeFileSync(
        join(dir, '.hookrun/hooks.json'),
        JSON.stringify({ hooks: [{ name: 'ok', event: 'session:start', command: 'echo fixed' }] }),
      )
      await strict.reload()
      assert.deepEqual((await strict.fire('session:start')).additionalContext, ['fixed'])
    },
  )
})

test('fire() refuses a payload that is not an object, and an event name that is not one', async () => {
  await inProject([], {}, async (dir) => {
    const runner = runnerIn(dir)
    await assert.rejects(
      runner.fire('tool:pre_execute', 'ls' as never),
      /runner\.fire\("tool:pre_execute"\): the payload must be an object/,
    )
    await assert.rejects(
      runner.fire('tool pre execute'),
      (error: unknown) => error instanceof HookrunError && /is not a valid name/.test(error.message),
    )
  })
})

test('progress records cover function hooks as they cover command hooks', async () => {
  await inProject([{ name: 'cmd', event: 'session:start', command: 'echo hi' }], {}, async (dir) => {
    const records: { type: string; hook: string }[] = []
    const runner = runnerIn(dir).on('session:start', () => undefined, { name: 'fn' })
    await runner.fire('session:start', {}, { progress: (record) => records.push(record) })
    assert.deepEqual(
      records.map(({ type, hook }) => `${type} ${hook}`),
      ['hook_started cmd', 'hook_output cmd', 'hook_finished cmd', 'hook_started fn', 'hook_finished fn'],
    )
  })
})

test('a runner answers with the Decision fire() gives the CLI', async () => {
  const hooks = [
    { name: 'ctx', event: 'tool:pre_execute', command: 'echo \'{"decision":"ask","reason":"sure?","additionalContext":"c"}\'' },
    { name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'grep -q sudo && { echo "no sudo" >&2; exit 2; }; exit 0' },
  ]
  await inProject(hooks, {}, async (dir) => {
    const env: Record<string, string | undefined> = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg') }
    delete env.HOOKRUN_CONFIG
    delete env.HOOKRUN_DEPTH
    for (const command of ['sudo ls', 'ls']) {
      const payload = { tool_name: 'Bash', tool_input: { command } }
      const fromRunner = await createRunner({ cwd: dir, env }).fire('tool:pre_execute', payload)
      const fromFire = await fire({ event: 'tool:pre_execute', payload, cwd: dir, env })
      const timeless = (decision: typeof fromFire) => ({ ...decision, hooks: decision.hooks.map((hook) => ({ ...hook, durationMs: 0 })) })
      assert.deepEqual(timeless(fromRunner), timeless(fromFire))
      DecisionSchema.parse(fromRunner)
    }
  })
})

test('registration mistakes are one clear error; off() removes a hook', async () => {
  await inProject([], {}, async (dir) => {
    const runner = runnerIn(dir).on('tool:pre_execute', () => deny('x'), { name: 'gate' })
    const refuses = (call: () => unknown, message: RegExp) =>
      assert.throws(call, (error: unknown) => error instanceof HookrunError && message.test(error.message))
    refuses(() => runner.on('tool:pre_execute', () => {}, { name: 'gate' }), /a function hook named 'gate' is already registered/)
    refuses(() => runner.on('tool:pre_execute,', () => {}), /runner\.on\("tool:pre_execute,"\): the pattern has an empty alternative/)
    refuses(() => runner.on('tool:pre_execute', () => {}, { timeout: -1 }), /option timeout: Too small/)
    refuses(() => runner.on('tool:pre_execute', () => {}, { before: 'a', after: 'b' }), /give before or after, not both/)
    refuses(() => runner.on('tool:pre_execute', () => {}, { onError: 'ignore' as never }), /option onError/)
    refuses(() => runner.on('tool:pre_execute', 'echo hi' as never), /the hook must be a function/)
    assert.equal((await runner.fire('tool:pre_execute', { tool_name: 'Bash' })).blocked, true)
    assert.equal(runner.off('gate'), true)
    assert.equal(runner.off('gate'), false)
    assert.deepEqual((await runner.fire('tool:pre_execute', { tool_name: 'Bash' })).hooks, [])
  })
})

test('a function hook is reported with the place it was registered', async () => {
  await inProject([], {}, async (dir) => {
    const runner = runnerIn(dir).on('*', () => allow('fine'))
    const [report] = (await runner.fire('session:start')).hooks
    assert.equal(report!.source, 'function')
    assert.match(report!.file, /test\/library\/cases\.ts:\d+:\d+$/)
    assert.deepEqual([report!.outcome, report!.reason, report!.exitCode], ['allow', 'fine', null])
  })
})

test('aborting the fire stops waiting for a function hook', async () => {
  await inProject([], {}, async (dir) => {
    const controller = new AbortController()
    const runner = runnerIn(dir).on(
      'tool:pre_execute',
      () => {
        setTimeout(() => controller.abort('SIGINT'), 50)
        return new Promise(() => {})
      },
      { name: 'slow', timeout: 30 },
    )
    // The hook never settles and may take 30 s: an answer that says "interrupted" means the abort ended the wait.
    const decision = await runner.fire('tool:pre_execute', { tool_name: 'Bash' }, { signal: controller.signal })
    assert.equal(decision.reason, "hook 'slow' was interrupted: the fire was aborted")
  })
})

test("agent:stop: a function hook's deny means keep going", async () => {
  await inProject([], {}, async (dir) => {
    let stops = 0
    const runner = runnerIn(dir).on('agent:stop', () => (++stops < 2 ? deny('tests have not run yet') : none()))
    const first = await runner.fire('agent:stop')
    assert.deepEqual([first.keepGoing, first.reason], [true, 'tests have not run yet'])
    const second = await runner.fire('agent:stop')
    assert.equal(second.keepGoing, undefined)
    assert.equal(second.blocked, false)
  })
})

// The Rust plan's usage examples (seed 004), written as function hooks.

test('Rust plan: block dangerous commands', async () => {
  await inProject([logging('after-block')], {}, async (dir) => {
    const runner = runnerIn(dir).on(
      'tool:pre_execute:bash',
      (ctx) => {
        const command = typeof ctx.toolInput?.command === 'string' ? ctx.toolInput.command : ''
        return command.includes('rm -rf') ? deny('Dangerous command') : none()
      },
      { order: 'first' },
    )
    const blocked = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } })
    assert.deepEqual([blocked.decision, blocked.reason, names(blocked)], ['deny', 'Dangerous command', ['function#1']])
    const fine = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'ls' } })
    assert.deepEqual([fine.blocked, fine.decidedBy, names(fine)], [false, undefined, ['function#1', 'after-block']])
  })
})

test('Rust plan: rewrite paths', async () => {
  await inProject([], {}, async (dir) => {
    const runner = runnerIn(dir).on('tool:pre_execute:read|write|edit', (ctx) => {
      const path = ctx.toolInput?.file_path
      if (typeof path === 'string') ctx.toolInput!.file_path = `/mnt/remote${path}`
      return allow()
    })
    const read = await runner.fire('tool:pre_execute', { tool_name: 'Read', tool_input: { file_path: '/etc/hosts' } })
    assert.deepEqual([read.decision, read.updatedInput], ['allow', { file_path: '/mnt/remote/etc/hosts' }])
    const bash = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'cat /etc/hosts' } })
    assert.deepEqual([bash.hooks.length, bash.updatedInput], [0, undefined])
  })
})

test('Rust plan: filter messages and the prompt', async () => {
  // The command hook after the filter records the prompt it was given.
  await inProject(
    [{ name: 'record', event: 'user:prompt_submit', command: 'printf %s "$HOOKRUN_USER_MESSAGE" > seen.txt' }],
    {},
    async (dir) => {
      const secret = /sk-[a-z0-9]+/g
      const messages = ['hello', 'my key is sk-abc123', 'bye']
      const runner = runnerIn(dir)
        .on(
          'tool:pre_execute',
          () => {
            // In-process, a hook reaches the agent's own state: filter its history in place.
            messages.splice(0, messages.length, ...messages.filter((message) => !secret.test(message)))
            secret.lastIndex = 0
          },
          { name: 'filter-messages' },
        )
        .on(
          'user:prompt_submit',
          (ctx) => {
            if (ctx.prompt !== undefined) ctx.prompt = ctx.prompt.replace(secret, '[redacted]')
          },
          { name: 'filter-prompt', order: 'first' },
        )
      await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'ls' } })
      assert.deepEqual(messages, ['hello', 'bye'])
      const decision = await runner.fire('user:prompt_submit', { prompt: 'deploy with sk-abc123 please' })
      assert.equal(decision.updatedPrompt, 'deploy with [redacted] please')
      assert.equal(readFileSync(join(dir, 'seen.txt'), 'utf8'), 'deploy with [redacted] please')
    },
  )
})

test('Rust plan: auto-approve read tools', async () => {
  await inProject([], {}, async (dir) => {
    const runner = runnerIn(dir).on('tool:pre_execute:read|glob|grep', () => allow(), { name: 'auto-approve' })
    const grep = await runner.fire('tool:pre_execute', { tool_name: 'Grep', tool_input: { pattern: 'x' } })
    assert.deepEqual([grep.decision, grep.decidedBy], ['allow', 'auto-approve'])
    const write = await runner.fire('tool:pre_execute', { tool_name: 'Write', tool_input: { file_path: '/x' } })
    assert.deepEqual([write.decidedBy, write.hooks.length], [undefined, 0])
    // ask beats allow, as between command hooks.
    runner.on('tool:pre_execute', () => ask('are you sure?'), { name: 'cautious' })
    const both = await runner.fire('tool:pre_execute', { tool_name: 'Read', tool_input: { file_path: '/x' } })
    assert.deepEqual([both.decision, both.decidedBy, both.reason], ['ask', 'cautious', 'are you sure?'])
  })
})

test('Rust plan: audit logging', async () => {
  await inProject([logging('post-cmd', 'tool:post_execute')], {}, async (dir) => {
    const audit: string[] = []
    const runner = runnerIn(dir).on(
      'tool:post_execute',
      (ctx) => {
        audit.push(`${ctx.toolName} ${JSON.stringify(ctx.payload.tool_response)}`)
      },
      { name: 'audit' },
    )
    const decision = await runner.fire('tool:post_execute', {
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: { stdout: 'a b' },
    })
    assert.deepEqual(audit, ['Bash {"stdout":"a b"}'])
    assert.deepEqual([decision.decision, decision.decidedBy, names(decision)], ['allow', undefined, ['post-cmd', 'audit']])
  })
})
