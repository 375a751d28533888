// `hookrun install --agent claude --serve`: Claude Code's router entries as http handlers that POST
// each event to `hookrun serve` on 127.0.0.1, and the command on SessionStart and UserPromptSubmit
// that starts the server when none answers (src/commands/serve.ts).
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { nodeChildProcess } from '../core/builtins.ts'
import { HookrunError } from '../core/errors.ts'
import { isGate, resolveAlias } from '../event/events.ts'
import { SECRET_HEADER } from '../serve/state.ts'
import { type AgentTarget, ROUTER_TIMEOUT_SECONDS } from './agent-target.ts'
import { child, keysOf, parseJson } from './json-text.ts'
import { SERVED, SERVED_AGENTS } from '../serve/served.ts'

/**
 * Events that keep a command: SessionStart starts the server (an http handler cannot start it,
 * and Claude Code sends none on SessionStart), UserPromptSubmit starts it again after an idle
 * exit, before the prompt's tool calls. One process per session and per prompt, none per tool call.
 */
const SERVE_COMMAND_EVENTS: ReadonlySet<string> = new Set(SERVED.http.commandEvents)

/**
 * The url `install --serve` writes: the port is fixed here, as Claude Code takes a literal url
 * only. Its query is for the person: Claude Code's block message when the server does not answer
 * names the url and nothing else of hookrun's ("[url]: failed; blocking because onFailure is
 * \"block\" connect ECONNREFUSED"), so the url says how to recover.
 */
function serveUrl(port: number): string {
  return `http://127.0.0.1:${port}/${SERVED.http.route}?if-down=run-hookrun-serve`
}

const SERVE_URL = new RegExp(
  `^http://127\\.0\\.0\\.1:(\\d+)/(?:${SERVED_AGENTS.map((agent) => agent.http.route).join('|')})(?:\\?[\\w=&-]*)?$`,
)

/** A handler `install --serve` wrote: an http handler to hookrun serve's url. */
export function isServeHandler(handler: unknown): boolean {
  if (handler === null || typeof handler !== 'object') return false
  const { type, url } = handler as { type?: unknown; url?: unknown }
  return type === 'http' && typeof url === 'string' && SERVE_URL.test(url)
}

/**
 * Claude Code's target with serve's handlers: a gate event's http handler blocks when the server
 * cannot answer (`onFailure: "block"`: dead, slow, or a 500 from a fire that failed); elsewhere a
 * failure lets the event go on, as a failing command router does.
 */
export function servedTarget(target: AgentTarget, port: number, secret: string): AgentTarget {
  return {
    ...target,
    alwaysRouted: [...SERVE_COMMAND_EVENTS],
    command: (self, event) => (SERVE_COMMAND_EVENTS.has(event) ? `${self} serve --start --port ${port}` : target.command(self, event)),
    handler: (command, event) =>
      event === undefined || SERVE_COMMAND_EVENTS.has(event)
        ? target.handler(command, event)
        : {
            type: 'http',
            url: serveUrl(port),
            // The secret itself, not a $VARIABLE: Claude Code fills header variables only from its
            // own launch environment (docs/serve.md "Threat model": the file is made private).
            headers: { [SECRET_HEADER]: secret },
            timeout: ROUTER_TIMEOUT_SECONDS,
            onFailure: gateEvent(event) ? 'block' : 'continue',
          },
  }
}

function gateEvent(event: string): boolean {
  const canonical = resolveAlias(event)
  return canonical !== undefined && isGate(canonical)
}

/** The port of the serve handlers already in Claude Code's file, when it has any (a `--sync` keeps them). */
export function servedPort(file: string): number | undefined {
  return servedHandler(file)?.port
}

/** The port and secret of the first serve handler in Claude Code's file. */
export function servedHandler(file: string): { port: number; secret: unknown } | undefined {
  if (!existsSync(file)) return undefined
  try {
    const hooks = child(parseJson(readFileSync(file, 'utf8'), false), 'hooks')
    for (const event of keysOf(hooks))
      for (const group of child(hooks, event)?.children ?? [])
        for (const handler of child(group, 'hooks')?.children ?? []) {
          const url = child(handler, 'url')?.value
          const port = typeof url === 'string' ? SERVE_URL.exec(url)?.[1] : undefined
          if (child(handler, 'type')?.value === 'http' && port !== undefined)
            return { port: Number(port), secret: child(child(handler, 'headers'), SECRET_HEADER)?.value }
        }
  } catch {
    // Not JSON: install reports it.
  }
  return undefined
}

/** The mode of a file, when it is there (before install writes it: a narrowed one is told). */
export function modeOf(file: string): number | undefined {
  return existsSync(file) ? statSync(file).mode & 0o777 : undefined
}

/**
 * The settings file holds the secret, so it is readable by the user alone (the write narrows the
 * mode; this narrows one the install did not write, and tells a mode that was wider before).
 */
export function keepPrivate(file: string, before: number | undefined): string | undefined {
  const mode = modeOf(file)
  if (mode === undefined) return undefined
  if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700)
  if (before === undefined || (before & 0o077) === 0) return undefined
  return `  note: ${file} holds hookrun serve's secret, so it is now readable by you alone (mode ${(before & 0o700).toString(8)}, was ${before.toString(8)})`
}

/**
 * The served agent's version on PATH, when one is there: `--serve` needs `onFailure` (Claude Code
 * 2.1.295), or a server that is gone would let every gate through. Refused with one line on an older one.
 */
export function checkServedVersion(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const { label, http } = SERVED
  const program = (env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, http.program))
    .find((path) => existsSync(path))
  if (program === undefined)
    return `  note: no ${http.program} on PATH to check: --serve needs ${label} ${http.minVersion} or later (older ones ignore onFailure and would let a gate through when the server is gone)`
  const ran = nodeChildProcess().spawnSync(program, ['--version'], { encoding: 'utf8', timeout: 15_000, env: env as NodeJS.ProcessEnv })
  const version = /(\d+)\.(\d+)\.(\d+)/.exec(ran.stdout ?? '')
  if (version === null) return `  note: could not read the version of ${program}: --serve needs ${label} ${http.minVersion} or later`
  if (olderThan(version.slice(1).map(Number), http.minVersion.split('.').map(Number)))
    throw new HookrunError(
      `--serve needs ${label} ${http.minVersion} or later (onFailure on http handlers); ${program} is ${version[0]}: update it, or install without --serve`,
    )
  return undefined
}

/** The name src/install/install.ts (the install part of issue 35) imports. */
export { checkServedVersion as checkClaudeForServe }

function olderThan(have: number[], want: number[]): boolean {
  for (let index = 0; index < want.length; index++) {
    if ((have[index] ?? 0) !== want[index]) return (have[index] ?? 0) < want[index]!
  }
  return false
}
