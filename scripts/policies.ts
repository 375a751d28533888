/**
 * The policy library (policies/<name>/) compiled into one JSON module,
 * src/commands/policy-library.json, which `hookrun init` reads: the binary, the Node bundle and
 * the source on Bun and Deno all carry it, so no run needs the policies folder. Each policy's
 * script has the shared word reader (policies/lib/commands.sh) pasted in at its
 * `# hookrun:include lib/commands.sh` line, so the script a project gets stands alone.
 *
 *   bun scripts/policies.ts     (npm run policies; npm run build runs it too)
 *
 * test/unit/policies.test.ts fails while the committed JSON differs from what this writes.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const POLICIES_DIR = join(import.meta.dirname, '..', 'policies')
export const LIBRARY_FILE = join(import.meta.dirname, '..', 'src', 'commands', 'policy-library.json')
const INCLUDE = /^# hookrun:include (\S+)\n/gm

interface PolicyFile {
  readonly description: string
  readonly onByDefault: boolean
  readonly hooks?: readonly Record<string, unknown>[]
  readonly userSettings?: Record<string, unknown>
  readonly files?: Record<string, string>
}

/** Every policy folder's name, in order (not lib/ or corpus/). */
export function policyNames(dir = POLICIES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'policy.json')))
    .map((entry) => entry.name)
    .sort()
}

/** The library as `hookrun init` reads it: per policy its entries, settings and the files it writes under `.hookrun/`. */
export function policyLibrary(dir = POLICIES_DIR): Record<string, unknown> {
  const library: Record<string, unknown> = {}
  for (const name of policyNames(dir)) {
    const folder = join(dir, name)
    const policy = JSON.parse(readFileSync(join(folder, 'policy.json'), 'utf8')) as PolicyFile
    const files: Record<string, string> = { ...policy.files }
    const script = join(folder, `${name}.sh`)
    if (existsSync(script)) {
      const text = readFileSync(script, 'utf8').replace(INCLUDE, (_, lib: string) => readFileSync(join(dir, lib), 'utf8'))
      files[`scripts/${name}.sh`] = text
    }
    const tests = join(folder, 'tests.json')
    if (existsSync(tests)) files[`tests/${name}.json`] = readFileSync(tests, 'utf8')
    library[name] = { ...policy, hooks: policy.hooks ?? [], files }
  }
  return library
}

export function libraryText(dir = POLICIES_DIR): string {
  return `${JSON.stringify(policyLibrary(dir), null, 1)}\n`
}

if (import.meta.main) {
  writeFileSync(LIBRARY_FILE, libraryText())
  console.log(`wrote ${LIBRARY_FILE}`)
}
