// `hookrun install` / `uninstall` on each agent asked: hookrun's router entries put in (or taken
// out of) the agent's own file, narrowed to the project's hooks, and the project's stamp updated.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { didYouMean } from '../core/suggest.ts'
import { homeOf } from '../core/places.ts'
import { loadConfig } from '../config/parse.ts'
import type { ResolvedConfig } from '../config/load.ts'
import { findConfigFiles } from '../config/files.ts'
import { compiledSignature, readStamp, writeStamp } from '../config/narrowed.ts'
import { agentTarget, AGENTS } from './agents.ts'
import { type AgentTarget, type Places, PORTABLE_SELF, targetForFile } from './agent-target.ts'
import { entryPrints } from './agent-file.ts'
import { routedEvents } from './overlaps.ts'
import { OWN_FORMATS } from './own-formats.ts'
import { otherShapeFile, shapeFor } from './agent-formats.ts'
import { asInstalled } from './agent-version.ts'
import { JsonTextError } from './json-text.ts'
import { checkServedVersion, keepPrivate, modeOf, servedFor, servedPort, servedTarget } from './serve-entries.ts'
import { secretHeaderFile, serveSecret } from '../serve/state.ts'
import { projectNativeMatchers } from './matchers.ts'
import { followUserNarrowed, narrowsUserInstall, userNativeMatchers, type UserRouting, userRouting } from './user-routing.ts'
import { type AgentFileResult, diskFiles, type InstallOptions, type InstallResult, type Narrowing } from './results.ts'
import { selfCommand, shellWords } from './self.ts'
import { uninstallFrom } from './uninstall.ts'
import { FOLDER_AGENTS, type FolderAgent, folderAgent, installWrappers, removeWrappers } from './hook-folder.ts'
import { installInto } from './install-file.ts'
import { installPlugin, type PluginAgent, pluginAgent, PLUGIN_AGENTS, uninstallPlugin } from './plugin-agents.ts'

export function installOrRemove(options: InstallOptions, remove: boolean, loaded?: ResolvedConfig): InstallResult {
  const known = [...AGENTS, ...FOLDER_AGENTS, ...PLUGIN_AGENTS].map((agent) => agent.name)
  for (const name of options.agents) {
    if (agentTarget(name) === undefined && folderAgent(name) === undefined && pluginAgent(name) === undefined)
      throw new HookrunError(`--agent ${name} is not known${didYouMean(name, known)}; use one of: ${known.join(', ')}`)
  }
  if (remove && options.events?.length)
    throw new HookrunError(
      "--events is for install; uninstall removes all of hookrun's entries (to keep fewer events, run install --events again)",
    )
  if (options.agents.length === 0) throw new HookrunError(`--agent is required: one of ${known.join(', ')}`)
  // OpenCode and Kilo Code get hookrun's plugin file; the others, entries in their config files
  // (or, for Cline, wrappers in its hook folder).
  const plugins = options.agents.flatMap((name) => pluginAgent(name) ?? [])
  const others = options.agents.filter((name) => pluginAgent(name) === undefined)
  const pluginDone = plugins.map((agent) => pluginInstall(agent, options, remove))
  const entries = others.length === 0 ? undefined : installOrRemoveEntries({ ...options, agents: others }, remove, loaded)
  if (entries !== undefined && pluginDone.length === 0) return entries
  return {
    output: `${[...pluginDone.flatMap((done) => done.lines), ...(entries === undefined ? [] : [entries.output.trimEnd()])].join('\n')}\n`,
    exitCode: pluginDone.some((done) => done.result.status === 'failed') ? ExitCode.Failure : (entries?.exitCode ?? ExitCode.Proceed),
    results: [...pluginDone.map((done) => done.result), ...(entries?.results ?? [])],
  }
}

function pluginInstall(agent: PluginAgent, options: InstallOptions, remove: boolean) {
  const places = { home: homeOf(options.env), project: resolve(options.cwd), env: options.env }
  if (options.scope === 'project' && agent.userOnly !== undefined)
    throw new HookrunError(`${agent.label} has no project plugin hookrun can install: ${agent.userOnly}; install it without --project`)
  if (remove) return uninstallPlugin(agent, options.scope, places)
  if (options.events?.length)
    throw new HookrunError(`--events: ${agent.label} gets hookrun's plugin, which asks hookrun on every hook; install it without --events`)
  return installPlugin(agent, options.scope, places, options.self, options.files ?? diskFiles(options.env))
}

