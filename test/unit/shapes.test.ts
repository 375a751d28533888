import { describe, expect, test } from 'vitest'
import { commandSlug, normalizeConfig, shortNameOf } from '../../src/config/shapes.ts'

function normalize(json: unknown) {
  const problems: Array<[string, string, string | undefined]> = []
  const { specs } = normalizeConfig(json, (path, message, severity) => problems.push([path, message, severity]))
  return { specs, problems }
}

describe('normalizeConfig', () => {
  test("Code-Forge's flat list: working_dir becomes cwd, timeout in seconds kept", () => {
    const { specs } = normalize({ hooks: [{ event: 'tool:post_execute', command: './v.sh', timeout: 60.0, working_dir: 'scripts' }] })
    expect(specs[0]).toMatchObject({ cwd: 'scripts', timeout: 60, shape: 'hookrun', path: 'hooks[0]', blocking: true })
  })

  test('pigo plugins: names, aliases resolved, match kept, PIGO_ prefix added, plugin enabled applies', () => {
    const { specs } = normalize({
      plugins: [
        { name: 'gate', hooks: { tool_start: [{ command: 'a', match: { tool: 'bash|write' }, timeout: 5 }] } },
        { name: 'log', enabled: false, hooks: { tool_end: [{ command: 'b', blocking: false }] } },
      ],
    })
    expect(specs.map((spec) => [spec.name, spec.event, spec.enabled, spec.blocking, spec.timeout, spec.path])).toEqual([
      ['gate/tool_start[0]', 'tool:pre_execute', true, true, 5, 'plugins[0].hooks.tool_start[0]'],
      ['log/tool_end[0]', 'tool:post_execute', false, false, 10, 'plugins[1].hooks.tool_end[0]'],
    ])
    expect(specs[0]).toMatchObject({ shape: 'pigo', match: { tool: 'bash|write' }, envPrefixes: ['PIGO_'] })
  })

  test("Cursor's own hooks.json: handlers without groups, tool events keep their tool, failClosed is onError block, prompt skipped", () => {
    const { specs, problems } = normalize({
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: './gate.sh', timeout: 5, failClosed: true }],
        afterFileEdit: [{ command: 'fmt', matcher: 'Write' }],
        beforeSubmitPrompt: [{ type: 'prompt', prompt: 'is this safe?' }],
        stop: [{ command: 'check', loop_limit: 3 }],
      },
    })
    expect(specs.map((spec) => [spec.event, spec.shape, spec.timeout, spec.onError, spec.matcher])).toEqual([
      ['tool:pre_execute:bash', 'cursor', 5, 'block', undefined],
      ['tool:post_execute:edit|write', 'cursor', 10, undefined, 'Write'],
      ['agent:stop', 'cursor', 10, undefined, undefined],
    ])
    expect(problems).toEqual([
      ['hooks.beforeSubmitPrompt[0]', "type 'prompt' handlers are not run by hookrun (only 'command'); skipped", 'warning'],
    ])
  })

  test("Claude Code's object form: matcher, timeouts (600, 30 on UserPromptSubmit), async, args, if", () => {
    const { specs, problems } = normalize({
      hooks: {
        PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'guard', timeout: 30, if: 'Edit(*.ts)' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'ctx' }] }],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'fmt', args: ['--file', 'a b.ts'], async: true }] }],
      },
    })
    expect(problems).toEqual([])
    expect(specs.map((spec) => [spec.event, spec.matcher, spec.timeout, spec.blocking, spec.command, spec.when])).toEqual([
      ['tool:pre_execute', 'Edit|Write', 30, true, 'guard', 'Edit(*.ts)'],
      ['user:prompt_submit', undefined, 30, true, 'ctx', undefined],
      ['tool:post_execute', undefined, 600, false, "fmt --file 'a b.ts'", undefined],
    ])
    expect(specs.every((spec) => spec.shape === 'claude')).toBe(true)
  })

  test('Claude handlers hookrun cannot run are skipped with a warning', () => {
    const { specs, problems } = normalize({
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'check' },
              { type: 'command', command: 'x', shell: 'powershell' },
            ],
          },
        ],
      },
    })
    expect(specs).toEqual([])
    expect(problems).toEqual([
      ['hooks.Stop[0].hooks[0]', "type 'prompt' handlers are not run by hookrun (only 'command' and 'http'); skipped", 'warning'],
      ['hooks.Stop[0].hooks[1].shell', "'powershell' is not supported by hookrun; skipped", 'warning'],
    ])
  })

  test("http hooks: hookrun's url form and Claude Code's type 'http' handler (deduplicated by URL, onFailure: block)", () => {
    const { specs, problems } = normalize({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'http',
                url: 'https://policy.example/check',
                headers: { Authorization: 'Bearer $TOKEN' },
                allowedEnvVars: ['TOKEN'],
                timeout: 5,
                onFailure: 'block',
              },
              { type: 'http', url: 'ftp://nope' },
              { type: 'http' },
            ],
          },
        ],
      },
    })
    expect(problems).toEqual([
      ['hooks.PreToolUse[0].hooks[1].url', "'ftp://nope' is not an http:// or https:// URL; skipped", undefined],
      ['hooks.PreToolUse[0].hooks[2].url', 'required for an http handler; skipped', undefined],
    ])
    expect(specs).toMatchObject([
      {
        name: 'PreToolUse/check',
        identity: 'PreToolUse[Bash] https://policy.example/check',
        event: 'tool:pre_execute',
        url: 'https://policy.example/check',
        headers: { Authorization: 'Bearer $TOKEN' },
        allowedEnvVars: ['TOKEN'],
        timeout: 5,
        onError: 'block',
        matcher: 'Bash',
        shape: 'claude',
      },
    ])
    expect(specs[0]!.command).toBeUndefined()

    const native = normalize({
      hooks: [
        {
          name: 'opa',
          event: 'tool:pre_execute',
          url: 'http://127.0.0.1:8181/v1/data/hooks',
          followRedirects: true,
          maxResponseBytes: 4096,
        },
        { name: 'both', event: 'tool:pre_execute', url: 'http://x.test', command: 'true' },
        { name: 'neither', event: 'tool:pre_execute', type: 'http' },
        { name: 'bad-var', event: 'tool:pre_execute', url: 'http://x.test', allowedEnvVars: ['$TOKEN'] },
      ],
    })
    expect(native.specs.map((spec) => [spec.name, spec.url, spec.followRedirects, spec.maxResponseBytes])).toEqual([
      ['opa', 'http://127.0.0.1:8181/v1/data/hooks', true, 4096],
    ])
    expect(native.problems).toEqual([
      ['hooks[1].url', 'a hook has a command or a url, not both; hook skipped', undefined],
      ['hooks[2].url', 'required: the URL to POST the payload to; hook skipped', undefined],
      ['hooks[3].allowedEnvVars[0]', 'expected a variable name such as API_TOKEN (no $); hook skipped', undefined],
    ])
  })

  test('an invalid regular expression matcher is an error naming the path', () => {
    const { specs, problems } = normalize({ hooks: [{ event: 'tool:pre_execute', command: 'x', matcher: 'Edit(' }] })
    expect(specs).toEqual([])
    expect(problems[0]![0]).toBe('hooks[0].matcher')
    expect(problems[0]![1]).toMatch(/^matcher 'Edit\(' is not a valid regular expression/)
  })

  test('shapes are read in the order the file lists them', () => {
    const { specs } = normalize({
      plugins: [{ name: 'p', hooks: { agent_end: [{ command: 'first' }] } }],
      hooks: [{ event: '*', command: 'second' }],
    })
    expect(specs.map((spec) => spec.command)).toEqual(['first', 'second'])
  })

  test('envPrefixes must look like prefixes', () => {
    const { problems } = normalize({ envPrefixes: ['pigo'], hooks: [] })
    expect(problems[0]).toEqual(['envPrefixes[0]', 'expected an upper-case prefix ending in _, such as PIGO_; file skipped', undefined])
  })
})

