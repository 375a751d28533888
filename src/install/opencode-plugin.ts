// The plugin `hookrun install --agent opencode` (or `kilo`) writes: OpenCode runs no hook commands,
// only plugins, so this small ES module is hookrun's entry in it (src/agents/opencode.ts reads
// what it sends and says what it answers).
import { agentNamed } from '../agents/registry.ts'
import { type AnswerFields, fireSource, pluginHeader } from '../agents/plugin-source.ts'

/** The fields of the plugin's answer (its agent's `--format`) and their types. */
const ANSWER_FIELDS: AnswerFields = {
  block: 'string',
  args: 'object',
  output: 'string',
  append: 'string',
  context: 'string',
  prompt: 'string',
  message: 'string',
}

/** The plugin's text for an agent that runs `command` (hookrun's words) with `timeoutSeconds` for each answer. */
export function pluginText(label: string, agent: string, command: readonly string[], timeoutSeconds: number): string {
  const format = agentNamed(agent)?.plugin?.format ?? agent
  return `${pluginHeader(label, agent)}
// Each hook asks hookrun (\`hookrun fire <hook> --format ${format}\`, what ${label} passed the hook on stdin)
// and applies its JSON answer: block (throw: the call or prompt is refused, the model gets the reason),
// args (the tool's new input), output / append (what the model gets from a tool), context (added to
// the system prompt from the next request on), prompt (the user's new prompt), message (stderr).
// A gate never fails open: when hookrun cannot answer, the tool call or prompt is refused.
${fireSource(format, agent, command, timeoutSeconds, ANSWER_FIELDS)}
// The bus events hookrun has a name for; the others (parts streaming, file watches) are not sent.
const EVENTS = new Set(['session.created', 'session.idle', 'session.compacted', 'session.error'])

export const HookrunPlugin = async ({ directory, worktree }) => {
  const contexts = new Map() // session id → context texts, added to its system prompt
  const running = new Map() // session id → a bus event's fire whose context the next request may need

  async function ask(hook, input, output) {
    const answer = await fire(hook, { hook, input, output, directory, worktree }, directory)
    say(answer.message)
    const session = input.sessionID ?? input.info?.id
    if (answer.context && session) contexts.set(session, [...(contexts.get(session) ?? []), answer.context])
    return answer
  }
  /** A gate: hookrun's block, or its failure, refuses the call (the Error's message reaches the model). */
  async function gate(hook, input, output) {
    let answer
    try {
      answer = await ask(hook, input, output)
    } catch (error) {
      answer = { block: REFUSED + error.message }
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
      return await ask(hook, input, output)
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
