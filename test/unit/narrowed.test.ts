// The narrowed-install stamp: what fires compare, when they start a sync, and what install records.
import { generateKeyPairSync } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { staleAgentConfigs } from '../../src/install/narrowed-sync.ts'
import { explainCommand } from '../../src/commands/explain.ts'
import { trustProject } from '../../src/commands/trust.ts'
import { loadConfig } from '../../src/config/parse.ts'
import {
  compiledSignature,
  configSignature,
  narrowedAction,
  type NarrowedStamp,
  readStamp,
  stampFile,
  readUserStamp,
  SYNC_EVERY_MS,
  type UserStamp,
  userRoutingAction,
  writeStamp,
  writeUserStamp,
} from '../../src/config/narrowed.ts'
import { policyFiles } from '../../src/config/policy.ts'
import { signPolicy } from '../../src/config/policy-pull.ts'
import { loadHooks } from '../../src/fire-config.ts'
import { agentTarget } from '../../src/install/agents.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const A_MINUTE_AGO = new Date(Date.now() - 60_000)

/** A project with one hook and a narrowed Claude Code install, its files settled (as users' are). */
function narrowedProject(hooks: object[] = [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'true' }]) {
  const { home, project, env } = homeAndProject(dirs)
  const hooksFile = join(project, '.hookrun', 'hooks.json')
  mkdirSync(join(project, '.hookrun'))
  writeFileSync(hooksFile, JSON.stringify({ hooks }))
  utimesSync(hooksFile, A_MINUTE_AGO, A_MINUTE_AGO)
  trustProject({ cwd: project, env })
  installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun', narrow: true }, false)
  const settings = agentTarget('claude')!.file('project', { home, project, env })
  const edit = (next: object[], settled = true) => {
    writeFileSync(hooksFile, JSON.stringify({ hooks: next }))
    if (settled) utimesSync(hooksFile, A_MINUTE_AGO, A_MINUTE_AGO)
  }
  return {
    home,
    project,
    env,
    hooksFile,
    settings,
    edit,
    matchers: () => JSON.parse(readFileSync(settings, 'utf8')).hooks.PreToolUse?.map((group: { matcher?: string }) => group.matcher),
  }
}

const fireSignature = async (project: string, env: Record<string, string>) =>
  (await loadHooks({ cwd: project, env, strict: false })).signature

