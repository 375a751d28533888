// The part every plugin hookrun writes for an in-process agent (Pi, OpenClaw, OpenCode) shares: one fire of
// `hookrun fire`, its answer read and checked, every failure of hookrun's a rejection the plugin
// turns into a refusal on a gate. The agent's own part (which hooks, how an answer is applied) is
// in its plugin text (src/agents/pi-extension.ts, src/agents/openclaw-plugin.ts, src/install/opencode-plugin.ts).
import { PLUGIN_MARKER } from './plugins.ts'

/** What each field of an answer is: 'string' or 'object'. Any other field is left alone (a later hookrun may add one). */
export type AnswerFields = Readonly<Record<string, 'string' | 'object'>>

/** The plugin's first lines: the marker install knows it by, and who wrote it. */
export function pluginHeader(label: string, agent: string): string {
  return `${PLUGIN_MARKER} ${label}, written by \`hookrun install --agent ${agent}\`; \`hookrun uninstall --agent ${agent}\` removes it.`
}

/**
 * `fire(hook, payload, cwd)`: runs hookrun (`command`) with the payload on stdin and resolves with
 * its answer, one JSON object whose fields are of the types `fields` gives; it rejects when hookrun
 * cannot start, exits non-zero, gives no answer in `timeoutSeconds` or answers anything else.
 * hookrun's stderr is passed on (its notices for the person).
 */
export function fireSource(
  format: string,
  agent: string,
  command: readonly string[],
  timeoutSeconds: number,
  fields: AnswerFields,
): string {
  return `import { spawn } from 'node:child_process'

const HOOKRUN = ${JSON.stringify(command)}
const TIMEOUT_MS = ${timeoutSeconds * 1000}
const FIELDS = ${JSON.stringify(fields)}

/** Why \`answer\` is not an answer hookrun gives (one JSON object, its fields of their types), or undefined. */
function misshapen(answer) {
  const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value)
  if (!isObject(answer)) return \`\${Array.isArray(answer) ? 'an array' : answer === null ? 'null' : \`a \${typeof answer}\`}, not an object\`
  for (const [key, type] of Object.entries(FIELDS)) {
    const value = answer[key]
    if (value !== undefined && !(type === 'object' ? isObject(value) : typeof value === type)) return \`its \${key} is not a\${type === 'object' ? 'n object' : ' string'}\`
  }
  return undefined
}

/** One fire: the payload on stdin, the answer from stdout; any failure of hookrun's rejects. */
function fire(hook, payload, cwd) {
  return new Promise((resolve, reject) => {
    const args = [...HOOKRUN.slice(1), 'fire', hook, '--format', '${format}']
    const child = spawn(HOOKRUN[0], args, { cwd, env: { ...process.env, HOOKRUN_AGENT: '${agent}' } })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      reject(new Error(\`hookrun gave no answer in \${TIMEOUT_MS / 1000} s\`))
    }, TIMEOUT_MS)
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(new Error(\`hookrun could not start: \${error.message}\`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (stderr.trim() !== '') process.stderr.write(stderr.endsWith('\\n') ? stderr : \`\${stderr}\\n\`)
      if (code !== 0) return reject(new Error(\`hookrun failed (\${signal ?? \`exit \${code}\`}): \${stderr.trim().split('\\n').at(-1) ?? ''}\`))
      let answer
      try {
        answer = JSON.parse(stdout)
      } catch {
        return reject(new Error(\`hookrun's answer is not JSON: \${stdout.slice(0, 200)}\`))
      }
      const wrong = misshapen(answer)
      if (wrong !== undefined) return reject(new Error(\`hookrun's answer is not one it gives (\${wrong}): \${stdout.trim().slice(0, 200)}\`))
      resolve(answer)
    })
    child.stdin.on('error', () => {}) // hookrun may answer before reading it all
    child.stdin.end(JSON.stringify(payload))
  })
}

/** A gate's refusal when hookrun could not answer. */
const REFUSED = 'hookrun could not check this, so it is refused (a gate never fails open): '

// hookrun's own notices start with its name already.
const say = (text) => text && process.stderr.write(\`\${text.startsWith('hookrun: ') ? '' : 'hookrun: '}\${text}\\n\`)
`
}

/** `plain(value)`, through which Pi's and OpenClaw's plugins send what their events carry (OpenCode's sends its hooks' input as it is). */
export const PLAIN_SOURCE = `
/** What an event carries that JSON can hold: functions, signals and cycles left out. */
function plain(value, seen = new Set()) {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' ? undefined : value
  if (seen.has(value)) return undefined
  seen.add(value)
  if (Array.isArray(value)) return value.map((item) => plain(item, seen))
  if (typeof AbortSignal !== 'undefined' && value instanceof AbortSignal) return undefined
  const out = {}
  for (const [key, item] of Object.entries(value)) {
    const kept = plain(item, seen)
    if (kept !== undefined) out[key] = kept
  }
  return out
}
`
