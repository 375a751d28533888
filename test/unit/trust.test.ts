import { chmodSync, cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { trustProject, untrustProject } from '../../src/commands/trust.ts'
import { findConfigFiles } from '../../src/config/files.ts'
import { loadConfig, readConfigDocument } from '../../src/config/parse.ts'
import { hashProjectMaterial, projectMaterial } from '../../src/trust/material-hash.ts'
import { trustRecordFile } from '../../src/trust/records.ts'
import { trustedFolderOf } from '../../src/trust/trust.ts'
import { stateDir } from '../../src/core/places.ts'
import { type Files, makeProject, projectAtHome, removeProject } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const project = (files: Files) => projectAtHome(projects, files)

const gateProject = {
  '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: '"$HOOKRUN_CONFIG_DIR/scripts/gate.sh"' }] },
  '.hookrun/scripts/gate.sh': '#!/bin/sh\nexit 2\n',
}

describe('hashProjectMaterial', () => {
  test('one digest over content and executable bit, independent of the order of the list', () => {
    const { dir } = project({ 'a.txt': 'a', 'b.sh': 'b' })
    const files = [join(dir, 'a.txt'), join(dir, 'b.sh')]
    const first = hashProjectMaterial(dir, files)
    expect(hashProjectMaterial(dir, [...files].reverse()).digest).toBe(first.digest)
    expect(first.files).toEqual({
      'a.txt': { sha256: 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb', executable: false },
      'b.sh': { sha256: '3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d', executable: true },
    })
    chmodSync(join(dir, 'b.sh'), 0o644)
    expect(hashProjectMaterial(dir, files).digest).not.toBe(first.digest)
    writeFileSync(join(dir, 'a.txt'), 'A')
    expect(hashProjectMaterial(dir, files).files['a.txt']!.sha256).not.toBe(first.files['a.txt']!.sha256)
  })

  test('hashes the text the caller parsed, not a later read; an unreadable file hashes as such', () => {
    const { dir } = project({ 'hooks.json': 'on disk' })
    const file = join(dir, 'hooks.json')
    const parsed = hashProjectMaterial(dir, [file], new Map([[file, 'as parsed']]))
    expect(parsed.digest).not.toBe(hashProjectMaterial(dir, [file]).digest)
    expect(hashProjectMaterial(dir, [join(dir, 'missing')]).files.missing).toEqual({ sha256: 'unreadable', executable: false })
  })
})

describe('projectMaterial', () => {
  test('the config files and the project files their commands run; nothing outside, nothing missing', () => {
    const { dir, env } = project({
      ...gateProject,
      '.hookrun/hooks.local.json': {
        hooks: [
          { name: 'lint', event: '*', command: 'python3 tools/lint.py', cwd: 'sub' },
          { name: 'outside', event: '*', command: '/bin/true && ../../etc/x.sh' },
          { name: 'later', event: '*', command: './not-there-yet.sh' },
        ],
      },
      'sub/tools/lint.py': 'print()',
    })
    const documents = findConfigFiles({ cwd: dir, env }).files.map(readConfigDocument)
    expect(
      projectMaterial(dir, documents)
        .files.map((file) => file.slice(dir.length + 1))
        .sort(),
    ).toEqual(['.hookrun/hooks.json', '.hookrun/hooks.local.json', '.hookrun/scripts/gate.sh', 'sub/tools/lint.py'])
  })
})

describe('trustedFolderOf', () => {
  test('a project is trusted when its root or a folder above it matches an entry', () => {
    const folders = (...patterns: string[]) => patterns.map((pattern) => ({ pattern, file: 'hooks.json' }))
    expect(trustedFolderOf('/home/u/src/repo', folders('/home/u/src/*'))).toBe('/home/u/src/*')
    expect(trustedFolderOf('/home/u/src/repo/packages/a', folders('/home/u/src/*'))).toBe('/home/u/src/*')
    expect(trustedFolderOf('/home/u/src/repo', folders('/home/u/src'))).toBe('/home/u/src')
    expect(trustedFolderOf('/home/u/src/repo', folders('/home/u/src/repo/'))).toBe('/home/u/src/repo/')
    expect(trustedFolderOf('/home/u/work/repo', folders('/home/u/src/*', '/home/u/src'))).toBeUndefined()
    expect(trustedFolderOf('/home/u/src-evil/repo', folders('/home/u/src'))).toBeUndefined()
  })
})

describe('trust through loadConfig', () => {
  test('untrusted project hooks do not run and cannot switch off or replace the user’s own hooks', () => {
    const { dir, env } = project({
      '.xdg-config/hookrun/hooks.json': { hooks: [{ name: 'gate', event: '*', command: 'user-gate' }] },
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'gate', enabled: false },
          { name: 'extra', event: '*', command: 'true' },
        ],
      },
      '.hookrun/hooks.local.json': { hooks: [{ name: 'gate', event: '*', command: 'project-gate' }] },
    })
    const config = loadConfig({ cwd: dir, env })
    expect(config.trust).toMatchObject({ root: dir, trusted: false, reason: 'never', command: `hookrun trust ${dir}` })
    expect(config.hooks.map((hook) => [hook.name, hook.command, hook.enabled])).toEqual([['gate', 'user-gate', true]])
    expect(config.untrustedHooks.map((hook) => hook.name)).toEqual(['extra', 'gate'])
  })

  test('trust → runs; an edited, added or removed file revokes it and says which', () => {
    const { dir, env } = project(gateProject)
    trustProject({ cwd: dir, env })
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true, via: 'record' })
    expect(loadConfig({ cwd: dir, env }).hooks.map((hook) => hook.name)).toEqual(['gate'])

    writeFileSync(join(dir, '.hookrun/scripts/gate.sh'), '#!/bin/sh\nexit 0\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({
      trusted: false,
      reason: 'changed',
      changed: ['.hookrun/scripts/gate.sh edited'],
    })
    expect(loadConfig({ cwd: dir, env }).hooks).toEqual([])

    trustProject({ cwd: dir, env })
    writeFileSync(join(dir, '.hookrun/hooks.local.json'), '{"hooks":[]}')
    expect(loadConfig({ cwd: dir, env }).trust?.changed).toEqual(['.hookrun/hooks.local.json added'])

    trustProject({ cwd: dir, env })
    rmSync(join(dir, '.hookrun/hooks.local.json'))
    expect(loadConfig({ cwd: dir, env }).trust?.changed).toEqual(['.hookrun/hooks.local.json removed'])
  })

  test('an unchanged, settled project is trusted from stat signatures alone; any write makes hookrun hash again', async () => {
    const { dir, env } = project(gateProject)
    // Files written just now (timestamps tick coarsely): trust waits until they have settled, so
    // the record holds every signature and no later fire has to hash (before, each one did).
    trustProject({ cwd: dir, env })
    const record = JSON.parse(readFileSync(trustRecordFile(dir, env), 'utf8'))
    expect(Object.values(record.files).every((file) => typeof (file as { stat?: unknown }).stat === 'string')).toBe(true)
    // Prove the fast path does not hash: a record whose digest is wrong is still honoured...
    writeFileSync(trustRecordFile(dir, env), JSON.stringify({ ...record, digest: 'wrong' }))
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true, via: 'record' })
    // ...until a file changes, even to content of the same size: then the hashes decide.
    writeFileSync(join(dir, '.hookrun/scripts/gate.sh'), '#!/bin/sh\nexit 3\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['.hookrun/scripts/gate.sh edited'] })
  })

  test('a record is written atomically, private, in the state folder; untrust removes it', () => {
    const { dir, env } = project(gateProject)
    trustProject({ cwd: join(dir, '.hookrun'), env })
    const record = trustRecordFile(dir, env)
    expect(record.startsWith(join(stateDir(env), 'trust'))).toBe(true)
    expect(readdirSync(join(stateDir(env), 'trust')).sort()).toEqual(
      [record.slice(record.lastIndexOf('/') + 1), record.slice(record.lastIndexOf('/') + 1).replace(/\.json$/, '.texts.json')].sort(),
    )
    expect(statSync(record).mode & 0o777).toBe(0o600)
    expect(untrustProject({ cwd: dir, env })).toContain(`untrusted ${dir}`)
    expect(readdirSync(join(stateDir(env), 'trust'))).toEqual([])
    expect(loadConfig({ cwd: dir, env }).trust?.trusted).toBe(false)
  })

  test('trust is bound to the folder: a copy of a trusted project elsewhere is not trusted', () => {
    const { dir, env } = project(gateProject)
    trustProject({ cwd: dir, env })
    const copy = `${dir}-copy`
    projects.push(copy)
    cpSync(dir, copy, { recursive: true })
    expect(loadConfig({ cwd: copy, env }).trust?.trusted).toBe(false)
  })

  test('a trustedFolders entry trusts without a record; --config files need no trust', () => {
    const { dir, env } = project({ ...gateProject, '.xdg-config/hookrun/hooks.json': { trustedFolders: ['~'] } })
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true, via: 'folder', folder: dir })
    const named = loadConfig({ cwd: dir, env, configFiles: ['.hookrun/hooks.json'] })
    expect(named.trust).toBeUndefined()
    expect(named.hooks.map((hook) => hook.source.layer)).toEqual(['config'])
  })

  test('trust outside a project is one clear error', () => {
    const { dir, env } = project({})
    expect(() => trustProject({ cwd: dir, env })).toThrow(
      `no .hookrun/ with hooks.json, hooks.local.json, hooks/ or plugins/ at or above ${dir}; nothing to trust`,
    )
  })
})

