import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { completionScript } from '../../src/commands/completion.ts'
import { TEMPLATES } from '../../src/commands/templates.ts'
import { DIALECTS } from '../../src/agents/registry.ts'
import { FORMAT_NAMES } from '../../src/dialect.ts'
import { CANONICAL_EVENTS } from '../../src/event/events.ts'
import { AGENTS } from '../../src/install/agents.ts'
import { makeProject, removeProject, runCli } from '../helpers.ts'

const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

const COMMANDS = [
  { name: 'install', description: "Add hookrun's router entries", options: ['--agent', '--project', '--events'] },
  { name: 'init', description: 'Write a starter', options: ['--template'] },
]

/**
 * What bash offers for the line typed so far, with the script sourced: COMP_LINE and COMP_POINT
 * as bash sets them, and COMP_WORDS split as bash splits them (at `:` and `=` too).
 */
function bashCompletes(script: string, words: string[]): string[] {
  const dir = makeProject({ 'completion.bash': script })
  folders.push(dir)
  const line = words.join(' ')
  const split = line
    .split(/\s+/)
    .flatMap((word) => word.split(/([:=])/))
    .filter((word) => word !== '')
  const compWords = line.endsWith(' ') ? [...split, ''] : split
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`
  const shell = `source ${join(dir, 'completion.bash')}; COMP_LINE=${quote(line)}; COMP_POINT=${line.length}; COMP_WORDS=(${compWords.map(quote).join(' ')}); COMP_CWORD=${compWords.length - 1}; _hookrun; printf '%s\\n' "\${COMPREPLY[@]}"`
  return spawnSync('bash', ['-c', shell], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)
}

describe('hookrun completion', () => {
  test("bash: commands by prefix, then that command's options", () => {
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

  describe('values, from the tables hookrun runs on', async () => {
    const built = await runCli(['completion', 'bash'])
    const script = built.stdout
    const agents = [...AGENTS.map((agent) => agent.name), 'opencode', 'kilo', 'pi', 'openclaw']
    const events = CANONICAL_EVENTS.map((event) => event.name)
    test('bash: --agent of install and uninstall: every agent install knows, also as --agent=', () => {
      expect(agents.length).toBeGreaterThan(5)
      expect(bashCompletes(script, ['hookrun', 'install', '--agent', ''])).toEqual(agents)
      expect(bashCompletes(script, ['hookrun', 'uninstall', '--project', '--agent', 'c'])).toEqual(
        agents.filter((name) => name.startsWith('c')),
      )
      expect(bashCompletes(script, ['hookrun', 'install', '--agent=cl'])).toEqual(['claude'])
    })
    test('bash: --format of fire and explain: auto, hookrun and every dialect', () => {
      expect(bashCompletes(script, ['hookrun', 'fire', '--format', ''])).toEqual([...FORMAT_NAMES])
      expect(bashCompletes(script, ['hookrun', 'explain', '--format', 'ge'])).toEqual(['gemini'])
      expect(FORMAT_NAMES).toEqual(['auto', 'hookrun', ...DIALECTS.map((dialect) => dialect.name)])
    })
    test('bash: --template of init: every template', () => {
      expect(bashCompletes(script, ['hookrun', 'init', '--template', ''])).toEqual(TEMPLATES.map((template) => template.name))
    })
    test('bash: the event of fire, explain and list; a name with a colon completes past it', () => {
      expect(bashCompletes(script, ['hookrun', 'fire', ''])).toEqual(events)
      expect(bashCompletes(script, ['hookrun', 'list', ''])).toEqual(events)
      const tool = events.filter((name) => name.startsWith('tool:p'))
      expect(tool.length).toBeGreaterThan(1)
      // bash replaces only what follows the last colon, so that is what is offered.
      expect(bashCompletes(script, ['hookrun', 'explain', '--dry-run', 'tool:p'])).toEqual(tool.map((name) => name.slice('tool:'.length)))
    })
    test('bash: the shell of completion; a flag with a value but no list completes files', () => {
      expect(bashCompletes(script, ['hookrun', 'completion', ''])).toEqual(['bash', 'zsh', 'fish'])
      expect(bashCompletes(script, ['hookrun', 'fire', '--payload', ''])).toEqual([])
      expect(bashCompletes(script, ['hookrun', 'fire', '--pa'])).toEqual(['--payload'])
    })
    test('zsh gets the same function; fish a value list per flag and argument', async () => {
      expect((await runCli(['completion', 'zsh'])).stdout).toContain(script.split('\n').slice(1).join('\n'))
      const fish = (await runCli(['completion', 'fish'])).stdout
      expect(fish).toContain(`complete -c hookrun -n '__fish_seen_subcommand_from install' -l agent -x -a '${agents.join(' ')}'\n`)
      expect(fish).toContain(`complete -c hookrun -n '__fish_seen_subcommand_from fire' -l format -x -a '${FORMAT_NAMES.join(' ')}'\n`)
      expect(fish).toContain(
        `complete -c hookrun -n '__fish_seen_subcommand_from init' -l template -x -a '${TEMPLATES.map((template) => template.name).join(' ')}'\n`,
      )
      expect(fish).toContain(`complete -c hookrun -n '__fish_seen_subcommand_from list' -a '${events.join(' ')}'\n`)
      expect(fish).toContain("complete -c hookrun -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
    })
  })
})
