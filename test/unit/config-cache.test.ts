import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { trustProject } from '../../src/commands/trust.ts'
import { configCacheFile, MAX_CACHE_BYTES, openDocumentCache } from '../../src/config/cache.ts'
import { findConfigFiles } from '../../src/config/files.ts'
import { readConfigDocument } from '../../src/config/parse.ts'
import { loadHooks } from '../../src/fire-config.ts'
import { makeProject, removeProject, trustFolderIn } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))
/** The cache file a fire in `dir` reads (its user, project and local files). */
const cacheFileOf = (dir: string, env: Record<string, string>) => configCacheFile(env, findConfigFiles({ cwd: dir, env }).files)
const past = (file: string) => utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))

function project() {
  const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'one', event: '*', command: 'echo 1' }] } })
  dirs.push(dir)
  trustFolderIn(dir, join(dir, '.xdg'))
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg'), XDG_CACHE_HOME: join(dir, '.cache'), XDG_STATE_HOME: join(dir, '.state') }
  return { dir, env, file: join(dir, '.hookrun/hooks.json') }
}

describe('the parsed-config cache', () => {
  test('a settled file is served from the cache; any change is parsed again', () => {
    const { env, file } = project()
    past(file)
    const ref = { layer: 'project' as const, file }
    const first = openDocumentCache(env, [ref])
    expect(first.get(ref)).toBeUndefined()
    first.put(ref, readConfigDocument(ref), first.signature(ref))
    first.save()
    const reopened = openDocumentCache(env, [ref])
    const cached = reopened.get(ref)
    expect(cached?.entries.map((parsed) => [parsed.entry.name, parsed.entry.command, parsed.ref])).toEqual([['one', 'echo 1', ref]])
    // Asked again in the same fire: the same document, its entries not built twice.
    expect(reopened.get({ ...ref })).toBe(cached)
    // Same size, other content: the signature (times, inode) differs, so the cache is not used.
    writeFileSync(file, JSON.stringify({ hooks: [{ name: 'one', event: '*', command: 'echo 2' }] }))
    expect(openDocumentCache(env, [ref]).get(ref)).toBeUndefined()
  })

  test('a file that changed while it was read is not cached', () => {
    const { env, file } = project()
    past(file)
    const ref = { layer: 'project' as const, file }
    const cache = openDocumentCache(env, [ref])
    const before = cache.signature(ref)
    const document = readConfigDocument(ref)
    writeFileSync(file, JSON.stringify({ hooks: [{ name: 'one', event: '*', command: 'echo 9' }] }))
    past(file)
    cache.put(ref, document, before)
    cache.save()
    expect(openDocumentCache(env, [ref]).get(ref)).toBeUndefined()
  })

  test('a file changed in the last seconds is not cached (a same-tick edit could go unseen)', () => {
    const { env, file } = project()
    const ref = { layer: 'project' as const, file }
    const cache = openDocumentCache(env, [ref])
    cache.put(ref, readConfigDocument(ref), cache.signature(ref))
    cache.save()
    expect(openDocumentCache(env, [ref]).get(ref)).toBeUndefined()
  })

  test('fire reads through it: the cache file appears, and an edited config takes effect at once', async () => {
    const { dir, env, file } = project()
    past(file)
    const load = async () => (await loadHooks({ cwd: dir, env, strict: false })).config.hooks.map((hook) => hook.command)
    expect(await load()).toEqual(['echo 1'])
    expect(JSON.parse(readFileSync(cacheFileOf(dir, env), 'utf8')).entries[file]).toBeDefined()
    expect(await load()).toEqual(['echo 1'])
    writeFileSync(file, JSON.stringify({ hooks: [{ name: 'one', event: '*', command: 'echo 3' }] }))
    expect(await load()).toEqual(['echo 3'])
  })

  test('a damaged cache file is ignored', async () => {
    const { dir, env, file } = project()
    past(file)
    await loadHooks({ cwd: dir, env, strict: false })
    writeFileSync(cacheFileOf(dir, env), '{ damaged')
    expect((await loadHooks({ cwd: dir, env, strict: false })).config.hooks.map((hook) => hook.name)).toEqual(['one'])
  })

  test("each set of config files has its own small cache file: a fire reads only its project's documents", async () => {
    const a = project()
    const b = { ...project(), env: a.env }
    trustFolderIn(b.dir, join(a.dir, '.xdg'))
    const user = join(a.dir, '.xdg', 'hookrun', 'hooks.json')
    for (const file of [a.file, b.file, user]) past(file)
    await loadHooks({ cwd: a.dir, env: a.env, strict: false })
    await loadHooks({ cwd: b.dir, env: a.env, strict: false })
    const fileA = cacheFileOf(a.dir, a.env)
    const fileB = cacheFileOf(b.dir, a.env)
    expect(fileA).not.toBe(fileB)
    expect(Object.keys(JSON.parse(readFileSync(fileA, 'utf8')).entries).sort()).toEqual([a.file, user].sort())
    expect(Object.keys(JSON.parse(readFileSync(fileB, 'utf8')).entries).sort()).toEqual([b.file, user].sort())
  })

  test("an untrusted project's documents are never written to the cache", async () => {
    const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'one', event: '*', command: 'echo 1' }] } })
    dirs.push(dir)
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg'), XDG_CACHE_HOME: join(dir, '.cache'), XDG_STATE_HOME: join(dir, '.state') }
    past(join(dir, '.hookrun/hooks.json'))
    const loaded = await loadHooks({ cwd: dir, env, strict: false })
    expect(loaded.config.trust?.trusted).toBe(false)
    expect(existsSync(join(dir, '.cache'))).toBe(false)
  })

  test('a config set too large for the bound is parsed every time, not cached', async () => {
    const hooks = Array.from({ length: 4000 }, (_, i) => ({
      name: `hook-${i}`,
      event: 'tool:pre_execute',
      command: `echo ${'x'.repeat(200)} ${i}`,
    }))
    const { dir, env, file } = project()
    writeFileSync(file, JSON.stringify({ hooks }))
    expect(JSON.stringify({ hooks }).length).toBeGreaterThan(MAX_CACHE_BYTES)
    trustFolderIn(dir, join(dir, '.xdg'))
    past(file)
    expect((await loadHooks({ cwd: dir, env, strict: false })).config.hooks).toHaveLength(4000)
    const folder = join(dir, '.cache', 'hookrun', 'config')
    expect(existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : []).toEqual([])
  })
})

