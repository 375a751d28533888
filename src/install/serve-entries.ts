// `hookrun install --serve`: router entries as handlers that POST each event to `hookrun serve` on 127.0.0.1 (http handlers, or a bash
// command client where those fail open), and a command on session start and each prompt that starts the server (commands/serve.ts).
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs'
import { nodeChildProcess } from '../core/builtins.ts'
import { HookrunError } from '../core/errors.ts'
import { shellQuote } from '../core/shell.ts'
import { isGateName } from '../event/event.ts'
import { CONFIG_HEADER, CONFIG_VARIABLES, SECRET_HEADER, serveRecovery } from '../serve/state.ts'
import { type AgentTarget, ROUTER_TIMEOUT_SECONDS } from './agent-target.ts'
import { child, keysOf, parseJson } from './json-text.ts'
import { onPath } from './on-path.ts'
import { type ServedAgent, SERVED_AGENTS, servedAgent } from '../serve/served.ts'

/** The served agent an install target is, when it takes `--serve`. */
export function servedFor(target: Pick<AgentTarget, 'name' | 'serves'>): ServedAgent | undefined {
  return target.serves === true ? servedAgent(target.name) : undefined
}

/** An http handler's url: the agents take a literal one only, and Claude Code's block message names just the url, so its query says how to recover. */
function serveUrl(agent: ServedAgent, port: number): string {
  return `http://127.0.0.1:${port}/${agent.http.route}?if-down=run-hookrun-serve`
}

const ROUTES = SERVED_AGENTS.map((agent) => agent.http.route).join('|')
const SERVE_URL = new RegExp(`^http://127\\.0\\.0\\.1:(\\d+)/(?:${ROUTES})(?:\\?[\\w=&-]*)?$`)
/** A command client `install --serve` wrote (`clientCommand`), by its first line; and the older curl one, so uninstall or --sync replaces it. */
const SERVE_CLIENTS = [
  new RegExp(`^# hookrun serve client: POST to http://127\\.0\\.0\\.1:(\\d+)/(?:${ROUTES})(?:/[A-Za-z]+)?\n`),
  new RegExp(
    `^curl -sS --fail -m \\d+ -H @.* http://127\\.0\\.0\\.1:(\\d+)/(?:${ROUTES})(?:/[A-Za-z]+)? \\|\\| (?:exit 0|\\{ .* exit \\d+; \\})$`,
  ),
]

/** Before the agent's own timeout, so a hung server ends in the client's block, not a timeout (Copilot lets a call through then). */
const CLIENT_TIMEOUT_SECONDS = ROUTER_TIMEOUT_SECONDS - 10

/**
 * The command client where http handlers fail open (or are missing): it posts stdin over bash's /dev/tcp (curl's start alone cost
 * 11 ms a call: BENCHMARKS.md), the secret read from a private file (`ps` shows command lines to all). Only a 200 whose body arrived
 * whole is printed. Nothing listening, or a stopping server (503): `startHere` (`hookrun serve --start`) starts it and answers this
 * event itself. On a gate anything else blocks with how to recover; elsewhere the event goes on. The connection is a compound
 * command's redirection, not `exec`: a POSIX-mode bash exits on a failed `exec` redirection.
 */
