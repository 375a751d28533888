/**
 * The plan decides as the long way would, whatever changes: fast-check picks a sequence of changes
 * to every input a fire's config stage reads (src/config/plan-inputs.ts), and after each one a fire
 * that may answer from its plan and a fire that reads every layer must give the same decision, the
 * same hooks, and log to the same place.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { trustProject, untrustProject } from '../../src/commands/trust.ts'
import { observe } from '../../src/config/observe.ts'
import { plannedHooks } from '../../src/config/plan.ts'
import { agentProjectDir, projectSearchStart } from '../../src/config/project.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { fire } from '../../src/fire.ts'
import { cliEnvironment, makeProject, removeProject } from '../helpers.ts'

/** While set, the plan neither answers nor is written: the fire reads every layer. */
const longWay = { on: false }
vi.mock('../../src/config/plan.ts', async (original) => {
  const real = await original<typeof import('../../src/config/plan.ts')>()
  return {
    ...real,
    plannedHooks: (...args: Parameters<typeof real.plannedHooks>) => (longWay.on ? undefined : real.plannedHooks(...args)),
    planHooks: (...args: Parameters<typeof real.planHooks>) => (longWay.on ? false : real.planHooks(...args)),
  }
})

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) removeProject(dir)
})

type Env = Record<string, string | undefined>
const payload = { tool_name: 'Bash', tool_input: { command: 'ls' } }
const event = qualifyEvent('tool:pre_execute', payload)
const CLAUDE = { variables: ['CLAUDE_PROJECT_DIR'] }

/** One project (with a nested one), its user config, and what the changes toggle. */
interface World {
  readonly dir: string
  readonly outside: string
  env: Env
  /** Every change writes a new version; its files are dated back to a time of their own (plans take only settled files). */
  version: number
  readonly toggled: Set<string>
}

const hookEntry = (name: string, command: string, extra: Record<string, unknown> = {}) => ({
  name,
  event: 'tool:pre_execute',
  command,
  ...extra,
})
/** A gate that lets every later hook run too, and says which version of it answered. */
const gateScript = (version: string) => `#!/bin/sh\necho '{"additionalContext":"gate ${version}"}'\n`
/** An executable for a hook folder: serves tool:pre_execute and says which version answered. */
const folderHook = (reason: string) =>
  `#!/bin/sh\nif [ "$1" = hook ]; then echo tool:pre_execute; exit 0; fi\necho '{"additionalContext":"${reason}"}'\n`

function write(world: World, file: string, text: string, mode?: number): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  if (mode !== undefined) chmodSync(file, mode)
  const at = new Date(Date.now() - 3_600_000 - world.version * 10_000)
  utimesSync(file, at, at)
}

const userConfigHome = (world: World) => world.env.XDG_CONFIG_HOME!
const userConfig = (world: World) => join(userConfigHome(world), 'hookrun', 'hooks.json')

function writeUserConfig(world: World): void {
  write(
    world,
    userConfig(world),
    JSON.stringify({
      log: { path: join(world.dir, world.toggled.has('log') ? 'log-b.jsonl' : 'log-a.jsonl') },
      hooks: world.toggled.has('user hook') ? [hookEntry('mine', `echo '{"additionalContext":"mine ${world.version}"}'`)] : [],
    }),
  )
}

/** Each change to one input of the config stage; the name says which. */
const CHANGES: Record<string, (world: World) => void | Promise<void>> = {
  'project hooks.json edited': (world) =>
    write(
      world,
      join(world.dir, '.hookrun/hooks.json'),
      JSON.stringify({
        hooks: [
          hookEntry('gate', world.version % 2 ? './gate.sh' : `./gate.sh; echo ${world.version} >/dev/null`, {
            env: { BASH_ENV: 'tools/env.sh' },
          }),
        ],
      }),
    ),
  'hooks.local.json appears or goes': (world) => {
    const file = join(world.dir, '.hookrun/hooks.local.json')
    if (existsSync(file)) rmSync(file)
    else write(world, file, JSON.stringify({ hooks: [hookEntry('local', 'true')] }))
  },
  "the user config's hooks": (world) => {
    toggle(world, 'user hook')
    writeUserConfig(world)
  },
  "the user config's log setting": (world) => {
    toggle(world, 'log')
    writeUserConfig(world)
  },
  'the project is untrusted': (world) => void untrustProject({ cwd: world.dir, env: world.env }),
  'the nested project is untrusted': (world) => void untrustProject({ cwd: join(world.dir, 'sub'), env: world.env }),
  'the script the hook runs is edited': (world) => write(world, join(world.dir, 'gate.sh'), gateScript(`${world.version}`), 0o755),
  "the file the hook's env loads (BASH_ENV) is edited": (world) => write(world, join(world.dir, 'tools/env.sh'), `# ${world.version}\n`),
  "an executable in the project's hook folder": (world) =>
    appearOrGo(join(world.dir, '.hookrun/hooks/extra'), () =>
      write(world, join(world.dir, '.hookrun/hooks/extra'), folderHook(`extra ${world.version}`), 0o755),
    ),
  "an executable in the user's hook folder": (world) =>
    appearOrGo(join(userConfigHome(world), 'hookrun/hooks/mine'), () =>
      write(world, join(userConfigHome(world), 'hookrun/hooks/mine'), folderHook(`user folder ${world.version}`), 0o755),
    ),
  "a plugin's manifest": (world) => {
    const plugin = join(world.dir, '.hookrun/plugins/acme@tools')
    if (world.toggled.delete('plugin')) return rmSync(join(world.dir, '.hookrun/plugins'), { recursive: true })
    world.toggled.add('plugin')
    write(world, join(plugin, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'tools', version: `1.${world.version}.0` }))
    write(
      world,
      join(plugin, 'hooks/hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo plugin ${world.version}` }] }] } }),
    )
  },
  'a managed layer (HOOKRUN_MANAGED_DIR)': (world) => {
    const managed = join(world.outside, 'managed')
    write(world, join(managed, 'hooks.json'), JSON.stringify({ hooks: [hookEntry('org', 'true')] }))
    world.env = { ...world.env, HOOKRUN_MANAGED_DIR: world.env.HOOKRUN_MANAGED_DIR === undefined ? managed : undefined }
  },
  'the user config moves (XDG_CONFIG_HOME)': (world) => {
    const elsewhere = join(world.outside, 'config-elsewhere')
    world.env = { ...world.env, XDG_CONFIG_HOME: userConfigHome(world) === elsewhere ? join(world.dir, '.xdg-config') : elsewhere }
  },
  'the trust records move (XDG_STATE_HOME)': (world) => {
    const elsewhere = join(world.outside, 'state-elsewhere')
    world.env = { ...world.env, XDG_STATE_HOME: world.env.XDG_STATE_HOME === elsewhere ? join(world.dir, '.xdg-state') : elsewhere }
  },
  "the agent's project variable (CLAUDE_PROJECT_DIR)": (world) => {
    const sub = join(world.dir, 'sub')
    world.env = { ...world.env, CLAUDE_PROJECT_DIR: world.env.CLAUDE_PROJECT_DIR === sub ? world.dir : sub }
  },
}

