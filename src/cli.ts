// The command line (cac): flags in, library calls out. Nothing else lives here; commands load lazily.
import { isAbsolute, resolve } from 'node:path'
import { cac, type CAC } from 'cac'
import pkg from '../package.json' with { type: 'json' }
import { ExitCode, formatError, HookrunError } from './core/errors.ts'
import { openSync, statSync, writeSync } from 'node:fs'
import { findProjectRoot } from './config/load.ts'
import { fire, type ProgressRecord } from './fire.ts'
import { mayBeAgentPayload } from './dialects/hint.ts'
import { PayloadError, readPayload } from './payload/payload.ts'
import { applySetFields } from './payload/set-fields.ts'
import { qualifyEvent } from './event/event.ts'
import { isGate } from './event/events.ts'
import type { Decision } from './core/types.ts'
import { renderNative } from './answer/render.ts'
import { selfCommand } from './install/self.ts'
import type { ColourMode, Paint } from './core/paint.ts'
import { count } from './core/words.ts'

/** Signals that stop a fire: its hooks are killed and hookrun exits 128 + the signal number. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 }

/** The event of a fire as far as it is known, for blocking a gate when hookrun fails (`blockFailedGate`). */
interface KnownEvent {
  name?: string
  payload: Record<string, unknown>
  tool?: string
  prepared?: { readonly dialect: import('./dialects/types.ts').Dialect; readonly agentEvent?: string }
  interrupted?: boolean
  /** The fire itself started (flags and payload were fine). */
  firing?: boolean
}

/** Where the CLI writes; tests pass their own. */
export interface Io {
  stdout(text: string): Promise<void> | void
  stderr(text: string): Promise<void> | void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: AsyncIterable<Uint8Array>
  /** stderr is a terminal (a person is watching): fire names a hook that runs long. */
  readonly stderrIsTerminal?: boolean
  /** stdout is a terminal: human output may be coloured (`--color=auto`). */
  readonly stdoutIsTerminal?: boolean
}

interface CommonFlags {
  config?: string | string[]
  cwd?: string
  tool?: string
  json?: boolean
}

interface FireFlags extends CommonFlags {
  payload?: string
  set?: string[]
  strict?: boolean
  format?: string
  events?: string
  record?: string
  explain?: boolean
  dryRun?: boolean
  pretty?: boolean
  /** Set by `hookrun explain` (a person reads it), not by `fire --explain`. */
  person?: boolean
}

/** `--config` may be given once (a string) or repeatedly (an array). */
function configFiles(flags: CommonFlags): string[] | undefined {
  if (flags.config === undefined) return undefined
  return (Array.isArray(flags.config) ? flags.config : [flags.config]).map((value) => text(value, 'config')!)
}

/** A flag that takes one value: given twice is a contradiction, not a choice. */
function text(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value)) throw new HookrunError(`--${flag} was given ${value.length} times (${value.join(', ')}); give it once`)
  if (typeof value !== 'string' && typeof value !== 'number') throw new HookrunError(`--${flag} needs a value`)
  return String(value)
}

function bool(value: unknown, flag: string): boolean {
  if (Array.isArray(value)) throw new HookrunError(`--${flag} was given ${value.length} times; give it once`)
  return value === true
}

/** A repeatable, comma-separated flag (`--events a,b --events c`). */
function list(value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter((item) => item !== '')
}

/** `--cwd` must name a folder: hooks run there, so a typo must not become a failing hook. */
function folder(value: unknown): string | undefined {
  const dir = text(value, 'cwd')
  if (dir === undefined) return undefined
  let isFolder = false
  try {
    isFolder = statSync(dir).isDirectory()
  } catch {}
  if (!isFolder) throw new HookrunError(`--cwd ${resolve(dir)}: no such folder`)
  return dir
}

/**
 * The command line. `only: 'fire'` defines the fire command alone: an agent runs hookrun once per
 * event, and defining every other command first cost each event about a millisecond.
 */
