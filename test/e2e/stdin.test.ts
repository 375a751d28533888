/**
 * The payload on stdin when the pipe is non-blocking (a parent left O_NONBLOCK on it) and the
 * agent writes it late: hookrun reads fd 0 directly and must fall back to a stream on EAGAIN.
 */
import { spawn } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, ALL_RUNTIMES, trustFolderIn } from '../helpers.ts'

// perl is on every Linux and macOS machine and can set O_NONBLOCK on its stdin before exec.
const NON_BLOCKING_EXEC = 'use Fcntl; my $f = fcntl(STDIN, F_GETFL, 0); fcntl(STDIN, F_SETFL, $f | O_NONBLOCK) or die "fcntl: $!"; exec @ARGV or die "exec: $!"'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

describe('payload on a non-blocking stdin pipe, written after hookrun started', () => {
  for (const runtime of ALL_RUNTIMES) {
    test(runtime.name, async () => {
      const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'echo-prompt', event: 'user:prompt_submit', command: 'echo "prompt: $HOOKRUN_USER_MESSAGE"' }] } })
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
      expect(JSON.parse(stdout)).toMatchObject({ event: 'user:prompt_submit', decision: 'allow', additionalContext: ['prompt: written late'] })
    })
  }
})