/** What the steps of one installOrRemoveEntries share: what it was asked, and what it did so far. */
interface EntriesRun {
  readonly options: InstallOptions
  readonly remove: boolean
  readonly places: Places
  /** The command agents run for hookrun (a project file that is shared gets PORTABLE_SELF instead). */
  readonly self: string
  readonly lines: string[]
  readonly results: AgentFileResult[]
  /** The targets whose files were written (or cleaned). */
  readonly done: AgentTarget[]
  exitCode: number
}

/** Entries in agents' config files, and wrappers in hook folders (Cline: src/install/hook-folder.ts). */
function installOrRemoveEntries(options: InstallOptions, remove: boolean, loaded: ResolvedConfig | undefined): InstallResult {
  const folders = options.agents.flatMap((name) => folderAgent(name) ?? [])
  const places = { home: homeOf(options.env), project: resolve(options.cwd), env: options.env }
  // Kiro and Vibe: the shape chosen (src/install/agent-formats.ts), else the one installed, else the current one.
  const targets = options.agents.flatMap((name) =>
    folderAgent(name) === undefined ? (shapeFor(name, remove ? undefined : options.formats?.[name], options.scope, places) ?? []) : [],
  )
  const self = options.self ?? shellWords(selfCommand())
  // Narrowed (a project install without --all-events): it knows the project's hooks (read once for every agent).
  const config =
    options.scope === 'project' && options.narrow && !remove ? (loaded ?? loadConfig({ cwd: places.project, env: options.env })) : undefined
  // A narrowed user install knows every hook that can run anywhere: the user's and every trusted project's.
  const routing = options.scope === 'user' && options.narrow && !remove ? (options.routing ?? userRouting(options.env)) : undefined
  const narrowingOf = (target: AgentTarget): Narrowing | undefined =>
    config !== undefined
      ? {
          kind: 'project',
          native: projectNativeMatchers(target, config),
          ...(options.written?.[target.name] !== undefined && { written: new Set(options.written[target.name]) }),
        }
      : routing !== undefined && narrowsUserInstall(target)
        ? { kind: 'user', native: userNativeMatchers(target, routing) }
        : undefined
  const run: EntriesRun = { options, remove, places, self, lines: [], results: [], done: [], exitCode: ExitCode.Proceed }
  if (options.serve && targets.some((target) => target.serves !== true))
    throw new HookrunError(
      `--serve is for --agent ${AGENTS.filter((target) => target.serves === true)
        .map((target) => target.name)
        .join(', ')} only: the other agents have no http hook handlers, so they keep the router command`,
    )
  for (const chosen of targets) {
    const given = remove ? chosen : withoutNewerEvents(chosen, options.env, run.lines)
    const file = given.file(options.scope, places)
    if (options.scope === 'project' && given.userOnly)
      throw new HookrunError(
        `${given.label} reads hooks only from ${file}, for every project: run hookrun ${remove ? 'uninstall' : 'install'} --agent ${given.name} without --project`,
      )
    // Kiro's other shape (its agent config, or its v3 file) goes: both would run every hook twice.
    const other = options.dryRun ? undefined : otherShapeFile(given, options.scope, places)
    if (other !== undefined)
      record(
        run,
        other.target.format === 'hook-list'
          ? OWN_FORMATS['hook-list'].uninstall(other.target, other.file, options.env, options.files ?? diskFiles(options.env))
          : uninstallFrom(other.target, other.file, places),
      )
    fileEntries(run, given, file, narrowingOf)
  }
  for (const agent of folders) {
    const chosen = options.events?.length ? chosenEvents(agent, options.events) : undefined
    const command = options.scope === 'project' ? PORTABLE_SELF : self
    record(
      run,
      remove ? removeWrappers(agent, options.scope, places) : installWrappers(agent, options.scope, places, command, chosen, config),
    )
  }
  recordFollowed(run, folders, config, routing)
  return { output: `${run.lines.join('\n')}\n`, exitCode: run.exitCode, results: run.results }
}

/** The target as the installed agent reads it (src/install/agent-version.ts), saying what it leaves out. */
function withoutNewerEvents(target: AgentTarget, env: InstallOptions['env'], lines: string[]): AgentTarget {
  const installed = asInstalled(target, env)
  if (installed.leftOut !== undefined)
    lines.push(`${target.name}: leaving out ${installed.leftOut.events.join(', ')}: ${installed.leftOut.why}`)
  return installed.target
}

