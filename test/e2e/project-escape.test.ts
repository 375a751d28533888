/**
 * The project's gates follow the agent, not the folder its tool is in (README "Which project"):
 * a `cd` out of the project, a nested `.hookrun/` that holds nothing, a git worktree of the
 * trusted repository: the gate still runs (or blocks as changed), never silently goes away.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, RUNTIMES, runCli, trustProjectFor } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const DENY_ALL = { hooks: [{ name: 'deny-all', event: 'tool:pre_execute', command: './gate.sh' }] }
const GATE = '#!/bin/sh\necho "the project says no" >&2\nexit 2\n'

/** A user's state in a folder of its own (trust records, caches), apart from every project. */
function userState(): Record<string, string> {
  const home = makeProject()
  dirs.push(home)
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.xdg-config'),
    XDG_STATE_HOME: join(home, '.xdg-state'),
    XDG_CACHE_HOME: join(home, '.xdg-cache'),
  }
}

/** A project whose deny-all gate the user trusted. */
function trustedProject(env: Record<string, string>, files: Record<string, string | object> = {}): string {
  const project = makeProject({ '.hookrun/hooks.json': DENY_ALL, 'gate.sh': GATE, ...files })
  dirs.push(project)
  trustProjectFor(project, env)
  return project
}

const claudePayload = (cwd: string) => ({
  session_id: 's1',
  transcript_path: '/t',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
})

