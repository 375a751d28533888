/**
 * One module per agent (issue 35 §1): outside src/agents/, no code of src/ names a particular
 * agent. Comments may (they say where a fact comes from); code reads each agent's facts from the
 * registry (src/agents/registry.ts). Strings count, comments do not.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')

/** Every agent's name as code might spell it (a module name, a label's first word, a file or variable of its). */
const NAMES = [
  'claude',
  'codex',
  'gemini',
  'qwen',
  'copilot',
  'goose',
  'cline',
  'opencode',
  'kilo',
  'kiro',
  'vibe',
  'cursor',
  'windsurf',
  'crush',
  'droid',
  'auggie',
  'kimi',
  'letta',
  'vscode',
  'devin',
  'grok',
  'junie',
  'hermes',
  'antigravity',
  'codebuddy',
  'openclaw',
  'reasonix',
]
const NAMED = new RegExp(`(?<![a-z])(${NAMES.join('|')})(?![a-z])`, 'i')

/**
 * Lines that may name an agent in the files of this part, one reason each: `line` matches the
 * code line (comments stripped).
 */
const ALLOWED: ReadonlyArray<{ readonly file: string; readonly line: RegExp; readonly why: string }> = [
  // Help and hints: examples a person copies, in the order the docs teach them (docs/cli.md is generated from them).
  {
    file: 'src/commands/program.ts',
    line: /--format claude/,
    why: 'help: --format examples',
  },
  {
    file: 'src/commands/program-agents.ts',
    line: /--agent|claude|kiro, vibe/,
    why: 'help: install, uninstall and import examples and agent lists',
  },
  { file: 'src/commands/program-inspect.ts', line: /claude, cursor, /, why: 'help: an example of --agent' },
  { file: 'src/commands/init.ts', line: /--agent claude\|cursor/, why: "init's next step: the agents a new user most likely has" },
  {
    file: 'src/install/doctor.ts',
    line: /--agent claude {3}\(or cursor/,
    why: "doctor's fix when no agent runs hookrun: an example install",
  },
  // Words for a person about an event or a rule, naming where it comes from (docs/events.md is generated from them).
  {
    file: 'src/event/events.ts',
    line: /Kiro's Manual trigger|a Kiro spec task|CLAUDE\.md/,
    why: "an event's description names the agent it comes from",
  },
  { file: 'src/explain/how-decided.ts', line: /a Gemini group says sequential/, why: 'explain says whose rule made a group sequential' },
  // Native config shapes (Hook['shape']): named after the agent whose config format they read; their facts move to src/agents/native-config.ts with the scanconf part.
  {
    file: 'src/core/types.ts',
    line: /^export type HookShape =/,
    why: 'the shapes of handler a config may hold, by the agent whose format it is',
  },

  {
    file: 'src/discover/folders.ts',
    line: /^const OPEN_LAYOUT = .*CLAUDE_PLUGIN_ROOT/,
    why: "Open Plugins' layout sets Claude Code's plugin variable too, as its spec says",
  },
  {
    file: 'src/trust/material.ts',
    line: /^export const HOOK_FOLDERS/,
    why: 'the hook folders trust covers (.claude/hooks, …): part of what a trust record pins, so a change is a migration',
  },
  {
    file: 'src/install/plugin-agents.ts',
    line: /opencode-plugin\.ts/,
    why: "the plugin's text is OpenCode's plugin API (Kilo Code runs it too), in a file of that name",
  },

  // Words for a person, naming the agent the example comes from.
  {
    file: 'src/install/install-file.ts',
    line: /\(Claude Code does\)/,
    why: 'an example of an agent that reads its hooks when a session starts',
  },
  {
    file: 'src/install/narrowed-sync.ts',
    line: /\(Claude Code does\)/,
    why: 'the same example, in the sync notice',
  },
  {
    file: 'src/config/agent-schemas.ts',
    line: /./,
    why: "the agents' own handler shapes a hooks.json may hold, described for the person writing it (schema.json is generated from them)",
  },
  {
    file: 'src/config/schema.ts',
    line: /./,
    why: "schema.json's descriptions and the `agent` enum of an entry name agents for the person writing hooks.json (schema.json is generated from them and must not change)",
  },
]

/** The code of a TypeScript file without its comments (strings kept: a name in a string is code), as TypeScript prints it. */
function withoutComments(text: string): string {
  const file = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  return ts.createPrinter({ removeComments: true }).printFile(file)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [relative(ROOT, path).split('\\').join('/')] : []
  })
}

describe('agent names', () => {
  const files = sourceFiles(join(ROOT, 'src')).filter((file) => !file.startsWith('src/agents/'))

  it('no code outside src/agents/ names an agent, but for the allow-list', () => {
    const named = files.flatMap((file) =>
      withoutComments(readFileSync(join(ROOT, file), 'utf8'))
        .split('\n')
        .filter((line) => NAMED.test(line))
        .filter((line) => !ALLOWED.some((allowed) => allowed.file === file && allowed.line.test(line)))
        .map((line) => `${file}: ${line.trim()}`),
    )
    expect(named).toEqual([])
  })

  it('every entry of the allow-list is still needed', () => {
    for (const allowed of ALLOWED) {
      const code = withoutComments(readFileSync(join(ROOT, allowed.file), 'utf8')).split('\n')
      expect(
        code.some((line) => NAMED.test(line) && allowed.line.test(line)),
        `${allowed.file}: ${allowed.line}`,
      ).toBe(true)
    }
  })
})
