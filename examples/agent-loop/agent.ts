/**
 * A small agent loop with hookrun inside it. There is no model: the "model" is a script of tool
 * calls. Every lifecycle event goes through one hookrun runner (the command hooks of hooks.json
 * and the function hooks below, in one chain), and the loop applies each decision the way a real
 * agent should:
 *
 *   blocked                 the tool does not run; the reason goes back to the model
 *   updatedInput            the tool runs with the rewritten input
 *   updatedPrompt           the model sees the rewritten prompt
 *   additionalContext       collected and sent with the next model request
 *   decision 'ask'          the agent's own permission prompt (scripted here)
 *   keepGoing (agent:stop)  do not stop: take the reason as the next instruction (bounded)
 *   continue: false         stop the agent now
 *
 * Run it (after `npm run build`):  bun examples/agent-loop/agent.ts
 *                              or  deno run -A examples/agent-loop/agent.ts
 */
import { join } from 'node:path'
import { allow, createRunner, type Decision, deny, type Payload } from 'hookrun'

// This example's own hooks.json; leave `configFiles` out to use the user's and the project's
// hooks.json, as `hookrun fire` does.
const runner = createRunner({ configFiles: [join(import.meta.dirname, 'hooks.json')] })

// The agent's state, which function hooks can reach directly: they run in this process.
const files = new Map([['/workspace/src/app.ts', 'export const answer = 41\n']])
let testsPassed = false
const audit: string[] = []

runner
  // Secrets never reach the model (the Rust plan's "filter messages"): change the prompt in place.
  .on('user:prompt_submit', (ctx) => {
    if (ctx.prompt !== undefined) ctx.prompt = ctx.prompt.replace(/sk-[A-Za-z0-9]+/g, '[redacted]')
  }, { name: 'redact-secrets', order: 'first' })
  // Keep file tools inside the workspace. It runs before the protect-secrets command hook, which
  // therefore checks the rewritten path.
  .on('tool:pre_execute:read|write|edit', (ctx) => {
    const path = ctx.toolInput?.file_path
    if (typeof path === 'string' && !path.startsWith('/workspace/')) ctx.toolInput!.file_path = `/workspace/${path.replace(/^\/+/, '')}`
  }, { name: 'sandbox-paths', before: 'protect-secrets' })
  .on('tool:pre_execute:read|glob|grep', () => allow('reading is always fine'), { name: 'auto-approve-reads' })
  .on('tool:post_execute,tool:error', (ctx) => {
    audit.push(`${ctx.event} ${ctx.toolName} ${JSON.stringify(ctx.toolInput)}`)
  }, { name: 'audit' })
  .on('agent:stop', () => (testsPassed ? undefined : deny('run the tests (npm test) before you stop')), { name: 'tests-before-stop' })

interface ToolCall {
  readonly tool: string
  readonly input: Record<string, unknown>
}

/** What the "model" does on each turn. */
const SCRIPT: ReadonlyArray<{ readonly say: string; readonly calls: readonly ToolCall[] }> = [
  {
    say: 'Let me look at the code and fix it.',
    calls: [
      { tool: 'Read', input: { file_path: 'src/app.ts' } },
      { tool: 'Bash', input: { command: 'sudo rm -rf node_modules' } },
      { tool: 'Write', input: { file_path: 'src/app.ts', content: 'export const answer = 42\n' } },
      { tool: 'Write', input: { file_path: '.env', content: 'API_KEY=1' } },
      { tool: 'Read', input: { file_path: 'src/missing.ts' } },
    ],
  },
  { say: 'Running the tests.', calls: [{ tool: 'Bash', input: { command: 'npm test' } }] },
]

const TOOLS: Record<string, (input: Record<string, unknown>) => string> = {
  Read(input) {
    const content = files.get(String(input.file_path))
    if (content === undefined) throw new Error(`no such file: ${input.file_path}`)
    return content.trim()
  },
  Write(input) {
    files.set(String(input.file_path), String(input.content))
    return `wrote ${String(input.content).length} bytes`
  },
  Bash(input) {
    if (input.command === 'npm test') {
      testsPassed = files.get('/workspace/src/app.ts')?.includes('42') ?? false
      return testsPassed ? '1 test passed' : '1 test failed'
    }
    return `ran: ${input.command}`
  },
}

