import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { findConfigFiles } from '../../src/config/files.ts'
import type { ConfigProblem } from '../../src/core/types.ts'
import { loadConfig, readConfigFile } from '../../src/config/parse.ts'
import { HookSchema } from '../../src/config/schema.ts'
import { makeProject, removeProject, writeFiles } from '../helpers.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { selectHooks } from '../../src/select/select.ts'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach(removeProject))
function project(files: Record<string, string | object>): string {
  const dir = makeProject(files)
  dirs.push(dir)
  return dir
}
const env = (dir: string) => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), XDG_STATE_HOME: join(dir, 'state') })
/** Project hooks run only when trusted: list the test folder in the user config's trustedFolders. */
function trustFolder(dir: string): void {
  const file = join(dir, 'xdg/hookrun/hooks.json')
  const existing = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
  writeFiles(dir, { 'xdg/hookrun/hooks.json': { ...existing, trustedFolders: [dir] } })
}

describe('HookSchema', () => {
  test('fills defaults', () => {
    expect(HookSchema.parse({ event: '*', command: 'true' })).toEqual({
      event: '*',
      command: 'true',
      timeout: 10,
      blocking: true,
      enabled: true,
    })
  })
  test('a name-only enabled:false entry is valid; without a name it is not', () => {
    expect(HookSchema.safeParse({ name: 'x', enabled: false }).success).toBe(true)
    expect(HookSchema.safeParse({ enabled: false }).success).toBe(false)
  })
  test.each([
    [{ event: '*' }, 'command'],
    [{ command: 'true' }, 'event'],
    [{ event: '*', command: 'true', timeout: 0 }, 'timeout'],
    [{ event: '*', command: 'true', onError: 'ignore' }, 'onError'],
    [{ event: 'tool::x', command: 'true' }, 'event'],
    [{ event: [], command: 'true' }, 'event'],
  ])('%j is rejected at %s', (entry, field) => {
    const result = HookSchema.safeParse(entry)
    expect(result.success).toBe(false)
    expect(result.error!.issues.map((issue) => issue.path[0])).toContain(field)
  })
})

describe('findConfigFiles', () => {
  test('user, project and local in order; project found from a subfolder', () => {
    const dir = project({ 'xdg/hookrun/hooks.json': {}, '.hookrun/hooks.json': {}, '.hookrun/hooks.local.json': {}, 'a/b/.keep': '' })
    const found = findConfigFiles({ cwd: join(dir, 'a/b'), env: env(dir) })
    expect(found.projectRoot).toBe(dir)
    expect(found.files).toEqual([
      { layer: 'user', file: join(dir, 'xdg/hookrun/hooks.json') },
      { layer: 'project', file: join(dir, '.hookrun/hooks.json') },
      { layer: 'local', file: join(dir, '.hookrun/hooks.local.json') },
    ])
  })
  test('without XDG_CONFIG_HOME the user file is ~/.config/hookrun/hooks.json', () => {
    const dir = project({ '.config/hookrun/hooks.json': {} })
    expect(findConfigFiles({ cwd: dir, env: { HOME: dir } }).files).toEqual([
      { layer: 'user', file: join(dir, '.config/hookrun/hooks.json') },
    ])
  })
  test('named files replace discovery; HOOKRUN_CONFIG is a list', () => {
    const dir = project({ '.hookrun/hooks.json': {}, 'a.json': {}, 'b.json': {} })
    expect(
      findConfigFiles({ cwd: dir, env: { ...env(dir), HOOKRUN_CONFIG: `${dir}/a.json:${dir}/b.json` } }).files.map((f) => f.layer),
    ).toEqual(['config', 'config'])
    expect(findConfigFiles({ cwd: dir, env: env(dir), configFiles: ['a.json'] }).files).toEqual([
      { layer: 'config', file: join(dir, 'a.json') },
    ])
  })
})