describe('trust from the cache', () => {
  test("a project's cached documents keep the paths their commands name; a file appearing there still revokes trust", async () => {
    const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: '*', command: 'cd tools && ./gate.sh --strict' }] } })
    dirs.push(dir)
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg'), XDG_CACHE_HOME: join(dir, '.cache'), XDG_STATE_HOME: join(dir, '.state') }
    const file = join(dir, '.hookrun/hooks.json')
    past(file)
    trustProject({ cwd: dir, env })
    const load = async () => (await loadHooks({ cwd: dir, env, strict: false })).config.trust
    expect(await load()).toMatchObject({ trusted: true })
    const cached = JSON.parse(readFileSync(cacheFileOf(dir, env), 'utf8')).entries[file].document
    // After the cd, and from the hook's own folder (a cd in a subshell does not move later commands).
    expect(cached.commandPaths).toEqual({ root: dir, paths: [join(dir, 'tools/gate.sh'), join(dir, 'gate.sh')] })
    expect(await load()).toMatchObject({ trusted: true })
    mkdirSync(join(dir, 'tools'))
    writeFileSync(join(dir, 'tools/gate.sh'), '#!/bin/sh\nexit 0\n')
    expect(await load()).toMatchObject({ trusted: false, reason: 'changed', changed: ['tools/gate.sh added'] })
  })
})

test('entries served from the cache and written back carry no file reference (it is set per fire)', async () => {
  const { dir, env, file } = project()
  const user = join(dir, '.xdg', 'hookrun', 'hooks.json')
  writeFileSync(user, JSON.stringify({ trustedFolders: [dir], hooks: [{ name: 'mine', event: '*', command: 'echo u' }] }))
  for (const settledFile of [file, user]) past(settledFile)
  await loadHooks({ cwd: dir, env, strict: false })
  // The project file changes: the user file comes from the cache, the project file is parsed, both written.
  writeFileSync(file, JSON.stringify({ hooks: [{ name: 'one', event: '*', command: 'echo 4' }] }))
  past(file)
  const loaded = await loadHooks({ cwd: dir, env, strict: false })
  expect(loaded.config.hooks.map((hook) => [hook.command, hook.source.layer])).toEqual([
    ['echo u', 'user'],
    ['echo 4', 'project'],
  ])
  const written = JSON.parse(readFileSync(cacheFileOf(dir, env), 'utf8')).entries
  expect(written[user].document.entries.map((parsed: object) => Object.keys(parsed).sort())).toEqual([['entry', 'eventKeys', 'index']])
  expect(written[file].document.entries[0].entry.command).toBe('echo 4')
})
