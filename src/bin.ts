#!/usr/bin/env node
import { fstatSync, writeSync } from 'node:fs'
import process from 'node:process'
import { main } from './cli.ts'
import { readStdin } from './payload/stdin.ts'

/**
 * Output goes straight to the file descriptor: creating `process.stdout` costs a compiled
 * hookrun ~12 ms (measured: a compiled program printing through it ran 3.0× a hello-world, through
 * writeSync 1.25×), more than the rest of an event. A non-blocking descriptor that is full
 * (EAGAIN), or any other write error, hands the rest to the stream, which knows how to wait.
 */
const write = (fd: 1 | 2, stream: () => NodeJS.WriteStream) => (text: string) => {
  let rest = Buffer.from(text)
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest))
    return
  } catch {
    return new Promise<void>((resolveWrite) => {
      stream().write(rest, () => resolveWrite())
    })
  }
}

/**
 * A terminal is a character device; pipes and files (how agents run hookrun) are not, and are
 * answered without node:tty, which loads Node's whole stream stack (~3 ms in a compiled hookrun).
 */
function isTerminal(fd: 1 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false
  } catch {
    return false
  }
  return (process.getBuiltinModule('node:tty') as typeof import('node:tty')).isatty(fd)
}

main(process.argv.slice(2), {
  stdout: write(1, () => process.stdout),
  stderr: write(2, () => process.stderr),
  env: process.env,
  stdin: { [Symbol.asyncIterator]: readStdin },
  stderrIsTerminal: isTerminal(2),
  // Asked only by commands that print for a person (colour), never by fire.
  get stdoutIsTerminal() {
    return isTerminal(1)
  },
}).then((code) => process.exit(code))
