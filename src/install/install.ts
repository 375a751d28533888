// `hookrun install` / `uninstall` on each agent asked: hookrun's router entries put in (or taken
// out of) the agent's own file, narrowed to the project's hooks, and the project's stamp updated.
import { resolve } from 'node:path'
import { count } from '../core/words.ts'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { didYouMean } from '../core/suggest.ts'
import { homeOf } from '../core/places.ts'
import { loadConfig } from '../config/parse.ts'
import { findConfigFiles, type ResolvedConfig } from '../config/load.ts'
import { compiledSignature, readStamp, writeStamp } from '../config/narrowed.ts'
import { type AgentTarget, agentTarget, AGENTS, hooksPathOf, type Places, PORTABLE_SELF, type Scope, targetForFile } from './agents.ts'
import { checkShape, freshText, parse, routerEntries, withHandlerKeys, withRouterTimeout } from './agent-file.ts'
import { describeOverlap, findOverlaps, routedEvents } from './overlaps.ts'
import { installToml, uninstallToml } from './toml-hooks.ts'
import { appendAt, child, JsonTextError, nodeAt, nodeValue, removeAt, replaceAt, styleOf } from './json-text.ts'
import { checkClaudeForServe, keepPrivate, modeOf, servedPort, servedTarget } from './serve-entries.ts'
import { serveSecret } from '../serve/state.ts'
import { type NativeEntry, projectNativeMatchers } from './matchers.ts'
import { followUserNarrowed, narrowsUserInstall, userNativeMatchers, userRouting } from './user-routing.ts'
import { type AgentFileResult, type AgentFiles, diskFiles, type InstallOptions, type InstallResult, sortNote } from './results.ts'
import { selfCommand, shellWords } from './self.ts'
import { uninstallFrom } from './uninstall.ts'
import { FOLDER_AGENTS, folderAgent, installWrappers, removeWrappers } from './hook-folder.ts'
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
  if (others.length === 0) {
    return {
      output: `${pluginDone.flatMap((done) => done.lines).join('\n')}\n`,
      exitCode: pluginDone.some((done) => done.result.status === 'failed') ? ExitCode.Failure : ExitCode.Proceed,
      results: pluginDone.map((done) => done.result),
    }
  }
  const entries = installOrRemoveEntries({ ...options, agents: others }, remove, loaded)
  if (pluginDone.length === 0) return entries
  return {
    output: `${[...pluginDone.flatMap((done) => done.lines), entries.output.trimEnd()].join('\n')}\n`,
    exitCode: pluginDone.some((done) => done.result.status === 'failed') ? ExitCode.Failure : entries.exitCode,
    results: [...pluginDone.map((done) => done.result), ...entries.results],
  }
}

function pluginInstall(agent: PluginAgent, options: InstallOptions, remove: boolean) {
  const places = { home: homeOf(options.env), project: resolve(options.cwd), env: options.env }
  if (remove) return uninstallPlugin(agent, options.scope, places)
  if (options.events?.length)
    throw new HookrunError(`--events: ${agent.label} gets hookrun's plugin, which asks hookrun on every hook; install it without --events`)
  return installPlugin(agent, options.scope, places, options.self, options.files ?? diskFiles(options.env))
}

