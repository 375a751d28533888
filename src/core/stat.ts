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

/** `statSignature`, each path taken once: what one look at the world (src/config/observe.ts) asks with. */
export function signatureTaker(): (file: string) => string {
  const taken = new Map<string, string>()
  return (file) => {
    const known = taken.get(file)
    if (known !== undefined) return known
    const signature = statSignature(file)
    taken.set(file, signature)
    return signature
  }
}

/** Only a file untouched this long stands in for its content by signature: an edit in the same timestamp tick would go unseen. */
export const SETTLE_MS = 2000

/** Whether the file of this signature (`statSignature`) was last modified more than SETTLE_MS ago. */
export function signatureSettled(signature: string, now = Date.now()): boolean {
  if (signature === 'missing') return false
  const modified = signature.split(':')[4]
  return modified !== undefined && now - Number(BigInt(modified) / 1_000_000n) > SETTLE_MS
}