describe('the stamp a narrowed install leaves, and the signature a fire compares it with', () => {
  test('install and fire see the same config alike; an edit, a new layer or a hook folder changes it', async () => {
    const { project, env, edit } = narrowedProject()
    const stamp = readStamp(project, env)!
    expect(stamp).toMatchObject({ root: project, dir: project, agents: ['claude'] })
    expect(stamp.signature).not.toBe('')
    // The fire's signature comes from the stats its document cache took: equal means "compiled from this".
    expect(await fireSignature(project, env)).toBe(stamp.signature)
    edit([{ name: 'gate', event: 'tool:pre_execute:bash|write', command: 'true' }])
    expect(await fireSignature(project, env)).not.toBe(stamp.signature)
    const edited = await fireSignature(project, env)
    writeFileSync(join(project, '.hookrun', 'hooks.local.json'), '{"hooks": []}')
    expect(await fireSignature(project, env)).not.toBe(edited)
    const withLocal = await fireSignature(project, env)
    mkdirSync(join(project, '.hookrun', 'hooks'))
    writeFileSync(join(project, '.hookrun', 'hooks', 'check.sh'), '#!/bin/sh\n')
    chmodSync(join(project, '.hookrun', 'hooks', 'check.sh'), 0o755)
    expect(await fireSignature(project, env)).toBe(`${withLocal}\nhook folders or plugins`)
  })

  test('a file edited in the last seconds is stamped as unknown, so the next fire syncs again', () => {
    const { project, env, edit } = narrowedProject()
    edit([{ name: 'gate', event: 'tool:pre_execute', command: 'true' }], false)
    expect(compiledSignature(loadConfig({ cwd: project, env }))).toBe('')
    installAgents({ agents: [], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true }, false)
    expect(readStamp(project, env)!.signature).toBe('')
  })

  test('a sync that cannot stamp exactly keeps the time the last one started: no sync per fire while a file stays unsettled', () => {
    const { project, env, hooksFile } = narrowedProject()
    const started = Date.now()
    writeStamp({ ...readStamp(project, env)!, startedAt: started }, env)
    writeFileSync(hooksFile, JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'true' }] }))
    const future = new Date(Date.now() + 3_600_000) // a clock that disagrees: the file never settles
    utimesSync(hooksFile, future, future)
    installAgents({ agents: [], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true }, false)
    const stamp = readStamp(project, env)!
    expect(stamp).toMatchObject({ signature: '', startedAt: started })
    expect(narrowedAction(stamp, 'anything', true, env, started + 1000)).toEqual({ sync: false })
  })

  test('configSignature names each file with its stat signature', () => {
    const refs = [
      { layer: 'user' as const, file: '/u/hooks.json' },
      { layer: 'project' as const, file: '/p/.hookrun/hooks.json' },
    ]
    expect(configSignature(refs, (ref) => (ref.layer === 'user' ? '1:2:3:4' : undefined), false)).toBe(
      'user /u/hooks.json 1:2:3:4\nproject /p/.hookrun/hooks.json missing',
    )
  })

  test('a damaged stamp, or one another project left under the same name, is no stamp', () => {
    const { project, env } = narrowedProject()
    const stamp = readStamp(project, env)!
    writeFileSync(stampFile(project, env), JSON.stringify({ ...stamp, root: '/elsewhere' }))
    expect(readStamp(project, env)).toBeUndefined()
    writeFileSync(stampFile(project, env), '{"root":')
    expect(readStamp(project, env)).toBeUndefined()
  })
})

test("the organisation's remote policy is compiled in too, and a pulled copy changes what fires compare", async () => {
  const { project, env } = homeAndProject(dirs)
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const url = 'https://policy.example/hooks.json'
  const managed = { ...env, HOOKRUN_MANAGED_DIR: join(project, 'managed') }
  mkdirSync(join(project, 'managed'))
  writeFileSync(
    join(project, 'managed', 'hooks.json'),
    JSON.stringify({ policy: { url, publicKey: publicKey.export({ format: 'pem', type: 'spki' }).toString() } }),
  )
  mkdirSync(join(project, '.hookrun'))
  writeFileSync(
    join(project, '.hookrun', 'hooks.json'),
    JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'true' }] }),
  )
  // The cached copy `hookrun policy pull` leaves: a gate on Write only the policy has.
  const cache = (hooks: object[]) => {
    const { document, signature } = signPolicy(JSON.stringify({ hooks }), privateKey.export({ format: 'pem', type: 'pkcs8' }).toString())
    const files = policyFiles(url, managed)
    mkdirSync(join(files.document, '..'), { recursive: true })
    writeFileSync(files.document, document)
    writeFileSync(files.meta, JSON.stringify({ url, signature, fetchedAt: Date.now(), expiresAt: Date.now() + 3_600_000 }))
  }
  cache([{ name: 'org-gate', event: 'tool:pre_execute:write', command: 'true' }])
  trustProject({ cwd: project, env: managed })
  installAgents({ agents: ['claude'], scope: 'project', cwd: project, env: managed, self: '/opt/hookrun', narrow: true }, false)
  const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8'))
  expect(settings.hooks.PreToolUse[0].matcher).toBe('^(Bash|Shell|Write|exec)$')
  const before = await fireSignature(project, managed)
  cache([{ name: 'org-gate', event: 'tool:pre_execute:read', command: 'true' }])
  expect(await fireSignature(project, managed)).not.toBe(before)
})