function git(cwd: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`)
}

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test("Claude Code: after a cd out of the project (an --add-dir folder), CLAUDE_PROJECT_DIR keeps the project's gate", async () => {
      const env = userState()
      const project = trustedProject(env)
      const outside = makeProject({ 'notes.txt': 'an --add-dir folder' })
      dirs.push(outside)
      const fire = (extra: Record<string, string>) =>
        runCli(['fire', '--format', 'claude'], {
          runtime: runtime.name,
          cwd: outside,
          input: JSON.stringify(claudePayload(outside)),
          env: { ...env, ...extra },
        })
      const result = await fire({ CLAUDE_PROJECT_DIR: project })
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.json().hookSpecificOutput).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: 'the project says no',
      })
      // The payload's cwd (which follows the cd) does not name the project: without the variable no gate.
      expect((await fire({})).stdout.trim()).toBe('{}')
    })

    test('Claude Code: a cd into another trusted project does not swap in its hooks', async () => {
      const env = userState()
      const project = trustedProject(env)
      const other = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'allow', event: 'tool:pre_execute', command: 'exit 0' }] } })
      dirs.push(other)
      trustProjectFor(other, env)
      const result = await runCli(['fire', '--format', 'claude'], {
        runtime: runtime.name,
        cwd: other,
        input: JSON.stringify(claudePayload(other)),
        env: { ...env, CLAUDE_PROJECT_DIR: project },
      })
      expect(result.json().hookSpecificOutput, result.stderr).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: 'the project says no',
      })
    })

    test("Claude Code started above its repositories (a project dir with no hooks): the folder it cd'd into finds its project, as before", async () => {
      const env = userState()
      const project = trustedProject(env)
      const above = makeProject()
      dirs.push(above)
      const result = await runCli(['fire', '--format', 'claude'], {
        runtime: runtime.name,
        cwd: project,
        input: JSON.stringify(claudePayload(project)),
        env: { ...env, CLAUDE_PROJECT_DIR: above },
      })
      expect(result.json().hookSpecificOutput, result.stderr).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: 'the project says no',
      })
    })

    const nested: Array<[string, Record<string, string | object>]> = [
      ['an empty sub/.hookrun/hooks/ folder', { 'sub/.hookrun/hooks/.keep': '' }],
      ['a {} sub/.hookrun/hooks.json', { 'sub/.hookrun/hooks.json': {} }],
      [
        'a sub/.hookrun/hooks.json that switches the gate off by name',
        { 'sub/.hookrun/hooks.json': { hooks: [{ name: 'deny-all', enabled: false }] } },
      ],
    ]
    test.each(nested)("a fire from proj/sub with %s still meets the enclosing project's gate", async (_what, files) => {
      const env = userState()
      const project = trustedProject(env)
      // Made after the trust, as a model would: a new nested project is not part of the outer one's material.
      const sub = join(project, 'sub')
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(join(project, path, '..'), { recursive: true })
        writeFileSync(join(project, path), typeof content === 'string' ? content : JSON.stringify(content))
      }
      const result = await runCli(['fire', 'tool:pre_execute'], {
        runtime: runtime.name,
        cwd: sub,
        input: '{"tool_name":"Bash","tool_input":{"command":"ls"}}',
        env,
      })
      expect(result.exitCode, result.stderr).toBe(2)
      expect(result.json().reason).toBe('the project says no')
      // Trusted on its own, the nested project adds its hooks; the enclosing gate still runs (first).
      if (files['sub/.hookrun/hooks.json'] !== undefined) {
        trustProjectFor(sub, env)
        const trusted = await runCli(['fire', 'tool:pre_execute'], { runtime: runtime.name, cwd: sub, input: '{}', env })
        expect(trusted.exitCode, trusted.stderr).toBe(2)
        expect(trusted.json().reason).toBe('the project says no')
      }
    })

    test('a git worktree of a trusted repository: the same gate runs; an edited one blocks as changed; a never-trusted repository still runs nothing', async () => {
      const env = userState()
      const parent = makeProject()
      dirs.push(parent)
      const repo = join(parent, 'repo')
      mkdirSync(repo)
      writeFileSync(join(repo, 'gate.sh'), GATE, { mode: 0o755 })
      mkdirSync(join(repo, '.hookrun'))
      writeFileSync(join(repo, '.hookrun', 'hooks.json'), JSON.stringify(DENY_ALL))
      git(repo, 'init', '-q')
      git(repo, 'add', '-A')
      git(repo, 'commit', '-q', '-m', 'hooks')
      const worktree = join(parent, 'wt')
      git(repo, 'worktree', 'add', '-q', worktree)
      const fire = (cwd: string) => runCli(['fire', 'tool:pre_execute'], { runtime: runtime.name, cwd, input: '{}', env })

      // Never trusted: the worktree's hooks do not run, and the user is told how to trust them.
      let result = await fire(worktree)
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stderr).toContain(`project hooks in ${worktree} are not trusted, so they do not run`)

      trustProjectFor(repo, env)
      result = await fire(worktree)
      expect(result.exitCode, result.stderr).toBe(2)
      expect(result.json().reason).toBe('the project says no')
      // From a folder inside the worktree too.
      mkdirSync(join(worktree, 'src'))
      expect((await fire(join(worktree, 'src'))).exitCode).toBe(2)

      // An edit in the worktree is an edit after trust: gates block and say what changed.
      appendFileSync(join(worktree, 'gate.sh'), 'exit 0\n')
      result = await fire(worktree)
      expect(result.exitCode, result.stderr).toBe(2)
      expect(result.json().reason).toBe(
        `project hooks in ${worktree} changed since you trusted them (gate.sh edited): review with 'hookrun trust --diff', then run: hookrun trust ${worktree}`,
      )
      // trust --diff compares with the repository's record, as the block's reason tells the user to run.
      const diff = await runCli(['trust', '--diff'], { runtime: runtime.name, cwd: worktree, env })
      expect(diff.exitCode, diff.stderr).toBe(0)
      expect(diff.stdout).toContain(`changed in ${worktree} (a git worktree of ${repo}, held to its trust) since it was trusted`)
      expect(diff.stdout).toContain('+exit 0')
      // The main checkout is untouched and still trusted.
      expect((await fire(repo)).json().reason).toBe('the project says no')
    })
  })
}
