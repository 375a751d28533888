#!/usr/bin/env node
/**
 * What hook folders cost a fire that none of their hooks serves:
 *
 *   node scripts/bench-folder-hooks.mjs [path/to/hookrun] [runs]
 *
 * Times `hookrun fire session:start` in a project without hooks, then in one with 10 folder hooks
 * that serve tool:pre_execute (their `hook` answers cached by a first fire), and prints medians.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const bin = resolve(process.argv[2] ?? 'dist/hookrun')
const runs = Number(process.argv[3] ?? 60)

function project(hooks) {
  const dir = mkdtempSync(join(tmpdir(), 'hookrun-bench-'))
  mkdirSync(join(dir, '.hookrun', 'hooks'), { recursive: true })
  for (let index = 0; index < hooks; index++) {
    const file = join(dir, '.hookrun', 'hooks', `hook-${index}`)
    writeFileSync(file, '#!/bin/sh\ncase "$1" in hook) echo tool:pre_execute ;; run) cat >/dev/null ;; esac\n')
    chmodSync(file, 0o755)
  }
  return dir
}

function median(dir) {
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), XDG_CACHE_HOME: join(dir, '.cache') }
  const fire = () => {
    const started = performance.now()
    const result = spawnSync(bin, ['fire', 'session:start'], { cwd: dir, env })
    if (result.status !== 0) throw new Error(`${bin} failed: ${result.error?.message ?? result.stderr}`)
    return performance.now() - started
  }
  for (let warm = 0; warm < 5; warm++) fire() // the first one also fills the answer cache
  const times = Array.from({ length: runs }, fire).sort((a, b) => a - b)
  return times[Math.floor(runs / 2)]
}

const empty = project(0)
const folder = project(10)
try {
  // Interleaved rounds, so a busy neighbour on a shared machine weighs on both alike.
  const results = { empty: [], folder: [] }
  for (let round = 0; round < 3; round++) {
    results.empty.push(median(empty))
    results.folder.push(median(folder))
  }
  const show = (values) => values.map((value) => `${value.toFixed(1)} ms`).join(', ')
  console.log(`${bin}: fire session:start, median of ${runs} runs, 3 rounds`)
  console.log(`  no hooks:                        ${show(results.empty)}`)
  console.log(`  10 folder hooks, none matching:  ${show(results.folder)}`)
} finally {
  rmSync(empty, { recursive: true, force: true })
  rmSync(folder, { recursive: true, force: true })
}