describe('narrowedAction: what one fire does', () => {
  const stampFor = (project: string): NarrowedStamp => ({
    root: project,
    dir: project,
    agents: ['claude'],
    signature: 'compiled from this',
  })

  test('nothing while the config is what the agents were compiled from; a sync when it changed, claimed once per SYNC_EVERY_MS', () => {
    const { project, env } = homeAndProject(dirs)
    const stamp = stampFor(project)
    writeStamp(stamp, env)
    expect(narrowedAction(stamp, 'compiled from this', true, env)).toEqual({ sync: false })
    const now = 1_000_000_000
    expect(narrowedAction(readStamp(project, env)!, 'edited', true, env, now)).toEqual({ sync: true })
    expect(readStamp(project, env)!.startedAt).toBe(now)
    // Parallel and following fires do not start another one while it runs (or after it failed).
    expect(narrowedAction(readStamp(project, env)!, 'edited', true, env, now + SYNC_EVERY_MS - 1)).toEqual({ sync: false })
    expect(narrowedAction(readStamp(project, env)!, 'edited', true, env, now + SYNC_EVERY_MS)).toEqual({ sync: true })
  })

  test('never in a project whose hooks are not trusted, nor for a stamp that follows no agent', () => {
    const { project, env } = homeAndProject(dirs)
    const stamp = stampFor(project)
    expect(narrowedAction(stamp, 'edited', false, env)).toEqual({ sync: false })
    expect(narrowedAction({ ...stamp, agents: [] }, 'edited', true, env)).toEqual({ sync: false })
    expect(existsSync(stampFile(project, env))).toBe(false)
  })

  test('the notice a sync left is given to one fire, then forgotten', () => {
    const { project, env } = homeAndProject(dirs)
    writeStamp({ ...stampFor(project), notice: 'entries brought up to date' }, env)
    expect(narrowedAction(readStamp(project, env)!, 'compiled from this', true, env)).toEqual({
      sync: false,
      notice: 'entries brought up to date',
    })
    expect(readStamp(project, env)!.notice).toBeUndefined()
    expect(narrowedAction(readStamp(project, env)!, 'compiled from this', true, env)).toEqual({ sync: false })
  })

  test('a state folder that cannot be written claims nothing: no sync on every fire', () => {
    const { project, env } = homeAndProject(dirs)
    const blocked = { ...env, XDG_STATE_HOME: join(project, 'a-file') }
    writeFileSync(join(project, 'a-file'), '')
    expect(narrowedAction(stampFor(project), 'edited', true, blocked)).toEqual({ sync: false })
  })
})

describe('which agents fires keep up to date', () => {
  test('a plain install, an --events install and uninstall stop following; Codex is never followed', () => {
    const { project, env } = narrowedProject()
    const both = installAgents(
      { agents: ['gemini', 'codex'], scope: 'project', cwd: project, env, self: '/opt/hookrun', narrow: true },
      false,
    )
    expect(readStamp(project, env)!.agents).toEqual(['claude', 'gemini'])
    // Codex's narrowed file is not followed, only remembered with what it was compiled from.
    expect(readStamp(project, env)!.reviewed?.agents).toEqual(['codex'])
    expect(both.output).toContain('then review the changed entries in Codex')
    installAgents(
      { agents: ['gemini'], scope: 'project', cwd: project, env, self: '/opt/hookrun', narrow: true, events: ['BeforeTool'] },
      false,
    )
    expect(readStamp(project, env)!.agents).toEqual(['claude'])
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun' }, false)
    expect(readStamp(project, env)!.agents).toEqual([])
    installAgents({ agents: ['codex'], scope: 'project', cwd: project, env }, true)
    // No agent left to follow or to tell about: the stamp goes, and fires read nothing more than a failed open.
    expect(readStamp(project, env)).toBeUndefined()
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun', narrow: true }, false)
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env }, true)
    expect(readStamp(project, env)).toBeUndefined()
  })
})