function record(run: EntriesRun, done: { lines: string[]; result: AgentFileResult }): void {
  run.lines.push(...done.lines)
  run.results.push(done.result)
}

/**
 * Router entries in an agent's file: a JSON file (with --serve, Claude Code's http handlers), or one of own-formats.ts (TOML, YAML,
 * hook and argv lists); a file the agent could not read is left untouched.
 */
function fileEntries(run: EntriesRun, given: AgentTarget, file: string, narrowingOf: (target: AgentTarget) => Narrowing | undefined): void {
  const { options, remove, places } = run
  const files = options.files ?? diskFiles(options.env)
  try {
    const command = options.scope === 'project' && !given.localProjectFile ? PORTABLE_SELF : run.self
    if (given.format !== undefined) {
      const chosen = options.events?.length ? chosenEvents(given, options.events) : undefined
      const format = OWN_FORMATS[given.format]
      record(
        run,
        remove
          ? format.uninstall(given, file, options.env, files)
          : format.install(given, file, command, chosen, narrowingOf(given), files),
      )
      run.done.push(given)
      return
    }
    // --serve: http handlers to hookrun serve (a --sync keeps the port the file has).
    const served = remove ? undefined : serveMode(given, file, options, run.lines)
    const target = served ?? given
    const chosen = options.events?.length ? new Set([...chosenEvents(target, options.events), ...(target.alwaysRouted ?? [])]) : undefined
    const modeBefore = modeOf(file)
    record(
      run,
      remove
        ? uninstallFrom(target, file, places)
        : installInto(target, file, command, options.scope, places, chosen, narrowingOf(target), files),
    )
    if (served !== undefined && !options.dryRun) {
      const narrowed = keepPrivate(file, modeBefore)
      if (narrowed !== undefined) run.lines.push(narrowed)
    }
    run.done.push(target)
    if (remove && options.scope === 'project') {
      for (const earlier of target.earlierProjectFiles?.(places) ?? []) {
        if (routedEvents(earlier, target.name).length > 0) record(run, uninstallFrom(target, earlier, places))
      }
    }
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error
    run.lines.push(`${given.name}: ${file}: ${error.message}; left untouched`)
    run.results.push({
      agent: given.name,
      file,
      status: 'failed',
      eventsAdded: [],
      eventsRemoved: [],
      notes: [],
      warnings: [],
      error: `${error.message}; left untouched`,
    })
    run.exitCode = ExitCode.Failure
  }
}

/** Which of the files just written fires keep up to date: the project's stamp, or the user's. */
function recordFollowed(
  run: EntriesRun,
  folders: readonly FolderAgent[],
  config: ResolvedConfig | undefined,
  routing: UserRouting | undefined,
): void {
  const { options, remove, places, done } = run
  if (options.scope === 'project' && !options.dryRun) {
    // Fires keep a narrowed config up to date, except one narrowed to --events by hand, or one the
    // agent would stop running once changed (src/config/narrowed.ts).
    const followed = !remove && ((config !== undefined && !options.events?.length) || options.narrowAfterTrust === true)
    // Hook-folder agents' wrappers are narrowed and followed the same way.
    followNarrowed(
      places,
      config,
      followed ? [...done.filter((target) => !target.reviewsChangedHooks), ...folders] : [],
      followed ? done.filter((target) => target.reviewsChangedHooks) : [...done, ...folders],
      followed ? writtenPrints(run) : {},
      followed ? done.filter((target) => target.reviewsChangedHooks) : [],
    )
  }
  if (options.scope === 'user' && !options.dryRun) {
    // Fires keep a narrowed user config up to date (the user stamp), except one narrowed to --events by hand.
    const followed = routing !== undefined && !options.events?.length ? done.filter(narrowsUserInstall) : []
    followUserNarrowed(
      options.env,
      routing,
      followed,
      done.filter((target) => !followed.includes(target)),
    )
  }
}

