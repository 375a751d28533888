/**
 * Claude Code in the lab: one headless session (`claude -p`, stream-json with hook events) against
 * the fake Anthropic model, scripted by Turn[]. Shared by claude.lab.ts and scripts/bench-agents.ts.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type AgentRun, installAgent, type LabRun, type ModelRequest, type ModelServer, runAgent, type Turn } from './lab.ts'
import { messagesOf, startAnthropicModel } from './models/anthropic.ts'

/** Claude's shell tool call, as the model asks for it. */
export function bash(command: string): Turn {
  return { tool: 'Bash', input: { command, description: 'lab step' } }
}

/** The environment Claude gets: the run's, the fake model, no telemetry, no updater, root allowed to bypass permissions. */
export function claudeEnv(run: LabRun, modelUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...run.env,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'lab-key',
    IS_SANDBOX: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CONFIG_DIR: join(run.home, '.claude'),
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_ENABLE_TELEMETRY: '0',
    ...extra,
  }
}

/** One line of Claude's stream-json output. */
export type StreamEvent = Record<string, unknown> & { type: string; subtype?: string }

export interface ClaudeSession {
  readonly agent: AgentRun
  readonly model: ModelServer & { readonly arrivals: readonly number[] }
  /** Every stream-json line Claude printed, parsed. */
  readonly events: StreamEvent[]
}

/** Runs one Claude session to its end; the model server is closed after (its requests stay readable). */
export async function runClaude(
  run: LabRun,
  turns: readonly Turn[],
  options: { cwd?: string; prompt?: string; env?: Record<string, string>; args?: readonly string[]; format?: 'stream-json' | 'text' } = {},
): Promise<ClaudeSession> {
  const claude = installAgent('claude')
  const model = await startAnthropicModel(turns)
  try {
    const output =
      options.format === 'text' ? ['--output-format', 'text'] : ['--output-format', 'stream-json', '--verbose', '--include-hook-events']
    const args = ['-p', options.prompt ?? 'do the lab step', ...output, '--permission-mode', 'bypassPermissions', ...(options.args ?? [])]
    const agent = await runAgent(claude, args, {
      cwd: options.cwd ?? run.project,
      env: claudeEnv(run, model.url, options.env),
      timeoutMs: 120_000,
    })
    const events = agent.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as StreamEvent)
    return { agent, model, events }
  } finally {
    await model.close()
  }
}

/** Writes a file (making its folder), executable when it is a script. */
export function writeFileIn(dir: string, path: string, content: string): string {
  const file = join(dir, path)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, content)
  if (content.startsWith('#!')) chmodSync(file, 0o755)
  return file
}

/**
 * A project's `.hookrun/hooks.json` written by hand with its scripts (`.hookrun/scripts/<name>.sh`
 * for each hook given a `script`), as a user would; trusted unless told not to.
 */
export function writeHooks(
  run: LabRun,
  hooks: readonly (Record<string, unknown> & { name: string; script?: string })[],
  options: { trust?: boolean; dir?: string } = {},
): void {
  const dir = options.dir ?? run.project
  const entries = hooks.map(({ script, ...hook }) => {
    if (script === undefined) return hook
    writeFileIn(dir, `.hookrun/scripts/${hook.name}.sh`, `#!/bin/sh\n${script}\n`)
    return { command: `"$HOOKRUN_CONFIG_DIR/scripts/${hook.name}.sh"`, ...hook }
  })
  writeFileIn(dir, '.hookrun/hooks.json', `${JSON.stringify({ hooks: entries }, null, 2)}\n`)
  if (options.trust !== false) {
    const trusted = run.hookrun(['trust', dir])
    if (trusted.status !== 0) throw new Error(`hookrun trust failed: ${trusted.stderr}`)
  }
}

/** `hookrun install --agent claude --project` (plus flags), as the README's quick start tells a user. */
export function installClaude(run: LabRun, flags: readonly string[] = [], cwd = run.project): string {
  const installed = run.hookrun(['install', '--agent', 'claude', '--project', ...flags], { cwd })
  if (installed.status !== 0) throw new Error(`hookrun install failed: ${installed.stderr}`)
  return installed.stdout
}

/**
 * A project command's or skill's markdown for the skill-shell scenarios: "Release notes:", then each
 * of `lines` on a line of its own (Claude Code runs a "!`cmd`" there when it loads the text, and puts
 * the output in its place), then "Done.".
 */
export function skillText(name: string, lines: readonly string[]): string {
  return [
    '---',
    `name: ${name}`,
    `description: the lab's ${name}`,
    '---',
    'Release notes:',
    '',
    ...lines.flatMap((line) => [line, '']),
    'Done.',
    '',
  ].join('\n')
}

/** The skillText() as the model got it in this request (a user text block), or undefined. */
export function loadedSkillText(request: ModelRequest | undefined): string | undefined {
  return (request === undefined ? [] : messagesOf(request))
    .filter((message) => message.role === 'user' && Array.isArray(message.content))
    .flatMap((message) => (message.content as readonly { type?: string; text?: string }[]).filter((block) => block.type === 'text'))
    .map((block) => block.text ?? '')
    .find((text) => text.includes('Release notes:'))
}
