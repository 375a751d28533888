/**
 * The payloads the agent lab saw real agents send (test/agents/fixtures/<agent>/<Event>.json;
 * Codex's and Copilot's, read by event name, in lab-fixtures-codex-copilot.test.ts),
 * each run through the agent's dialect and the pipeline: the event is one hookrun recognises, and
 * a hook sees the tool name, command and output as the agent meant them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { prepareDialect, renderFor } from '../../src/dialect.ts'
import { fire } from '../../src/fire.ts'
import type { Payload } from '../../src/core/types.ts'
import { makeProject, removeProject, ROOT } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures')

/** What a hook on `*` sees of each event: qualified event | tool name | command | tool error. */
const EXPECTED: Record<string, Record<string, string>> = {
  claude: {
    CwdChanged: 'session:cwd_changed|||',
    InstructionsLoaded: 'context:instructions_loaded|||',
    MessageDisplay: 'llm:message_display|||',
    PostToolBatch: 'tool:post_batch|||',
    PostToolUse: 'tool:post_execute:bash|Bash|cd sub && echo in-sub|false',
    PostToolUseFailure: 'tool:error:bash|Bash|false|true',
    PreSkillShellCommand: 'tool:pre_execute:bash|Bash|echo lab-notes-shell|',
    PreToolUse: 'tool:pre_execute:bash|Bash|cd sub && echo in-sub|',
    SessionEnd: 'session:end|||',
    SessionStart: 'session:start|||',
    Stop: 'agent:stop|||',
    UserPromptSubmit: 'user:prompt_submit|||',
  },
  gemini: {
    AfterAgent: 'agent:stop|||',
    AfterTool: 'tool:post_execute:bash|run_shell_command|echo LAB-OUTPUT-42|false',
    BeforeAgent: 'user:prompt_submit|||',
    BeforeModel: 'llm:pre_request|||',
    BeforeTool: 'tool:pre_execute:bash|run_shell_command|echo LAB-OUTPUT-42|',
    BeforeToolSelection: 'llm:tool_selection|||',
    PreCompress: 'context:pre_compact|||',
    SessionEnd: 'session:end|||',
    SessionStart: 'session:start|||',
  },
  // Built from Auggie 0.36.0's bundled source, not recorded (test/agents/fixtures/auggie/SOURCE.md).
  auggie: {
    Notification: 'notification|||',
    PostToolUse: 'tool:post_execute:bash|launch-process|echo LAB-OUTPUT-42|false',
    PreToolUse: 'tool:pre_execute:bash|launch-process|echo LAB-OUTPUT-42|',
    PromptSubmit: 'user:prompt_submit|||',
    SessionEnd: 'session:end|||',
    SessionStart: 'session:start|||',
    Stop: 'agent:stop|||',
  },
  // Built from Letta Code 0.30.29's source, not recorded (test/agents/fixtures/letta/SOURCE.md).
  letta: {
    Notification: 'notification|||',
    PermissionRequest: 'permission:prompt:bash|Bash|echo LAB-OUTPUT-42|',
    PostToolUse: 'tool:post_execute:bash|Bash|echo LAB-OUTPUT-42|false',
    PostToolUseFailure: 'tool:error:bash|Bash|exit 3|true',
    PreCompact: 'context:pre_compact|||',
    PreToolUse: 'tool:pre_execute:bash|Bash|echo LAB-OUTPUT-42|',
    SessionEnd: 'session:end|||',
    SessionStart: 'session:start|||',
    Stop: 'agent:stop|||',
    SubagentStop: 'subagent:stop|||',
    UserPromptSubmit: 'user:prompt_submit|||',
  },
  // Built from Devin CLI's docs, not recorded (test/agents/fixtures/devin/SOURCE.md): Devin runs
  // Claude Code's entries, so these go through --format claude (DIALECT_OF below).
  devin: {
    PermissionRequest: 'permission:prompt:edit|edit||',
    PostToolUse: 'tool:post_execute:bash|exec|echo LAB-OUTPUT-42|false',
    PreToolUse: 'tool:pre_execute:bash|exec|echo LAB-OUTPUT-42|',
    SessionEnd: 'session:end|||',
    SessionStart: 'session:start|||',
    Stop: 'agent:stop|||',
    UserPromptSubmit: 'user:prompt_submit|||',
  },
  // Built from Kimi Code CLI 1.49.0's source, not recorded (test/agents/fixtures/kimi/SOURCE.md).
  kimi: {
    Notification: 'notification|||',
    PostCompact: 'context:post_compact|||',
    PostToolUse: 'tool:post_execute:bash|Shell|echo LAB-OUTPUT-42|false',
    PostToolUseFailure: 'tool:error:bash|Shell|exit 3|true',
    PreCompact: 'context:pre_compact|||',
    PreToolUse: 'tool:pre_execute:bash|Shell|echo LAB-OUTPUT-42|',
    SessionEnd: 'session:end|||',
    SessionStart: 'session:start|||',
    Stop: 'agent:stop|||',
    StopFailure: 'agent:stop_failure|||',
    SubagentStart: 'subagent:start|||',
    SubagentStop: 'subagent:stop|||',
    UserPromptSubmit: 'user:prompt_submit|||',
  },
  // Built from Mistral Vibe 2.18.4's source, not recorded (test/agents/fixtures/vibe/SOURCE.md).
  vibe: {
    after_tool: 'tool:post_execute:bash|bash|echo LAB-OUTPUT-42|false',
    before_tool: 'tool:pre_execute:bash|bash|echo LAB-OUTPUT-42|',
    post_agent_turn: 'agent:stop|||',
  },
  qwen: {
    InstructionsLoaded: 'context:instructions_loaded|||',
    Notification: 'notification|||',
    PostToolBatch: 'tool:post_batch|||',
    PostToolUse: 'tool:post_execute:bash|run_shell_command|echo LAB-OUTPUT-42|false',
    PostToolUseFailure: 'tool:error:bash|run_shell_command|echo failing >&2; exit 3|true',
    PreToolUse: 'tool:pre_execute:bash|run_shell_command|echo LAB-OUTPUT-42|',
    SessionStart: 'session:start|||',
    Stop: 'agent:stop|||',
    UserPromptSubmit: 'user:prompt_submit|||',
  },
}