/** Record in the project's stamp (config/narrowed.ts) which configs fires keep up to date, and the config just compiled. */
export function followNarrowed(
  places: Places,
  config: ResolvedConfig | undefined,
  follow: readonly { readonly name: string }[],
  unfollow: readonly { readonly name: string }[],
  prints: Readonly<Record<string, readonly string[]>> = {},
  reviewed: readonly { readonly name: string }[] = [],
): void {
  let root = config?.projectRoot
  try {
    root ??= findConfigFiles({ cwd: places.project, env: places.env }).projectRoot
  } catch {
    return // HOOKRUN_CONFIG names a file that is not there: no fire reads this project's stamp either
  }
  const stamp = readStamp(root, places.env)
  // The stamp names one install folder per project; a plain install elsewhere leaves it alone.
  if (stamp !== undefined && stamp.dir !== places.project && follow.length === 0) return
  if (stamp === undefined && follow.length === 0 && reviewed.length === 0) return
  const same = stamp?.dir === places.project ? stamp : undefined
  // Compiled now: told when the config has changed since (NarrowedStamp.reviewed).
  const reviewedAgents = new Set([...(same?.reviewed?.agents ?? []), ...reviewed.map((target) => target.name)])
  for (const target of [...follow, ...unfollow]) if (!reviewed.some((each) => each.name === target.name)) reviewedAgents.delete(target.name)
  const signature = config === undefined ? (same?.signature ?? '') : compiledSignature(config)
  const agents = new Set(same?.agents)
  for (const target of unfollow) agents.delete(target.name)
  for (const target of follow) agents.add(target.name)
  const written = Object.fromEntries(Object.entries({ ...same?.written, ...prints }).filter(([name]) => agents.has(name)))
  // When a fire last started a sync stays: a config that never settles must not start one per fire.
  writeStamp(
    {
      ...same,
      root,
      dir: places.project,
      agents: [...agents],
      ...(Object.keys(written).length > 0 && { written }),
      signature,
      reviewed:
        reviewedAgents.size === 0
          ? undefined
          : {
              agents: [...reviewedAgents],
              signature: reviewed.length > 0 || same?.reviewed === undefined ? signature : same.reviewed.signature,
            },
    },
    places.env,
  )
}
/** The prints of the entries left in each JSON file written (entryPrints), but not of one left as edited by hand. */
function writtenPrints(run: EntriesRun): Record<string, string[]> {
  const prints: Record<string, string[]> = {}
  for (const target of run.done) {
    const file = target.file('project', run.places)
    const edited = new Set(run.results.find((result) => result.agent === target.name)?.handEdited)
    try {
      const text = readFileSync(file, 'utf8')
      prints[target.name] = [...entryPrints(targetForFile(target, file), text)].flatMap(([event, each]) => (edited.has(event) ? [] : each))
    } catch {
      // No file (every entry taken out), or not one hookrun can read: nothing to remember.
    }
  }
  return prints
}

/** The target with `--serve`'s handlers: asked for (the machine checked), or kept when the file has them (a `--sync`). */
function serveMode(target: AgentTarget, file: string, options: InstallOptions, lines: string[]): AgentTarget | undefined {
  const agent = servedFor(target)
  if (agent === undefined || options.serve === false) return undefined
  const port = options.serve?.port ?? servedPort(file)
  if (port === undefined) return undefined
  if (options.serve !== undefined) {
    // The handlers carry this user's secret (or the path of its file): not for a file the project shares.
    if (options.scope === 'project' && !target.localProjectFile)
      throw new HookrunError(
        `--serve --project would write this user's hookrun serve secret into ${file}, which the project shares: run hookrun install --agent ${target.name} --serve without --project`,
      )
    const note = checkServedVersion(options.env, agent)
    if (note !== undefined) lines.push(note)
  }
  return servedTarget(target, agent, port, serveSecret(options.env), secretHeaderFile(options.env))
}

/** `--events`: the agent's own names, any case; an event it does not have is an error with the nearest one. */
function chosenEvents(target: Pick<AgentTarget, 'events' | 'skipped' | 'label'>, names: readonly string[]): Set<string> {
  return new Set(
    names.map((name) => {
      const found = target.events.find((event) => event.toLowerCase() === name.toLowerCase())
      if (found !== undefined) return found
      const why = target.skipped[name] !== undefined ? ` (left out on purpose: ${target.skipped[name]})` : didYouMean(name, target.events)
      throw new HookrunError(`--events ${name}: ${target.label} has no such event${why}; it has ${target.events.join(', ')}`)
    }),
  )
}