export function createCli(io: Io, setExitCode: (code: number) => void, only?: 'fire', colour: ColourMode = 'auto'): CAC {
  const cli = cac('hookrun')

  const fireCommand = cli
    .command('fire [event]', 'Run the hooks that match an event and print the decision as JSON')
    .option('--payload <file>', "Event JSON from a file, or '-' for stdin (default: {}, or stdin when no event or a --format is given)")
    .option('--tool <name>', "The event's subject (default: the payload's tool_name)")
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder (default: the current one)')
    .option('--strict', 'Treat any config problem as fatal (exit 1)')
    .option('--format <agent>', "Read and answer in an agent's protocol: claude, cursor, gemini, codex, copilot, windsurf, droid, kiro, crush, qwen (default: detected from the payload; see hookrun agents)")
    .option('--events <file>', "Write hook progress as NDJSON to a file, or '-' for stderr")
    .option('--set <key=value>', 'Add a payload field (repeatable); key:=JSON for a non-string value', { type: [String] })
    .option('--record <dir>', 'Also save the payload, secrets redacted, as a hookrun test case with this answer in DIR (or set HOOKRUN_RECORD)')
    .option('--explain', 'Print how the decision was reached instead of the decision (with --json: as JSON)')
    .option('--json', 'Print the explanation as JSON (with --explain)')
    .option('--pretty', 'Print the decision for a person: the verdict, then one aligned line per hook (same exit code)')
    .example("echo '{\"tool_name\":\"bash\",\"tool_input\":{\"command\":\"sudo ls\"}}' | hookrun fire tool:pre_execute --payload -")
    .example('hookrun fire --format claude   # as a Claude Code hook command: the event comes from hook_event_name')
    .action(async (event: string | undefined, flags: FireFlags) => {
      // What is known of the event so far: when hookrun fails on a gate event it blocks (below).
      const known: KnownEvent = { name: event, payload: {} }
      try {
        await fireAction(event, flags, known)
      } catch (error) {
        if (!(await blockFailedGate(error, known))) throw error
      }
    })

  /** `hookrun fire`, filling in `known` as the event, payload and dialect become known. */
  async function fireAction(event: string | undefined, flags: FireFlags, known: KnownEvent): Promise<void> {
    const format = text(flags.format, 'format')
    // Dialects load only when one is asked for or the payload may come from an agent.
    const dialects = format === undefined ? undefined : await import('./dialects/index.ts')
    dialects?.checkFormat(format!)
    // Agents send the payload on stdin: `hookrun fire --format claude`, `hookrun fire preToolUse --format copilot`.
    const source = text(flags.payload, 'payload') ?? (event === undefined || format !== undefined ? '-' : undefined)
    let read
    try {
      read = applySetFields(await readImpliedPayload(source, flags.payload === undefined, io.stdin), flags.set ?? [])
    } catch (error) {
      // The agent's event (and tool) may still be told from the fields before a syntax error: a gate blocks.
      if (error instanceof PayloadError && error.partial !== undefined) {
        if (dialects === undefined) known.payload = error.partial
        else {
          try {
            const partly = dialects.prepareDialect(format, event, error.partial)
            if (partly?.event !== undefined) Object.assign(known, { name: partly.event, payload: partly.payload, tool: partly.tool, prepared: partly })
          } catch {
            // No event in what was readable: the error alone, exit 1.
          }
        }
      }
      throw error
    }
    const prepared =
      dialects !== undefined || mayBeAgentPayload(read)
        ? (dialects ?? (await import('./dialects/index.ts'))).prepareDialect(format, event, read)
        : undefined
    if (flags.pretty && prepared !== undefined) throw new HookrunError(`--pretty prints hookrun's own answer; ${prepared.dialect.name} reads its JSON, so drop --pretty (or --format)`)
    const eventName = prepared === undefined ? event : prepared.event
    if (eventName === undefined) {
      throw new HookrunError('no event: name one (hookrun fire tool:pre_execute), or send a payload with hook_event_name and --format')
    }
    const payload = prepared?.payload ?? read
    Object.assign(known, { name: eventName, payload, tool: text(flags.tool, 'tool') ?? prepared?.tool, prepared })
    // Claude Code's entry run by Cursor, which runs its own hookrun entry for this event too.
    const ownerEvent = prepared?.agentEvent ?? prepared?.event
    if (!flags.explain && prepared?.dialect.name === 'claude' && ownerEvent !== undefined && (typeof payload.cursor_version === 'string' || typeof payload.conversation_id === 'string')) {
      const { answeredByReaderEntry } = await import('./install/overlaps.ts')
      const roots = payload.workspace_roots
      const cwd = folder(flags.cwd) ?? io.env.CURSOR_PROJECT_DIR ?? (Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : process.cwd())
      const elsewhere = answeredByReaderEntry('claude', ownerEvent, { project: findProjectRoot(cwd) ?? cwd, env: io.env }, payload)
      if (elsewhere !== undefined) {
        await io.stderr(`hookrun: ${ownerEvent} is answered by hookrun's entry in ${elsewhere.file}; this Claude Code entry gives no opinion, so hooks run once\n`)
        await io.stdout('{}\n')
        return setExitCode(0)
      }
    }
    // --events when asked; else, on a terminal only, which long-running hook is running (stderr).
    const progress =
      text(flags.events, 'events') !== undefined
        ? openEvents(String(flags.events))
        : io.stderrIsTerminal
          ? (await import('./commands/progress.ts')).terminalProgress((line) => void io.stderr(line))
          : undefined
    const controller = new AbortController()
    const stop = (signal: NodeJS.Signals) => controller.abort(signal)
    for (const signal of STOP_SIGNALS) process.once(signal, stop)
    try {
      const options = {
        event: eventName,
        payload,
        tool: text(flags.tool, 'tool') ?? prepared?.tool,
        agent: prepared?.dialect.name,
        // Background work (telemetry export, a policy refresh) runs as a detached hookrun.
        selfCommand: selfCommand(),
        cwd: folder(flags.cwd) ?? agentWorkingDirectory(payload, prepared?.dialect.projectDirVariable && io.env[prepared.dialect.projectDirVariable]),
        configFiles: configFiles(flags),
        strict: bool(flags.strict, 'strict'),
        env: io.env,
        signal: controller.signal,
        progress,
      }
      if (flags.explain) {
        const { explainCommand } = await import('./commands/explain.ts')
        const paint = flags.person && !flags.json ? await paintFor(io, colour, 'stdout') : undefined
        const result = await explainCommand(options, { prepared, json: flags.json === true, dryRun: flags.dryRun === true, paint })
        await io.stdout(result.output)
        return setExitCode(result.exitCode)
      }
      known.firing = true
      const decision = await fire(options)
      if (controller.signal.aborted) {
        const signal = String(controller.signal.reason) as NodeJS.Signals
        known.interrupted = true
        throw new HookrunError(`interrupted by ${signal}: running hooks were killed`, 128 + (SIGNAL_NUMBERS[signal] ?? 15))
      }
      const rendered = prepared ? (dialects ?? (await import('./dialects/index.ts'))).renderFor(prepared.dialect, decision, payload, prepared.agentEvent) : { ...renderNative(decision), warnings: [] }
      const recordIn = text(flags.record, 'record') ?? (io.env.HOOKRUN_RECORD || undefined)
      const recorded =
        recordIn === undefined
          ? undefined
          : (await import('./commands/record.ts')).recordCase(resolve(recordIn), {
              event: prepared === undefined ? eventName : event,
              format: prepared?.dialect.name,
              agentEvent: prepared?.agentEvent,
              tool: text(flags.tool, 'tool'),
              payload: read,
              decision,
              exitCode: rendered.exitCode,
            })
      const warnings = [...decision.warnings, ...rendered.warnings, ...(recorded === undefined ? [] : [recorded])]
      // stdout is the agent's protocol and is never coloured; a person may be reading stderr.
      const paint = warnings.length > 0 ? await paintFor(io, colour, 'stderr') : undefined
      for (const warning of warnings) await io.stderr(`hookrun: ${paint?.warn('warning:') ?? 'warning:'} ${warning}\n`)
      if (rendered.stderr) await io.stderr(rendered.stderr)
      if (flags.pretty) await io.stdout((await import('./answer/pretty.ts')).renderPretty(decision, rendered.exitCode))
      else await io.stdout(rendered.stdout)
      setExitCode(rendered.exitCode)
    } finally {
      for (const signal of STOP_SIGNALS) process.off(signal, stop)
    }
  }

  /**
   * A gate never fails open (DESIGN §8): agents read exit 1 as "proceed", so when hookrun itself
   * fails on a gate event it answers with a block, in the agent's own form, and says why.
   */
  async function blockFailedGate(error: unknown, known: KnownEvent): Promise<boolean> {
    // Bad usage is the caller's error, exit 1 as documented; a payload that cannot be read (an
    // agent sent it), what fails once the fire has started, or any internal error: a gate blocks.
    if (known.name === undefined || known.interrupted || (!known.firing && error instanceof HookrunError && !(error instanceof PayloadError))) return false
    let event
    try {
      event = qualifyEvent(known.name, known.payload, known.tool)
    } catch {
      return false // not an event name at all: a usage error
    }
    if (!isGate(event.name)) return false
    const why = formatError(error, io.env.HOOKRUN_DEBUG === '1').replace(/^hookrun: /, '')
    const reason = `blocked because hookrun could not decide: ${why}`
    const decision: Decision = { event: event.qualified, decision: 'deny', blocked: true, reason, decidedBy: 'hookrun', continue: true, additionalContext: [], hooks: [], warnings: [] }
    const rendered = known.prepared
      ? (await import('./dialects/index.ts')).renderFor(known.prepared.dialect, decision, known.payload, known.prepared.agentEvent)
      : { ...renderNative(decision), warnings: [] }
    await io.stderr(`hookrun: ${why}\n`)
    if (rendered.stderr) await io.stderr(rendered.stderr)
    await io.stdout(rendered.stdout)
    setExitCode(rendered.exitCode)
    return true
  }

  if (only === 'fire') return withGlobalOptions(cli)

  // `explain` is `fire --explain`, with fire's flags (less --events) and --dry-run.
  const explainCommand = cli.command('explain [event]', 'Fire an event and show every configured hook: run or why not, each answer, how the decision was reached')
  for (const option of fireCommand.options) if (!['events', 'explain', 'pretty'].includes(option.name)) explainCommand.option(option.rawName, option.description, option.config)
  explainCommand
    .option('--dry-run', 'Only show which hooks would run; run none')
    .action((event: string | undefined, flags: FireFlags) => fireCommand.commandAction!(event, { ...flags, explain: true, person: true }))

  cli
    .command('events', 'Print the event vocabulary and every alias hookrun understands')
    .option('--json', 'Print JSON')
    .option('--tools', "Print the tool subjects instead: each with every agent's name for it")
    .action(async (flags: { json?: boolean; tools?: boolean }) => {
      const { formatEvents, formatTools } = await import('./commands/events.ts')
      const paint = await paintFor(io, colour, 'stdout')
      await io.stdout(flags.tools ? formatTools(flags.json === true, paint) : formatEvents(flags.json === true, paint))
    })

  cli
    .command('agents', 'Print what hookrun knows of each agent: the events it sends, the answer fields it honours, where it reads hooks, what install writes there')
    .option('--json', 'Print JSON')
    .action(async (flags: { json?: boolean }) => {
      const { formatAgents } = await import('./commands/agents.ts')
      await io.stdout(formatAgents(flags.json === true, await paintFor(io, colour, 'stdout')))
    })

  cli
    .command('list [event]', 'Show configured hooks, or those an event would run, with their files')
    .option('--tool <name>', "The event's subject")
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .action(async (event: string | undefined, flags: CommonFlags) => {
      const { listHooks } = await import('./commands/list.ts')
      const output = await listHooks({ event, tool: text(flags.tool, 'tool'), cwd: folder(flags.cwd) ?? process.cwd(), configFiles: configFiles(flags), env: io.env, json: bool(flags.json, 'json'), paint: await paintFor(io, colour, 'stdout') })
      await io.stdout(output)
    })

  cli
    .command('validate [...files]', 'Check config files (default: the discovered ones); exit 1 on any error')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .action(async (files: string[], flags: CommonFlags) => {
      const { validateConfig } = await import('./commands/validate.ts')
      const result = validateConfig({ files, cwd: folder(flags.cwd) ?? process.cwd(), env: io.env, json: bool(flags.json, 'json'), paint: await paintFor(io, colour, 'stdout') })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('plugin <action> [target]', 'Manage plugins: add <path | git URL>[@ref], list, remove <name>')
    .option('--global', "The user's plugins ($XDG_CONFIG_HOME/hookrun/plugins) instead of the project's")
    .option('--name <org/repo>', 'add: install under this name instead of the one taken from the source')
    .option('--cwd <dir>', 'Find the project from this folder')
    .option('--json', 'list: print JSON with every hook name')
    .example('hookrun plugin add https://github.com/acme/agent-hooks@v1.2.0')
    .action(async (action: string, target: string | undefined, flags: CommonFlags & { global?: boolean; name?: string }) => {
      const { pluginCommand } = await import('./commands/plugin.ts')
      const { output, warnings } = await pluginCommand(action, target, {
        global: flags.global === true,
        name: text(flags.name, 'name'),
        cwd: folder(flags.cwd) ?? process.cwd(),
        env: io.env,
        json: flags.json === true,
      })
      for (const warning of warnings) await io.stderr(`hookrun: warning: ${warning}\n`)
      await io.stdout(output)
    })

  cli
    .command('test [...files]', 'Run hook test cases (default: .hookrun/tests/*.json) through the real pipeline; exit 1 on any failure')
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .action(async (files: string[], flags: CommonFlags) => {
      const { runTests } = await import('./commands/test.ts')
      const result = await runTests({ files, cwd: folder(flags.cwd) ?? process.cwd(), configFiles: configFiles(flags), env: io.env, json: flags.json === true, paint: await paintFor(io, colour, 'stdout') })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('init', 'Write a starter .hookrun/hooks.json, scripts and tests; never overwrites a file')
    .option('--template <name>', 'Only this template (repeatable): dangerous-commands, audit-log, notify, git-commit')
    .option('--list', 'List the templates')
    .option('--cwd <dir>', 'The project folder (default: the current one)')
    .action(async (flags: { template?: string | string[]; list?: boolean; cwd?: string }) => {
      const { initProject, listTemplates } = await import('./commands/init.ts')
      if (flags.list) return void (await io.stdout(listTemplates()))
      const templates = flags.template === undefined ? [] : (Array.isArray(flags.template) ? flags.template : [flags.template]).flatMap((name) => String(name).split(','))
      await io.stdout(initProject({ cwd: folder(flags.cwd) ?? process.cwd(), templates, env: io.env }))
    })

  for (const [name, description] of [
    ['install', "Add hookrun's router entries to an agent's own hooks config (one per event it has)"],
    ['uninstall', "Remove hookrun's router entries from an agent's hooks config; nothing else"],
  ] as const) {
    const command = cli
      .command(name, description)
      .option('--agent <name>', 'claude, cursor, gemini, codex, copilot, windsurf, droid, kiro, crush or qwen (repeatable)')
      .option('--user', "The agent's user config, for every project (default)")
      .option('--project', "The agent's config in this project (--cwd)")
      .option('--cwd <dir>', 'The project folder for --project (default: the current one)')
      .option('--events <names>', "install: only these of the agent's events, comma-separated (default: all it has)")
      .option('--narrow', "install --project: entries only on the events and tools this project's hooks can fire on; after hooks.json changes, the next fire in a trusted project narrows them again in the background")
      .option('--sync', "install: narrow every agent config of this project that holds hookrun's entries again, from hooks.json as it is now")
      .option('--quiet', 'install --sync: print nothing, and only in a trusted project (how a fire runs it in the background)')
    if (name === 'install') {
      command
        .example('hookrun install --agent claude                      # every project: ~/.claude/settings.json')
        .example('hookrun install --agent claude --project --narrow   # Claude Code starts hookrun only where a hook wants it')
        .example('hookrun install --project --sync                    # narrow again now (fires do it by themselves)')
    }
    command.action(async (flags: { agent?: string | string[]; user?: boolean; project?: boolean; cwd?: string; events?: string | string[]; sync?: boolean; narrow?: boolean; quiet?: boolean }) => {
      if (flags.user && flags.project) throw new HookrunError('--user and --project exclude each other')
      if (flags.sync && (name === 'uninstall' || flags.user)) throw new HookrunError('--sync goes with install --project only: it compiles the project\'s hooks into its agent configs')
      if (flags.quiet && !flags.sync) throw new HookrunError('--quiet goes with install --sync only (how a fire runs it in the background)')
      if (flags.narrow && (name === 'uninstall' || !flags.project)) throw new HookrunError('--narrow goes with install --project only: a --user install serves every project, so it keeps every event')
      const { installAgents } = await import('./commands/install.ts')
      const agents = flags.agent === undefined ? [] : (Array.isArray(flags.agent) ? flags.agent : [flags.agent]).flatMap((agent) => String(agent).split(','))
      const result = installAgents(
        { agents, scope: flags.project || flags.sync ? 'project' : 'user', cwd: folder(flags.cwd) ?? process.cwd(), env: io.env, events: list(flags.events), sync: flags.sync === true, narrow: flags.narrow === true, quiet: flags.quiet === true },
        name === 'uninstall',
      )
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })
  }

  cli
    .command('import', "Move the hooks an agent already has into hooks.json, with hookrun's router entries in their place")
    .option('--agent <name>', 'claude, cursor, gemini, codex or copilot (repeatable)')
    .option('--project', "The agent's config in this project, into the project's .hookrun/hooks.json (default)")
    .option('--user', "The agent's user config, into your own hooks.json")
    .option('--cwd <dir>', 'The project folder (default: the current one)')
    .option('--dry-run', 'Write nothing; print the diff of every file import would change')
    .example('hookrun import --agent claude --dry-run   # what would move, as diffs')
    .example('hookrun import --agent claude && hookrun trust')
    .action(async (flags: { agent?: string | string[]; user?: boolean; project?: boolean; cwd?: string; dryRun?: boolean }) => {
      if (flags.user && flags.project) throw new HookrunError('--user and --project exclude each other')
      const { importAgents } = await import('./commands/import.ts')
      const agents = flags.agent === undefined ? [] : (Array.isArray(flags.agent) ? flags.agent : [flags.agent]).flatMap((agent) => String(agent).split(','))
      const result = await importAgents({ agents, scope: flags.user ? 'user' : 'project', cwd: folder(flags.cwd) ?? process.cwd(), env: io.env, dryRun: bool(flags.dryRun, 'dry-run') })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('trust [dir]', "Let the project's hooks run: trust its hook files as they are now (any change revokes it)")
    .option('--diff', 'Show what changed since the project was trusted; trust nothing')
    .example('hookrun trust            # the project at or above the current folder')
    .example('hookrun trust --diff     # what changed since you trusted it')
    .action(async (dir: string | undefined, flags: { diff?: boolean }) => {
      const { trustDiff, trustProject } = await import('./commands/trust.ts')
      const options = { dir: dir === undefined ? undefined : String(dir), cwd: process.cwd(), env: io.env, paint: await paintFor(io, colour, 'stdout') }
      await io.stdout(bool(flags.diff, 'diff') ? trustDiff(options) : trustProject(options))
    })

  cli.command('untrust [dir]', "Stop the project's hooks: forget the trust given with 'hookrun trust'").action(async (dir: string | undefined) => {
    const { untrustProject } = await import('./commands/trust.ts')
    await io.stdout(untrustProject({ dir: dir === undefined ? undefined : String(dir), cwd: process.cwd(), env: io.env }))
  })

  cli
    .command('log [action]', "Show the audit log as a table (or JSON); 'log verify' checks a chained log for edits and cuts")
    .option('--since <when>', 'Only lines since then: 30m, 2h, 7d, or a date (2026-11-01T09:00)')
    .option('--decision <decision>', 'Only allow, deny or ask')
    .option('--agent <name>', 'Only events from this agent (claude, cursor, …)')
    .option('--file <file>', 'Read this log instead of the configured one')
    .option('--config <file>', 'Find the log setting in this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the config from this folder')
    .option('--json', 'Print the matching lines as a JSON array')
    .example('hookrun log --since 1d --decision deny')
    .action(async (action: string | undefined, flags: CommonFlags & { since?: string; decision?: string; agent?: string; file?: string }) => {
      const { showLog, verifyLog } = await import('./commands/log.ts')
      const options = {
        cwd: folder(flags.cwd) ?? process.cwd(),
        env: io.env,
        file: text(flags.file, 'file'),
        configFiles: configFiles(flags),
        since: text(flags.since, 'since'),
        decision: text(flags.decision, 'decision'),
        agent: text(flags.agent, 'agent'),
        json: bool(flags.json, 'json'),
        paint: await paintFor(io, colour, 'stdout'),
      }
      if (action === undefined) return void (await io.stdout(showLog(options)))
      if (action !== 'verify') throw new HookrunError(`hookrun log ${action}: unknown action; use 'hookrun log' or 'hookrun log verify'`)
      const result = verifyLog(options)
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('policy <action> [file]', "The managed config's remote policy: status, pull (fetch now), sign --key PRIVATE.pem FILE (make the signed file to serve)")
    .option('--key <file>', 'sign: the Ed25519 private key (PEM)')
    .option('--quiet', 'pull: print nothing (as the background refresh runs it)')
    .option('--cwd <dir>', 'Discover the config from this folder')
    .example('openssl genpkey -algorithm ed25519 -out policy-key.pem && hookrun policy sign --key policy-key.pem policy.json > signed.json')
    .action(async (action: string, file: string | undefined, flags: { key?: string; quiet?: boolean; cwd?: string }) => {
      const { policyCommand } = await import('./commands/policy.ts')
      const result = await policyCommand(action, { cwd: folder(flags.cwd) ?? process.cwd(), env: io.env, quiet: flags.quiet === true, key: text(flags.key, 'key'), file })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('telemetry <action>', "flush: export the spans fires spooled to the OpenTelemetry collector now (fires start this in the background)")
    .option('--linger', 'Keep shipping what new fires spool until none has come for 10 s (how fires start it)')
    .action(async (action: string, flags: { linger?: boolean }) => {
      if (action !== 'flush') throw new HookrunError(`hookrun telemetry ${action}: unknown action; use 'hookrun telemetry flush'`)
      const { flushSpool } = await import('./telemetry/export.ts')
      const result = await flushSpool(io.env, flags.linger === true)
      if (result.alreadyRunning) return void (await io.stdout('another hookrun telemetry flush is running; it ships the spool\n'))
      for (const failure of result.failures) await io.stderr(`hookrun: warning: telemetry export to ${failure}\n`)
      await io.stdout(`${count(result.shipped, 'fire')} exported${result.failures.length > 0 ? `, ${count(result.failures.length, 'export')} failed` : ''}\n`)
      if (result.failures.length > 0) setExitCode(ExitCode.Failure)
    })

  cli.command('schema', 'Print the JSON Schema of hooks.json').action(async () => {
    const { configJsonSchema } = await import('./commands/schema.ts')
    await io.stdout(`${JSON.stringify(configJsonSchema(), null, 2)}\n`)
  })

  cli
    .command('doctor', 'Check what would make hooks silently not fire: hookrun on PATH, agents wired, project trusted, config, audit log; exit 1 when a gate is not in force')
    .option('--cwd <dir>', 'Check the project at or above this folder (default: the current one)')
    .option('--json', 'Print JSON')
    .action(async (flags: CommonFlags) => {
      const { doctorCommand } = await import('./commands/doctor.ts')
      const result = doctorCommand({ cwd: folder(flags.cwd) ?? process.cwd(), env: io.env, version: pkg.version, json: bool(flags.json, 'json'), paint: await paintFor(io, colour, 'stdout') })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('completion <shell>', 'Print tab completion for bash, zsh or fish (eval "$(hookrun completion bash)" in ~/.bashrc)')
    .action(async (shell: string) => {
      const { completionScript } = await import('./commands/completion.ts')
      const commands = cli.commands
        .filter((command) => command.name !== '')
        .map((command) => ({ name: command.name, description: command.description, options: [...command.options.flatMap((option) => option.rawName.match(/--[\w-]+/g) ?? []), '--color', '--no-color'] }))
      await io.stdout(completionScript(String(shell), commands))
    })

  // Parsed before cac sees it (main): `help fire` is `fire --help`.
  cli.command('help [command]', "Show the commands, or one command's options and examples")
  return withGlobalOptions(cli)
}

/** What every command line has, whichever commands it defines: the help layout and --version. */
function withGlobalOptions(cli: CAC): CAC {
  // cac lists `hookrun X --help` for every command; one line says the same.
  cli.help((sections) =>
    sections.map((section) => (section.title?.startsWith('For more info') ? { body: "Run 'hookrun help <command>' for a command's options and examples." } : section)),
  )
  // Not cli.version(): cac names Node's version under Bun and Deno; main prints the runtime's own.
  cli.option('-v, --version', 'Print the version and the runtime it runs on')
  // Taken out of the arguments before cac parses them (colourFlags); listed here for help and completion.
  cli.option('--color [when]', 'Colour human output: --color=auto (the default: on a terminal; NO_COLOR turns it off, FORCE_COLOR on), --color (always), --color=never or --no-color')
  return cli
}

/**
 * `--color`, `--color=auto|always|never` and `--no-color`, anywhere on the line (before or after
 * the command), as git, ls and grep take them: a bare `--color` is `always`, and a value is given
 * with `=` only, so `--color list` never swallows the command. The last one given wins.
 */
function colourFlags(argv: readonly string[]): { args: string[]; colour: ColourMode; problem?: HookrunError } {
  let colour: ColourMode = 'auto'
  let problem: HookrunError | undefined
  const args: string[] = []
  for (const arg of argv) {
    if (arg === '--color') colour = 'always'
    else if (arg === '--no-color') colour = 'never'
    else if (arg.startsWith('--color=')) {
      const value = arg.slice('--color='.length)
      if (value === 'auto' || value === 'always' || value === 'never') colour = value
      else problem = new HookrunError(`${arg}: expected --color=auto, --color=always or --color=never`)
    } else args.push(arg)
  }
  return { args, colour, problem }
}

/**
 * How output for a person is painted (src/core/paint.ts). Loaded only when colour may be wanted,
 * so a fire whose stderr is not a terminal never loads it.
 */
async function paintFor(io: Io, colour: ColourMode, stream: 'stdout' | 'stderr'): Promise<Paint | undefined> {
  const terminal = stream === 'stdout' ? io.stdoutIsTerminal === true : io.stderrIsTerminal === true
  if (colour === 'never' || (colour === 'auto' && !terminal && io.env.FORCE_COLOR === undefined)) return undefined
  const { paintFor: paint, wantsColour } = await import('./core/paint.ts')
  return paint(wantsColour(colour, io.env, terminal))
}

/** Run the CLI; returns the exit code. Every user error becomes one line on stderr. */
export async function main(givenArgv: readonly string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.Proceed
  const { args: argv, colour, problem: colourProblem } = colourFlags(givenArgv)
  const cli = createCli(
    io,
    (code) => {
      exitCode = code
    },
    argv[0] === 'fire' ? 'fire' : undefined,
    colour,
  )
  try {
    if (colourProblem !== undefined) throw colourProblem
    let args = prepareArgv(argv, valueFlags(cli))
    if (args[0] === 'help') {
      const topic = args.slice(1).find((arg) => !arg.startsWith('-'))
      if (topic !== undefined && !cli.commands.some((command) => command.name === topic)) throw (await import('./commands/usage.ts')).unknownCommand(cli, topic)
      args = topic === undefined ? ['--help'] : [topic, '--help']
    }
    cli.parse(['hookrun', 'hookrun', ...args], { run: false })
    if (cli.options.help) return ExitCode.Proceed
    if (cli.options.version) {
      await io.stdout((await import('./commands/usage.ts')).versionLine(pkg.version))
      return ExitCode.Proceed
    }
    if (!cli.matchedCommand) {
      const [unknown] = cli.args
      if (unknown === undefined) {
        cli.outputHelp()
        return ExitCode.Proceed
      }
      throw (await import('./commands/usage.ts')).unknownCommand(cli, String(unknown))
    }
    await cli.runMatchedCommand()
    return exitCode
  } catch (caught) {
    const error = caught instanceof Error && caught.name === 'CACError' ? (await import('./commands/usage.ts')).explainUsageError(caught, cli) : caught
    const paint = await paintFor(io, colour, 'stderr')
    await io.stderr(`${formatError(error, io.env.HOOKRUN_DEBUG === '1').replace(/^hookrun:/, (prefix) => paint?.bad(prefix) ?? prefix)}\n`)
    return error instanceof HookrunError ? error.exitCode : ExitCode.Failure
  }
}

/** Read the payload; when stdin was read only because no event was named, say that if it is empty. */
async function readImpliedPayload(source: string | undefined, implied: boolean, stdin: AsyncIterable<Uint8Array>) {
  try {
    return await readPayload(source, stdin)
  } catch (error) {
    if (implied && error instanceof HookrunError && / is empty;/.test(error.message)) {
      throw new HookrunError("no event: name one (hookrun fire tool:pre_execute), or send the agent's event JSON on stdin (it was empty)")
    }
    throw error
  }
}

/**
 * Where the agent is working, from its payload: `cwd` (Claude Code, Codex, Gemini CLI, Copilot,
 * kodelet) or Cursor's first workspace root. Agents run user-level hooks from their own folder
 * (Cursor: ~/.cursor), so when hookrun's working directory is in no project the project is found
 * from here. The working directory's project comes first: an agent that cd'ed elsewhere must not
 * leave its project's gates behind.
 */
function agentWorkingDirectory(payload: Record<string, unknown>, projectDir?: string): string | undefined {
  const roots = payload.workspace_roots
  // The agent's project variable (FACTORY_PROJECT_DIR) names the root even after the agent cd'd away.
  const candidates = [projectDir || undefined, payload.cwd, Array.isArray(roots) ? roots[0] : undefined]
  if (candidates.every((candidate) => typeof candidate !== 'string') || findProjectRoot(process.cwd()) !== undefined) return undefined
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || !isAbsolute(candidate)) continue
    try {
      if (statSync(candidate).isDirectory()) return candidate
    } catch {
      // Not a folder here (a remote agent's path): use the working directory instead.
    }
  }
  return undefined
}

/** `--events FILE|-`: one JSON line per record, written as it happens (`-` is stderr: stdout is the decision's). */
function openEvents(target: string): (record: ProgressRecord) => void {
  let fd: number
  try {
    fd = target === '-' ? 2 : openSync(target, 'a')
  } catch (error) {
    throw new HookrunError(`cannot open --events file ${target}: ${(error as Error).message}`)
  }
  return (record) => writeSync(fd, `${JSON.stringify(record)}\n`)
}

/** The long flags that take a value (`--payload <file>`), from cac's own option table. */
function valueFlags(cli: CAC): Set<string> {
  const options = [...cli.globalCommand.options, ...cli.commands.flatMap((command) => command.options)]
  return new Set(options.filter((option) => option.required === true).flatMap((option) => option.names.map((name) => `--${name}`)))
}

/**
 * Two things the flag parser (mri) gets wrong, fixed before it runs: a lone `-` reads as no
 * value, yet `--payload -` means stdin, so it is passed as `--payload=-`; and an empty value
 * (`--config ''`) would become the number 0, so it is refused here.
 */
function prepareArgv(argv: readonly string[], takesValue: ReadonlySet<string>): string[] {
  const out: string[] = []
  for (const arg of argv) {
    const previous = out.at(-1)
    const afterValueFlag = previous !== undefined && takesValue.has(previous)
    const [flag, value] = arg.split(/=(.*)/s)
    if ((afterValueFlag && arg === '') || (takesValue.has(flag!) && value === '')) {
      throw new HookrunError(`${afterValueFlag ? previous : flag} needs a value; it was given an empty one`)
    }
    if (arg === '-' && afterValueFlag) out[out.length - 1] = `${previous}=-`
    else out.push(arg)
  }
  return out
}
