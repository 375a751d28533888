// Which hook commands start without sh, and their argv.
import { isAbsolute, resolve } from 'node:path'

/**
 * A hook command that is plain words (`./scripts/check.sh --strict`, `node hook.js`) means the same
 * with or without `sh -c`, and starting it directly saves a shell process per hook (measured: a
 * script hook 0.66× the CPU of `sh -c` running it). Anything a shell interprets — quotes, `$`,
 * globs, redirections, `;`, `~`, comments, assignments, several lines — keeps the shell, and so
 * does a command whose first word is a shell builtin or keyword (`exit 2`, `echo hi`: the
 * builtin can differ from the program of that name).
 *
 * One difference is kept on purpose: without the shell's `trap '' PIPE` the program has SIGPIPE at
 * its default. That matters only to a hook that releases itself (`{"async": true}`) and then keeps
 * writing to stdout after hookrun has exited; such a hook gets its shell back by any shell syntax
 * (`exec ./hook.sh`).
 */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/

/** Builtins and reserved words of POSIX sh (dash, bash as sh): these keep the shell. */
const SHELL_WORDS = new Set([
  ...['.', ':', '[', 'alias', 'bg', 'break', 'cd', 'chdir', 'command', 'continue', 'echo', 'eval', 'exec', 'exit', 'export'],
  ...['false', 'fc', 'fg', 'getopts', 'hash', 'jobs', 'kill', 'local', 'printf', 'pwd', 'read', 'readonly', 'return', 'set'],
  ...['shift', 'test', 'times', 'trap', 'true', 'type', 'ulimit', 'umask', 'unalias', 'unset', 'wait', 'source'],
  ...['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'while', 'until', 'do', 'done', 'in', 'function', 'select', 'time'],
])

/**
 * The argv to start `command` with directly, or undefined when it needs `sh -c`. The program is
 * found as the shell would find it: a path relative to the hook's working directory, or a name
 * that the spawn looks up on the hook's own PATH (Bun.spawn and child_process both do). A PATH
 * with a relative entry keeps the shell, which reads it relative to the hook's directory.
 */
export function commandArgv(command: string, path: string | undefined, cwd: string): string[] | undefined {
  if (process.platform === 'win32') return undefined
  const words = command.trim().split(/[ \t]+/)
  const program = words[0]!
  if (!words.every((word) => PLAIN_WORD.test(word)) || program.includes('=') || SHELL_WORDS.has(program)) return undefined
  if (program.includes('/')) return [isAbsolute(program) ? program : resolve(cwd, program), ...words.slice(1)]
  if (path === undefined || path.split(':').some((dir) => !isAbsolute(dir))) return undefined
  return words
}
