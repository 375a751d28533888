import { afterAll, describe, expect, test } from 'vitest'
import { validateConfig } from '../../src/commands/validate.ts'
import { loadConfig, parseConfigDocument } from '../../src/config/parse.ts'
import { makeProject, removeProject } from '../helpers.ts'

const ref = { layer: 'user' as const, file: '/home/u/.config/hookrun/hooks.json' }
const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

describe('timeouts that look like milliseconds', () => {
  test.each([1000, 1500, 5000, 30_000, 60_000])('%i is a warning that says what was meant; the hook is kept', (timeout) => {
    const document = parseConfigDocument(ref, JSON.stringify({ hooks: [{ name: 'slow', event: '*', command: 'true', timeout }] }))
    expect(document.entries).toHaveLength(1)
    expect(document.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: 'hooks[0].timeout',
        message: expect.stringContaining(`write ${timeout / 1000} for ${timeout / 1000} s`),
      }),
    ])
  })

  test.each([10, 600, 999, 1800, 3600, 7200])('%i seconds is plausible and passes', (timeout) => {
    const document = parseConfigDocument(ref, JSON.stringify({ hooks: [{ name: 'ok', event: '*', command: 'true', timeout }] }))
    expect(document.problems).toEqual([])
  })

  test('validate makes it an error (exit 1)', () => {
    const dir = makeProject({ 'hooks.json': { hooks: [{ name: 'slow', event: '*', command: 'true', timeout: 5000 }] } })
    projects.push(dir)
    const result = validateConfig({ files: ['hooks.json'], cwd: dir, env: {}, json: false })
    expect(result.exitCode).toBe(1)
    expect(result.output).toContain('error: ')
    expect(result.output).toContain('hooks[0].timeout: timeout 5000 looks like milliseconds')
  })
})

describe('settings', () => {
  test('a bad setting is ignored alone; the hooks of the file still load', () => {
    const document = parseConfigDocument(
      ref,
      JSON.stringify({ log: { file: 'x' }, trustedFolders: 'nope', hooks: [{ event: '*', command: 'true' }] }),
    )
    expect(document.entries).toHaveLength(1)
    expect(document.settings).toEqual({ log: undefined, trustedFolders: undefined })
    expect(document.problems.map((problem) => `${problem.path}: ${problem.message}`)).toEqual([
      expect.stringMatching(/^trustedFolders: .*; setting ignored$/),
      'log.path: expected string, received undefined; setting ignored',
      'log: Unrecognized key: "file"; setting ignored',
    ])
  })

  test('a project file cannot set trustedFolders or the log: warnings, and nothing taken from it', () => {
    const dir = makeProject({
      '.hookrun/hooks.json': { trustedFolders: ['/'], log: { path: '/tmp/stolen.log' }, hooks: [] },
    })
    projects.push(dir)
    const config = loadConfig({ cwd: dir, env: { HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg-config`, XDG_STATE_HOME: `${dir}/.xdg-state` } })
    expect(config.settings).toEqual({ trustedFolders: [] })
    expect(config.trust?.trusted).toBe(false)
    const messages = config.problems.map((problem) => `${problem.path}: ${problem.message}`)
    expect(messages).toContain('trustedFolders: only read from your user config; ignored here (a project cannot trust itself)')
    expect(messages).toContain('log: only read from your user config or a --config file; ignored here')
  })

  test('the user config sets them: ~ expanded, a relative log path starts at the config file', () => {
    const dir = makeProject({
      '.xdg-config/hookrun/hooks.json': { trustedFolders: ['~/src/*', '/abs/**', 'relative/path'], log: { path: 'audit.jsonl' } },
    })
    projects.push(dir)
    const config = loadConfig({ cwd: dir, env: { HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg-config` } })
    const file = `${dir}/.xdg-config/hookrun/hooks.json`
    expect(config.settings).toEqual({
      trustedFolders: [
        { pattern: `${dir}/src/*`, file },
        { pattern: '/abs/**', file },
      ],
      log: { path: `${dir}/.xdg-config/hookrun/audit.jsonl`, file },
    })
    expect(config.problems.map((problem) => problem.path)).toEqual(['trustedFolders[2]'])
  })
})

describe('validate: a hook script that does not exist', () => {
  test('is named with its hook, as trust finds it; an existing one is not', () => {
    const dir = makeProject({
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'gate', event: 'tool:pre_execute', command: './scripts/missing.sh' },
          { name: 'here', event: 'tool:pre_execute', command: './scripts/here.sh' },
        ],
      },
      'scripts/here.sh': '#!/bin/sh\nexit 0\n',
    })
    try {
      const { output, exitCode } = validateConfig({ files: [], cwd: dir, env: { HOME: dir }, json: false })
      expect(output).toContain(
        `warning: ${dir}/.hookrun/hooks.json: hooks[0] 'gate': runs ./scripts/missing.sh, which does not exist: on a gate event the hook fails and blocks`,
      )
      expect(output).not.toContain('here.sh')
      expect(exitCode).toBe(0)
    } finally {
      removeProject(dir)
    }
  })
})
