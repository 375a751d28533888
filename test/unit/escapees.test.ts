// The setsid sweep looks only at processes created since the fire's hooks started, and at every
// process when it cannot be sure of that window (src/run/escapees.ts).
import { spawn, spawnSync } from 'node:child_process'
import { afterEach, describe, expect, test } from 'vitest'
import { FIRE_ID_VARIABLE, killEscapees, mayBeExecuting, newFireId, pidClock } from '../../src/run/escapees.ts'

const started: number[] = []
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
})

/** A process in a session of its own carrying the fire's marker, as an escaped hook descendant would. */
function escapee(fireId: string): number {
  // Not detached: a process-group leader's setsid would fork, and this pid would not be the sleep.
  const child = spawn('setsid', ['sleep', '30'], { env: { ...process.env, [FIRE_ID_VARIABLE]: fireId }, stdio: 'ignore' })
  child.unref()
  started.push(child.pid!)
  return child.pid!
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    // A zombie still answers: look at its state.
    return !/^\S+ \(.*\) Z/.test(spawnSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' }).stdout)
  } catch {
    return false
  }
}

async function until(check: () => boolean): Promise<boolean> {
  // Polled: the machine may be loaded, and exec and SIGKILL take their time.
  for (let tries = 0; tries < 100; tries++) {
    if (check()) return true
    await new Promise((wake) => setTimeout(wake, 50))
  }
  return false
}

describe.runIf(process.platform === 'linux')('escapee sweep', () => {
  test('a clock from before the hooks bounds the sweep to what was created since', async () => {
    const fireId = newFireId()!
    const before = pidClock()!
    expect(before.lastPid).toBeGreaterThan(0)
    const pid = escapee(fireId)
    await until(() => spawnSync('cat', [`/proc/${pid}/environ`]).stdout.includes(fireId))
    expect(await killEscapees(fireId, before)).toBe(1)
    expect(await until(() => !alive(pid))).toBe(true)
  })

  test('a process created before the clock is outside the window (what shows the window is used)', async () => {
    const fireId = newFireId()!
    const pid = escapee(fireId)
    await until(() => spawnSync('cat', [`/proc/${pid}/environ`]).stdout.includes(fireId))
    const after = pidClock()!
    expect(await killEscapees(fireId, after)).toBe(0)
    expect(alive(pid)).toBe(true)
  })

  test('when more processes were created than the window trusts, or the ids wrapped, every process is checked', async () => {
    const fireId = newFireId()!
    const pid = escapee(fireId)
    await until(() => spawnSync('cat', [`/proc/${pid}/environ`]).stdout.includes(fireId))
    const now = pidClock()!
    // As if thousands of processes had been created during the fire: the window could have lapped.
    expect(await killEscapees(fireId, { lastPid: now.lastPid, created: now.created - 5000 })).toBe(1)
    const other = newFireId()!
    const second = escapee(other)
    await until(() => spawnSync('cat', [`/proc/${second}/environ`]).stdout.includes(other))
    // As if the ids had wrapped: the last id now is below the one before.
    expect(await killEscapees(other, { lastPid: pidClock()!.lastPid + 1_000_000, created: pidClock()!.created })).toBe(1)
    expect(await until(() => !alive(pid) && !alive(second))).toBe(true)
  })

  test('a new process that shows no environment (as one in the middle of exec does) is looked at again', async () => {
    const fireId = newFireId()!
    const before = pidClock()!
    // env -i: a live user process whose environment reads empty, like one caught mid-exec.
    const child = spawn('env', ['-i', 'sleep', '30'], { stdio: 'ignore' })
    started.push(child.pid!)
    await until(() => spawnSync('cat', [`/proc/${child.pid}/cmdline`], { encoding: 'utf8' }).stdout.startsWith('sleep'))
    const lookedAt = performance.now()
    expect(await killEscapees(fireId, before)).toBe(0)
    // Two more looks, 5 and 20 ms apart: without them the sweep would be over at once.
    expect(performance.now() - lookedAt).toBeGreaterThanOrEqual(24)
    expect(alive(child.pid!)).toBe(true)
  })

  test('only the whole variable counts: not a longer name, not a longer id; first in the environment or anywhere', async () => {
    const fireId = newFireId()!
    const before = pidClock()!
    const lookalike = (env: Record<string, string>) => {
      const child = spawn('setsid', ['sleep', '30'], { env, stdio: 'ignore' })
      child.unref()
      started.push(child.pid!)
      return child.pid!
    }
    const longerName = lookalike({ [`X${FIRE_ID_VARIABLE}`]: fireId, PATH: process.env.PATH! })
    const longerId = lookalike({ PATH: process.env.PATH!, [FIRE_ID_VARIABLE]: `${fireId}0` })
    const first = lookalike({ [FIRE_ID_VARIABLE]: fireId, PATH: process.env.PATH! })
    const last = lookalike({ PATH: process.env.PATH!, A: `${FIRE_ID_VARIABLE}=${fireId}`, [FIRE_ID_VARIABLE]: fireId })
    await until(() =>
      [longerName, longerId, first, last].every((pid) =>
        spawnSync('cat', [`/proc/${pid}/cmdline`], { encoding: 'utf8' }).stdout.startsWith('sleep'),
      ),
    )
    expect(await killEscapees(fireId, before)).toBe(2)
    expect(await until(() => !alive(first) && !alive(last))).toBe(true)
    expect(alive(longerName) && alive(longerId)).toBe(true)
  })

  test('without a clock every process is checked', async () => {
    const fireId = newFireId()!
    const pid = escapee(fireId)
    await until(() => spawnSync('cat', [`/proc/${pid}/environ`]).stdout.includes(fireId))
    expect(await killEscapees(fireId)).toBe(1)
    expect(await until(() => !alive(pid))).toBe(true)
  })
})

describe.runIf(process.platform === 'linux')('who is looked at again', () => {
  test('a live process may be in the middle of exec; a kernel thread and a zombie never are', async () => {
    expect(mayBeExecuting(String(process.pid))).toBe(true)
    // kthreadd is pid 2 where the kernel's threads are visible (not inside a pid namespace).
    if (/\(kthreadd\)/.test(spawnSync('cat', ['/proc/2/stat'], { encoding: 'utf8' }).stdout)) expect(mayBeExecuting('2')).toBe(false)
    // A zombie: a child that exited and was not reaped yet (sh forks one and sleeps without waiting).
    const parent = spawn('sh', ['-c', 'sleep 0 & exec sleep 30'], { stdio: 'ignore' })
    started.push(parent.pid!)
    let zombie: string | undefined
    await until(() => {
      zombie = spawnSync('sh', ['-c', `for p in $(cat /proc/${parent.pid}/task/*/children 2>/dev/null); do cat /proc/$p/stat; done`], {
        encoding: 'utf8',
      })
        .stdout.split('\n')
        .find((line) => / Z /.test(line))
        ?.split(' ')[0]
      return zombie !== undefined
    })
    expect(zombie).toBeDefined()
    expect(mayBeExecuting(zombie!)).toBe(false)
    expect(mayBeExecuting('999999999')).toBe(false)
  })
})