describe('install --sync --quiet: the sync a fire starts', () => {
  test('in a trusted project it narrows again, stamps what it compiled and leaves a notice for the next fire', () => {
    const { project, env, edit, matchers, settings } = narrowedProject()
    expect(matchers()).toEqual(['^(Bash|Shell|exec)$'])
    const before = readFileSync(settings, 'utf8')
    edit([{ name: 'gate', event: 'tool:pre_execute:bash|write', command: 'true' }])
    trustProject({ cwd: project, env, syncAgents: false }) // trusted, not synced: as a folder in trustedFolders is after an edit
    expect(staleAgentConfigs(project, env).map((stale) => stale.what)).toEqual([
      expect.stringContaining('the next fire here brings it up to date by itself'),
    ])
    const result = installAgents(
      { agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true, quiet: true },
      false,
    )
    expect(result).toMatchObject({ output: '', exitCode: 0 })
    // Only the matcher's text changed: the file keeps its layout.
    expect(readFileSync(settings, 'utf8')).toBe(before.replaceAll('"^(Bash|Shell|exec)$"', '"^(Bash|Shell|Write|exec)$"'))
    expect(staleAgentConfigs(project, env)).toEqual([])
    const stamp = readStamp(project, env)!
    expect(stamp.notice).toContain('.claude/settings.local.json up to date')
    expect(stamp.notice).toContain('next session')
    expect(stamp.signature).toBe(compiledSignature(loadConfig({ cwd: project, env })))
  })

  test('in a project changed since it was trusted it changes nothing: hookrun trust comes first', () => {
    const { project, env, edit, matchers, settings } = narrowedProject()
    const before = readFileSync(settings, 'utf8')
    edit([{ name: 'gate', event: 'tool:pre_execute:bash|write|read', command: 'true' }])
    expect(staleAgentConfigs(project, env).map((stale) => stale.what)).toEqual([
      expect.stringContaining("once you trust the project's hooks (hookrun trust)"),
    ])
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true, quiet: true }, false)
    expect(readFileSync(settings, 'utf8')).toBe(before)
    expect(matchers()).toEqual(['^(Bash|Shell|exec)$'])
    // The explicit, visible `install --sync` is the user's own act: it narrows at once.
    installAgents({ agents: [], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true }, false)
    expect(matchers()).toEqual(['^(Bash|Read|Shell|Write|exec)$'])
  })

  test('an agent the user took hookrun out of by hand gets no entries back, and is followed no more', () => {
    const { project, env, edit, settings } = narrowedProject()
    writeFileSync(settings, '{}\n')
    edit([{ name: 'gate', event: 'tool:pre_execute:write', command: 'true' }])
    trustProject({ cwd: project, env, syncAgents: false })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true, quiet: true }, false)
    expect(readFileSync(settings, 'utf8')).toBe('{}\n')
    expect(readStamp(project, env)).toBeUndefined()
  })
})

test('explain says when an agent config is stale, with the fix (the check doctor runs)', async () => {
  const { project, env, edit } = narrowedProject()
  edit([
    { name: 'gate', event: 'tool:pre_execute:bash', command: 'true' },
    { name: 'done', event: 'agent:stop', command: 'true' },
  ])
  trustProject({ cwd: project, env, syncAgents: false }) // trusted, not synced: as a folder in trustedFolders is after an edit
  const { output } = await explainCommand({ event: 'agent:stop', cwd: project, env }, { json: false, dryRun: true })
  expect(output).toContain(
    `stale     Claude Code: ${join(project, '.claude', 'settings.local.json')} is out of date with hooks.json (Stop has no entry); the next fire here brings it up to date by itself\n          fix: hookrun install --project --sync\n`,
  )
  const json = JSON.parse((await explainCommand({ event: 'agent:stop', cwd: project, env }, { json: true, dryRun: true })).output)
  expect(json.staleAgentConfigs).toEqual([expect.objectContaining({ agent: 'claude', fix: 'hookrun install --project --sync' })])
  installAgents({ agents: [], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true }, false)
  expect((await explainCommand({ event: 'agent:stop', cwd: project, env }, { json: false, dryRun: true })).output).not.toContain('stale')
})