describe('trust covers hook folders and plugins', () => {
  test('trusting hashes the hook folder; editing an executable revokes the trust', async () => {
    const dir = makeProject({
      '.hookrun/hooks/guard': '#!/bin/sh\necho tool:pre_execute\n',
      '.hookrun/plugins/acme@x/hooks.json': { hooks: [{ name: 'check', event: '*', command: './tools/check.sh' }] },
      'tools/check.sh': 'exit 0\n',
    })
    const env = { HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg`, XDG_STATE_HOME: `${dir}/.state`, XDG_CACHE_HOME: `${dir}/.cache` }
    try {
      expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, reason: 'never' })
      expect(trustProject({ cwd: dir, env })).toContain('.hookrun/hooks/guard')
      expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true })
      writeFileSync(`${dir}/.hookrun/hooks/guard`, '#!/bin/sh\necho "*"\n')
      chmodSync(`${dir}/.hookrun/hooks/guard`, 0o755)
      expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({
        trusted: false,
        reason: 'changed',
        changed: ['.hookrun/hooks/guard edited'],
      })
      writeFileSync(`${dir}/.hookrun/plugins/acme@x/run.sh`, 'echo new')
      expect(loadConfig({ cwd: dir, env }).trust?.changed).toContain('.hookrun/plugins/acme@x/run.sh added')
      // A script the plugin's hooks.json runs from the project root is covered too.
      trustProject({ cwd: dir, env })
      writeFileSync(`${dir}/tools/check.sh`, 'echo evil; exit 2\n')
      expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['tools/check.sh edited'] })
    } finally {
      removeProject(dir)
    }
  })
})

describe('hookrun init and trust', () => {
  test('init trusts the files it wrote, and only those', async () => {
    const { initProject } = await import('../../src/commands/init.ts')
    const fresh = makeProject()
    const planted = makeProject({
      '.hookrun/scripts/audit-log.sh': '#!/bin/sh\ntouch /tmp/planted-by-a-clone\n',
      '.hookrun/hooks/zz': '#!/bin/sh\necho "*"\n',
    })
    try {
      for (const [dir, trusted] of [
        [fresh, true],
        [planted, false],
      ] as const) {
        const env = { HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg`, XDG_STATE_HOME: `${dir}/.state`, XDG_CACHE_HOME: `${dir}/.cache` }
        const output = initProject({ cwd: dir, templates: [], env })
        expect(output).toContain(trusted ? 'trusted the new hooks' : 'not trusted: the project has hook files hookrun init did not write')
        expect(loadConfig({ cwd: dir, env }).trust?.trusted).toBe(trusted)
      }
    } finally {
      removeProject(fresh)
      removeProject(planted)
    }
  })
})

