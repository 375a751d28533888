/**
 * ms per tool call for OpenCode: hookrun's plugin (a `hookrun fire` process per call), hookrun's
 * library in-process (`fire()`, what an in-process plugin would run), and a plain plugin doing the
 * same check in JavaScript. Run with Bun, OpenCode's runtime, after `npm run build`:
 *
 *   bun scripts/bench-opencode.ts        # one shell gate hook in hooks.json
 *   bun scripts/bench-opencode.ts none   # no hooks
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { pluginText } from '../src/install/opencode-plugin.ts'

type Hook = (input: Record<string, unknown>, output: { args: Record<string, unknown> }) => Promise<void>

const ROOT = join(import.meta.dirname, '..')
const HOOKRUN = join(ROOT, 'dist', 'hookrun')
const home = mkdtempSync(join(tmpdir(), 'hookrun-bench-'))
Object.assign(process.env, {
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_STATE_HOME: join(home, '.state'),
  XDG_CACHE_HOME: join(home, '.cache'),
})
const project = join(home, 'project')
mkdirSync(join(project, '.hookrun'), { recursive: true })
execFileSync('git', ['init', '-q'], { cwd: project })
const GATE = `case "$HOOKRUN_BASH_COMMAND" in *forbidden*) echo "lab gate: forbidden" >&2; exit 2;; esac`
const none = process.argv[2] === 'none'
writeFileSync(
  join(project, '.hookrun', 'hooks.json'),
  JSON.stringify({ hooks: none ? [] : [{ name: 'gate', event: 'tool:pre_execute:bash', command: GATE }] }),
)
execFileSync(HOOKRUN, ['trust'], { cwd: project })
const file = join(home, 'hookrun.js')
writeFileSync(file, pluginText('OpenCode', 'opencode', [HOOKRUN], 60))
const plugin = await (await import(pathToFileURL(file).href)).HookrunPlugin({ directory: project, worktree: project })
const lib = await import(pathToFileURL(join(ROOT, 'dist', 'index.mjs')).href)
const variants: Record<string, Hook> = {
  'plain plugin (the check in JS)': async (_input, output) => {
    if (String(output.args.command).includes('forbidden')) throw new Error('lab gate: forbidden')
  },
  "hookrun's plugin (hookrun fire)": plugin['tool.execute.before'],
  'hookrun library in-process': async (input, output) => {
    const decision = await lib.fire({
      event: 'tool:pre_execute',
      payload: { tool_name: input.tool, tool_input: output.args },
      cwd: project,
    })
    if (decision.blocked) throw new Error(decision.reason)
  },
}
console.log(`hooks.json: ${none ? 'no hooks' : 'one shell gate hook'}; load average ${loadavg()[0]!.toFixed(1)}`)
for (const [name, hook] of Object.entries(variants)) {
  const times: number[] = []
  for (let index = 0; index < 30; index++) {
    const started = performance.now()
    await hook({ tool: 'bash', sessionID: 's', callID: `c${index}` }, { args: { command: 'ls', description: 'd' } })
    times.push(performance.now() - started)
  }
  const denied = await hook({ tool: 'bash', sessionID: 's', callID: 'd' }, { args: { command: 'touch forbidden', description: 'd' } }).then(
    () => false,
    () => true,
  )
  times.sort((a, b) => a - b)
  console.log(
    `${name.padEnd(32)} median ${times[15]!.toFixed(1)} ms, min ${times[0]!.toFixed(1)}, max ${times[29]!.toFixed(1)}; denies: ${denied}`,
  )
}
