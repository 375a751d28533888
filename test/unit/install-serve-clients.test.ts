// `install --agent qwen|copilot|codebuddy --serve`: agents whose http handlers fail open. Qwen Code and CodeBuddy
// Code: http handlers on the other events, a bash client on gates; Copilot: bash clients on every event. The
// secret in a private header file; back to commands without --serve; uninstall removes them, and
// the curl clients of earlier installs too. (test/e2e/serve-clients.test.ts runs the clients.)
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { serveDoctorLines } from '../../src/commands/serve.ts'
import { readScanned } from '../../src/install/scan-read.ts'
import { SCAN_SOURCES } from '../../src/install/scan.ts'
import { agentTarget } from '../../src/install/agents.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { serveSecret } from '../../src/serve/state.ts'
import { makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

type Handler = Record<string, unknown>

function place(agent: string, bash = true) {
  const root = makeProject()
  dirs.push(root)
  const home = join(root, 'home')
  const project = join(root, 'project')
  mkdirSync(join(project, '.hookrun'), { recursive: true })
  mkdirSync(join(root, 'bin'))
  if (bash) symlinkSync('/bin/bash', join(root, 'bin', 'bash'))
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.state'),
    PATH: join(root, 'bin'),
  }
  const file = agentTarget(agent)!.file('user', { home, project, env })
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Handler[]> }
  /** The first handler of an event in a file of matcher groups (Claude Code's shape), as the file is now. */
  const handler = (event: string) => (read().hooks as unknown as Record<string, Array<{ hooks: Handler[] }>>)[event]![0]!.hooks[0]!
  const install = (flags: { serve?: { port: number } | false; scope?: 'user' | 'project'; remove?: boolean }) =>
    installAgents(
      { agents: [agent], scope: flags.scope ?? 'user', cwd: project, env, self: '/opt/hookrun', serve: flags.serve, narrow: false },
      flags.remove === true,
    )
  return { env, file, project, read, handler, install }
}

const headerFile = (env: Record<string, string>) => join(env.XDG_STATE_HOME!, 'hookrun', 'serve', 'secret-header')
/** A client install wrote: its first line names the url; it reads the header file and connects to the port. */
function expectClient(command: unknown, env: Record<string, string>, url: string): string {
  const text = String(command)
  const port = new URL(url).port
  expect(text.startsWith(`# hookrun serve client: POST to ${url}\n`), text).toBe(true)
  expect(text).toContain(`read -r h <${headerFile(env)} &&`)
  expect(text).toContain(`3<>/dev/tcp/127.0.0.1/${port}\n`)
  return text
}

