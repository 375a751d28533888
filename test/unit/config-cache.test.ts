import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { configCacheFile, openDocumentCache } from '../../src/config/cache.ts'
import { readConfigDocument } from '../../src/config/parse.ts'
import { loadHooks } from '../../src/fire.ts'
import { makeProject, removeProject, trustFolderIn } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))
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
    const first = openDocumentCache(env)
    expect(first.get(ref)).toBeUndefined()
    first.put(ref, readConfigDocument(ref), first.signature(ref))
    first.save()
    const cached = openDocumentCache(env).get(ref)
    expect(cached?.entries.map((parsed) => [parsed.entry.name, parsed.entry.command, parsed.ref])).toEqual([['one', 'echo 1', ref]])
    // Same size, other content: the signature (times, inode) differs, so the cache is not used.
    writeFileSync(file, JSON.stringify({ hooks: [{ name: 'one', event: '*', command: 'echo 2' }] }))
    expect(openDocumentCache(env).get(ref)).toBeUndefined()
  })

  test('a file that changed while it was read is not cached', () => {
    const { env, file } = project()
    past(file)
    const ref = { layer: 'project' as const, file }
    const cache = openDocumentCache(env)
    const before = cache.signature(ref)
    const document = readConfigDocument(ref)
    writeFileSync(file, JSON.stringify({ hooks: [{ name: 'one', event: '*', command: 'echo 9' }] }))
    past(file)
    cache.put(ref, document, before)
    cache.save()
    expect(openDocumentCache(env).get(ref)).toBeUndefined()
  })

  test('a file changed in the last seconds is not cached (a same-tick edit could go unseen)', () => {
    const { env, file } = project()
    const ref = { layer: 'project' as const, file }
    const cache = openDocumentCache(env)
    cache.put(ref, readConfigDocument(ref), cache.signature(ref))
    cache.save()
    expect(openDocumentCache(env).get(ref)).toBeUndefined()
  })

  test('fire reads through it: the cache file appears, and an edited config takes effect at once', async () => {
    const { dir, env, file } = project()
    past(file)
    const load = async () => (await loadHooks({ cwd: dir, env, strict: false })).config.hooks.map((hook) => hook.command)
    expect(await load()).toEqual(['echo 1'])
    expect(JSON.parse((await import('node:fs')).readFileSync(configCacheFile(env), 'utf8')).entries[file]).toBeDefined()
    expect(await load()).toEqual(['echo 1'])
    writeFileSync(file, JSON.stringify({ hooks: [{ name: 'one', event: '*', command: 'echo 3' }] }))
    expect(await load()).toEqual(['echo 3'])
  })

  test('a damaged cache file is ignored', async () => {
    const { dir, env, file } = project()
    past(file)
    await loadHooks({ cwd: dir, env, strict: false })
    writeFileSync(configCacheFile(env), '{ damaged')
    expect((await loadHooks({ cwd: dir, env, strict: false })).config.hooks.map((hook) => hook.name)).toEqual(['one'])
  })
})
