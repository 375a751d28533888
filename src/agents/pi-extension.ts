// The extension `hookrun install --agent pi` writes: Pi runs no hook commands, only TypeScript
// extensions in its own process, so this small ES module is hookrun's entry in it (src/agents/pi.ts
// reads what it sends and says what it answers).
import { type AnswerFields, fireSource, PLAIN_SOURCE, pluginHeader } from './plugin-source.ts'

/** The fields of `--format pi`'s answer and their types. */
const PI_ANSWER_FIELDS: AnswerFields = {
  block: 'string',
  ask: 'string',
  input: 'object',
  content: 'string',
  append: 'string',
  context: 'string',
  prompt: 'string',
  message: 'string',
}

/** The Pi events the extension only reports (src/agents/pi.ts EVENTS, less the three it applies answers on). */
const REPORTED = ['session_start', 'session_shutdown', 'agent_start', 'agent_end', 'session_before_compact', 'session_compact']

/** The extension's text: it runs `command` (hookrun's words) with `timeoutSeconds` for each answer. */
export function piExtensionText(command: readonly string[], timeoutSeconds: number): string {
  return `${pluginHeader('Pi', 'pi')}
// Each event asks hookrun (\`hookrun fire <event> --format pi\`, what Pi passed the handler on stdin)
// and applies its JSON answer: block (the tool call or prompt is refused, the model gets the reason),
// ask (Pi's confirmation where it has a UI, else refused), input (the tool's new arguments), content /
// append (what the model gets from a tool), context (for the model), prompt (the user's new prompt),
// message (stderr). A gate never fails open: when hookrun cannot answer, the call or prompt is refused.
${fireSource('pi', 'pi', command, timeoutSeconds, PI_ANSWER_FIELDS)}${PLAIN_SOURCE}
const REPORTED = ${JSON.stringify(REPORTED)}

export default function hookrun(pi) {
  const contexts = [] // context for the model, sent with the next run (before_agent_start)
  const callContexts = new Map() // tool call id → context, added under that call's result

  function payloadOf(name, event, ctx) {
    let session
    try {
      session = ctx.sessionManager?.getSessionId?.()
    } catch {
      session = undefined
    }
    // A run's whole conversation (agent_end) or a compaction's branch is not what a hook decides
    // on, and may be large: the run's last answer is sent instead, as last_assistant_message.
    const { branchEntries, messages, ...rest } = event ?? {}
    const last = Array.isArray(messages) ? messages.findLast((message) => message?.role === 'assistant') : undefined
    const parts = Array.isArray(last?.content) ? last.content.filter((part) => part?.type === 'text') : []
    const said = parts.map((part) => part.text).join('\\n')
    return {
      pi_event: name,
      event: plain(rest),
      cwd: ctx.cwd,
      ...(session ? { session_id: session } : {}),
      ...(said ? { last_assistant_message: said } : {}),
    }
  }
  async function ask(name, event, ctx) {
    const answer = await fire(name, payloadOf(name, event, ctx), ctx.cwd)
    say(answer.message)
    return answer
  }
  /** A gate: hookrun's failure refuses. */
  async function gate(name, event, ctx) {
    try {
      return await ask(name, event, ctx)
    } catch (error) {
      return { block: REFUSED + error.message }
    }
  }
  /** Not a gate: a failure is told on stderr and Pi goes on. */
  async function advise(name, event, ctx) {
    try {
      return await ask(name, event, ctx)
    } catch (error) {
      say(\`\${name}: \${error.message}\`)
      return {}
    }
  }

  pi.on('tool_call', async (event, ctx) => {
    const answer = await gate('tool_call', event, ctx)
    if (answer.block !== undefined) return { block: true, reason: answer.block }
    if (answer.ask !== undefined) {
      let confirmed = false
      if (ctx.hasUI) {
        try {
          confirmed = (await ctx.ui.confirm('hookrun', answer.ask)) === true
        } catch {
          confirmed = false
        }
      }
      if (!confirmed)
        return { block: true, reason: ctx.hasUI ? \`\${answer.ask}: not confirmed\` : \`\${answer.ask}; no one can confirm it in this mode, so it is refused\` }
    }
    if (answer.input !== undefined) {
      // Pi runs the tool with this very object: its keys are replaced in place.
      for (const key of Object.keys(event.input)) delete event.input[key]
      Object.assign(event.input, answer.input)
    }
    if (answer.context) callContexts.set(event.toolCallId, answer.context)
    return undefined
  })

  pi.on('tool_result', async (event, ctx) => {
    const before = callContexts.get(event.toolCallId)
    callContexts.delete(event.toolCallId)
    const answer = await advise('tool_result', event, ctx)
    let content = typeof answer.content === 'string' ? [{ type: 'text', text: answer.content }] : undefined
    const added = [before, answer.append].filter(Boolean)
    if (added.length > 0) content = [...(content ?? event.content ?? []), ...added.map((text) => ({ type: 'text', text }))]
    return content === undefined ? undefined : { content }
  })

  pi.on('input', async (event, ctx) => {
    const answer = await gate('input', event, ctx)
    if (answer.block !== undefined) {
      say(\`prompt refused: \${answer.block}\`)
      if (ctx.hasUI) ctx.ui.notify(\`hookrun: prompt refused: \${answer.block}\`, 'error')
      return { action: 'handled' }
    }
    if (answer.context) contexts.push(answer.context)
    if (typeof answer.prompt === 'string') return { action: 'transform', text: answer.prompt }
    return { action: 'continue' }
  })

  pi.on('before_agent_start', () => {
    if (contexts.length === 0) return undefined
    return { message: { customType: 'hookrun', content: contexts.splice(0).join('\\n\\n'), display: false } }
  })

  for (const name of REPORTED) {
    pi.on(name, async (event, ctx) => {
      const answer = await advise(name, event, ctx)
      if (answer.context) contexts.push(answer.context)
    })
  }
}
`
}
