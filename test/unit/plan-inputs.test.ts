/**
 * A plan rests on every input of the config stage (src/config/plan-inputs.ts): each file or
 * folder the config stage looks at while a fire reads every layer is one a declared input covers
 * (a config file, a hook or plugin folder, what a project's trust rests on), or one every fire
 * looks at again before it asks its plan (finding the config files), or hookrun's own cache.
 * A config stage that starts reading something new fails here until a plan input covers it.
 */
import { chmodSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { afterAll, expect, test, vi } from 'vitest'

/** The paths node:fs was asked about while `seen.on`. */
const seen = { on: false, paths: new Set<string>() }
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>()
  const watched = ['statSync', 'lstatSync', 'readFileSync', 'readdirSync', 'existsSync', 'openSync', 'realpathSync'] as const
  const wrapped: Record<string, unknown> = { ...real }
  for (const name of watched) {
    const fn = real[name] as (...args: unknown[]) => unknown
    wrapped[name] = (...args: unknown[]) => {
      if (seen.on && typeof args[0] === 'string') seen.paths.add(args[0])
      return fn(...args)
    }
  }
  return { ...wrapped, default: wrapped }
})

const { trustProject } = await import('../../src/commands/trust.ts')
const { observe } = await import('../../src/config/observe.ts')
const { planFile } = await import('../../src/config/plan.ts')
const { qualifyEvent } = await import('../../src/event/event.ts')
const { loadAndPlan } = await import('../../src/fire-config.ts')
const { HOOK_FOLDERS } = await import('../../src/trust/material.ts')
const { cliEnvironment, makeProject, removeProject } = await import('../helpers.ts')
type PlanInputs = import('../../src/config/plan-inputs.ts').PlanInputs

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) removeProject(dir)
})

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  const longAgo = new Date(Date.now() - 3_600_000)
  utimesSync(file, longAgo, longAgo)
}

test('every file and folder the config stage reads is one a plan input covers', async () => {
  const dir = makeProject()
  dirs.push(dir)
  const env = cliEnvironment(dir)
  write(
    join(dir, '.hookrun/hooks.json'),
    JSON.stringify({
      hooks: [{ name: 'gate', event: 'tool:pre_execute', command: './gate.sh tools/data.txt', env: { BASH_ENV: 'tools/env.sh' } }],
    }),
  )
  write(join(dir, '.hookrun/hooks.local.json'), JSON.stringify({ hooks: [] }))
  write(join(dir, 'gate.sh'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(dir, 'gate.sh'), 0o755)
  write(join(dir, 'tools/env.sh'), 'true\n')
  write(join(dir, 'tools/data.txt'), 'data\n')
  write(join(env.XDG_CONFIG_HOME!, 'hookrun/hooks.json'), JSON.stringify({ log: { path: join(dir, 'log.jsonl') }, hooks: [] }))
  trustProject({ cwd: dir, env })
  const event = qualifyEvent('tool:pre_execute', { tool_name: 'Bash' })

  // What every fire reads before it asks its plan: finding the config files and projects.
  seen.on = true
  const look = observe({ cwd: dir, env })
  const { found } = look
  const everyFire = new Set(seen.paths)
  seen.paths.clear()
  // The config stage the long way, which makes the plan.
  await loadAndPlan(event, look, { strict: false })
  seen.on = false
  const configStage = [...seen.paths]

  const { inputs } = JSON.parse(readFileSync(planFile(found, env), 'utf8')) as { inputs: PlanInputs }
  const covered = new Set<string>([
    ...found.files.map((ref) => ref.file),
    ...found.projects,
    ...inputs.folders.map(([folder]) => folder),
    // Trust walks these folders again each time it checks what it rests on (src/trust/footprint.ts).
    ...inputs.trustRecords.flatMap(([root, footprint]) => [
      ...HOOK_FOLDERS.map((folder) => join(root, folder)),
      footprint.record[0],
      ...footprint.files.map(([file]) => file),
      ...footprint.configFiles,
      ...footprint.commandPaths,
      ...(footprint.links ?? []).map(([file]) => file),
    ]),
  ])
  const under = (path: string, folder: string) => path === folder || path.startsWith(folder + sep)
  const uncovered = configStage.filter(
    (path) =>
      !everyFire.has(path) &&
      !covered.has(path) &&
      // Inside a hook or plugin folder: the folder's signature covers what is in it (or trust's walk does).
      !inputs.folders.some(([folder]) => under(path, folder)) &&
      // hookrun's own caches, each checked against the signatures it was made from.
      !under(path, env.XDG_CACHE_HOME!),
  )
  expect(inputs.trustRecords.length).toBe(1)
  expect(configStage.length).toBeGreaterThan(5)
  expect(uncovered).toEqual([])
})
