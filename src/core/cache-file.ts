// Small JSON files hookrun keeps for itself (caches, records), written so readers never see half.
import { renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { makeFolders } from './places.ts'

/**
 * Replace a JSON file atomically (write a temporary file beside it, then rename), so a fire
 * running at the same time reads the old content or the new, never half of either. Failing to
 * write (a read-only home) only costs speed: caches are rebuilt.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temporary = join(dirname(file), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
  try {
    makeFolders(dirname(file))
    writeFileSync(temporary, `${JSON.stringify(value)}\n`)
    renameSync(temporary, file)
  } catch {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Nothing more to do.
    }
  }
}
