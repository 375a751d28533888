// The Claude Agent SDK: apps built on it run Claude Code's engine, so they read Claude Code's files
// (with `settingSources`); it has no file of its own, and `hookrun scan` lists it with Claude's.
import type { ProjectScan } from './native-config.ts'
import type { Agent } from './types.ts'

const AGENT_SDK_SCAN: ProjectScan = { label: 'Claude Agent SDK apps' }

export const agentSdkAgent: Agent = {
  name: 'agent-sdk',
  label: 'Claude Agent SDK',
  scan: AGENT_SDK_SCAN,
}
