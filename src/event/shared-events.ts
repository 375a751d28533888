// The agents whose event names hookrun knows, and the names they share with another agent's.

/** Who uses an alias: the five seeds and the agents hookrun sits behind. */
export type AliasSource =
  | 'pigo'
  | 'sdk'
  | 'kodelet'
  | 'rust'
  | 'claude'
  | 'code-forge'
  | 'codex'
  | 'cursor'
  | 'gemini'
  | 'copilot'
  | 'windsurf'
  | 'droid'
  | 'kiro'
  | 'crush'
  | 'qwen'
  | 'goose'
  | 'cline'
  | 'opencode'
  | 'kimi'
  | 'vibe'
  | 'auggie'
  | 'letta'

/**
 * Agents that use names an entry of events.ts's own aliases already has, spelled the same: they join its `from`, so
 * each name stays one row. Sources: each agent's docs, named in src/dialects/<agent>.ts.
 */
export const SHARED_EVENT_NAMES: ReadonlyArray<readonly [AliasSource, readonly string[]]> = [
  // Letta Code 0.30.29: eleven of Claude Code's names (letta-ai/letta-code src/hooks/types.ts HookEvent)
  [
    'letta',
    [
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionRequest',
      'UserPromptSubmit',
      'Notification',
      'Stop',
      'SubagentStop',
      'PreCompact',
      'SessionStart',
      'SessionEnd',
    ],
  ],
  // Auggie 0.36.0: six of Claude Code's names (its bundle's hook event enum), PromptSubmit above
  ['auggie', ['PreToolUse', 'PostToolUse', 'Stop', 'SessionStart', 'SessionEnd', 'Notification']],
  // Factory Droid: nine of Claude Code's events (docs.factory.ai/reference/hooks-reference)
  [
    'droid',
    ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Notification', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd'],
  ],
  // Kiro CLI: the camelCase tool and stop events Cursor uses too (agent configs, Kiro CLI 2), and
  // the PascalCase triggers of its v3 hook files that are Claude Code's names
  ['kiro', ['preToolUse', 'postToolUse', 'stop', 'SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']],
  // Crush: PreToolUse only ("there's currently just one": charmbracelet/crush docs/hooks/README.md,
  // internal/hooks/hooks.go)
  ['crush', ['PreToolUse']],
  // Cline: PreCompact is declared there but never fired (it maps to no runtime event)
  ['cline', ['PreToolUse', 'PostToolUse', 'UserPromptSubmit']],
  // Kimi Code CLI 1.49.0: thirteen of Claude Code's names (MoonshotAI/kimi-cli src/kimi_cli/hooks/config.py HookEventType)
  [
    'kimi',
    [
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'Stop',
      'StopFailure',
      'SessionStart',
      'SessionEnd',
      'SubagentStart',
      'SubagentStop',
      'PreCompact',
      'PostCompact',
      'Notification',
    ],
  ],
  // Qwen Code: Claude Code's names for these (QwenLM/qwen-code packages/core/src/hooks/types.ts
  // HookEventName; InstructionsLoaded, UserPromptExpansion and PostToolBatch carry Claude's payloads)
  [
    'qwen',
    [
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'PostToolBatch',
      'UserPromptSubmit',
      'UserPromptExpansion',
      'SessionStart',
      'SessionEnd',
      'MessageDisplay',
      'Stop',
      'StopFailure',
      'SubagentStart',
      'SubagentStop',
      'PreCompact',
      'PostCompact',
      'Notification',
      'PermissionRequest',
      'PermissionDenied',
      'InstructionsLoaded',
    ],
  ],
  // Goose: Claude Code's names for these (aaif-goose/goose crates/goose/src/hooks/mod.rs HookEvent).
  // Its PreToolUseResult (the final decision, observed) has no hookrun name; its BeforeShellExecution,
  // AfterShellExecution, BeforeReadFile and AfterFileEdit are Open Plugins' extended events, read
  // case-insensitively as Cursor's (src/dialects/goose.ts)
  ['goose', ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop']],
]