/** A file that is there goes; one that is not is written. */
function appearOrGo(file: string, writeIt: () => void): void {
  if (existsSync(file)) rmSync(file)
  else writeIt()
}

function toggle(world: World, what: string): void {
  if (!world.toggled.delete(what)) world.toggled.add(what)
}

async function makeWorld(): Promise<World> {
  const dir = makeProject()
  const outside = makeProject()
  dirs.push(dir, outside)
  const world: World = { dir, outside, env: { ...cliEnvironment(dir), CLAUDE_PROJECT_DIR: dir }, version: 0, toggled: new Set() }
  CHANGES['project hooks.json edited']!(world)
  write(world, join(dir, 'gate.sh'), gateScript('gate'), 0o755)
  write(world, join(dir, 'tools/env.sh'), 'true\n')
  write(world, join(dir, 'sub/.hookrun/hooks.json'), JSON.stringify({ hooks: [hookEntry('note', 'true')] }))
  writeUserConfig(world)
  await settleWorld(world)
  return world
}

/** Both projects trusted as they are now, and a fire that plans (where the config may be planned). */
async function settleWorld(world: World): Promise<void> {
  for (const root of [world.dir, join(world.dir, 'sub')]) trustProject({ cwd: root, env: world.env })
  await decideIn(world)
}

function cwdOf(world: World): string {
  // The fire's folder: outside every project, so the agent's project variable decides which one.
  return projectSearchStart(agentProjectDir(CLAUDE, world.env, payload), world.outside)
}

/** What a fire decided, and which audit logs it wrote to. */
async function decideIn(world: World): Promise<unknown> {
  const cwd = cwdOf(world)
  const logs = ['log-a.jsonl', 'log-b.jsonl'].map((name) => join(world.dir, name))
  const sizes = () => logs.map((file) => (existsSync(file) ? statSync(file).size : 0))
  const before = sizes()
  const decision = await fire({ event: 'tool:pre_execute', payload, cwd, env: world.env })
  const after = sizes()
  return {
    ...decision,
    hooks: decision.hooks.map(({ durationMs: _, ...hook }) => hook),
    loggedTo: logs.filter((_, index) => after[index]! > before[index]!),
  }
}

describe('a planned fire decides as the long way does', () => {
  test('after any sequence of changes to the inputs the config stage declares', async () => {
    // Changes made while a plan stood ready to answer: the ones that test it.
    const armed = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...Object.keys(CHANGES)), { minLength: 1, maxLength: 5 }), async (changes) => {
        const world = await makeWorld()
        for (const [index, change] of changes.entries()) {
          if (plannedHooks(observe({ cwd: cwdOf(world), env: world.env }), event) !== undefined)
            armed.set(change, (armed.get(change) ?? 0) + 1)
          world.version++
          await CHANGES[change]!(world)
          const planned = await decideIn(world)
          longWay.on = true
          try {
            expect(planned, `after: ${changes.slice(0, index + 1).join(', ')}`).toEqual(await decideIn(world))
          } finally {
            longWay.on = false
          }
          await settleWorld(world)
        }
      }),
      // Each change alone first, then sequences of them.
      { numRuns: 16 + Object.keys(CHANGES).length, examples: Object.keys(CHANGES).map((change) => [[change]]) },
    )
    // Most changes met a plan ready to answer (the ones left: made while a managed layer, a plugin
    // or a hook folder's executable made the config one that is never planned).
    const total = [...armed.values()].reduce((sum, each) => sum + each, 0)
    expect(total, JSON.stringify([...armed])).toBeGreaterThan(Object.keys(CHANGES).length + 8)
    // And every kind of change met one at least once.
    expect(Object.keys(CHANGES).filter((change) => !armed.has(change))).toEqual([])
  }, 120_000)
})
