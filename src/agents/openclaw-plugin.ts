// The plugin `hookrun install --agent openclaw` writes: OpenClaw runs no hook commands for tool
// calls, only typed plugin hooks in its own process, so this small native plugin (an ES module and
// its openclaw.plugin.json) is hookrun's entry in it (src/agents/openclaw.ts reads what it sends).
import { type AnswerFields, fireSource, PLAIN_SOURCE, pluginHeader } from './plugin-source.ts'

/** The fields of `--format openclaw`'s answer and their types. */
const OPENCLAW_ANSWER_FIELDS: AnswerFields = { block: 'string', ask: 'string', params: 'object', message: 'string' }

/** The hooks the plugin only reports (src/agents/openclaw.ts EVENTS, less the two it applies answers on). */
const REPORTED = ['after_tool_call', 'session_start', 'session_end', 'agent_end', 'before_compaction', 'after_compaction']

/** The plugin's id: its folder's name, its manifest's `id`, the key of `plugins.entries` that switches it. */
export const OPENCLAW_PLUGIN_ID = 'hookrun'

/**
 * Its manifest: OpenClaw reads a native plugin's `openclaw.plugin.json` (id, configSchema) and
 * `package.json`'s `openclaw.extensions` for its entry (docs/plugins/manifest.md, hooks.md
 * "Quick start", openclaw 2026.9.6).
 */
export function openclawManifests(): { manifest: string; packageJson: string } {
  const manifest = {
    id: OPENCLAW_PLUGIN_ID,
    name: 'hookrun',
    description: "Runs hookrun's hooks (hooks.json) on OpenClaw's tool calls, prompts and session events",
    activation: { onStartup: true },
    configSchema: { type: 'object', additionalProperties: false },
  }
  const packageJson = { name: 'hookrun-openclaw-plugin', private: true, type: 'module', openclaw: { extensions: ['./index.js'] } }
  return { manifest: `${JSON.stringify(manifest, null, 2)}\n`, packageJson: `${JSON.stringify(packageJson, null, 2)}\n` }
}

/** The plugin's entry: it runs `command` (hookrun's words) with `timeoutSeconds` for each answer. */
export function openclawPluginText(command: readonly string[], timeoutSeconds: number): string {
  return `${pluginHeader('OpenClaw', 'openclaw')}
// Each hook asks hookrun (\`hookrun fire <hook> --format openclaw\`, {openclaw_hook, event, ctx, cwd} on
// stdin) and applies its JSON answer: block (the tool call or run is refused with the reason), ask
// (OpenClaw's plugin approval), params (the tool's new parameters), message (stderr).
// A gate never fails open: when hookrun cannot answer, the tool call or run is refused.
${fireSource('openclaw', 'openclaw', command, timeoutSeconds, OPENCLAW_ANSWER_FIELDS)}${PLAIN_SOURCE}
const REPORTED = ${JSON.stringify(REPORTED)}

export default {
  id: '${OPENCLAW_PLUGIN_ID}',
  name: 'hookrun',
  description: "Runs hookrun's hooks on OpenClaw's tool calls, prompts and session events",
  register(api) {
    // A tool hook's context names no folder; the run's hooks do (workspaceDir): the last one seen is the project.
    let folder
    const where = (ctx) => {
      if (typeof ctx?.workspaceDir === 'string') folder = ctx.workspaceDir
      return folder ?? process.cwd()
    }
    async function ask(hook, event, ctx) {
      const cwd = where(ctx)
      // A run's whole history and system prompt are not what a hook decides on, and are large.
      const { messages, systemPrompt, ...rest } = event ?? {}
      const answer = await fire(hook, { openclaw_hook: hook, event: plain(rest), ctx: plain(ctx ?? {}), cwd }, cwd)
      say(answer.message)
      return answer
    }
    /** A gate: hookrun's failure refuses. */
    async function gate(hook, event, ctx) {
      try {
        return await ask(hook, event, ctx)
      } catch (error) {
        return { block: REFUSED + error.message }
      }
    }
    // OpenClaw's own budget for a gate (15 s by default, then it refuses) is raised to hookrun's.
    const budget = { timeoutMs: Math.min(TIMEOUT_MS + 5000, 600000) }

    api.on(
      'before_tool_call',
      async (event, ctx) => {
        const answer = await gate('before_tool_call', event, ctx)
        if (answer.block !== undefined) return { block: true, blockReason: answer.block }
        const result = {}
        if (answer.params !== undefined) result.params = answer.params
        if (answer.ask !== undefined) result.requireApproval = { title: 'hookrun', description: answer.ask, severity: 'warning' }
        return result
      },
      budget,
    )
    api.on(
      'before_agent_run',
      async (event, ctx) => {
        const answer = await gate('before_agent_run', event, ctx)
        if (answer.block === undefined) return { outcome: 'pass' }
        say(\`prompt refused: \${answer.block}\`)
        return { outcome: 'block', reason: answer.block, message: answer.block }
      },
      budget,
    )
    for (const hook of REPORTED) {
      api.on(hook, async (event, ctx) => {
        try {
          await ask(hook, event, ctx)
        } catch (error) {
          say(\`\${hook}: \${error.message}\`)
        }
      })
    }
  },
}
`
}
