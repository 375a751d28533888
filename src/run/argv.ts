// Which hook commands start without sh, and their argv.
import { isAbsolute, resolve } from 'node:path'

/**
 * A command of plain words means the same without `sh -c`, and saves a shell per hook (0.66× the CPU); anything a
 * shell interprets, or a first word that is a builtin or keyword, keeps the shell. (Without `trap '' PIPE` SIGPIPE
 * stays at its default: only an async hook writing after hookrun exits notices; `exec ./hook.sh` gets the shell back.)
 */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/

/** Builtins and reserved words of POSIX sh (dash, bash as sh): these keep the shell. */
const SHELL_WORDS = new Set([
  ...['.', ':', '[', 'alias', 'bg', 'break', 'cd', 'chdir', 'command', 'continue', 'echo', 'eval', 'exec', 'exit', 'export'],
  ...['false', 'fc', 'fg', 'getopts', 'hash', 'jobs', 'kill', 'local', 'printf', 'pwd', 'read', 'readonly', 'return', 'set'],
  ...['shift', 'test', 'times', 'trap', 'true', 'type', 'ulimit', 'umask', 'unalias', 'unset', 'wait', 'source'],
  ...['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'while', 'until', 'do', 'done', 'in', 'function', 'select', 'time'],
])

/** The argv to start `command` with directly, or undefined when it needs `sh -c` (a PATH with a relative entry too). */
export function commandArgv(command: string, path: string | undefined, cwd: string): string[] | undefined {
  if (process.platform === 'win32') return undefined
  const words = command.trim().split(/[ \t]+/)
  const program = words[0]!
  if (!words.every((word) => PLAIN_WORD.test(word)) || program.includes('=') || SHELL_WORDS.has(program)) return undefined
  if (program.includes('/')) return [isAbsolute(program) ? program : resolve(cwd, program), ...words.slice(1)]
  if (path === undefined || path.split(':').some((dir) => !isAbsolute(dir))) return undefined
  return words
}