/** Agents without a dialect of their own, answered in another agent's: Devin CLI runs Claude Code's entries. */
const DIALECT_OF: Record<string, string> = { devin: 'claude' }

/** Fires `payload` through `agent`'s dialect with one hook on `*` that writes what it saw; returns that and the rendered answer. */
async function seenBy(agent: string, payload: Payload): Promise<{ seen: string; stdout: string; warnings: readonly string[] }> {
  const dir = makeProject({
    'hooks.json': {
      hooks: [
        {
          name: 'see',
          event: '*',
          command:
            'printf "%s|%s|%s|%s" "$HOOKRUN_QUALIFIED_EVENT" "$HOOKRUN_TOOL_NAME" "$HOOKRUN_BASH_COMMAND" "$HOOKRUN_TOOL_ERROR" > seen.txt',
        },
      ],
    },
  })
  dirs.push(dir)
  const prepared = prepareDialect(DIALECT_OF[agent] ?? agent, undefined, payload)
  if (prepared?.event === undefined) throw new Error(`${agent}: no dialect or event for this payload`)
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.xdg'),
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_STATE_HOME: join(dir, '.state'),
  }
  const decision = await fire({
    event: prepared.event,
    payload: prepared.payload,
    tool: prepared.tool,
    cwd: dir,
    configFiles: [join(dir, 'hooks.json')],
    env,
  })
  const rendered = renderFor(prepared.dialect, decision, prepared.payload, prepared.agentEvent)
  return { seen: readFileSync(join(dir, 'seen.txt'), 'utf8'), stdout: rendered.stdout, warnings: rendered.warnings }
}

for (const [agent, expected] of Object.entries(EXPECTED)) {
  describe(`${agent}: the payloads the lab recorded`, () => {
    const files = readdirSync(join(FIXTURES, agent)).filter((file) => file.endsWith('.json'))

    test('every recorded event has an expectation here (a new fixture needs a row)', () => {
      expect(files.map((file) => file.replace(/\.json$/, '')).sort()).toEqual(Object.keys(expected).sort())
    })

    for (const file of files) {
      const event = file.replace(/\.json$/, '')
      test(`${event}: recognised, and a hook sees ${expected[event] ?? '(no row)'}`, async () => {
        const payload = JSON.parse(readFileSync(join(FIXTURES, agent, file), 'utf8')) as Payload
        const { seen, stdout, warnings } = await seenBy(agent, payload)
        expect(seen).toBe(expected[event])
        // Nothing decided: the agent gets an empty answer (no output at all where the agent reads
        // stdout as text: Letta Code), with nothing hookrun could not send.
        expect(stdout === '' ? {} : JSON.parse(stdout)).toEqual({})
        expect(warnings).toEqual([])
      })
    }
  })
}