const MODEL = 'scripted'
const MAX_TURNS = 4
const session: Payload = { session_id: 'agent-loop-demo', cwd: import.meta.dirname }
/** additionalContext from hooks, sent with the next model request. */
const pendingContext: string[] = []

class AgentStopped extends Error {}

/** Fire one event with the session fields; every decision's warnings and `continue: false` handled here. */
async function fire(event: string, payload: Payload = {}): Promise<Decision> {
  const decision = await runner.fire(event, { ...session, ...payload })
  for (const warning of decision.warnings) console.error(`hookrun: warning: ${warning}`)
  pendingContext.push(...decision.additionalContext)
  if (!decision.continue) throw new AgentStopped(decision.stopReason ?? `a hook stopped the agent on ${event}`)
  return decision
}

async function runTool(call: ToolCall): Promise<void> {
  const pre = await fire('tool:pre_execute', { tool_name: call.tool, tool_input: call.input })
  if (pre.blocked) {
    console.log(`  ✗ ${call.tool} denied by ${pre.decidedBy}: ${pre.reason}`)
    pendingContext.push(`${call.tool} was denied: ${pre.reason}`)
    return
  }
  if (pre.decision === 'ask') {
    // Here a real agent shows its permission prompt; this script always answers yes.
    console.log(`  ? ${call.tool}: ${pre.reason ?? 'a hook asks for confirmation'} (approved)`)
  }
  const input = pre.updatedInput ?? call.input
  if (pre.updatedInput !== undefined) console.log(`  ~ ${call.tool} input rewritten: ${JSON.stringify(call.input)} → ${JSON.stringify(input)}`)
  const approvedBy = pre.decision === 'allow' && pre.decidedBy !== undefined ? ` (allowed by ${pre.decidedBy})` : ''
  try {
    const output = TOOLS[call.tool]!(input)
    console.log(`  ✓ ${call.tool}${approvedBy}: ${output}`)
    await fire('tool:post_execute', { tool_name: call.tool, tool_input: input, tool_response: output })
  } catch (error) {
    if (error instanceof AgentStopped) throw error
    const message = (error as Error).message
    console.log(`  ✗ ${call.tool} failed: ${message}`)
    await fire('tool:error', { tool_name: call.tool, tool_input: input, error: message })
  }
}

async function main(): Promise<void> {
  let turns = 0
  try {
    await fire('session:start', { source: 'startup' })
    const typed = 'Fix the off-by-one in src/app.ts. My key is sk-live123 if you need it.'
    const submitted = await fire('user:prompt_submit', { prompt: typed })
    if (submitted.blocked) {
      console.log(`prompt refused: ${submitted.reason}`)
      return
    }
    console.log(`user: ${submitted.updatedPrompt ?? typed}`)

    // Bounded: a stop hook that always says "keep going" cannot keep the agent forever.
    while (turns < MAX_TURNS) {
      turns++
      await fire('turn:start', { turn_number: turns })
      const request = await fire('llm:pre_request', { model: MODEL, turn_number: turns })
      if (request.blocked) {
        console.log(`model request refused: ${request.reason}`)
        break
      }
      if (pendingContext.length > 0) console.log(`  [context for the model: ${pendingContext.splice(0).join(' | ')}]`)
      const reply = SCRIPT[turns - 1] ?? { say: 'Nothing left to do.', calls: [] }
      await fire('llm:post_response', { model: MODEL, last_assistant_message: reply.say })
      console.log(`assistant (turn ${turns}): ${reply.say}`)
      for (const call of reply.calls) await runTool(call)
      await fire('turn:end', { turn_number: turns })

      const stop = await fire('agent:stop', { last_assistant_message: reply.say, stop_hook_active: turns > 1 })
      if (!stop.keepGoing) break
      console.log(`agent:stop → keep going: ${stop.reason}`)
      pendingContext.push(stop.reason ?? 'keep going')
    }
  } catch (error) {
    if (!(error instanceof AgentStopped)) throw error
    console.log(`agent stopped by a hook: ${error.message}`)
  } finally {
    await fire('session:end', { reason: 'exit' }).catch(() => undefined)
  }
  console.log(`session ended after ${turns} ${turns === 1 ? 'turn' : 'turns'}; audit log:`)
  for (const line of audit) console.log(`  ${line}`)
}

await main()