describe('readConfigFile', () => {
  test('each problem names the path; bad entries are skipped, the rest kept', () => {
    const dir = project({
      'h.json': {
        hooks: [
          { event: '*', command: 'a' },
          { event: '*', command: 'b', timeout: 'soon' },
          { event: '*', command: 'c', extra: true },
        ],
      },
    })
    const problems: ConfigProblem[] = []
    const entries = readConfigFile({ layer: 'config', file: join(dir, 'h.json') }, problems)
    expect(entries.map((entry) => entry.entry.command)).toEqual(['a', 'c'])
    expect(problems).toEqual([
      {
        severity: 'error',
        file: join(dir, 'h.json'),
        path: 'hooks[1].timeout',
        message: 'expected number, received string; hook skipped',
        brokenHook: { events: ['*'] },
      },
      {
        severity: 'warning',
        file: join(dir, 'h.json'),
        path: 'hooks[2].extra',
        message: 'unknown key, ignored (see `hookrun schema` for the fields)',
      },
    ])
  })
  test('a file that is not JSON, or not the right shape, is skipped whole', () => {
    const dir = project({ 'bad.json': '{\n  "hooks": [],\n}', 'shape.json': { hooks: 'all of them' } })
    const problems: ConfigProblem[] = []
    expect(readConfigFile({ layer: 'config', file: join(dir, 'bad.json') }, problems)).toEqual([])
    expect(readConfigFile({ layer: 'config', file: join(dir, 'shape.json') }, problems)).toEqual([])
    // The same words under every runtime, with where to look.
    expect(problems[0]!.message).toBe(
      'not valid JSON: line 3, column 1: expected a property name in double quotes (JSON allows no trailing comma); file skipped',
    )
    expect(problems[1]).toMatchObject({
      path: 'hooks',
      message: "expected an array of hooks, or Claude Code's object { Event: [ { matcher, hooks } ] }; file skipped",
    })
  })
})

describe('loadConfig merging', () => {
  test('same name replaces in place, enabled:false disables, unnamed hooks get layer#index', () => {
    const dir = project({
      'xdg/hookrun/hooks.json': {
        hooks: [
          { name: 'a', event: '*', command: 'user-a' },
          { event: '*', command: 'anon' },
          { name: 'b', event: '*', command: 'user-b' },
        ],
      },
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'b', enabled: false },
          { name: 'a', event: 'session:*', command: 'project-a' },
        ],
      },
    })
    trustFolder(dir)
    const config = loadConfig({ cwd: dir, env: env(dir) })
    expect(config.hooks.map((hook) => [hook.name, hook.command, hook.enabled, hook.source.layer])).toEqual([
      ['a', 'project-a', true, 'project'],
      ['user#1', 'anon', true, 'user'],
      ['b', 'user-b', false, 'user'],
    ])
    expect(config.hooks[2]!.disabledBy).toEqual({ file: join(dir, '.hookrun/hooks.json'), index: 0, path: 'hooks[0]' })
  })
  test('duplicate names within one file are reported', () => {
    const dir = project({
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'x', event: '*', command: '1' },
          { name: 'x', event: '*', command: '2' },
        ],
      },
    })
    trustFolder(dir)
    const config = loadConfig({ cwd: dir, env: env(dir) })
    expect(config.hooks.map((hook) => hook.command)).toEqual(['2'])
    expect(config.problems[0]).toMatchObject({
      path: 'hooks[1].name',
      message: "duplicate name 'x' (also hooks[0]); this entry replaces that one",
    })
  })
})

describe('selection by index keys', () => {
  test("each hook carries its pattern's keys; a hook whose keys the event lacks is not matched at all", () => {
    const dir = project({
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'bash', event: 'PreToolUse:Bash', command: '1' },
          { name: 'other', event: 'tool:pre_execute:tool7', command: '2' },
          { name: 'all', event: 'tool:*', command: '3' },
        ],
      },
    })
    trustFolder(dir)
    const hooks = loadConfig({ cwd: dir, env: env(dir) }).hooks
    expect(hooks.map((hook) => hook.eventKeys)).toEqual([['tool:pre_execute:bash'], ['tool:pre_execute:tool7'], ['tool:*']])
    const event = qualifyEvent('tool:pre_execute', { tool_name: 'Bash' })
    expect(selectHooks(hooks, event).map((hook) => hook.name)).toEqual(['bash', 'all'])
    // The keys decide before the pattern is looked at: keys that leave the event out keep a hook out.
    const misfiled = hooks.map((hook) => (hook.name === 'all' ? { ...hook, eventKeys: ['session:*'] } : hook))
    expect(selectHooks(misfiled, event).map((hook) => hook.name)).toEqual(['bash'])
  })
})