/** Entries in agents' config files, and wrappers in hook folders (Cline: src/install/hook-folder.ts). */
function installOrRemoveEntries(options: InstallOptions, remove: boolean, loaded: ResolvedConfig | undefined): InstallResult {
  const folders = options.agents.flatMap((name) => folderAgent(name) ?? [])
  const targets = options.agents.flatMap((name) => (folderAgent(name) === undefined ? (agentTarget(name) ?? []) : []))
  const places = { home: homeOf(options.env), project: resolve(options.cwd), env: options.env }
  const self = options.self ?? shellWords(selfCommand())
  // Narrowed (a project install without --all-events): it knows the project's hooks (read once for every agent).
  const config =
    options.scope === 'project' && options.narrow && !remove ? (loaded ?? loadConfig({ cwd: places.project, env: options.env })) : undefined
  // A narrowed user install knows every hook that can run anywhere: the user's and every trusted project's.
  const routing = options.scope === 'user' && options.narrow && !remove ? (options.routing ?? userRouting(options.env)) : undefined
  const narrowingOf = (target: AgentTarget): Narrowing | undefined =>
    config !== undefined
      ? { kind: 'project', native: projectNativeMatchers(target, config) }
      : routing !== undefined && narrowsUserInstall(target)
        ? { kind: 'user', native: userNativeMatchers(target, routing) }
        : undefined
  const lines: string[] = []
  const results: AgentFileResult[] = []
  const record = (done: { lines: string[]; result: AgentFileResult }) => {
    lines.push(...done.lines)
    results.push(done.result)
  }
  const done: AgentTarget[] = []
  let exitCode: number = ExitCode.Proceed
  if (options.serve && targets.some((target) => target.name !== 'claude'))
    throw new HookrunError(
      '--serve is for --agent claude only: the other agents have no http hook handlers, so they keep the router command',
    )
  for (const given of targets) {
    const file = given.file(options.scope, places)
    if (given.format === 'toml') {
      // `[[hooks]]` tables (Kimi Code CLI, Mistral Vibe): edited as lines by src/install/toml-hooks.ts.
      if (options.scope === 'project' && given.userOnly)
        throw new HookrunError(
          `${given.label} reads hooks only from ${file}, for every project: run hookrun install --agent ${given.name} without --project`,
        )
      const files = options.files ?? diskFiles(options.env)
      try {
        const command = options.scope === 'project' ? PORTABLE_SELF : self
        record(remove ? uninstallToml(given, file, options.env, files) : installToml(given, file, command, files))
        done.push(given)
      } catch (error) {
        if (!(error instanceof JsonTextError)) throw error
        lines.push(`${given.name}: ${file}: ${error.message}; left untouched`)
        exitCode = ExitCode.Failure
      }
      continue
    }
    try {
      const command = options.scope === 'project' && !given.localProjectFile ? PORTABLE_SELF : self
      // --serve: http handlers to hookrun serve (a --sync keeps the port the file has).
      const served = remove ? undefined : serveMode(given, file, options, lines)
      const target = served ?? given
      const chosen = options.events?.length ? new Set([...chosenEvents(target, options.events), ...(target.alwaysRouted ?? [])]) : undefined
      const modeBefore = modeOf(file)
      record(
        remove
          ? uninstallFrom(target, file, places)
          : installInto(target, file, command, options.scope, places, chosen, narrowingOf(target), options.files ?? diskFiles(options.env)),
      )
      if (served !== undefined && !options.dryRun) {
        const narrowed = keepPrivate(file, modeBefore)
        if (narrowed !== undefined) lines.push(narrowed)
      }
      done.push(target)
      if (remove && options.scope === 'project') {
        for (const earlier of target.earlierProjectFiles?.(places) ?? []) {
          if (routedEvents(earlier, target.name).length > 0) record(uninstallFrom(target, earlier, places))
        }
      }
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      lines.push(`${given.name}: ${file}: ${error.message}; left untouched`)
      results.push({
        agent: given.name,
        file,
        status: 'failed',
        eventsAdded: [],
        eventsRemoved: [],
        notes: [],
        warnings: [],
        error: `${error.message}; left untouched`,
      })
      exitCode = ExitCode.Failure
    }
  }
  for (const agent of folders) {
    const chosen = options.events?.length ? chosenEvents(agent, options.events) : undefined
    const command = options.scope === 'project' ? PORTABLE_SELF : self
    record(remove ? removeWrappers(agent, options.scope, places) : installWrappers(agent, options.scope, places, command, chosen, config))
  }
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
  return { output: `${lines.join('\n')}\n`, exitCode, results }
}

/** How install narrows an agent's entries: from the project's hooks, or from every hook that can run anywhere (a user install). */
interface Narrowing {
  readonly kind: 'project' | 'user'
  /** The entries; undefined when which events the hooks fire on cannot be told (every event). */
  readonly native: Map<string, NativeEntry> | undefined
}

/**
 * Record in the project's stamp (src/config/narrowed.ts) which agents' configs fires keep up to
 * date, and, with `config`, the config they were just compiled from.
 */
