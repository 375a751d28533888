/**
 * A small Claude Agent SDK app, as a user writes one: `query()` with `hookrunHooks()` as its
 * hooks. The agent lab (agent-sdk.lab.ts) runs it with Bun in a scenario's project, the SDK and
 * hookrun's library given by path in LAB_SDK_APP (JSON: sdk, hookrun, prompt, settingSources?,
 * events?, configFiles?, additionalDirectories?, mcpServers?). It prints every SDK message as one JSON line; hookrun's warnings go to stderr.
 */
interface AppConfig {
  readonly sdk: string
  readonly hookrun: string
  readonly prompt: string
  readonly settingSources?: readonly string[]
  readonly events?: readonly string[]
  readonly configFiles?: readonly string[]
  readonly additionalDirectories?: readonly string[]
  /** The app's MCP servers, as `query()` takes them (`{name: {type: 'stdio', command, args}}`). */
  readonly mcpServers?: Record<string, unknown>
  /** Leave hookrun's hooks out (the app runs only what its settings load). */
  readonly withoutHookrun?: boolean
}

const config = JSON.parse(process.env.LAB_SDK_APP ?? '{}') as AppConfig
const { query } = await import(config.sdk)
const { hookrunHooks, hookrunHooksVariable } = await import(config.hookrun)

const options = {
  cwd: process.cwd(),
  permissionMode: 'bypassPermissions',
  allowDangerouslySkipPermissions: true,
  // As docs/agents/agent-sdk.md tells a user: the query that gets the hooks names them in its env.
  ...(config.withoutHookrun !== true && {
    hooks: hookrunHooks({ events: config.events, configFiles: config.configFiles }),
    env: { ...process.env, HOOKRUN_AGENT_SDK_HOOKS: hookrunHooksVariable(config.events) },
  }),
  ...(config.settingSources !== undefined && { settingSources: config.settingSources }),
  ...(config.additionalDirectories !== undefined && { additionalDirectories: config.additionalDirectories }),
  ...(config.mcpServers !== undefined && { mcpServers: config.mcpServers }),
  stderr: (line: string) => process.stderr.write(`[claude] ${line}`),
}
for await (const message of query({ prompt: config.prompt, options })) process.stdout.write(`${JSON.stringify(message)}\n`)
