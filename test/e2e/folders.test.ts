/**
 * Hook folders and plugins across several commands: the `hook` answer cache (a second fire
 * starts no process; a changed file is asked again) and `hookrun plugin add/list/remove` from a
 * local folder and from a local git repository at a ref (file://, no network). Each runs under
 * every runtime, because file modes, atomic renames and child processes differ between them.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, RUNTIMES, writeFiles, trustFolderIn } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function project(files: Record<string, string | object> = {}): string {
  const dir = makeProject(files)
  trustFolderIn(dir, join(dir, '.xdg-config'))
  projects.push(dir)
  return dir
}

/** A hook that logs each time it is asked `hook` or told `run`, so a test can count its processes. */
const COUNTING_HOOK = `#!/bin/sh
case "$1" in
  hook) echo asked >> "$HOOKRUN_PROJECT_DIR/spawns.log"; echo before_tool_call ;;
  run) echo ran >> "$HOOKRUN_PROJECT_DIR/spawns.log" ;;
esac
`

function spawns(dir: string): string[] {
  return existsSync(join(dir, 'spawns.log')) ? readFileSync(join(dir, 'spawns.log'), 'utf8').trim().split('\n') : []
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
  return result.stdout.trim()
}

/** acme/tools as a git repository: v1 has one hook; the main branch later adds a second. */
function pluginRepository(root: string): { url: string; v1: string } {
  const repo = join(root, 'remotes', 'acme', 'tools.git')
  writeFiles(repo, {
    'hooks/guard':
      '#!/bin/sh\ncase "$1" in hook) echo tool:pre_execute ;; run) echo \'{"decision":"deny","reason":"guarded by acme/tools"}\' ;; esac\n',
    'README.md': 'acme tools\n',
  })
  git(repo, 'init', '-q')
  git(repo, 'add', '-A')
  git(repo, 'commit', '-q', '-m', 'v1')
  git(repo, 'tag', 'v1')
  const v1 = git(repo, 'rev-parse', 'HEAD')
  writeFiles(repo, { 'hooks.json': { hooks: [{ name: 'later', event: 'turn:end', command: 'true' }] } })
  git(repo, 'add', '-A')
  git(repo, 'commit', '-q', '-m', 'v2')
  return { url: `file://${repo}`, v1 }
}

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    const cli = (dir: string, args: string[], input = '', env: Record<string, string | undefined> = {}) =>
      runCli(args, { runtime: runtime.name, cwd: dir, input, env })

    test('hook answers are cached: a fire no hook serves spawns nothing; a changed file is asked again', async () => {
      const dir = project({ '.hookrun/hooks/counting': COUNTING_HOOK })
      const payload = JSON.stringify({ tool_name: 'bash', tool_input: { command: 'ls' } })

      const first = await cli(dir, ['fire', 'tool:pre_execute', '--payload', '-'], payload)
      expect(first.exitCode, first.stderr).toBe(0)
      expect(spawns(dir)).toEqual(['asked', 'ran'])

      const cacheDir = join(dir, '.xdg-cache', 'hookrun')
      const cache = JSON.parse(readFileSync(join(cacheDir, 'hook-answers.json'), 'utf8'))
      expect(Object.keys(cache.hooks)).toEqual([join(dir, '.hookrun/hooks/counting')])
      // Written by rename: no temporary left (the parsed-config cache, src/config/cache.ts, may sit
      // beside it in config/: it is written once the config files are settled, so on a slow start).
      expect(readdirSync(cacheDir).filter((name) => name !== 'config')).toEqual(['hook-answers.json'])

      const unmatched = await cli(dir, ['fire', 'session:start'])
      expect(unmatched.json().hooks).toEqual([])
      const matched = await cli(dir, ['fire', 'tool:pre_execute', '--payload', '-'], payload)
      expect(matched.json().hooks.map((hook: { name: string }) => hook.name)).toEqual(['counting'])
      expect(spawns(dir)).toEqual(['asked', 'ran', 'ran']) // no second `hook` query, and nothing for session:start

      const later = new Date(Date.now() + 60_000)
      utimesSync(join(dir, '.hookrun/hooks/counting'), later, later)
      await cli(dir, ['fire', 'session:start'])
      expect(spawns(dir)).toEqual(['asked', 'ran', 'ran', 'asked'])
    })

    test('the cache lives in ~/.cache/hookrun when XDG_CACHE_HOME is not set', async () => {
      const dir = project({ '.hookrun/hooks/counting': COUNTING_HOOK })
      await cli(dir, ['fire', 'session:start'], '', { XDG_CACHE_HOME: undefined })
      await cli(dir, ['fire', 'session:start'], '', { XDG_CACHE_HOME: undefined })
      expect(spawns(dir)).toEqual(['asked'])
      expect(existsSync(join(dir, '.cache', 'hookrun', 'hook-answers.json'))).toBe(true)
    })

    test('plugin add from a local git repository at a tag and at a commit, then list and remove', async () => {
      const dir = project({ 'sub/.keep': '' })
      trustFolderIn(dir, join(dir, 'sub', '.xdg-config')) // the fires below run from sub/, whose HOME it is
      const { url, v1 } = pluginRepository(dir)

      const added = await cli(dir, ['plugin', 'add', `${url}@v1`])
      expect(added.exitCode, added.stderr).toBe(0)
      expect(added.stdout).toContain(`installed acme/tools (project) in .hookrun/plugins/acme@tools at ${v1.slice(0, 12)}`)
      const installed = join(dir, '.hookrun/plugins/acme@tools')
      expect(existsSync(join(installed, 'hooks/guard'))).toBe(true)
      expect(existsSync(join(installed, 'hooks.json'))).toBe(false) // v1, not the main branch
      expect(existsSync(join(installed, '.git'))).toBe(false)

      const blocked = await cli(join(dir, 'sub'), ['fire', 'tool:pre_execute', '--tool', 'bash'])
      expect(blocked.exitCode, blocked.stderr).toBe(2)
      expect(blocked.json().hooks).toMatchObject([
        { name: 'acme/tools/guard', source: 'project-plugin', file: join(installed, 'hooks/guard') },
      ])

      const global = await cli(dir, ['plugin', 'add', `${url}@${v1.slice(0, 10)}`, '--global', '--name', 'acme/pinned'])
      expect(global.exitCode, global.stderr).toBe(0)
      const latest = await cli(dir, ['plugin', 'add', url, '--global'])
      expect(latest.exitCode, latest.stderr).toBe(0)

      const listed = await cli(dir, ['plugin', 'list', '--json'])
      expect(listed.json()).toMatchObject([
        { name: 'acme/tools', location: 'project', path: installed, hooks: ['acme/tools/guard'], source: url, ref: 'v1', commit: v1 },
        { name: 'acme/pinned', location: 'user', hooks: ['acme/pinned/guard'], commit: v1 },
        { name: 'acme/tools', location: 'user', hooks: ['acme/tools/later', 'acme/tools/guard'] },
      ])
      const table = await cli(dir, ['plugin', 'list'])
      expect(
        table.stdout
          .split('\n')
          .slice(0, 4)
          .map((line) => line.split(/\s+/).slice(0, 3).join(' ')),
      ).toEqual(['NAME LOCATION HOOKS', 'acme/tools project 1', 'acme/pinned user 1', 'acme/tools user 2'])

      const removed = await cli(dir, ['plugin', 'remove', 'acme/tools'])
      expect(removed.exitCode, removed.stderr).toBe(0)
      expect(existsSync(installed)).toBe(false)
      const user = await cli(dir, ['plugin', 'remove', 'acme@pinned', '--global'])
      expect(user.exitCode, user.stderr).toBe(0)
      expect((await cli(dir, ['plugin', 'list', '--json'])).json().map((plugin: { name: string }) => plugin.name)).toEqual(['acme/tools'])
    })

    test('plugin add from a local folder; every failure is one line and leaves nothing installed', async () => {
      const dir = project({
        'kits/safety/hooks.json': {
          hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: '"$HOOKRUN_PLUGIN_DIR/no-sudo.sh"' }],
        },
        'kits/safety/no-sudo.sh': '#!/bin/sh\ngrep -q sudo && { echo "no sudo" >&2; exit 2; }\nexit 0\n',
        'kits/empty/README.md': 'nothing here\n',
        'kits/broken/hooks.json': '{ not json',
      })
      const { url } = pluginRepository(dir)
      const plugins = join(dir, '.hookrun/plugins')
      const failures: Array<[string[], string]> = [
        [
          ['plugin', 'add', 'kits/empty'],
          'kits/empty has no hooks: a plugin needs a hooks.json with hooks, a plugin manifest or hooks/hooks.json with hooks, or executables in hooks/',
        ],
        [['plugin', 'add', 'kits/broken'], 'kits/broken has no hooks'],
        [['plugin', 'add', 'kits/missing'], "no such folder 'kits/missing'"],
        [['plugin', 'add', `${url}@v9`], `no branch or tag 'v9' in ${url}`],
        [['plugin', 'add', `${url}@0123456789abcdef`], `no branch, tag or commit '0123456789abcdef' in ${url}`],
        [['plugin', 'add', `file://${dir}/remotes/acme/none.git`], `cannot read git repository file://${dir}/remotes/acme/none.git`],
        [['plugin', 'remove', 'acme/tools'], "no plugin 'acme/tools' installed in this project"],
        [['plugin', 'frobnicate'], "unknown plugin action 'frobnicate'"],
      ]
      for (const [args, message] of failures) {
        const result = await cli(dir, args)
        expect(result.exitCode, args.join(' ')).toBe(1)
        expect(result.stderr, args.join(' ')).toContain(message)
        expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
        expect(existsSync(plugins) ? readdirSync(plugins) : [], args.join(' ')).toEqual([])
      }

      const added = await cli(dir, ['plugin', 'add', 'kits/safety'])
      expect(added.exitCode, added.stderr).toBe(0)
      expect(readdirSync(plugins)).toEqual(['safety'])
      const again = await cli(dir, ['plugin', 'add', 'kits/safety'])
      expect(again.exitCode).toBe(1)
      expect(again.stderr).toContain("plugin 'safety' is already installed")
      expect(readdirSync(plugins)).toEqual(['safety'])

      writeFileSync(join(dir, 'kits/safety/no-sudo.sh'), '#!/bin/sh\nexit 0\n') // the install is a copy
      const fired = await cli(
        dir,
        ['fire', 'tool:pre_execute', '--payload', '-'],
        JSON.stringify({ tool_name: 'bash', tool_input: { command: 'sudo ls' } }),
      )
      expect(fired.exitCode, fired.stderr).toBe(2)
      expect(fired.json()).toMatchObject({ reason: 'no sudo', hooks: [{ name: 'safety/no-sudo', source: 'project-plugin' }] })

      const listed = await cli(dir, ['list'])
      expect(listed.stdout).toMatch(
        /on\s+safety\/no-sudo\s+tool:pre_execute:bash\s+project-plugin \.hookrun\/plugins\/safety\/hooks\.json#0/,
      )
    })
  })
}