function clientCommand(agent: ServedAgent, port: number, event: string, headerFile: string, gate: boolean, startHere: string): string {
  const path = `/${agent.http.route}${agent.http.eventInUrl ? `/${event}` : ''}`
  const wait = `-t ${CLIENT_TIMEOUT_SECONDS}`
  const request = `POST ${path} HTTP/1.1\\r\\nhost: 127.0.0.1:${port}\\r\\n%s\\r\\n${CONFIG_HEADER}: %s\\r\\ncontent-type: application/json\\r\\ncontent-length: %s\\r\\nconnection: close\\r\\n\\r\\n%s`
  // This session's config variables (serve/state.ts CONFIG_VARIABLES), as configFingerprint joins them.
  const config = CONFIG_VARIABLES.map((name) => `\${${name}-}`).join('|')
  const post = [
    `# hookrun serve client: POST to http://127.0.0.1:${port}${path}`,
    // Bytes (content-length counts them; LC_ALL is put back for hookrun below). A socket stdin (Node's spawn) cannot be opened as
    // /dev/stdin: cat reads it. SIGPIPE ignored: a peer closing early would kill the client, a go-ahead where only exit 2 blocks.
    // errexit and the like off (BASH_ENV, SHELLOPTS): a failed connection must not end the client with 1.
    "set +euo pipefail; trap '' PIPE; o=${LC_ALL-} x=${LC_ALL+1}; LC_ALL=C; c= s= n= b=; if [ -S /dev/stdin ]; then p=$(cat); else p=$(</dev/stdin); fi",
    `{ c=1; read -r h <${shellQuote(headerFile)} && printf '${request}' "$h" "${config}" "\${#p}" "$p" >&3 && read -r ${wait} s <&3 &&`,
    `while IFS= read -r ${wait} l <&3 && [ "$l" != $'\\r' ]; do case $l in [Cc]ontent-[Ll]ength:*) n=\${l//[!0-9]/} ;; esac; done &&`,
    // The body to the end (the server closes after it: `connection: close`), its length checked
    // below. Not `read -n LENGTH`: in a hook of Gemini CLI's it returned at once with nothing
    // (seen in the lab).
    `{ IFS= read -r -d '' ${wait} b <&3 || :; }; } 2>/dev/null 3<>/dev/tcp/127.0.0.1/${port}`,
    // A 503 is a server that is stopping (or has too many events waiting), a 409 one started with
    // other config variables than this session's: answered here, as with none.
    `case $s in 'HTTP/1.1 200 '*) [ -n "$n" ] && [ "\${#b}" = "$n" ] && printf %s "$b" && exit 0 ;; 'HTTP/1.1 503 '* | 'HTTP/1.1 409 '*) c= ;; esac`,
  ]
  // Nothing listened (or it was stopping): started and answered here. A gate takes only an answer
  // (0) or a block from it: what could not run (126, 127), was killed or failed otherwise blocks below.
  const here = (takes: string) =>
    `[ -n "$c" ] || { if [ -n "$x" ]; then LC_ALL=$o; else unset LC_ALL; fi; printf %s "$p" | ${startHere}; r=$?; ${takes}; }`
  const said = `[ -z "$s" ] || printf 'hookrun serve answered %s: %s\\n' "\${s%$'\\r'}" "$b" >&2`
  const client = agent.http.client!
  const inBash = (lines: readonly string[]) =>
    client.inUserShell === true ? `${lines[0]}\nexec bash -c ${shellQuote(lines.slice(1).join('\n'))}` : lines.join('\n')
  if (!gate) return inBash([...post, here('[ "$r" -ge 126 ] || exit "$r"'), said, 'exit 0'])
  const why = `hookrun serve did not answer on 127.0.0.1:${port}, so this ${agent.label} gate blocks: ${serveRecovery(port, agent.name)}`
  const answer = client.blockAnswers?.[event]?.(why)
  const stdout = answer === undefined ? '' : `echo ${shellQuote(JSON.stringify(answer))}; `
  const block = `${stdout}echo ${shellQuote(why)} >&2; exit ${client.blockExit}`
  return inBash([...post, here(`case $r in 0 | ${client.blockExit}) exit "$r" ;; esac`), said, block])
}

/** A handler `install --serve` wrote: an http handler to hookrun serve's url, or its command client. */
export function isServeHandler(handler: unknown): boolean {
  if (handler === null || typeof handler !== 'object') return false
  const { type, url } = handler as { type?: unknown; url?: unknown }
  if (type === 'http') return typeof url === 'string' && SERVE_URL.test(url)
  return Object.values(handler).some((value) => typeof value === 'string' && SERVE_CLIENTS.some((client) => client.test(value)))
}

/**
 * The target with serve's handlers: http handlers (a gate blocks when the server cannot answer: `onFailure: "block"`), the command
 * client where those fail open, and a command that starts the server on session start and each prompt.
 */
export function servedTarget(target: AgentTarget, agent: ServedAgent, port: number, secret: string, headerFile: string): AgentTarget {
  const { http } = agent
  const commandEvents: ReadonlySet<string> = new Set(http.commandEvents)
  const client = (event: string) => http.client !== undefined && (http.client.everyEvent || isGateName(event))
  const start = (self: string, event: string) =>
    http.eventInUrl
      ? `${self} serve --start ${event} --port ${port} --format ${agent.name}`
      : `${self} serve --start --port ${port}${http.startWithoutFormat === true ? '' : ` --format ${agent.name}`}`
  const command = (self: string, event: string | undefined) =>
    event !== undefined && commandEvents.has(event)
      ? start(self, event)
      : event !== undefined && client(event)
        ? clientCommand(agent, port, event, headerFile, isGateName(event), start(self, event))
        : target.command(self, event!)
  const clientRules = (who: string) =>
    `with no server there, a client starts it and answers its event itself; ${who} exit ${http.client!.blockExit} and block on any other failure`
  const served =
    http.client === undefined
      ? `http handlers to ${serveUrl(agent, port)} (gates block while it does not answer)`
      : http.client.everyEvent
        ? `bash clients to http://127.0.0.1:${port}/${agent.http.route}${http.eventInUrl ? '/<event>' : ''} (${http.client.why}; ${clientRules('gates')})`
        : `http handlers to ${serveUrl(agent, port)}, bash clients on gates (${http.client.why}; ${clientRules('they')})`
  return {
    ...target,
    alwaysRouted: [...commandEvents],
    served: (self) =>
      `${served}; ${http.commandEvents.join(' and ')} ${http.commandEvents.length === 1 ? 'runs' : 'run'} \`${start(self, http.commandEvents[0]!)}\`, which starts it`,
    command,
    handler: (text, event) =>
      event === undefined || commandEvents.has(event) || client(event)
        ? target.handler(text, event)
        : {
            type: 'http',
            url: serveUrl(agent, port),
            // The secret itself, not a $VARIABLE: the agents fill header variables only from their
            // own launch environment (docs/serve.md "Threat model": the file is made private).
            headers: { [SECRET_HEADER]: secret },
            timeout: ROUTER_TIMEOUT_SECONDS,
            ...(http.client === undefined && { onFailure: isGateName(event) ? 'block' : 'continue' }),
          },
  }
}

