/**
 * Run the library cases without a test framework, so Bun and Deno run the same file vitest runs
 * under Node:  bun test/library/run.ts   |   deno run -A test/library/run.ts
 * Prints one `ok` / `not ok` line per case and exits 1 if any failed.
 */
import { CASES } from './cases.ts'

let failed = 0
for (const { name, run } of CASES) {
  try {
    await run()
    console.log(`ok - ${name}`)
  } catch (error) {
    failed++
    console.log(`not ok - ${name}\n  ${String((error as Error)?.stack ?? error).replaceAll('\n', '\n  ')}`)
  }
}
console.log(`${CASES.length - failed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