describe('hookrun init run again', () => {
  test("adds only the policy hooks the existing hooks.json lacks, keeping the user's own entry", async () => {
    const { initProject } = await import('../../src/commands/init.ts')
    const dir = makeProject()
    const env = { HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg`, XDG_STATE_HOME: `${dir}/.state` }
    try {
      initProject({ cwd: dir, templates: [], env })
      expect(initProject({ cwd: dir, templates: [], env })).toContain('(it has these hooks already: the policy is on)')
      const mine = { name: 'notify', event: 'notification', command: 'true' }
      writeFileSync(`${dir}/.hookrun/hooks.json`, JSON.stringify({ hooks: [mine] }))
      const again = initProject({ cwd: dir, templates: [], env })
      expect(again).toContain('edited .hookrun/hooks.json (added dangerous-commands')
      const hooks = JSON.parse(readFileSync(`${dir}/.hookrun/hooks.json`, 'utf8')).hooks as Array<{ name: string }>
      expect(hooks[0]).toEqual(mine)
      expect(hooks.filter((hook) => hook.name === 'notify')).toHaveLength(1)
      expect(hooks.map((hook) => hook.name)).toContain('dangerous-commands')
    } finally {
      removeProject(dir)
    }
  })
})

describe("hookrun init's $schema", () => {
  test('names a schema file written beside hooks.json (it resolves offline), which is not trust material', async () => {
    const { initProject } = await import('../../src/commands/init.ts')
    const { configJsonSchema } = await import('../../src/commands/schema.ts')
    const dir = makeProject()
    const env = { HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg`, XDG_STATE_HOME: `${dir}/.state` }
    try {
      initProject({ cwd: dir, templates: ['dangerous-commands'], env })
      const config = JSON.parse(readFileSync(`${dir}/.hookrun/hooks.json`, 'utf8'))
      expect(config.$schema).toBe('./hooks.schema.json')
      expect(JSON.parse(readFileSync(join(`${dir}/.hookrun`, config.$schema), 'utf8'))).toEqual(configJsonSchema())
      // A newer hookrun's newer schema there revokes nothing.
      writeFileSync(`${dir}/.hookrun/hooks.schema.json`, '{}')
      expect(loadConfig({ cwd: dir, env }).trust?.trusted).toBe(true)
    } finally {
      removeProject(dir)
    }
  })
})

