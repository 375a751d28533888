import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { completionScript } from '../../src/commands/completion.ts'
import { makeProject, removeProject, runCli } from '../helpers.ts'

const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

const COMMANDS = [
  { name: 'install', description: "Add hookrun's router entries", options: ['--agent', '--project', '--events'] },
  { name: 'init', description: 'Write a starter', options: ['--template'] },
]

/** What bash offers for the words typed so far, with the script sourced. */
function bashCompletes(script: string, words: string[]): string[] {
  const dir = makeProject({ 'completion.bash': script })
  folders.push(dir)
  const line = `source ${join(dir, 'completion.bash')}; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _hookrun; printf '%s\\n' "\${COMPREPLY[@]}"`
  return spawnSync('bash', ['-c', line], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)
}

describe('hookrun completion', () => {
  test('bash: commands by prefix, then that command\'s options', () => {
    const script = completionScript('bash', COMMANDS)
    expect(bashCompletes(script, ['hookrun', 'in'])).toEqual(['install', 'init'])
    expect(bashCompletes(script, ['hookrun', 'install', '--'])).toEqual(['--agent', '--project', '--events', '--help'])
    expect(bashCompletes(script, ['hookrun', 'init', '--t'])).toEqual(['--template'])
  })
  test('zsh loads the bash completion through bashcompinit', () => {
    expect(completionScript('zsh', COMMANDS)).toContain('autoload -U +X bashcompinit && bashcompinit\n')
  })
  test('fish: one line per command and per option, descriptions quoted', () => {
    const script = completionScript('fish', COMMANDS)
    expect(script).toContain("complete -c hookrun -n __fish_use_subcommand -a install -d 'Add hookrun\\'s router entries'\n")
    expect(script).toContain("complete -c hookrun -n '__fish_seen_subcommand_from install' -l events\n")
  })
  test('the real CLI: every command and its kebab-case options; an unknown shell is one clear line', async () => {
    const bash = await runCli(['completion', 'bash'])
    expect(bash.exitCode).toBe(0)
    expect(bash.stdout).toMatch(/explain\) words="[^"]*--dry-run/)
    expect(bash.stdout).toContain(' doctor ')
    // --color and --no-color go with every command (src/cli.ts colourFlags).
    expect(bash.stdout).toContain('    import) words="--agent --project --user --cwd --dry-run --color --no-color" ;;')
    const dir = makeProject()
    folders.push(dir)
    writeFileSync(join(dir, 'c.bash'), bash.stdout)
    expect(spawnSync('bash', ['-n', join(dir, 'c.bash')]).status).toBe(0)
    const wrong = await runCli(['completion', 'fihs'])
    expect(wrong.exitCode).toBe(1)
    expect(wrong.stderr).toBe('hookrun: completion fihs: no such shell (did you mean fish?); use bash, zsh or fish\n')
  })
})
