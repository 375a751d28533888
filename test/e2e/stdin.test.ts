/**
 * The payload on stdin when the pipe is non-blocking (a parent left O_NONBLOCK on it) and the
 * agent writes it late: hookrun reads fd 0 directly and must fall back to a stream on EAGAIN.
 */
import { spawn, spawnSync } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, ALL_RUNTIMES, trustFolderIn } from '../helpers.ts'

// perl is on every Linux and macOS machine and can set O_NONBLOCK on its stdin before exec.
const NON_BLOCKING_EXEC =
  'use Fcntl; my $f = fcntl(STDIN, F_GETFL, 0); fcntl(STDIN, F_SETFL, $f | O_NONBLOCK) or die "fcntl: $!"; exec @ARGV or die "exec: $!"'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

describe('payload on a non-blocking stdin pipe, written after hookrun started', () => {
  for (const runtime of ALL_RUNTIMES) {
    test(runtime.name, async () => {
      const dir = makeProject({
        '.hookrun/hooks.json': {
          hooks: [{ name: 'echo-prompt', event: 'user:prompt_submit', command: 'echo "prompt: $HOOKRUN_USER_MESSAGE"' }],
        },
      })
      projects.push(dir)
      trustFolderIn(dir, `${dir}/.xdg`)
      const child = spawn('perl', ['-e', NON_BLOCKING_EXEC, ...runtime.command, 'fire', 'user:prompt_submit', '--payload', '-'], {
        cwd: dir,
        env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg`, HOOKRUN_CONFIG: undefined, HOOKRUN_DEPTH: undefined },
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      child.stderr.on('data', (chunk) => (stderr += chunk))
      // Late enough that hookrun's first read finds the pipe empty.
      const timer = setTimeout(() => child.stdin.end(JSON.stringify({ prompt: 'written late' })), 800)
      const exitCode = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit))
      clearTimeout(timer)
      expect(exitCode, stderr).toBe(0)
      expect(JSON.parse(stdout)).toMatchObject({
        event: 'user:prompt_submit',
        decision: 'allow',
        additionalContext: ['prompt: written late'],
      })
    })
  }
})

describe('a person at a terminal is told what hookrun waits for', () => {
  // util-linux `script` gives hookrun a terminal for stdin; its own stdin ends after a second (Ctrl-D).
  for (const runtime of ALL_RUNTIMES.filter((one) => one.name === 'binary' || one.name === 'node')) {
    test(runtime.name, async () => {
      const dir = makeProject()
      projects.push(dir)
      const command = [...runtime.command, 'fire', 'tool:pre_execute', '--payload', '-'].map((word) => `'${word}'`).join(' ')
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: dir,
        env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg` },
      })
      let seen = ''
      child.stdout.on('data', (chunk) => (seen += chunk))
      setTimeout(() => child.stdin.end(), 1000)
      await new Promise((resolveExit) => child.on('close', resolveExit))
      expect(seen).toContain("hookrun: waiting for the event's JSON on stdin: paste it and press Ctrl-D")
    })
  }
  test('nothing is said when stdin is a pipe (an agent)', async () => {
    const dir = makeProject()
    projects.push(dir)
    const child = spawn(ALL_RUNTIMES[0]!.command[0]!, ['fire', 'tool:pre_execute', '--payload', '-'], {
      cwd: dir,
      env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg` },
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdin.end('{}')
    await new Promise((resolveExit) => child.on('close', resolveExit))
    expect(stderr).toBe('')
  })
})

describe('--payload names a pipe (bash process substitution): read as it comes, written in two parts', () => {
  for (const runtime of ALL_RUNTIMES.filter((one) => one.name === 'binary' || one.name === 'node')) {
    test(runtime.name, () => {
      const dir = makeProject()
      projects.push(dir)
      const command = runtime.command.map((word) => `'${word}'`).join(' ')
      const run = spawnSync(
        'bash',
        ['-c', `${command} fire tool:pre_execute --payload <({ printf '{"tool_name":'; sleep 0.2; printf '"Bash"}'; })`],
        { cwd: dir, env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: `${dir}/.xdg` }, encoding: 'utf8', timeout: 20_000 },
      )
      expect(run.status, run.stderr).toBe(0)
      expect(JSON.parse(run.stdout)).toMatchObject({ event: 'tool:pre_execute:bash', decision: 'allow' })
    })
  }
})
