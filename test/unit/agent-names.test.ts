/**
 * One module per agent (issue 35 §1): outside src/agents/, no code of src/ names a particular
 * agent. Comments may (they say where a fact comes from); code reads each agent's facts from the
 * registry (src/agents/registry.ts). The same check as /work/notes/agentgrep.py: strings count,
 * comments do not.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
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
]
const NAMED = new RegExp(`(?<![a-z])(${NAMES.join('|')})(?![a-z])`, 'i')

/**
 * Whole files of the other parts of issue 35 that still name agents on this branch; each part
 * empties its own when the branches merge.
 */
const MOVING: Readonly<Record<string, string>> = {
  // moving (issue 35): install
  'src/install/agents.ts': 'install targets: each agent module gets its `install` property',
  'src/install/agents-versioned.ts': "install targets: Kiro's and Vibe's version-dependent shapes",
  'src/install/agent-target.ts': 'install targets: the AgentTarget types move to src/agents/install.ts',
  'src/install/agent-formats.ts': "install targets: each agent's file shape",
  'src/install/agent-file.ts': 'install targets',
  'src/install/install.ts': 'install targets',
  'src/install/toml-hooks.ts': "install targets: Codex's TOML",
  'src/install/kiro-hooks.ts': "install targets: Kiro's hook files",
  'src/install/kiro-hooks-read.ts': "install targets: Kiro's hook files",
  'src/install/router-commands.ts': 'install targets',
  'src/install/matchers.ts': 'install targets',
  'src/install/install-file.ts': 'install targets',
  'src/install/narrowed-sync.ts': 'install targets',
  'src/install/codex-review.ts': "install targets: Codex's /hooks review",
  'src/core/router.ts': 'install targets',
  'src/core/shell.ts': 'install targets',
  // moving (issue 35): scanconf
  'src/config/schema.ts': "native config readers: each agent's own hooks config",
  'src/config/agent-shapes.ts': 'native config readers',
  'src/config/flat-shapes.ts': 'native config readers',
  'src/config/shapes.ts': 'native config readers',
  'src/config/hook-spec.ts': 'native config readers',
  'src/install/import.ts': 'import',
  'src/install/scan-sources.ts': 'scan: each agent its scan sources',
  'src/install/scan-read.ts': 'scan',
  'src/install/scan-flags.ts': 'scan',
  'src/commands/import.ts': 'import',
  // moving (issue 35): trust (src/trust/*, not briefed yet)
  'src/trust/material-hash.ts': "a plugin's material is hashed with the project variables agents set (CLAUDE_PROJECT_DIR, …)",
  'src/trust/verify.ts': 'the same variables, to verify that material',
  'src/trust/material.ts': "the hook folders hookrun trusts (.claude/hooks, …): each agent's folder",
}

/**
 * Lines that may name an agent in the files of this part, one reason each: `line` matches the
 * code line (comments stripped).
 */
const ALLOWED: ReadonlyArray<{ readonly file: string; readonly line: RegExp; readonly why: string }> = [
  // Help and hints: examples a person copies, in the order the docs teach them (docs/cli.md is generated from them).
  {
    file: 'src/commands/program.ts',
    line: /--format claude|claude, cursor, gemini/,
    why: 'help: --format examples and the list of formats',
  },
  {
    file: 'src/commands/program-agents.ts',
    line: /--agent|claude|kiro, vibe/,
    why: 'help: install, uninstall and import examples and agent lists',
  },
  { file: 'src/commands/program-inspect.ts', line: /claude, cursor, …/, why: 'help: an example of --agent' },
  {
    file: 'src/commands/program-serve.ts',
    line: /Claude Code/,
    why: "help: serve answers Claude Code's http handlers (the one agent with them)",
  },
  { file: 'src/commands/test.ts', line: /claude, cursor, gemini/, why: 'help: the list of formats' },
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
    file: 'src/answer/interpret.ts',
    line: /EXIT_ZERO_JSON|hook\.shape === 'crush'/,
    why: "how a shape's handler answers (its JSON on exit 0, Crush's exit 49)",
  },
  { file: 'src/chain-steps.ts', line: /_PROJECT_DIR/, why: "the project variables a shape's handler reads, as its agent sets them" },
  {
    file: 'src/folders/plugin-config.ts',
    line: /_PROJECT_DIR'|layout\?\.agent === 'cursor'/,
    why: "a plugin layout's variables, and Cursor's plugin hooks running in the plugin folder",
  },
  // Plugin layouts: which agent's plugin a folder is (its manifest, its root variables); src/trust/material-hash.ts reads `layout.agent` too.
  {
    file: 'src/discover/folders.ts',
    line: /claude|droid|codex|cursor/i,
    why: "plugin layouts by manifest (.claude-plugin/plugin.json, …) and each agent's root variables",
  },
  // Names the other parts' files still have on this branch.
  {
    file: 'src/install/doctor.ts',
    line: /codex-review\.ts|codexReview|Codex|codex in the project/,
    why: "Codex's /hooks review check: moves with install's codex-review.ts",
  },
  {
    file: 'src/install/overlaps.ts',
    line: /kiro-hooks-read\.ts|'kiro-v1'/,
    why: "Kiro's hook files: routed events read by install's kiro-hooks-read.ts",
  },
  {
    file: 'src/install/plugin-agents.ts',
    line: /opencode-plugin\.ts/,
    why: "the plugin's text is OpenCode's plugin API (Kilo Code runs it too); src/install/scan-read.ts imports it by that file",
  },
  {
    file: 'src/install/hook-folder.ts',
    line: /^export const CLINE_FOLDER/,
    why: 'src/install/scan-read.ts (scanconf part) imports it by that name',
  },
]

/** The code of a TypeScript file without its comments (strings kept: a name in a string is code). */
function withoutComments(text: string): string {
  let out = ''
  let index = 0
  while (index < text.length) {
    if (text.startsWith('//', index)) {
      const end = text.indexOf('\n', index)
      index = end < 0 ? text.length : end
    } else if (text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index + 2)
      index = end < 0 ? text.length : end + 2
    } else if (text[index] === "'" || text[index] === '"' || text[index] === '`') {
      const quote = text[index]
      let end = index + 1
      while (end < text.length && text[end] !== quote) end += text[end] === '\\' ? 2 : 1
      out += text.slice(index, end + 1)
      index = end + 1
    } else {
      out += text[index]
      index++
    }
  }
  return out
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
    const named = files
      .filter((file) => MOVING[file] === undefined)
      .flatMap((file) =>
        withoutComments(readFileSync(join(ROOT, file), 'utf8'))
          .split('\n')
          .filter((line) => NAMED.test(line))
          .filter((line) => !ALLOWED.some((allowed) => allowed.file === file && allowed.line.test(line)))
          .map((line) => `${file}: ${line.trim()}`),
      )
    expect(named).toEqual([])
  })

  it('every entry of the allow-list is still needed', () => {
    for (const file of Object.keys(MOVING)) expect(files, file).toContain(file)
    for (const allowed of ALLOWED) {
      const code = withoutComments(readFileSync(join(ROOT, allowed.file), 'utf8')).split('\n')
      expect(
        code.some((line) => NAMED.test(line) && allowed.line.test(line)),
        `${allowed.file}: ${allowed.line}`,
      ).toBe(true)
    }
  })
})
