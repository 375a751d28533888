// A sync (the one a fire starts, or hookrun trust's) leaves an entry of hookrun's the user edited by
// hand, says so, and names the file whose change made it run.
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { trustProject } from '../../src/commands/trust.ts'
import { readStamp, writeStamp } from '../../src/config/narrowed.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const A_MINUTE_AGO = new Date(Date.now() - 60_000)

test("Copilot: a sync leaves hookrun's entry edited by hand, says so, and names the file that changed", () => {
  const { home, project, env } = homeAndProject(dirs)
  const hooksFile = join(project, '.hookrun', 'hooks.json')
  const writeHooks = (hooks: object[]) => {
    writeFileSync(hooksFile, JSON.stringify({ hooks }))
    utimesSync(hooksFile, A_MINUTE_AGO, A_MINUTE_AGO)
  }
  mkdirSync(join(project, '.hookrun'))
  writeHooks([{ name: 'gate', event: 'tool:pre_execute:bash', command: 'true' }])
  trustProject({ cwd: project, env })
  const install = { agents: ['copilot'], scope: 'project' as const, cwd: project, env, self: '/opt/hookrun', narrow: true }
  expect(installAgents(install, false).exitCode).toBe(0)
  const file = join(project, '.github', 'hooks', 'hookrun.json')
  // The user gives hookrun's entry a shorter timeout and a key of their own.
  const edited = readFileSync(file, 'utf8').replace(
    /("bash": "[^"]*preToolUse[^"]*",\s*)"timeoutSec": 600/,
    '$1"timeoutSec": 5, "comment": "mine"',
  )
  expect(edited).not.toBe(readFileSync(file, 'utf8'))
  writeFileSync(file, edited)
  // An install that read hooks.json right after an edit stamps no signature: the next fire syncs.
  writeStamp({ ...readStamp(project, env)!, signature: '' }, env)
  const sync = { ...install, sync: true, quiet: true }
  expect(installAgents(sync, false).exitCode).toBe(0)
  expect(readFileSync(file, 'utf8')).toBe(edited)
  const notice = readStamp(project, env)!.notice!
  expect(notice).not.toContain('hooks.json changed')
  expect(notice).toBe(
    `hookrun's entry for preToolUse in ${file} was edited by hand, so this sync left it as it is; run \`hookrun install --agent copilot --project\` to rewrite it`,
  )

  // The user's own hooks.json gains a hook on another event (no trust needed: a fire syncs): the
  // sync adds its entry, leaves the edited one, and says which file changed.
  const userHooks = join(home, '.config', 'hookrun', 'hooks.json')
  mkdirSync(join(userHooks, '..'), { recursive: true })
  writeFileSync(userHooks, JSON.stringify({ hooks: [{ name: 'after', event: 'tool:post_execute:bash', command: 'true' }] }))
  utimesSync(userHooks, A_MINUTE_AGO, A_MINUTE_AGO)
  writeStamp({ ...readStamp(project, env)!, notice: undefined, startedAt: undefined }, env)
  expect(installAgents(sync, false).exitCode).toBe(0)
  const synced = JSON.parse(readFileSync(file, 'utf8'))
  expect(synced.hooks.preToolUse).toEqual(JSON.parse(edited).hooks.preToolUse)
  expect(synced.hooks.postToolUse[0].bash).toBe('hookrun fire postToolUse --format copilot')
  expect(readStamp(project, env)!.notice).toMatch(
    /^\/.*\/home\/\.config\/hookrun\/hooks\.json changed, so hookrun brought its entries in \.github\/hooks\/hookrun\.json up to date; .*; hookrun's entry for preToolUse in .* was edited by hand, so this sync left it as it is; run `hookrun install --agent copilot --project` to rewrite it$/,
  )

  // The install the notice names rewrites it, and the next sync manages it again.
  expect(installAgents(install, false).exitCode).toBe(0)
  expect(JSON.parse(readFileSync(file, 'utf8')).hooks.preToolUse[0].timeoutSec).toBe(600)
})
