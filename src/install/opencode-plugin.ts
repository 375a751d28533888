// The plugin `hookrun install --agent opencode` (or `kilo`) writes: OpenCode runs no hook commands,
// only plugins, so this small ES module is hookrun's entry in it (src/agents/opencode.ts reads
// what it sends and says what it answers).
import { agentNamed } from '../agents/registry.ts'
import { PLUGIN_MARKER } from '../agents/plugins.ts'

/**
 * The plugin's text for an agent (`OpenCode`, `Kilo Code`) that runs `command` (hookrun's words:
 * `["hookrun"]`, or a runtime and its script) with `timeoutSeconds` for each answer.
 */
export function pluginText(label: string, agent: string, command: readonly string[], timeoutSeconds: number): string {
  const format = agentNamed(agent)?.plugin?.format ?? agent
  return `${PLUGIN_MARKER} ${label}, written by \`hookrun install --agent ${agent}\`; \`hookrun uninstall --agent ${agent}\` removes it.
// Each hook asks hookrun (\`hookrun fire <hook> --format ${format}\`, what ${label} passed the hook on stdin)
// and applies its JSON answer: block (throw: the call or prompt is refused, the model gets the reason),
// args (the tool's new input), output / append (what the model gets from a tool), context (added to
// the system prompt from the next request on), prompt (the user's new prompt), message (stderr).
// A gate never fails open: when hookrun cannot answer, the tool call or prompt is refused.
import { spawn } from 'node:child_process'

const HOOKRUN = ${JSON.stringify(command)}
const TIMEOUT_MS = ${timeoutSeconds * 1000}
// The bus events hookrun has a name for; the others (parts streaming, file watches) are not sent.
const EVENTS = new Set(['session.created', 'session.idle', 'session.compacted', 'session.error'])

// What each field of an answer is; any other field is left alone (a later hookrun may add one).
const FIELDS = { block: 'string', args: 'object', output: 'string', append: 'string', context: 'string', prompt: 'string', message: 'string' }

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
function ask(hook, payload, cwd) {
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

export const HookrunPlugin = async ({ directory, worktree }) => {
  const contexts = new Map() // session id → context texts, added to its system prompt
  const running = new Map() // session id → a bus event's fire whose context the next request may need
  // hookrun's own notices start with its name already.
  const say = (text) => text && process.stderr.write(\`\${text.startsWith('hookrun: ') ? '' : 'hookrun: '}\${text}\\n\`)

  async function fire(hook, input, output) {
    const answer = await ask(hook, { hook, input, output, directory, worktree }, directory)
    say(answer.message)
    const session = input.sessionID ?? input.info?.id
    if (answer.context && session) contexts.set(session, [...(contexts.get(session) ?? []), answer.context])
    return answer
  }
  /** A gate: hookrun's block, or its failure, refuses the call (the Error's message reaches the model). */
  async function gate(hook, input, output) {
    let answer
    try {
      answer = await fire(hook, input, output)
    } catch (error) {
      answer = { block: \`hookrun could not check this, so it is refused (a gate never fails open): \${error.message}\` }
    }
    if (answer.block !== undefined) {
      if (hook === 'chat.message') say(\`prompt refused: \${answer.block}\`) // ${label} shows only "Unexpected server error"
      throw new Error(answer.block)
    }
    return answer
  }
  /** Not a gate: a failure is told on stderr and the agent goes on. */
  async function advise(hook, input, output) {
    try {
      return await fire(hook, input, output)
    } catch (error) {
      say(\`\${hook}: \${error.message}\`)
      return {}
    }
  }

  return {
    'tool.execute.before': async (input, output) => {
      const answer = await gate('tool.execute.before', input, output)
      if (answer.args !== undefined) {
        // ${label} runs the tool with this very object: its keys are replaced in place.
        for (const key of Object.keys(output.args)) delete output.args[key]
        Object.assign(output.args, answer.args)
      }
    },
    'tool.execute.after': async (input, output) => {
      const answer = await advise('tool.execute.after', input, output)
      if (typeof answer.output === 'string') output.output = answer.output
      if (answer.append) output.output = \`\${output.output}\\n\\n\${answer.append}\`
    },
    'chat.message': async (input, output) => {
      const answer = await gate('chat.message', input, output)
      if (typeof answer.prompt === 'string') {
        const texts = output.parts.filter((part) => part.type === 'text' && !part.synthetic)
        texts.forEach((part, index) => (part.text = index === 0 ? answer.prompt : ''))
      }
    },
    'experimental.chat.system.transform': async (input, output) => {
      await running.get(input.sessionID)
      output.system.push(...(contexts.get(input.sessionID) ?? []))
    },
    event: async ({ event }) => {
      if (!EVENTS.has(event.type)) return
      const properties = event.properties ?? {}
      const fired = advise(event.type, properties, {})
      const session = properties.sessionID ?? properties.info?.id
      if (session) running.set(session, fired)
      await fired
    },
  }
}
`
}
