/** A typo in a flag value or a hooks.json key names what it was surely meant to be. */
import { describe, expect, test } from 'vitest'
import { readConfigFile } from '../../src/config/parse.ts'
import type { ConfigProblem } from '../../src/core/types.ts'
import { makeProject, removeProject } from '../helpers.ts'

describe('did you mean', () => {
  test('an unknown key of a hook that is a typo of one of its fields', () => {
    const dir = makeProject({ 'hooks.json': { hooks: [{ name: 'g', event: 'tool:pre_execute', command: 'true', timout: 3, zzz: 1 }] } })
    try {
      const problems: ConfigProblem[] = []
      readConfigFile({ layer: 'config', file: `${dir}/hooks.json` }, problems)
      expect(problems.map((problem) => `${problem.path}: ${problem.message}`)).toEqual([
        'hooks[0].timout: unknown key, ignored (did you mean timeout?)',
        'hooks[0].zzz: unknown key, ignored (see `hookrun schema` for the fields)',
      ])
    } finally {
      removeProject(dir)
    }
  })
  test('--format and --agent values', async () => {
    const { prepareDialect } = await import('../../src/dialect.ts')
    expect(() => prepareDialect('claud', undefined, {})).toThrow('--format claud is not known (did you mean claude?)')
    const { installAgents } = await import('../../src/commands/install.ts')
    expect(() => installAgents({ agents: ['gemni'], scope: 'project', cwd: '/nonexistent', env: {} } as never, false)).toThrow(
      '--agent gemni is not known (did you mean gemini?)',
    )
  })
})
