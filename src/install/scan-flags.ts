// What a foreign hook `hookrun scan` found would do, read from its text alone (nothing is run):
// when it runs, whether it reaches the network, runs something outside the project, or hides what it runs.
import { SCAN_ORDER } from '../agents/registry.ts'
import { resolveAlias } from '../event/events.ts'

/** The flags of one hook (docs/scan.md "Flags"). */
export const SCAN_FLAGS = ['session-start', 'every-event', 'every-tool', 'network', 'outside', 'obfuscated', 'untracked'] as const
export type ScanFlag = (typeof SCAN_FLAGS)[number]

/** Events that run when a session starts, before the person typed anything, besides those whose canonical name is session:start or agent:start. */
const STARTING = new Set(['setup', 'agentspawn', 'taskstart', 'taskresume', 'session.created', 'sessioncreated'])

/** Does this event run as a session starts (Claude Code's SessionStart, Cursor's sessionStart, Kiro's agentSpawn, Cline's TaskStart, …)? */
function startsWithSession(event: string): boolean {
  const canonical = resolveAlias(event)
  return canonical === 'session:start' || canonical === 'agent:start' || STARTING.has(event.toLowerCase())
}

/** A tool event: the hook runs on tool calls, and a matcher says which. */
function isToolEvent(event: string): boolean {
  const canonical = resolveAlias(event) ?? ''
  return canonical.startsWith('tool:') || canonical.startsWith('permission:') || /tool|shell|command|mcp|file|code/i.test(event)
}

/** A matcher that takes every subject: none at all, empty, `*`, `.*`, `.+`, `^.*$`. */
function matchesEverything(matcher: string | undefined): boolean {
  return matcher === undefined || /^\s*(?:\^?(?:\*|\.\*|\.\+)\$?)?\s*$/.test(matcher)
}

/** When the hook runs: at session start, on every event (`*`), on every tool call (no matcher). */
export function whenFlags(event: string, matcher: string | undefined): ScanFlag[] {
  const flags: ScanFlag[] = []
  if (startsWithSession(event)) flags.push('session-start')
  if (/^\s*\*?\s*$/.test(event)) flags.push('every-event')
  else if (isToolEvent(event) && matchesEverything(matcher)) flags.push('every-tool')
  return flags
}

const NETWORK = [
  // Programs that fetch, send or open connections.
  /(?:^|[\s;&|(`$'"/])(?:curl|wget|nc|ncat|netcat|socat|telnet|ssh|scp|sftp|rsync|ftp|tftp|aria2c|httpie|http|xh|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|DownloadString|DownloadFile)(?:\.exe)?(?=$|[\s;&|)`'"])/i,
  /\/dev\/(?:tcp|udp)\//,
  /\b(?:https?|ftp|wss?):\/\//i,
  // Code fetched and run in one go.
  /(?:ba|z|da|k)?sh\s+<\(/,
  /\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/,
  /\|\s*(?:sudo\s+)?(?:python3?|node|perl|ruby|bun|deno)\b/,
  // Package runners that download what they run.
  /(?:^|[\s;&|(])(?:npx|bunx|pnpx|uvx|pipx\s+run|npm\s+(?:exec|install|i)|pnpm\s+(?:dlx|add|install)|yarn\s+dlx|pip3?\s+install|go\s+run\s+\S+@|deno\s+run\s+\S*https?:)/,
  // Network APIs in code (a plugin's text, a python -c).
  /\b(?:fetch\s*\(|XMLHttpRequest|WebSocket\s*\(|urllib|urlopen|requests\.(?:get|post)|socket\.(?:socket|connect)|net\.connect|createConnection|node:https?|require\(\s*['"]https?['"]\s*\))/,
]

const OBFUSCATED = [
  /\bbase64\s+(?:-\w*d\w*|--decode|-D)\b/,
  /(?:^|[\s;&|(`])eval\b/,
  /\b(?:exec|eval)\s*\(/,
  /\bxxd\s+-r\b/,
  /\bopenssl\s+(?:enc|base64)\b[^|;]*\s-d\b/,
  /\b(?:atob|fromCharCode|Buffer\.from\s*\([^)]*['"](?:base64|hex)['"])/,
  /(?:\\x[0-9a-fA-F]{2}){8,}/,
  /(?:\\[0-7]{3}){8,}/,
  /\b[0-9a-fA-F]{64,}\b/,
  /[A-Za-z0-9+/]{80,}={0,2}/,
]

/** Where temporary files live: a hook that runs from there runs what something else left. */
const TEMP = /(?:^|[\s'"=:])(?:\/tmp\/|\/var\/tmp\/|\/dev\/shm\/|\/private\/tmp\/|\$\{?TMPDIR\}?|%TEMP%|\$env:TEMP)/i

/** System folders a command's absolute path may name without leaving the machine's own programs. */
const SYSTEM = /^\/(?:usr\/(?:local\/)?s?bin|s?bin|opt\/homebrew\/bin|dev\/(?:null|stdin|stdout|stderr|tty))(?:\/|$)/

/** The words of a command line that name a path, quotes and redirections stripped (a rough split: nothing is run). */
function pathWords(command: string): string[] {
  return command
    .split(/[\s;&|()<>`]+/)
    .map((word) => word.replace(/['"]/g, '').replace(/^[^~/.$A-Za-z0-9_]+/, ''))
    .filter((word) => word.includes('/') || word.startsWith('~'))
}

/** The variables agents name the project by (src/agents/native-config.ts), and `$PWD`: a path under one is inside. */
const PROJECT_VARIABLES = SCAN_ORDER.flatMap((agent) => agent.scan?.projectVariables ?? [])
const IN_PROJECT = new RegExp(`^\\$\\{?(?:${[...PROJECT_VARIABLES, 'PWD'].join('|')})\\}?/`)

/** Does the command run or read a path outside the project (not a system program's): home, a parent or temporary folder? */
function runsOutside(command: string, project: string): boolean {
  // The project itself may be in a temporary folder: its own paths are inside.
  const text = command.split(project).join(`$${PROJECT_VARIABLES[0]}`)
  if (TEMP.test(text)) return true
  return pathWords(text).some((word) => {
    if (IN_PROJECT.test(word)) return /\/\.\.(?:\/|$)/.test(word)
    if (word.startsWith('~') || /^\$\{?HOME\}?(?:\/|$)/.test(word)) return true
    if (word.startsWith('../') || /\/\.\.(?:\/|$)/.test(word)) return true
    if (!word.startsWith('/') || /^\/dev\/(?:tcp|udp)\//.test(word)) return false
    return !SYSTEM.test(word)
  })
}

/** What the hook's text says it does: reaches the network, runs outside the project, hides what it runs. */
export function commandFlags(command: string, project: string): ScanFlag[] {
  const flags: ScanFlag[] = []
  if (NETWORK.some((pattern) => pattern.test(command))) flags.push('network')
  if (runsOutside(command, project)) flags.push('outside')
  if (OBFUSCATED.some((pattern) => pattern.test(command))) flags.push('obfuscated')
  return flags
}
