// A file's stat signature: what stands in for reading it again while it is unchanged.
import { statSync } from 'node:fs'

/** Device, inode, mode, size, modification and change time: any write, chmod or replacement changes it. */
export function statSignature(file: string): string {
  try {
    const stat = statSync(file, { bigint: true, throwIfNoEntry: false })
    return stat === undefined ? 'missing' : `${stat.dev}:${stat.ino}:${stat.mode}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`
  } catch {
    return 'missing'
  }
}