describe('hookrun init --template audit-log', () => {
  test("turns on hookrun's own audit log in the user config, with no hook on every event; an existing user config is not rewritten", async () => {
    const { initProject } = await import('../../src/commands/init.ts')
    const dir = makeProject()
    const env = { HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg`, XDG_STATE_HOME: `${dir}/.state` }
    try {
      expect(initProject({ cwd: dir, templates: ['audit-log'], env })).toContain(
        `wrote  ${dir}/.xdg/hookrun/hooks.json (log: your user config)`,
      )
      expect(JSON.parse(readFileSync(`${dir}/.xdg/hookrun/hooks.json`, 'utf8')).log).toEqual({ path: '~/.local/state/hookrun/audit.jsonl' })
      expect(JSON.parse(readFileSync(`${dir}/.hookrun/hooks.json`, 'utf8')).hooks).toEqual([])
      writeFileSync(`${dir}/.xdg/hookrun/hooks.json`, JSON.stringify({ trustedFolders: ['~/work'] }))
      const again = initProject({ cwd: dir, templates: ['audit-log'], env })
      expect(again).toContain('(it exists); add to it:')
      expect(again).toContain('"path": "~/.local/state/hookrun/audit.jsonl"')
      expect(JSON.parse(readFileSync(`${dir}/.xdg/hookrun/hooks.json`, 'utf8'))).toEqual({ trustedFolders: ['~/work'] })
    } finally {
      removeProject(dir)
    }
  })
})

describe('trustedFolders entries', () => {
  const folders = (...patterns: string[]) => patterns.map((pattern) => ({ pattern, file: '/home/me/.config/hookrun/hooks.json' }))
  test('a folder named as it is trusts itself and what is under it, and nothing beside it', () => {
    expect(trustedFolderOf('/nonexistent/work/app', folders('/nonexistent/work/app'))).toBe('/nonexistent/work/app')
    expect(trustedFolderOf('/nonexistent/work/app/sub', folders('/nonexistent/work/app/'))).toBe('/nonexistent/work/app/')
    expect(trustedFolderOf('/nonexistent/work/apple', folders('/nonexistent/work/app'))).toBeUndefined()
    expect(trustedFolderOf('/nonexistent/work', folders('/nonexistent/work/app'))).toBeUndefined()
  })
  test('a glob matches as a glob', () => {
    expect(trustedFolderOf('/nonexistent/src/one', folders('/nonexistent/src/*'))).toBe('/nonexistent/src/*')
    expect(trustedFolderOf('/nonexistent/other/one', folders('/nonexistent/src/*'))).toBeUndefined()
    expect(trustedFolderOf('/nonexistent/a/b/.hidden', folders('/nonexistent/a/**'))).toBe('/nonexistent/a/**')
  })
})