export function followNarrowed(
  places: Places,
  config: ResolvedConfig | undefined,
  follow: readonly { readonly name: string }[],
  unfollow: readonly { readonly name: string }[],
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
  if (stamp === undefined && follow.length === 0) return
  const same = stamp?.dir === places.project ? stamp : undefined
  const agents = new Set(same?.agents)
  for (const target of unfollow) agents.delete(target.name)
  for (const target of follow) agents.add(target.name)
  // When a fire last started a sync stays: a config that never settles must not start one per fire.
  writeStamp(
    {
      ...same,
      root,
      dir: places.project,
      agents: [...agents],
      signature: config === undefined ? (same?.signature ?? '') : compiledSignature(config),
    },
    places.env,
  )
}
/**
 * Claude Code's target with `install --serve`'s handlers: asked for (`serve` given, its Claude Code
 * version checked), or kept when the file has them and the install did not say (a `--sync`).
 */
function serveMode(target: AgentTarget, file: string, options: InstallOptions, lines: string[]): AgentTarget | undefined {
  if (target.name !== 'claude' || options.serve === false) return undefined
  const port = options.serve?.port ?? servedPort(file)
  if (port === undefined) return undefined
  if (options.serve !== undefined) {
    const note = checkClaudeForServe(options.env)
    if (note !== undefined) lines.push(note)
  }
  return servedTarget(target, port, serveSecret(options.env))
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

function installInto(
  agent: AgentTarget,
  file: string,
  self: string,
  scope: Scope,
  places: Places,
  chosen: ReadonlySet<string> | undefined,
  narrowing: Narrowing | undefined,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  // Where this file keeps its event map (Droid's hooks.json: at its top level).
  const target = targetForFile(agent, file)
  const before = files.read(file)
  const existed = before !== undefined
  const fresh = freshText(target)
  let text = before ?? fresh
  checkShape(target, parse(target, text))
  const style = styleOf(text)
  // Events not chosen with --events lose an entry hookrun put there before. An event another
  // agent's file answers too (Cursor runs Claude Code's entries when its third-party hooks setting
  // is on) keeps its own entry: the gate must not hang on that setting, and the router answers "no
  // opinion" from the other file when this one has the entry (src/install/overlaps.ts), so hooks
  // run once.
  const left = (event: string) => chosen !== undefined && !chosen.has(event)
  // Narrowed: a project install knows the project's hooks, so entries go only where they can fire
  // (src/install/matchers.ts).
  const native = narrowing?.native
  for (const event of target.alwaysRouted ?? []) if (native !== undefined && !native.has(event)) native.set(event, {})
  const addedEvents: string[] = []
  const removedEvents: string[] = []
  let updated = 0
  let dropped = 0
  let pruned = 0
  for (const event of target.events) {
    const found = routerEntries(target, parse(target, text), event)
    if (native !== undefined && !native.has(event) && !left(event)) {
      // No hook can fire on it: the agent need not start hookrun at all.
      for (const entry of found.reverse()) text = removeAt(text, entry.remove)
      if (found.length > 0 && nodeAt(parse(target, text), [...hooksPathOf(target), event])?.children?.length === 0)
        text = removeAt(text, [...hooksPathOf(target), event])
      pruned += found.length
      if (found.length > 0) removedEvents.push(event)
      continue
    }
    const matcher = native?.get(event)?.matcher ?? target.allMatcher
    if (left(event)) {
      // The agent already gets this event through another agent's file (an entry here would
      // answer it twice), or --events left it out. One hookrun put here before goes.
      for (const entry of found.reverse()) {
        text = removeAt(text, entry.remove)
        dropped++
      }
      if (found.length > 0) removedEvents.push(event)
      if (found.length > 0 && nodeAt(parse(target, text), [...hooksPathOf(target), event])?.children?.length === 0)
        text = removeAt(text, [...hooksPathOf(target), event])
      continue
    }
    const command = target.command(self, event)
    const group = (handler: Record<string, unknown>) => (matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] })
    if (found.length === 0) {
      const handler = target.handler(command, event)
      text = appendAt(text, style, [...hooksPathOf(target), event], target.shape === 'groups' ? group(handler) : handler)
      addedEvents.push(event)
      continue
    }
    // A group of hookrun's own carries the compiled matcher (a user's group keeps theirs).
    for (const entry of found) {
      if (target.shape !== 'groups' || entry.remove.length !== hooksPathOf(target).length + 2) continue
      const current = child(nodeAt(parse(target, text), entry.remove), 'matcher')?.value
      if (current === matcher) continue
      // Another tool list: only the string changes, so the file keeps its layout.
      text =
        typeof current === 'string' && matcher !== undefined
          ? replaceAt(text, [...entry.remove, 'matcher'], matcher)
          : replaceAt(text, entry.remove, group(target.handler(command, event)))
      updated++
    }
    // Already there: keep it, but point it at this hookrun if it moved.
    for (const handler of found.flatMap((entry) => entry.handlers)) {
      // A command where an http handler is wanted, or the other way (install with or without
      // --serve), or an http handler to another port or with another secret: replaced whole.
      const wanted = target.handler(command, event)
      if (otherHandler(nodeValue(nodeAt(parse(target, text), handler)!), wanted)) {
        text = replaceAt(text, handler, wanted)
        updated++
        continue
      }
      const path = [...handler, target.commandField]
      if (wanted.type !== 'http' && nodeAt(parse(target, text), path)?.value !== command) {
        text = replaceAt(text, path, command)
        updated++
      }
      const raised = withRouterTimeout(target, text, handler)
      if (raised !== text) {
        text = raised
        updated++
      }
      const completed = withHandlerKeys(target, text, handler, target.handler(command, event))
      if (completed !== text) {
        text = completed
        updated++
      }
    }
  }
  const events = target.events.filter((event) => !left(event) && (native === undefined || native.has(event)))
  const unwanted = native === undefined ? 0 : target.events.filter((event) => !left(event) && !native.has(event)).length
  const added = addedEvents.length
  const unchanged = added === 0 && updated === 0 && dropped === 0 && pruned === 0
  if (!unchanged) files.write(file, text, !existed)
  // Goose's plugin.json beside hooks/: written when missing (uninstall removes it if install made it).
  const manifest = target.manifest?.file(file)
  if (manifest !== undefined && files.read(manifest) === undefined)
    files.write(manifest, `${JSON.stringify(target.manifest!.content, null, 2)}\n`, true)
  // Read after writing: this file may be the one another agent runs too.
  const overlapLines = findOverlaps(places)
    .filter((overlap) => (overlap.owner === target.name || overlap.reader === target.name) && overlap.twice.length > 0)
    .map((overlap) => `  overlap: ${describeOverlap(overlap)}`)
  const startFolder = scope === 'project' && target.projectFileOnlyWhereStarted ? [startFolderNote(target, places)] : []
  const result = (lines: string[]) => {
    const notes: string[] = []
    const warnings: string[] = []
    for (const line of lines.slice(1).filter((each) => /^ {2}(note|warning|overlap|not )/.test(each)))
      sortNote(line.startsWith('  not ') ? `  note: ${line.slice(2)}` : line, notes, warnings)
    const status = unchanged ? 'unchanged' : existed ? 'updated' : 'created'
    return {
      lines,
      result: {
        agent: target.name,
        file,
        status,
        eventsAdded: addedEvents,
        eventsRemoved: removedEvents,
        events,
        entriesUpdated: updated,
        notes,
        warnings,
      } as const,
    }
  }
  if (unchanged) return result([`${target.name}: already installed in ${file} (${events.length} events)`, ...overlapLines, ...startFolder])
  const lines = [
    `${target.name}: ${existed ? 'updated' : 'created'} ${file}: ${count(added, 'event')} added${updated > 0 ? `, ${count(updated, 'entry', 'entries')} pointed at this hookrun` : ''}${dropped > 0 ? `, removed ${count(dropped, 'entry', 'entries')} for events not chosen` : ''}`,
    `  command: ${target.command(self, target.events[0]!)}`,
    ...(target.alwaysRouted === undefined
      ? []
      : [
          `  served:  http handlers to ${String(target.handler(self, 'PreToolUse').url)} (gates block while it does not answer); ${target.alwaysRouted.join(' and ')} run \`${target.command(self, target.alwaysRouted[0]!)}\`, which starts it`,
        ]),
    `  events:  ${events.map((event) => (native?.get(event)?.matcher === undefined ? event : `${event} (${native.get(event)!.matcher})`)).join(', ')}`,
    ...(native === undefined
      ? []
      : [
          `  narrowed: only the events and tools ${narrowing!.kind === 'user' ? "your hooks and your trusted projects' hooks can fire on, and the session start" : "this project's hooks can fire on"} (${unwanted} left out${pruned > 0 ? `, ${count(pruned, 'entry', 'entries')} removed` : ''}; --all-events keeps every one)`,
          `  after editing hooks.json: ${afterEditing(target, chosen, narrowing!.kind)}`,
        ]),
    ...(native === undefined && narrowing?.kind === 'project'
      ? [
          "  every event: which events this project's hooks fire on cannot be told from its config (no hooks.json yet, or hook folders or plugins, known only by running them); hookrun init or trust narrows it once it can",
        ]
      : []),
    ...(native === undefined && narrowing?.kind === 'user'
      ? [
          '  every event: which events your hooks fire on cannot be told (trustedFolders, hook folders or plugins, known only where they run)',
        ]
      : []),
    ...(scope === 'user' && chosen === undefined && narrowing === undefined
      ? [
          `  every event: ${narrowsUserInstall(target) ? `hookrun install --agent ${target.name} without --all-events routes only what your hooks can fire on` : `${target.label} stops running a changed entry until you review it, so hookrun keeps one on every event`}`,
        ]
      : []),
  ]
  for (const [event, why] of Object.entries(target.skipped)) lines.push(`  not ${event}: ${why}`)
  lines.push(...overlapLines)
  if (scope === 'project' && target.localProjectFile)
    lines.push(`  note: ${file} is this machine's own settings (keep it out of git); teammates run the same install`)
  else if (scope === 'project')
    lines.push('  note: the command runs hookrun from PATH, so the file can be committed; everyone who uses it needs hookrun on PATH')
  if (target.note !== undefined) lines.push(`  note: ${target.note}`)
  lines.push(...startFolder)
  return result(lines)
}

