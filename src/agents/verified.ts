// What the agent lab saw each real agent CLI do (test/agents/*.lab.ts keeps these files as its results).
import agentSdk from './lab/agent-sdk.json' with { type: 'json' }
import claude from './lab/claude.json' with { type: 'json' }
import cline from './lab/cline.json' with { type: 'json' }
import claudeServe from './lab/claude-serve.json' with { type: 'json' }
import codebuddy from './lab/codebuddy.json' with { type: 'json' }
import codebuddyServe from './lab/codebuddy-serve.json' with { type: 'json' }
import codex from './lab/codex.json' with { type: 'json' }
import copilot from './lab/copilot.json' with { type: 'json' }
import copilotServe from './lab/copilot-serve.json' with { type: 'json' }
import gemini from './lab/gemini.json' with { type: 'json' }
import geminiServe from './lab/gemini-serve.json' with { type: 'json' }
import goose from './lab/goose.json' with { type: 'json' }
import kilo from './lab/kilo.json' with { type: 'json' }
import opencode from './lab/opencode.json' with { type: 'json' }
import openclaw from './lab/openclaw.json' with { type: 'json' }
import pi from './lab/pi.json' with { type: 'json' }
import qwen from './lab/qwen.json' with { type: 'json' }
import qwenServe from './lab/qwen-serve.json' with { type: 'json' }
import reasonix from './lab/reasonix.json' with { type: 'json' }

/** One agent's lab results: the package and version the lab ran, and each scenario's verdict. */
export interface LabVerified {
  readonly agent: string
  readonly package: string
  readonly version: string
  readonly scenarios: Readonly<Record<string, { readonly verdict: string; readonly seen: string }>>
  /** The same agent wired with `hookrun install --serve` (its http handlers or command clients to hookrun serve). */
  readonly serve?: LabVerified
}

/**
 * Every agent the lab ran, by hookrun's name for it; an agent not here is known from its docs and
 * source only. `agent-sdk` is the Claude Agent SDK with hookrunHooks() (a library, not a dialect).
 */
export const LAB_VERIFIED: Readonly<Record<string, LabVerified>> = Object.fromEntries(
  [
    agentSdk,
    { ...claude, serve: claudeServe },
    cline,
    { ...codebuddy, serve: codebuddyServe },
    codex,
    { ...copilot, serve: copilotServe },
    { ...gemini, serve: geminiServe },
    goose,
    kilo,
    opencode,
    openclaw,
    pi,
    { ...qwen, serve: qwenServe },
    reasonix,
  ].map((results) => [results.agent, results]),
)