describe('install --serve for agents whose http handlers fail open', () => {
  test('Qwen Code: gates get a bash client that exits 2, other events an http handler, SessionStart starts the server', () => {
    const where = place('qwen')
    const result = where.install({ serve: { port: 47_556 } })
    expect(result.exitCode, result.output).toBe(0)
    const { handler } = where
    const gate = handler('PreToolUse')
    expect(gate).toMatchObject({ type: 'command', name: 'hookrun', timeout: 600_000 })
    expect(expectClient(gate.command, where.env, 'http://127.0.0.1:47556/qwen')).toMatch(
      /\necho 'hookrun serve did not answer on 127\.0\.0\.1:47556, so this Qwen Code gate blocks: start it with hookrun serve --port 47556, or go back to command hooks with hookrun install --agent qwen without --serve' >&2; exit 2$/,
    )
    // With no server listening, the event goes to `serve --start`, which starts it and fires here.
    expect(gate.command).toMatch(
      /\n\[ -n "\$c" \] \|\| \{ .*; printf %s "\$p" \| \/opt\/hookrun serve --start --port 47556 --format qwen; r=\$\?; case \$r in 0 \| 2\) exit "\$r" ;; esac; \}\n/,
    )
    expect(handler('PermissionRequest').command).toMatch(/\n.* exit 2$/)
    expect(handler('PostToolUse')).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:47556/qwen?if-down=run-hookrun-serve',
      headers: { 'x-hookrun-secret': serveSecret(where.env) },
      timeout: 600,
    })
    expect(handler('SessionStart').command).toBe('/opt/hookrun serve --start --port 47556 --format qwen')
    // Qwen Code fires UserPromptSubmit after every tool result too: no `serve --start` (a hookrun per call), a gate's client.
    expectClient(handler('UserPromptSubmit').command, where.env, 'http://127.0.0.1:47556/qwen')
    expect(handler('UserPromptSubmit').command).toMatch(/ exit 2$/)
    // The secret is in the settings file (made private) and in the clients' header file, never on a command line.
    expect(statSync(where.file).mode & 0o777).toBe(0o600)
    expect(readFileSync(headerFile(where.env), 'utf8')).toBe(`x-hookrun-secret: ${serveSecret(where.env)}\n`)
    expect(statSync(headerFile(where.env)).mode & 0o777).toBe(0o600)
    expect(gate.command).not.toContain(serveSecret(where.env))
    expect(result.output).toContain(
      'served:  http handlers to http://127.0.0.1:47556/qwen?if-down=run-hookrun-serve, bash clients on gates',
    )
    // The summary names a client by its first line; the file holds it whole.
    expect(result.output).toContain('  command: # hookrun serve client: POST to http://127.0.0.1:47556/qwen …\n')
    expect(routedEvents(where.file, 'qwen')).toEqual(expect.arrayContaining(['PreToolUse', 'PostToolUse', 'SessionStart']))
    // Again: nothing changes. Without --serve: the router commands are back. Uninstall: nothing of hookrun's left.
    expect(where.install({ serve: { port: 47_556 } }).output).toMatch(/already installed/)
    where.install({ serve: false })
    const back = where.read().hooks as unknown as Record<string, Array<{ hooks: Handler[] }>>
    expect(back.PreToolUse![0]!.hooks).toEqual([
      { type: 'command', name: 'hookrun', command: '/opt/hookrun fire --format qwen', timeout: 600_000 },
    ])
    expect(JSON.stringify(back)).not.toMatch(/dev\/tcp|http:/)
    where.install({ serve: { port: 47_556 } })
    // hookrun scan reads them as hookrun's own (a network client of anyone else's is flagged).
    const source = SCAN_SOURCES.find((each) => each.path === '.qwen/settings.json')!
    const scanned = readScanned(source, where.file, readFileSync(where.file, 'utf8'), false, '/nowhere')
    expect(scanned.find((hook) => hook.event === 'PreToolUse')).toMatchObject({ kind: 'command', own: true, flags: [] })
    expect(scanned.find((hook) => hook.event === 'PostToolUse')).toMatchObject({ kind: 'http', own: true, flags: [] })
    where.install({ remove: true })
    expect(routedEvents(where.file, 'qwen')).toEqual([])
  })

  test('Copilot: every event gets a bash client naming its event; only preToolUse and permissionRequest block on failure', () => {
    const where = place('copilot')
    expect(where.install({ serve: { port: 47_557 } }).exitCode).toBe(0)
    const hooks = where.read().hooks
    expect(hooks.preToolUse).toEqual([{ type: 'command', bash: expect.any(String), timeoutSec: 600 }])
    // Copilot passes on no stderr of a failing preToolUse: the client prints its deny on stdout too.
    expect(expectClient(hooks.preToolUse![0]!.bash, where.env, 'http://127.0.0.1:47557/copilot/preToolUse')).toMatch(
      /\necho '\{"permissionDecision":"deny","permissionDecisionReason":"hookrun serve did not answer on 127\.0\.0\.1:47557, so this Copilot gate blocks: start it with hookrun serve --port 47557, or go back to command hooks with hookrun install --agent copilot without --serve"\}'; echo '.*' >&2; exit 2$/,
    )
    expect(expectClient(hooks.postToolUse![0]!.bash, where.env, 'http://127.0.0.1:47557/copilot/postToolUse')).toMatch(/\nexit 0$/)
    // Copilot's payloads do not name the event: the client's `serve --start` does.
    expect(hooks.preToolUse![0]!.bash).toContain('| /opt/hookrun serve --start preToolUse --port 47557 --format copilot;')
    expect(hooks.postToolUse![0]!.bash).toContain('| /opt/hookrun serve --start postToolUse --port 47557 --format copilot;')
    expect(hooks.sessionStart![0]!.bash).toBe('/opt/hookrun serve --start sessionStart --port 47557 --format copilot')
    expect(hooks.userPromptSubmitted![0]!.bash).toBe('/opt/hookrun serve --start userPromptSubmitted --port 47557 --format copilot')
    expect(routedEvents(where.file, 'copilot')).toEqual(expect.arrayContaining(['preToolUse', 'postToolUse', 'sessionStart']))
    // An install that does not say (a --sync) keeps the clients and their port, read from the flat file.
    where.install({})
    expectClient(where.read().hooks.preToolUse![0]!.bash, where.env, 'http://127.0.0.1:47557/copilot/preToolUse')
    where.install({ remove: true })
    expect(routedEvents(where.file, 'copilot')).toEqual([])
  })

  test('Gemini CLI: no http handlers, so every event gets a bash client; SessionStart starts the server', () => {
    const where = place('gemini')
    const result = where.install({ serve: { port: 47_560 } })
    expect(result.exitCode, result.output).toBe(0)
    expect(result.output).toContain('served:  bash clients to http://127.0.0.1:47560/gemini (it has no http hook handlers;')
    const { handler } = where
    expect(handler('BeforeTool')).toMatchObject({ type: 'command', name: 'hookrun', timeout: 600_000 })
    expect(expectClient(handler('BeforeTool').command, where.env, 'http://127.0.0.1:47560/gemini')).toMatch(/ exit 2$/)
    expect(handler('BeforeTool').command).toContain('| /opt/hookrun serve --start --port 47560 --format gemini;')
    expect(expectClient(handler('AfterTool').command, where.env, 'http://127.0.0.1:47560/gemini')).toMatch(/\nexit 0$/)
    expect(handler('SessionStart').command).toBe('/opt/hookrun serve --start --port 47560 --format gemini')
    expect(JSON.stringify(where.read().hooks)).not.toContain('"type":"http"')
    where.install({ remove: true })
    expect(routedEvents(where.file, 'gemini')).toEqual([])
  })

  test('CodeBuddy Code: as Qwen Code, with the client starting its own bash (its command handlers run in $SHELL or /bin/sh)', () => {
    const where = place('codebuddy')
    const result = where.install({ serve: { port: 47_561 } })
    expect(result.exitCode, result.output).toBe(0)
    const { handler } = where
    const gate = expectClient(handler('PreToolUse').command, where.env, 'http://127.0.0.1:47561/codebuddy')
    // The mark stays the first line (uninstall and --sync find the client by it); the rest is bash's.
    const [mark, rest] = [gate.slice(0, gate.indexOf('\n')), gate.slice(gate.indexOf('\n') + 1)]
    expect(mark).toBe('# hookrun serve client: POST to http://127.0.0.1:47561/codebuddy')
    expect(rest).toMatch(/^exec bash -c 'set \+euo pipefail; .* exit 2'$/s)
    expect(handler('PostToolUse')).toMatchObject({ type: 'http', url: 'http://127.0.0.1:47561/codebuddy?if-down=run-hookrun-serve' })
    expect(handler('SessionStart').command).toBe('/opt/hookrun serve --start --port 47561 --format codebuddy')
    // A --sync keeps the clients and their port; uninstall removes them.
    where.install({})
    expectClient(handler('PreToolUse').command, where.env, 'http://127.0.0.1:47561/codebuddy')
    where.install({ remove: true })
    expect(routedEvents(where.file, 'codebuddy')).toEqual([])
    // Its project file is the local one (not shared): --serve --project writes it, made private.
    expect(where.install({ serve: { port: 47_561 }, scope: 'project' }).exitCode).toBe(0)
    const local = join(where.project, '.codebuddy', 'settings.local.json')
    expect(readFileSync(local, 'utf8')).toContain(serveSecret(where.env))
    expect(statSync(local).mode & 0o777).toBe(0o600)
  })

  test('doctor fails where the command clients cannot run: bash gone from PATH after install', async () => {
    const where = place('codebuddy')
    expect(where.install({ serve: { port: 47_562 } }).exitCode).toBe(0)
    const shellLines = async () =>
      (await serveDoctorLines(where.project, where.env)).filter((line) => line.what.includes('run in bash over /dev/tcp'))
    expect(await shellLines()).toEqual([])
    rmSync(join(where.project, '..', 'bin', 'bash'))
    expect(await shellLines()).toEqual([
      {
        status: 'fail',
        what: `CodeBuddy Code's command clients in ${where.file} run in bash over /dev/tcp, and there is no bash on PATH: they cannot run, so no gate of its gets hookrun's answer or block`,
        fix: 'install bash, or hookrun install --agent codebuddy without --serve',
      },
    ])
  })

  test("the curl clients earlier installs wrote are hookrun's: a --sync keeps their port, uninstall removes them", () => {
    const where = place('copilot')
    const curl = (event: string, tail: string) =>
      `curl -sS --fail -m 590 -H @${headerFile(where.env)} -H 'content-type: application/json' --data-binary @- http://127.0.0.1:47559/copilot/${event} || ${tail}`
    mkdirSync(join(where.file, '..'), { recursive: true })
    writeFileSync(
      where.file,
      JSON.stringify({
        version: 1,
        hooks: {
          preToolUse: [{ type: 'command', bash: curl('preToolUse', "{ echo 'down' >&2; exit 2; }"), timeoutSec: 600 }],
          postToolUse: [{ type: 'command', bash: curl('postToolUse', 'exit 0'), timeoutSec: 600 }],
        },
      }),
    )
    expect(where.install({}).exitCode).toBe(0)
    expectClient(where.read().hooks.preToolUse![0]!.bash, where.env, 'http://127.0.0.1:47559/copilot/preToolUse')
    expect(JSON.stringify(where.read())).not.toContain('curl')
    where.install({ remove: true })
    expect(routedEvents(where.file, 'copilot')).toEqual([])
  })

  test('refused in one line without bash on PATH, and for a project file the project shares', () => {
    expect(() => place('qwen', false).install({ serve: { port: 47_558 } })).toThrow(
      /^--serve for Qwen Code answers its gates through bash's \/dev\/tcp, and there is no bash on PATH: install without --serve$/,
    )
    expect(() => place('copilot').install({ serve: { port: 47_558 }, scope: 'project' })).toThrow(
      /--serve --project would write this user's hookrun serve secret into .*hookrun\.json, which the project shares: run hookrun install --agent copilot --serve without --project/,
    )
  })
})