/** Whether an installed handler is of another kind than the one wanted, or an http handler that differs in what it sends. */
function otherHandler(installed: unknown, wanted: Record<string, unknown>): boolean {
  const have = installed as Record<string, unknown>
  if ((have.type ?? 'command') !== (wanted.type ?? 'command')) return true
  if (wanted.type !== 'http') return false
  return ['url', 'headers', 'onFailure'].some((key) => JSON.stringify(have[key]) !== JSON.stringify(wanted[key]))
}

/**
 * Gemini CLI and Qwen Code read the project's settings only in the folder they are started in:
 * started in a subfolder, this file runs no hook at all. The user install holds everywhere.
 */
function startFolderNote(target: AgentTarget, places: Places): string {
  const userFile = target.file('user', places)
  const where = `${target.label} reads ${target.file('project', places)} only when it is started in ${places.project}; started in a subfolder it runs no hook at all`
  if (routedEvents(userFile, target.name).length > 0) return `  note: ${where}, and your user install (${userFile}) routes those folders`
  return `  warning: ${where}. Install for your user instead: hookrun install --agent ${target.name} (it routes every folder, and does nothing where no hooks are configured)`
}

/** What keeps a narrowed config up to date after hooks.json changes (src/config/narrowed.ts). */
function afterEditing(target: AgentTarget, chosen: ReadonlySet<string> | undefined, kind: Narrowing['kind']): string {
  if (chosen !== undefined) return 'run this install again (fires leave a config narrowed with --events as it is)'
  if (kind === 'user')
    return "hookrun trust (which a project's edit needs), init, plugin add or validate bring this file up to date, or the next fire does; the agent sees the change in its next session"

  if (target.reviewsChangedHooks)
    return `run hookrun install --project --sync, then review the changed entries in ${target.label} (hookrun trust and fires leave this file: ${target.label} stops running a changed entry until you review it)`
  return 'hookrun trust (which the edit needs) brings this file up to date, or in a trusted folder the next fire does; an agent that reads its hooks when a session starts (Claude Code does) sees the change in its next session'
}
