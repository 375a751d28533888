// A hook that leaves its process group with setsid is still ended when the fire ends (Linux; issue 12).
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, processesMatching, removeProject, runCli, trustProjectFor, waitForNoProcess } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

/** Kill what a failed test left, by process id. */
function killLeftovers(marker: string): void {
  for (const line of processesMatching(marker)) {
    try {
      process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL')
    } catch {}
  }
}

describe.runIf(process.platform === 'linux')('setsid escapees', () => {
  test.each(['binary', 'node'])('%s: an escapee that let go of every pipe is killed at the end of the fire', async (runtime) => {
    const marker = runtime === 'binary' ? '31971' : '31972'
    const dir = makeProject({
      '.hookrun/hooks.json': {
        hooks: [{ name: 'escape', event: 'tool:pre_execute', command: `setsid sleep ${marker} < /dev/null > /dev/null 2>&1 & exit 0` }],
      },
    })
    projects.push(dir)
    trustProjectFor(dir)
    try {
      const result = await runCli(['fire', 'tool:pre_execute'], { cwd: dir, runtime })
      expect(result.exitCode, result.stderr).toBe(0)
      expect(await waitForNoProcess(`sleep ${marker}`)).toEqual([])
    } finally {
      killLeftovers(`sleep ${marker}`)
    }
  })

  test('a background hook (blocking: false) is left to run, as asked', async () => {
    const marker = '31973'
    const dir = makeProject({
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'bg', event: 'tool:pre_execute', blocking: false, command: `setsid sleep ${marker} < /dev/null > /dev/null 2>&1 &` },
        ],
      },
    })
    projects.push(dir)
    trustProjectFor(dir)
    try {
      const result = await runCli(['fire', 'tool:pre_execute'], { cwd: dir, runtime: 'node' })
      expect(result.exitCode, result.stderr).toBe(0)
      await new Promise((wake) => setTimeout(wake, 300))
      expect(processesMatching(`sleep ${marker}`).length).toBeGreaterThan(0)
    } finally {
      killLeftovers(`sleep ${marker}`)
    }
  })
})
