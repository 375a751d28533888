/**
 * Load: 200 concurrent `hookrun fire` processes (the compiled binary, as agents run it) on one
 * trusted project with an audit log. Every decision is the right one for its own payload, no
 * process is left, no temporary file is left, the log has 200 whole lines; the peak memory of
 * each process is reported.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type CliResult, makeProject, processesMatching, removeProject, runCli, trustProjectFor, waitForNoProcess } from '../helpers.ts'

const FIRES = 200
const GATE = `#!/bin/sh
case "$HOOKRUN_BASH_COMMAND" in *sudo*) echo "no sudo in $HOOKRUN_SESSION_ID" >&2; exit 2;; esac
cat > /dev/null
printf '{"additionalContext":"ok %s"}' "$HOOKRUN_SESSION_ID"
`

let dir: string
let tmp: string
let results: CliResult[]
let before: string[]

beforeAll(async () => {
  dir = makeProject({
    '.hookrun/hooks.json': {
      hooks: [
        { name: 'stamp', event: 'tool:pre_execute', command: 'cat > /dev/null' },
        { name: 'gate', event: 'tool:pre_execute:bash', command: '"$HOOKRUN_CONFIG_DIR/gate.sh"', timeout: 120 },
      ],
    },
    '.hookrun/gate.sh': GATE,
    '.xdg-config/hookrun/hooks.json': { log: { path: '~/audit.jsonl' } },
  })
  // Trusted a moment after writing, as a person would: fires then check stat signatures, not hashes.
  await new Promise((wake) => setTimeout(wake, 150))
  trustProjectFor(dir)
  tmp = join(dir, 'tmp')
  mkdirSync(tmp)
  before = listing(dir)
  results = await Promise.all(
    Array.from({ length: FIRES }, (_, index) =>
      runCli(['fire', 'tool:pre_execute', '--payload', '-', '--cwd', dir], {
        cwd: dir,
        env: { TMPDIR: tmp },
        input: JSON.stringify({ session_id: `s-${index}`, tool_name: 'Bash', tool_input: { command: index % 2 === 0 ? 'sudo ls' : 'ls' } }),
        measureMemory: true,
        timeoutMs: 240_000,
      }),
    ),
  )
}, 300_000)

afterAll(() => removeProject(dir))

/** Every file under `root` (relative paths), sorted. */
function listing(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort()
}

describe(`${FIRES} concurrent fires`, () => {
  test('every decision is the right one for its own payload', () => {
    results.forEach((result, index) => {
      const context = `fire ${index}: ${result.stderr}`
      if (index % 2 === 0) {
        expect(result.exitCode, context).toBe(2)
        expect(result.json(), context).toMatchObject({
          decision: 'deny',
          reason: `no sudo in s-${index}`,
          hooks: [{ name: 'stamp' }, { name: 'gate', exitCode: 2 }],
        })
      } else {
        expect(result.exitCode, context).toBe(0)
        expect(result.json(), context).toMatchObject({
          decision: 'allow',
          additionalContext: [`ok s-${index}`],
          hooks: [{ name: 'stamp' }, { name: 'gate', exitCode: 0 }],
        })
      }
      expect(result.json().warnings, context).toEqual([])
    })
  })

  test('no process is left behind', async () => {
    // Generous: on a loaded 2-core machine the last of 200 fires can take seconds to be reaped; a leak stays.
    expect(await waitForNoProcess(dir, 15_000)).toEqual([])
    expect(processesMatching('hookrun-test-maxrss')).toEqual([])
  })

  test('no temporary file is left: TMPDIR is empty, the project holds only what it held plus the log', () => {
    expect(readdirSync(tmp)).toEqual([])
    // The parsed-config cache (one file per set of config files, written by rename) may appear;
    // nothing else, and no temporary.
    const cache = /^\.xdg-cache\/hookrun\/(config|plans)\/[0-9a-f]+\.json$/
    expect(listing(dir).filter((path) => !cache.test(path))).toEqual([...before, 'audit.jsonl'].sort())
  })

  test(`the audit log holds ${FIRES} whole lines, one per fire`, () => {
    const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8').split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(FIRES)
    const sessions = lines.map((line) => {
      const entry = JSON.parse(line)
      const index = Number(entry.payload.session_id.slice(2))
      expect(entry.decision).toBe(index % 2 === 0 ? 'deny' : 'allow')
      return index
    })
    expect(sessions.sort((a, b) => a - b)).toEqual(Array.from({ length: FIRES }, (_, index) => index))
  })

  test('peak memory per process (reported)', () => {
    const peaks = results.map((result) => result.maxRssKb!).sort((a, b) => a - b)
    const mib = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`
    const wall = Math.max(...results.map((result) => result.durationMs))
    console.log(
      `${FIRES} concurrent fires: peak RSS per process min ${mib(peaks[0]!)}, median ${mib(peaks[FIRES / 2]!)}, max ${mib(peaks.at(-1)!)}; slowest fire ${Math.round(wall)} ms`,
    )
    for (const peak of peaks) expect(peak).toBeGreaterThan(0)
    expect(peaks.at(-1)!).toBeLessThan(256 * 1024)
  })
})
