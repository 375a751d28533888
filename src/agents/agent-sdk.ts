// Claude Agent SDK apps: they start Claude Code, which runs its entries, and may answer in-process
// with hookrunHooks() (src/library/agent-sdk.ts), which speaks Claude Code's dialect.
import { claude } from './claude.ts'
import type { Caller } from './callers.ts'
import type { ProjectScan } from './native-config.ts'
import type { Agent } from './types.ts'

/** The variable hookrunHooks() names the events it answers in (comma-separated). */
export const AGENT_SDK_HOOKS_VARIABLE = 'HOOKRUN_AGENT_SDK_HOOKS'

/** The dialect of the SDK's hook callbacks: Claude Code's (code.claude.com/docs/en/agent-sdk/hooks). */
export const AGENT_SDK_DIALECT = claude

/** An SDK app runs Claude Code's entries unless settingSources leaves the file out (src/agents/callers.ts). */
const RUNS_CLAUDE: Caller = {
  when: 'unless settingSources leaves the file out; all load by default',
  // The SDK starts Claude Code with CLAUDE_AGENT_SDK_VERSION and CLAUDE_CODE_ENTRYPOINT=sdk-ts (sdk-py in Python).
  // `claude -p` sets sdk-cli, and a Claude Code keeps an inherited entrypoint: detected here, those
  // are told apart by the answer's process check (ownerPid), decided before install loads (src/dialect.ts).
  detect: (_payload, env) => env.CLAUDE_AGENT_SDK_VERSION !== undefined || /^sdk-/.test(env.CLAUDE_CODE_ENTRYPOINT ?? ''),
  marks: { variables: ['CLAUDE_AGENT_SDK_VERSION', 'CLAUDE_CODE_ENTRYPOINT'] },
  // hookrunHooks() names the app and the events it answers in HOOKRUN_AGENT_SDK_HOOKS.
  // Claude Code gives its hooks its own process id in CLAUDE_PID; the SDK starts it as the app's child.
  ownAnswer: { kind: 'listed', variable: AGENT_SDK_HOOKS_VARIABLE, ownerPid: 'CLAUDE_PID', answer: "the app's hookrunHooks()" },
  source: 'code.claude.com/docs/en/agent-sdk/claude-code-features',
}

/** hookrun inside the app: `hookrunHooks()` answers Claude Code's hooks in-process. */
const IN_PROCESS = {
  of: claude.name,
  how: "Claude Agent SDK apps: hookrunHooks() from 'hookrun' as query()'s options.hooks (docs/agents/agent-sdk.md)",
}

// Apps built on it run Claude Code's engine, so they read Claude Code's files (with `settingSources`);
// it has no file of its own, and `hookrun scan` lists it with Claude's.
const AGENT_SDK_SCAN: ProjectScan = { label: 'Claude Agent SDK apps' }

export const agentSdkAgent: Agent = {
  name: 'agent-sdk',
  label: 'Claude Agent SDK apps',
  caller: RUNS_CLAUDE,
  inProcess: IN_PROCESS,
  scan: AGENT_SDK_SCAN,
}
