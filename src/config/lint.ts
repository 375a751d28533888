// Config checks beyond the schema (warnings a valid file can still deserve).
import type { HookEntry } from './schema.ts'

/**
 * Values the schema accepts that are almost certainly not what the author meant. They are
 * warnings in `fire` (the hook still runs as written) and errors in `validate`.
 */
export function lintHookEntry(entry: HookEntry): Array<{ path: string; message: string }> {
  const found: Array<{ path: string; message: string }> = []
  if (looksLikeMilliseconds(entry.timeout)) {
    found.push({
      path: 'timeout',
      message: `timeout ${entry.timeout} looks like milliseconds, but timeouts are seconds (this is ${humanDuration(entry.timeout)}); write ${entry.timeout / 1000} for ${entry.timeout / 1000} s`,
    })
  }
  for (const [header, value] of Object.entries(entry.headers ?? {})) {
    for (const match of value.matchAll(HEADER_VARIABLE)) {
      const name = (match[1] ?? match[2])!
      if (entry.allowedEnvVars?.includes(name)) continue
      found.push({
        path: `headers.${header}`,
        message: `uses $${name}, which allowedEnvVars does not list: it is sent empty. Add '${name}' to allowedEnvVars to send its value`,
      })
    }
  }
  return found
}

/** `$NAME` or `${NAME}` in an http hook's header value (expanded by src/run/http.ts). */
export const HEADER_VARIABLE = /\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g

/** 1000 or more and a multiple of 500 (1500, 5000, 30000): a value copied from a tool that counts milliseconds. */
function looksLikeMilliseconds(seconds: number): boolean {
  return seconds >= 1000 && seconds % 500 === 0
}

function humanDuration(seconds: number): string {
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.round((seconds % 3600) / 60)
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`
}
