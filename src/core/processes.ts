// What the system says of another process: its parent. Linux's /proc; elsewhere `ps`.
import { readFileSync } from 'node:fs'
import { nodeChildProcess } from './builtins.ts'

/**
 * The fields of /proc/PID/stat after the command name ("state ppid pgrp session tty tpgid flags
 * …"); the name may hold spaces and parentheses, so the fields start after its last ")". None
 * where there is no such process or no /proc.
 */
export function procStatFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** The parent of process `pid`, if the system tells it (none where it cannot: no such process, no /proc and no `ps`). */
export function parentPid(pid: number): number | undefined {
  const fields = procStatFields(pid)
  const text =
    fields?.[1] ??
    (process.platform === 'linux'
      ? undefined
      : nodeChildProcess().spawnSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 }).stdout)
  const parent = Number(text?.trim())
  return Number.isInteger(parent) && parent > 0 ? parent : undefined
}