describe("agent-shaped handlers' short names", () => {
  test('<Event>/<script file name>: stable, unique within the file, the long name kept as identity', () => {
    const { specs } = normalize({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh --strict' }] },
          {
            matcher: 'Write|Edit',
            hooks: [
              { type: 'command', command: 'python3 .claude/hooks/check-bash.py' },
              { type: 'command', command: 'jq -r .tool_input.command | grep -q sudo && exit 2' },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'LOG=1 npx tsx hooks/notify.ts' }] }],
      },
    })
    expect(specs.map((spec) => [spec.name, spec.identity])).toEqual([
      ['PreToolUse/check-bash', 'PreToolUse[Bash] "$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh --strict'],
      ['PreToolUse/check-bash#2', 'PreToolUse[Write|Edit] python3 .claude/hooks/check-bash.py'],
      ['PreToolUse/jq', 'PreToolUse[Write|Edit] jq -r .tool_input.command | grep -q sudo && exit 2'],
      ['Stop/notify', 'Stop[*] LOG=1 npx tsx hooks/notify.ts'],
    ])
  })

  test('adding a handler above another does not rename it', () => {
    const before = normalize({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: './b.sh' }] }] } }).specs
    const after = normalize({
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: './a.sh' }] }, { hooks: [{ type: 'command', command: './b.sh' }] }] },
    }).specs
    expect(before.map((spec) => spec.name)).toEqual(['PreToolUse/b'])
    expect(after.map((spec) => spec.name)).toEqual(['PreToolUse/a', 'PreToolUse/b'])
  })

  test("Gemini's handler name, Cursor's command; a hookrun hook's name in the same file is never reused", () => {
    expect(
      normalize({
        hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ name: 'no-sudo', type: 'command', command: './x.sh' }] }] },
      }).specs[0],
    ).toMatchObject({ name: 'BeforeTool/no-sudo' })
    expect(normalize({ version: 1, hooks: { beforeShellExecution: [{ command: './gate.sh' }] } }).specs[0]).toMatchObject({
      name: 'beforeShellExecution/gate',
    })
  })

  test('an old long name gives its short name; any other name is kept', () => {
    expect(shortNameOf("PreToolUse[Bash] echo 'no' >&2; exit 2")).toBe('PreToolUse/echo')
    expect(shortNameOf('PreToolUse[*] https://policy.example/v1/check')).toBe('PreToolUse/check')
    expect(shortNameOf('no-sudo')).toBe('no-sudo')
    expect(commandSlug('')).toBe('hook')
    expect(commandSlug('cat > /dev/null; ./later.sh')).toBe('cat')
  })
})