/** The port of the serve handlers already in the agent's file, when it has any (a `--sync` keeps them). */
export function servedPort(file: string): number | undefined {
  return servedHandler(file)?.port
}

/** The port of the first serve handler in the agent's file, and the secret of its http handlers (none: command clients only). */
export function servedHandler(file: string): { port: number; secret?: unknown } | undefined {
  if (!existsSync(file)) return undefined
  try {
    const hooks = child(parseJson(readFileSync(file, 'utf8'), false), 'hooks')
    let clientPort: number | undefined
    // Matcher groups hold handlers; flat files (Copilot's) list them directly.
    for (const event of keysOf(hooks))
      for (const entry of child(hooks, event)?.children ?? [])
        for (const handler of child(entry, 'hooks')?.children ?? [entry]) {
          const url = child(handler, 'url')?.value
          const port = typeof url === 'string' ? SERVE_URL.exec(url)?.[1] : undefined
          if (child(handler, 'type')?.value === 'http' && port !== undefined)
            return { port: Number(port), secret: child(child(handler, 'headers'), SECRET_HEADER)?.value }
          for (const field of ['command', 'bash']) {
            const text = child(handler, field)?.value
            const found = typeof text === 'string' ? SERVE_CLIENTS.map((client) => client.exec(text)?.[1]).find(Boolean) : undefined
            if (found !== undefined) clientPort ??= Number(found)
          }
        }
    if (clientPort !== undefined) return { port: clientPort }
  } catch {
    // Not JSON: install reports it.
  }
  return undefined
}

/** The mode of a file, when it is there (before install writes it: a narrowed one is told). */
export function modeOf(file: string): number | undefined {
  return existsSync(file) ? statSync(file).mode & 0o777 : undefined
}

/** The settings file holds the secret: made readable by the user alone, telling a mode that was wider before. */
export function keepPrivate(file: string, before: number | undefined): string | undefined {
  const mode = modeOf(file)
  if (mode === undefined) return undefined
  if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700)
  if (before === undefined || (before & 0o077) === 0) return undefined
  return `  note: ${file} holds hookrun serve's secret, so it is now readable by you alone (mode ${(before & 0o700).toString(8)}, was ${before.toString(8)})`
}

/** What `--serve` needs: Claude Code's `onFailure` (else a gone server lets gates through); for command clients, a bash that reaches loopback. */
export function checkServedVersion(env: Readonly<Record<string, string | undefined>>, agent: ServedAgent): string | undefined {
  const { label, http } = agent
  const shell = http.client === undefined ? undefined : clientShellProblem(env)
  if (shell !== undefined)
    throw new HookrunError(`--serve for ${label} answers its gates through bash's /dev/tcp, and ${shell}: install without --serve`)
  if (http.minVersion === undefined) return undefined
  const program = onPath(http.program, env)
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

/**
 * Why the command clients cannot run here, if they cannot: without bash, or /dev/tcp, every gate's client fails (install refuses;
 * doctor fails on it later). A connection to port 0 is refused where /dev/tcp works, "No such file" where it does not.
 */
export function clientShellProblem(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const bash = onPath('bash', env)
  if (bash === undefined) return 'there is no bash on PATH'
  const probe = nodeChildProcess().spawnSync(bash, ['-c', ': </dev/tcp/127.0.0.1/0'], {
    encoding: 'utf8',
    timeout: 15_000,
    env: env as NodeJS.ProcessEnv,
  })
  if (probe.error !== undefined || /No such file/.test(probe.stderr ?? ''))
    return `${bash} cannot open /dev/tcp connections (built without network redirections)`
  return undefined
}

function olderThan(have: number[], want: number[]): boolean {
  for (let index = 0; index < want.length; index++) {
    if ((have[index] ?? 0) !== want[index]) return (have[index] ?? 0) < want[index]!
  }
  return false
}
