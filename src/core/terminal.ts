// Whether a file descriptor is a terminal, answered without node:tty wherever the answer is plain.
import { closeSync, constants, fstatSync, openSync, type Stats, statSync, writeSync } from 'node:fs'
import { nodeTty } from './builtins.ts'

/** node:tty's answer: loading it loads Node's whole stream stack (~2 ms in a compiled hookrun). */
const ttyIsatty = (fd: number): boolean => nodeTty().isatty(fd)

/** A terminal is a character device other than /dev/null; only such a device asks node:tty. */
export function isTerminal(fd: number, isatty: (fd: number) => boolean = ttyIsatty): boolean {
  let device: Stats
  try {
    device = fstatSync(fd)
  } catch {
    return false
  }
  if (!device.isCharacterDevice()) return false
  try {
    if (device.rdev === statSync('/dev/null').rdev) return false
  } catch {
    // No /dev/null (Windows): the terminal module knows.
  }
  return isatty(fd)
}

/** `text` written to the controlling terminal (`/dev/tty`), for a person who sees no hook output; false when there is none. */
export function writeToTerminal(text: string): boolean {
  let fd: number | undefined
  try {
    fd = openSync('/dev/tty', constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK)
    writeSync(fd, text)
    return true
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
