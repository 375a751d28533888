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
const ALLOWED: ReadonlyArray<{ readonly file: string; readonly line: RegExp; readonly why: string }> = []

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
