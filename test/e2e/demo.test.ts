/**
 * `npm run demo` (examples/demo.sh) as a newcomer sees it piped into a file: each payload sent,
 * the exact command, the answer, the exit code, and no raw escape codes.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { cliEnvironment, makeProject, removeProject, ROOT } from '../helpers.ts'

test('the demo shows payloads, the commands it runs and their answers; piped, no escape codes', () => {
  const home = makeProject()
  try {
    const env = { ...cliEnvironment(home), NO_COLOR: undefined }
    delete env.NO_COLOR
    const result = spawnSync('sh', [join(ROOT, 'examples', 'demo.sh')], { env, encoding: 'utf8' })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).not.toContain('\u001b')
    expect(result.stdout).toContain(
      `$ echo '{"tool_name":"Bash","tool_input":{"command":"sudo rm -rf /tmp/x"}}' \\\n    | hookrun fire tool:pre_execute --config examples/hooks.json --payload - --pretty\n`,
    )
    expect(result.stdout).toContain('tool:pre_execute:bash: deny (blocked), exit 2: sudo is not allowed here: run the command without it\n')
    expect(result.stdout.match(/^exit code: \d+$/gm)).toEqual(['exit code: 0', 'exit code: 2', 'exit code: 2', 'exit code: 0'])
    expect(result.stdout).toContain('context: This project runs its tests with: npm test\n')
  } finally {
    removeProject(home)
  }
})