test('hookrun trust brings a narrowed config up to date at once, its entries still running the hookrun they ran', () => {
  const { project, env, edit, settings } = narrowedProject()
  edit([
    { name: 'gate', event: 'tool:pre_execute:bash', command: 'true' },
    { name: 'done', event: 'agent:stop', command: 'true' },
  ])
  const output = trustProject({ cwd: project, env })
  expect(output).toContain(
    "claude: brought .claude/settings.local.json up to date with the project's hooks: it now asks hookrun on PreToolUse, PreSkillShellCommand, Stop",
  )
  const hooks = JSON.parse(readFileSync(settings, 'utf8')).hooks
  // Not the hookrun that ran trust (here: the test runner): the one the install put there.
  expect(hooks.Stop[0].hooks[0].command).toBe('/opt/hookrun fire --format claude')
  expect(staleAgentConfigs(project, env)).toEqual([])
  expect(readStamp(project, env)!.signature).toBe(compiledSignature(loadConfig({ cwd: project, env })))
})

describe('userRoutingAction: what one fire does for a narrowed user install', () => {
  const stamp = (): UserStamp => ({ agents: ['gemini'], signatures: { '': 'user layers', '/p': 'user layers + project' } })

  test('a sync when the config a fire sees differs from its entry (or has none), claimed once per SYNC_EVERY_MS; none where the hooks are not trusted', () => {
    const { env } = homeAndProject(dirs)
    writeUserStamp(stamp(), env)
    expect(userRoutingAction(readUserStamp(env)!, '/p', 'user layers + project', true, env)).toEqual({ sync: false })
    expect(userRoutingAction(readUserStamp(env)!, '', 'user layers', true, env)).toEqual({ sync: false })
    // An untrusted project's hooks do not run: their routes wait for hookrun trust, which syncs.
    expect(userRoutingAction(readUserStamp(env)!, '/q', 'other', false, env)).toEqual({ sync: false })
    const now = 1_000_000_000
    expect(userRoutingAction(readUserStamp(env)!, '/q', 'other', true, env, now)).toEqual({ sync: true })
    expect(readUserStamp(env)!.startedAt).toBe(now)
    expect(userRoutingAction(readUserStamp(env)!, '', 'edited', true, env, now + 1000)).toEqual({ sync: false })
    expect(userRoutingAction(readUserStamp(env)!, '', 'edited', true, env, now + SYNC_EVERY_MS)).toEqual({ sync: true })
  })

  test('the notice a sync left is shown once; no agent left removes the stamp', () => {
    const { env } = homeAndProject(dirs)
    writeUserStamp({ ...stamp(), notice: 'brought up to date' }, env)
    expect(userRoutingAction(readUserStamp(env)!, '', 'user layers', true, env)).toEqual({ sync: false, notice: 'brought up to date' })
    expect(userRoutingAction(readUserStamp(env)!, '', 'user layers', true, env)).toEqual({ sync: false })
    writeUserStamp({ agents: [], signatures: {} }, env)
    expect(readUserStamp(env)).toBeUndefined()
  })
})

test("an event left out for the installed agent's version is not reported stale: Claude Code 2.1.331 and PreSkillShellCommand", () => {
  const { home, project, env: base } = homeAndProject(dirs)
  const bin = join(home, 'bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'claude'), '#!/bin/sh\necho "2.1.331 (Claude Code)"\n', { mode: 0o755 })
  const env = { ...base, PATH: `${bin}:${base.PATH ?? ''}` }
  mkdirSync(join(project, '.hookrun'))
  const hooksFile = join(project, '.hookrun', 'hooks.json')
  writeFileSync(hooksFile, JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'true' }] }))
  utimesSync(hooksFile, A_MINUTE_AGO, A_MINUTE_AGO)
  trustProject({ cwd: project, env })
  installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun', narrow: true }, false)
  const settings = agentTarget('claude')!.file('project', { home, project, env })
  expect(Object.keys(JSON.parse(readFileSync(settings, 'utf8')).hooks)).toEqual(['PreToolUse'])
  expect(staleAgentConfigs(project, env)).toEqual([])
  // Where the version cannot be told, the event is expected (install writes it), so its absence is stale.
  expect(staleAgentConfigs(project, base).map((stale) => stale.what)).toEqual([
    expect.stringContaining('PreSkillShellCommand has no entry'),
  ])
})
