#!/usr/bin/env node
import { writeSync } from 'node:fs'
import process from 'node:process'
import { main } from './cli.ts'
import { isTerminal, writeToTerminal } from './core/terminal.ts'
import { readStdin } from './payload/stdin.ts'

/**
 * Output straight to the descriptor (`process.stdout` costs more than an event: BENCHMARKS.md); on EAGAIN or an error, the stream.
 * An answer mostly leaves in one write of the string: its bytes are made only after a partial write (a first `Buffer.from` costs a fire
 * more than the write).
 */
const write = (fd: 1 | 2, stream: () => NodeJS.WriteStream) => (text: string) => {
  let rest: Buffer | undefined
  try {
    const written = writeSync(fd, text)
    if (written === Buffer.byteLength(text)) return
    rest = Buffer.from(text).subarray(written)
    while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest))
    return
  } catch {
    return new Promise<void>((resolveWrite) => {
      stream().write(rest ?? text, () => resolveWrite())
    })
  }
}

/** Stdin as the commands read it, when they do; a person at a terminal is told what hookrun waits for (agents pipe it). */
const stdin = {
  [Symbol.asyncIterator]() {
    if (isTerminal(0))
      writeSync(
        2,
        "hookrun: waiting for the event's JSON on stdin: paste it and press Ctrl-D, or pipe it in (--payload FILE reads a file)\n",
      )
    return readStdin()
  },
}

main(process.argv.slice(2), {
  stdout: write(1, () => process.stdout),
  stderr: write(2, () => process.stderr),
  env: process.env,
  stdin,
  stderrIsTerminal: isTerminal(2),
  terminal: writeToTerminal,
  // Asked only by commands that print for a person (colour), never by fire.
  get stdoutIsTerminal() {
    return isTerminal(1)
  },
  // Asked only by help: the stream costs milliseconds to create (above).
  get stdoutColumns() {
    return isTerminal(1) ? process.stdout.columns : undefined
  },
}).then((code) => process.exit(code))
