// `hookrun install` / `uninstall`: router entries in agents' config files.
import { count } from '../core/words.ts'
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { Node } from 'jsonc-parser'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { didYouMean } from '../core/suggest.ts'
import { type AgentTarget, agentTarget, AGENTS, isRouterCommand, type Places, PORTABLE_SELF, ROUTER_TIMEOUT_SECONDS, routerSelf, type Scope } from '../install/agents.ts'
import { describeOverlap, findOverlaps, FOREIGN_READS, routedEvents } from '../install/overlaps.ts'
import { appendAt, child, JsonTextError, keysOf, nodeAt, parseJson, type Path, removeAt, replaceAt, styleOf, valueOf } from '../install/json-text.ts'
import { isCompiledMatcher, projectNativeMatchers } from '../install/matchers.ts'
import { selfCommand, shellWords } from '../install/self.ts'
import { loadConfig } from '../config/parse.ts'
import { findConfigFiles, type ResolvedConfig } from '../config/load.ts'
import { SETTLE_MS } from '../config/cache.ts'
import { CHAIN_BUDGET_SECONDS } from '../config/defaults.ts'
import { compiledSignature, readStamp, writeStamp } from '../config/narrowed.ts'
import { writeJsonAtomic } from '../core/cache-file.ts'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { homeOf, stateDir } from '../core/places.ts'

type Env = Readonly<Record<string, string | undefined>>

export interface InstallOptions {
  readonly agents: readonly string[]
  readonly scope: Scope
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** The command agents run for hookrun; default: this hookrun (src/install/self.ts). */
  readonly self?: string
  /** Only these of the agent's events (its own spelling, any case); default: every one it has. */
  readonly events?: readonly string[]
  /**
   * Project installs: entries only on the events and tools the project's hooks can fire on
   * (src/install/matchers.ts); the CLI sets it unless `--all-events`. After the hooks change, a
   * narrowed config is brought up to date by `hookrun trust`, `init` and `plugin add`/`remove`
   * (syncNarrowedConfigs), the next fire of an event it still asks (src/config/narrowed.ts), or
   * `--sync`; until then a new hook's event is not asked (doctor and explain say so).
   */
  readonly narrow?: boolean
  /** `--sync`: every agent whose project config holds hookrun's entries, narrowed again from hooks.json. */
  readonly sync?: boolean
  /**
   * `--sync --quiet`, as a fire starts it in the background when hooks.json changed
   * (src/config/narrowed.ts): print nothing, sync only the agents a narrowed install follows, and
   * change nothing while the project's hooks are not trusted.
   */
  readonly quiet?: boolean
  /** Where agents' files are read and written: the disk, or the edits `hookrun import` plans first. */
  readonly files?: AgentFiles
  /**
   * `hookrun import`: every event now (or the events routed already and the moved hooks'), as the
   * hooks it moves are not in hooks.json on disk yet; followed, so the `hookrun trust` the moved
   * hooks need narrows it, as it keeps narrowed configs.
   */
  readonly narrowAfterTrust?: boolean
  /** `hookrun import --dry-run`: plan only, so the project's narrowed-install stamp is left as it is too. */
  readonly dryRun?: boolean
}

/** What install or uninstall did to one agent's file (`--json`). */
export interface AgentFileResult {
  readonly agent: string
  readonly file: string
  /**
   * install: `created`, `updated` or `unchanged`; uninstall: `removed` (entries), `deleted` (the
   * file too, which held only them), `unchanged` (no entries) or `absent` (no file); either:
   * `failed` (the file is not what the agent expects; left untouched).
   */
  readonly status: 'created' | 'updated' | 'unchanged' | 'removed' | 'deleted' | 'absent' | 'failed'
  /** Events that got an entry. */
  readonly eventsAdded: readonly string[]
  /** Events whose entries went. */
  readonly eventsRemoved: readonly string[]
  /** install: every event the file routes to hookrun now. */
  readonly events?: readonly string[]
  /** install: entries pointed at this hookrun (moved) or given its timeout. */
  readonly entriesUpdated?: number
  /** uninstall: entries removed (an event may have had several). */
  readonly entriesRemoved?: number
  readonly notes: readonly string[]
  readonly warnings: readonly string[]
  readonly error?: string
}

export interface InstallResult {
  readonly output: string
  readonly exitCode: number
  readonly results: readonly AgentFileResult[]
}

/** A `  note: …` or `  warning: …` line (the human output) into the result's notes or warnings. */
function sortNote(line: string, notes: string[], warnings: string[]): void {
  const [, kind, text] = /^ {2}(note|warning|overlap): ([\s\S]*)$/.exec(line) ?? [undefined, 'note', line.trim()]
  if (kind === 'note') notes.push(text!)
  else warnings.push(kind === 'overlap' ? `overlap: ${text}` : text!)
}

/** Where install reads and writes an agent's file. */
export interface AgentFiles {
  read(file: string): string | undefined
  /** `created`: the file did not exist, so uninstall may remove it once it holds only hookrun's entries. */
  write(file: string, text: string, created: boolean): void
}

/** The disk: files written beside and renamed over, and the ones install created remembered. */
export function diskFiles(env: Env): AgentFiles {
  return {
    read: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
    write: (file, text, created) => {
      const folders = created ? missingFolders(dirname(file)) : []
      write(file, text)
      if (created) rememberCreated(file, env, true, folders)
    },
  }
}

/**
 * `hookrun install --agent NAME [--user|--project]` and `hookrun uninstall`: hookrun's router
 * entries in the agent's own config file. The file is edited in place, as text: everything else
 * in it (the user's own hooks, other settings, formatting, comments) keeps its bytes. Installing
 * twice changes nothing; a moved hookrun gets its entries' command updated. A file that is not
 * JSON, or whose `hooks` is not what the agent expects, is reported and left untouched.
 */
export function installAgents(options: InstallOptions, remove: boolean): InstallResult {
  if (options.sync && !remove) {
    if (options.quiet) return syncInBackground(options)
    const agents = options.agents.length > 0 ? options.agents : projectInstalls(resolve(options.cwd), options.env).map((target) => target.name)
    if (agents.length === 0) return { output: 'no agent config in this project holds hookrun entries; run hookrun install --project --agent NAME first\n', exitCode: ExitCode.Proceed, results: [] }
    return installAgents({ ...options, agents, scope: 'project', sync: false, narrow: true }, false)
  }
  return installOrRemove(options, remove)
}

function installOrRemove(options: InstallOptions, remove: boolean, loaded?: ResolvedConfig): InstallResult {
  const targets = options.agents.map((name) => {
    const target = agentTarget(name)
    if (target === undefined) throw new HookrunError(`--agent ${name} is not known${didYouMean(name, AGENTS.map((agent) => agent.name))}; use one of: ${AGENTS.map((agent) => agent.name).join(', ')}`)
    return target
  })
  if (remove && options.events?.length) throw new HookrunError('--events is for install; uninstall removes all of hookrun\'s entries (to keep fewer events, run install --events again)')
  if (targets.length === 0) throw new HookrunError(`--agent is required: one of ${AGENTS.map((agent) => agent.name).join(', ')}`)
  const places = { home: homeOf(options.env), project: resolve(options.cwd), env: options.env }
  const self = options.self ?? shellWords(selfCommand())
  // Narrowed (a project install without --all-events): it knows the project's hooks (read once for every agent).
  const config = options.scope === 'project' && options.narrow && !remove ? (loaded ?? loadConfig({ cwd: places.project, env: options.env })) : undefined
  const lines: string[] = []
  const results: AgentFileResult[] = []
  const record = (done: { lines: string[]; result: AgentFileResult }) => {
    lines.push(...done.lines)
    results.push(done.result)
  }
  const done: AgentTarget[] = []
  let exitCode: number = ExitCode.Proceed
  for (const target of targets) {
    const file = target.file(options.scope, places)
    try {
      const command = options.scope === 'project' && !target.localProjectFile ? PORTABLE_SELF : self
      const chosen = options.events?.length ? chosenEvents(target, options.events) : undefined
      record(remove ? uninstallFrom(target, file, places) : installInto(target, file, command, options.scope, places, chosen, config, options.files ?? diskFiles(options.env)))
      done.push(target)
      if (remove && options.scope === 'project') {
        for (const earlier of target.earlierProjectFiles?.(places) ?? []) {
          if (routedEvents(earlier, target.name).length > 0) record(uninstallFrom(target, earlier, places))
        }
      }
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      lines.push(`${target.name}: ${file}: ${error.message}; left untouched`)
      results.push({ agent: target.name, file, status: 'failed', eventsAdded: [], eventsRemoved: [], notes: [], warnings: [], error: `${error.message}; left untouched` })
      exitCode = ExitCode.Failure
    }
  }
  if (options.scope === 'project' && !options.dryRun) {
    // Fires keep a narrowed config up to date, except one narrowed to --events by hand, or one the
    // agent would stop running once changed (src/config/narrowed.ts).
    const followed = !remove && ((config !== undefined && !options.events?.length) || options.narrowAfterTrust === true)
    followNarrowed(places, config, followed ? done.filter((target) => !target.reviewsChangedHooks) : [], followed ? done.filter((target) => target.reviewsChangedHooks) : done)
  }
  return { output: `${lines.join('\n')}\n`, exitCode, results }
}

/**
 * Record in the project's stamp (src/config/narrowed.ts) which agents' configs fires keep up to
 * date, and, with `config`, the config they were just compiled from.
 */
function followNarrowed(places: Places, config: ResolvedConfig | undefined, follow: readonly AgentTarget[], unfollow: readonly AgentTarget[]): void {
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
  writeStamp({ ...same, root, dir: places.project, agents: [...agents], signature: config === undefined ? (same?.signature ?? '') : compiledSignature(config) }, places.env)
}

/**
 * `install --sync --quiet`: what a fire starts, detached, when hooks.json changed since a narrowed
 * install. Nobody watches it, so it changes nothing in a project whose hooks are not trusted (an
 * edit a repository brought must not rewrite agent configs unseen; `hookrun trust` lets the next
 * fire sync), leaves the agent configs the user took hookrun out of, and tells the user what it
 * changed through the next fire (the stamp's notice).
 */
function syncInBackground(options: InstallOptions): InstallResult {
  const project = resolve(options.cwd)
  const env = options.env
  // A file edited a moment ago gets a moment to settle, so the stamp can be exact (we have time).
  const { files } = findConfigFiles({ cwd: project, env })
  const newest = Math.max(0, ...files.map((ref) => (existsSync(ref.file) ? statSync(ref.file).mtimeMs : 0)))
  const wait = newest + SETTLE_MS + 50 - Date.now()
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(wait, SETTLE_MS + 50))
  const config = loadConfig({ cwd: project, env })
  if (config.trust !== undefined && !config.trust.trusted) return { output: '', exitCode: ExitCode.Proceed, results: [] }
  const places = { home: homeOf(env), project, env }
  const { changed, exitCode } = syncFollowed(places, config, options.agents)
  const stamp = readStamp(config.projectRoot, env)
  if (changed.length > 0 && stamp !== undefined) {
    const where = changed.map((target) => relative(project, target.file('project', places))).join(', ')
    const notice = `hooks.json changed, so hookrun brought its entries in ${where} up to date; an agent that reads its hooks when a session starts (Claude Code does) asks hookrun about the new ones from its next session`
    writeStamp({ ...stamp, notice }, env)
  }
  return { output: '', exitCode, results: [] }
}

/**
 * The narrowed configs fires follow (`names`, from the project's stamp) compiled again from
 * `config`: those still holding hookrun's entries, but never one of an agent that stops running a
 * changed entry until it is reviewed (Codex): that one is left, and no longer followed.
 */
function syncFollowed(places: Places, config: ResolvedConfig, names: readonly string[]): { changed: AgentTarget[]; failures: string[]; exitCode: number } {
  const wired = new Set(projectInstalls(places.project, places.env).map((target) => target.name))
  const asked = names.flatMap((name) => agentTarget(name) ?? [])
  const agents = asked.filter((target) => wired.has(target.name) && !target.reviewsChangedHooks)
  followNarrowed(places, undefined, [], asked.filter((target) => !agents.includes(target)))
  if (agents.length === 0) return { changed: [], failures: [], exitCode: ExitCode.Proceed }
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined)
  const changed: AgentTarget[] = []
  const failures: string[] = []
  let exitCode: number = ExitCode.Proceed
  for (const target of agents) {
    const file = target.file('project', places)
    const before = read(file)
    // The entries keep the hookrun they run: a sync by `npx hookrun trust` must not point them at npx's cache.
    const options = { agents: [target.name], scope: 'project' as const, cwd: places.project, env: places.env, narrow: true, self: installedSelf(target, before) }
    const result = installOrRemove(options, false, config)
    if (read(file) !== before) changed.push(target)
    failures.push(...result.output.split('\n').filter((line) => line.endsWith('; left untouched')))
    if (result.exitCode !== ExitCode.Proceed) exitCode = result.exitCode
  }
  return { changed, failures, exitCode }
}

/** The hookrun the file's first router entry runs; undefined (this hookrun) when that cannot be read. */
function installedSelf(target: AgentTarget, text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  try {
    const root = parse(target, text)
    for (const event of keysOf(child(root, 'hooks'))) {
      for (const entry of routerEntries(target, root, event)) {
        const command = nodeAt(root, [...entry.handlers[0]!, target.commandField])?.value
        const self = typeof command === 'string' ? routerSelf(command, target.name) : undefined
        if (self !== undefined) return self
      }
    }
  } catch {
    // Not JSON: the install reports the file and leaves it untouched.
  }
  return undefined
}

/**
 * What `hookrun trust`, `init` and `plugin add`/`remove` do once the project's hooks changed: the
 * narrowed agent configs fires follow are compiled again now, as the fire's background sync would
 * (but also before the project is trusted: the user ran the command and sees each line), so the
 * agent routes what hooks.json says without a sync step. One line per config changed, and one per
 * project config that still leaves a hook unasked: Codex's (it stops running a changed entry until
 * it is reviewed in its /hooks, so hookrun never rewrites it unasked), or one made with --events.
 */
export function syncNarrowedConfigs(cwd: string, env: Env): string[] {
  let root: string
  try {
    root = findConfigFiles({ cwd: resolve(cwd), env }).projectRoot
  } catch {
    return [] // HOOKRUN_CONFIG names a file that is not there: no fire reads this project's stamp either
  }
  const stamp = readStamp(root, env)
  const dir = stamp?.dir ?? root
  const lines: string[] = []
  const shown = (file: string) => relative(resolve(cwd), file) || file
  if (stamp !== undefined) {
    const places = { home: homeOf(env), project: stamp.dir, env }
    const { changed, failures } = syncFollowed(places, loadConfig({ cwd: stamp.dir, env }), stamp.agents)
    for (const target of changed) {
      const file = target.file('project', places)
      const events = routedEvents(file, target.name)
      const which = events.length === target.events.length ? 'every event' : events.length <= 6 ? events.join(', ') : count(events.length, 'event')
      lines.push(`${target.name}: brought ${shown(file)} up to date with the project's hooks: it now asks hookrun on ${events.length === 0 ? 'no event' : which}`)
    }
    lines.push(...failures)
  }
  for (const stale of staleAgentConfigs(dir, env)) {
    const target = agentTarget(stale.agent)
    const review = target?.reviewsChangedHooks ? `, then review the changed entries in ${target.label}'s /hooks (hookrun leaves this file: ${target.label} stops running a changed entry until you review it)` : ''
    lines.push(`${stale.what.replace(/; the next fire here brings it up to date by itself$/, '')}: run ${stale.fix}${review}`)
  }
  return lines
}

/** Is this agent's config in `project` one that fires and `hookrun trust` keep narrowed (the project's stamp)? */
export function followsNarrowed(project: string, env: Env, agent: string): boolean {
  try {
    const stamp = readStamp(findConfigFiles({ cwd: project, env }).projectRoot, env)
    return stamp?.dir === project && stamp.agents.includes(agent)
  } catch {
    return false
  }
}

/** `--events`: the agent's own names, any case; an event it does not have is an error with the nearest one. */
function chosenEvents(target: AgentTarget, names: readonly string[]): Set<string> {
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
  target: AgentTarget,
  file: string,
  self: string,
  scope: Scope,
  places: Places,
  chosen: ReadonlySet<string> | undefined,
  config: ResolvedConfig | undefined,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
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
  const native = config === undefined ? undefined : projectNativeMatchers(target, config)
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
      if (found.length > 0 && nodeAt(parse(target, text), ['hooks', event])?.children?.length === 0) text = removeAt(text, ['hooks', event])
      pruned += found.length
      if (found.length > 0) removedEvents.push(event)
      continue
    }
    const matcher = native?.get(event)?.matcher
    if (left(event)) {
      // The agent already gets this event through another agent's file (an entry here would
      // answer it twice), or --events left it out. One hookrun put here before goes.
      for (const entry of found.reverse()) {
        text = removeAt(text, entry.remove)
        dropped++
      }
      if (found.length > 0) removedEvents.push(event)
      if (found.length > 0 && nodeAt(parse(target, text), ['hooks', event])?.children?.length === 0) text = removeAt(text, ['hooks', event])
      continue
    }
    const command = target.command(self, event)
    const group = (handler: Record<string, unknown>) => (matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] })
    if (found.length === 0) {
      text = appendAt(text, style, ['hooks', event], target.shape === 'groups' ? group(target.handler(command)) : target.handler(command))
      addedEvents.push(event)
      continue
    }
    // A group of hookrun's own carries the compiled matcher (a user's group keeps theirs).
    for (const entry of found) {
      if (target.shape !== 'groups' || entry.remove.length !== 3) continue
      const current = child(nodeAt(parse(target, text), entry.remove), 'matcher')?.value
      if (current === matcher) continue
      // Another tool list: only the string changes, so the file keeps its layout.
      text = typeof current === 'string' && matcher !== undefined ? replaceAt(text, [...entry.remove, 'matcher'], matcher) : replaceAt(text, entry.remove, group(target.handler(command)))
      updated++
    }
    // Already there: keep it, but point it at this hookrun if it moved.
    for (const handler of found.flatMap((entry) => entry.handlers)) {
      const path = [...handler, target.commandField]
      if (nodeAt(parse(target, text), path)?.value !== command) {
        text = replaceAt(text, path, command)
        updated++
      }
      const raised = withRouterTimeout(target, text, handler)
      if (raised !== text) {
        text = raised
        updated++
      }
    }
  }
  const events = target.events.filter((event) => !left(event) && (native === undefined || native.has(event)))
  const unwanted = native === undefined ? 0 : target.events.filter((event) => !left(event) && !native.has(event)).length
  const added = addedEvents.length
  const unchanged = added === 0 && updated === 0 && dropped === 0 && pruned === 0
  if (!unchanged) files.write(file, text, !existed)
  // Read after writing: this file may be the one another agent runs too.
  const overlapLines = findOverlaps(places)
    .filter((overlap) => (overlap.owner === target.name || overlap.reader === target.name) && overlap.twice.length > 0)
    .map((overlap) => `  overlap: ${describeOverlap(overlap)}`)
  const startFolder = scope === 'project' && target.projectFileOnlyWhereStarted ? [startFolderNote(target, places)] : []
  const result = (lines: string[]) => {
    const notes: string[] = []
    const warnings: string[] = []
    for (const line of lines.slice(1).filter((each) => /^ {2}(note|warning|overlap|not )/.test(each))) sortNote(line.startsWith('  not ') ? `  note: ${line.slice(2)}` : line, notes, warnings)
    const status = unchanged ? 'unchanged' : existed ? 'updated' : 'created'
    return { lines, result: { agent: target.name, file, status, eventsAdded: addedEvents, eventsRemoved: removedEvents, events, entriesUpdated: updated, notes, warnings } as const }
  }
  if (unchanged) return result([`${target.name}: already installed in ${file} (${events.length} events)`, ...overlapLines, ...startFolder])
  const lines = [
    `${target.name}: ${existed ? 'updated' : 'created'} ${file}: ${count(added, 'event')} added${updated > 0 ? `, ${count(updated, 'entry', 'entries')} pointed at this hookrun` : ''}${dropped > 0 ? `, removed ${count(dropped, 'entry', 'entries')} for events not chosen` : ''}`,
    `  command: ${target.command(self, target.events[0]!)}`,
    `  events:  ${events.map((event) => (native?.get(event)?.matcher === undefined ? event : `${event} (${native.get(event)!.matcher})`)).join(', ')}`,
    ...(native === undefined ? [] : [`  narrowed: only the events and tools this project's hooks can fire on (${unwanted} left out${pruned > 0 ? `, ${count(pruned, 'entry', 'entries')} removed` : ''}; --all-events keeps every one)`, `  after editing hooks.json: ${afterEditing(target, chosen)}`]),
    ...(native === undefined && config !== undefined ? ["  every event: which events this project's hooks fire on cannot be told from its config (no hooks.json yet, or hook folders or plugins, known only by running them); hookrun init or trust narrows it once it can"] : []),
    ...(scope === 'user' && chosen === undefined ? ["  every event: a --user install serves every project (hookrun install --project routes only the events a project's hooks fire on)"] : []),
  ]
  for (const [event, why] of Object.entries(target.skipped)) lines.push(`  not ${event}: ${why}`)
  lines.push(...overlapLines)
  if (scope === 'project' && target.localProjectFile) lines.push(`  note: ${file} is this machine's own settings (keep it out of git); teammates run the same install`)
  else if (scope === 'project') lines.push('  note: the command runs hookrun from PATH, so the file can be committed; everyone who uses it needs hookrun on PATH')
  if (target.note !== undefined) lines.push(`  note: ${target.note}`)
  lines.push(...startFolder)
  return result(lines)
}

/**
 * Gemini CLI and Qwen Code read the project's settings only in the folder they are started in:
 * started in a subfolder, this file runs no hook at all. The user install holds everywhere.
 */
export function startFolderNote(target: AgentTarget, places: Places): string {
  const userFile = target.file('user', places)
  const where = `${target.label} reads ${target.file('project', places)} only when it is started in ${places.project}; started in a subfolder it runs no hook at all`
  if (routedEvents(userFile, target.name).length > 0) return `  note: ${where}, and your user install (${userFile}) routes those folders`
  return `  warning: ${where}. Install for your user instead: hookrun install --agent ${target.name} (it routes every folder, and does nothing where no hooks are configured)`
}

/** What keeps a narrowed config up to date after hooks.json changes (src/config/narrowed.ts). */
function afterEditing(target: AgentTarget, chosen: ReadonlySet<string> | undefined): string {
  if (chosen !== undefined) return 'run this install again (fires leave a config narrowed with --events as it is)'
  if (target.reviewsChangedHooks) return `run hookrun install --project --sync, then review the changed entries in ${target.label} (hookrun trust and fires leave this file: ${target.label} stops running a changed entry until you review it)`
  return 'hookrun trust (which the edit needs) brings this file up to date, or in a trusted folder the next fire does; an agent that reads its hooks when a session starts (Claude Code does) sees the change in its next session'
}

/** An agent config of the project that leaves a hook unasked, and the command that fixes it. */
export interface StaleAgentConfig {
  readonly agent: string
  readonly file: string
  readonly what: string
  readonly fix: string
}

/**
 * Agent configs of this project whose hookrun entries leave a hook unasked (src/install/matchers.ts):
 * an event a hook fires on has no entry (a narrowed install before hooks.json changed, or
 * `--events`), or a tool matcher names other tools than hooks.json wants. `doctor` reports them as
 * gates not in force, `explain` beside its answer; each says whether the next fire fixes it.
 */
export function staleAgentConfigs(cwd: string, env: Readonly<Record<string, string | undefined>>): StaleAgentConfig[] {
  const project = resolve(cwd)
  const places = { home: homeOf(env), project, env }
  const installs = projectInstalls(project, env)
  if (installs.length === 0) return []
  const config = loadConfig({ cwd: project, env })
  const stamp = readStamp(config.projectRoot, env)
  const found: StaleAgentConfig[] = []
  for (const target of installs) {
    const native = projectNativeMatchers(target, config)
    if (native === undefined) continue
    const file = target.file('project', places)
    const root = parse(target, readFileSync(file, 'utf8'))
    const differences: string[] = []
    for (const event of target.events) {
      const entries = routerEntries(target, root, event)
      const wanted = native.get(event)
      // Only what leaves a hook unasked: an entry no hook needs costs a process, not a gate.
      if (wanted !== undefined && entries.length === 0) differences.push(`${event} has no entry`)
      if (wanted === undefined || target.shape !== 'groups') continue
      for (const entry of entries.filter((found) => found.remove.length === 3)) {
        const matcher = child(nodeAt(root, entry.remove), 'matcher')?.value
        if (matcher !== undefined && matcher !== wanted.matcher) differences.push(`${event} matches ${matcher}, hooks.json wants ${wanted.matcher ?? 'every tool'}`)
      }
    }
    if (differences.length === 0) continue
    const followed = stamp?.dir === project && stamp.agents.includes(target.name)
    const by = !followed ? '' : config.trust?.trusted === false ? '; fires here bring it up to date once you trust the project\'s hooks (hookrun trust)' : '; the next fire here brings it up to date by itself'
    found.push({ agent: target.name, file, what: `${target.label}: ${file} is out of date with hooks.json (${differences.join('; ')})${by}`, fix: 'hookrun install --project --sync' })
  }
  return found
}

/** The agents whose project config file holds hookrun's router entries. */
export function projectInstalls(project: string, env: Readonly<Record<string, string | undefined>>): AgentTarget[] {
  const places = { home: homeOf(env), project, env }
  return AGENTS.filter((target) => {
    const file = target.file('project', places)
    if (!existsSync(file)) return false
    try {
      const root = parse(target, readFileSync(file, 'utf8'))
      return keysOf(child(root, 'hooks')).some((event) => routerEntries(target, root, event).length > 0)
    } catch {
      return false
    }
  })
}

function uninstallFrom(target: AgentTarget, file: string, places: Places): { lines: string[]; result: AgentFileResult } {
  const env = places.env
  const removedEvents: string[] = []
  const result = (status: AgentFileResult['status'], lines: string[], entriesRemoved = 0) => {
    const notes: string[] = []
    const warnings: string[] = []
    for (const line of lines.slice(1)) sortNote(line, notes, warnings)
    return { lines, result: { agent: target.name, file, status, eventsAdded: [], eventsRemoved: removedEvents, entriesRemoved, notes, warnings } }
  }
  if (!existsSync(file)) return result('absent', [`${target.name}: nothing to remove (${file} does not exist)`])
  let text = readFileSync(file, 'utf8')
  checkShape(target, parse(target, text))
  let removed = 0
  for (const event of keysOf(child(parse(target, text), 'hooks'))) {
    const entries = routerEntries(target, parse(target, text), event)
    // Back to front, so the paths still to remove keep their indexes.
    for (const entry of entries.reverse()) {
      text = removeAt(text, entry.remove)
      removed++
    }
    if (entries.length > 0) removedEvents.push(event)
    // An event list that only held hookrun's entries goes with them.
    if (entries.length > 0 && nodeAt(parse(target, text), ['hooks', event])?.children?.length === 0) text = removeAt(text, ['hooks', event])
  }
  if (removed === 0) return result('unchanged', [`${target.name}: nothing to remove (no hookrun entries in ${file})`])
  if (keysOf(child(parse(target, text), 'hooks')).length === 0) text = removeAt(text, ['hooks'])
  // A file install created that now holds nothing but its starting keys goes too; a file the user
  // had (even an empty one) stays.
  const notes = readersLeftShort(target, places)
  const created = sameJson(text, freshText(target)) ? rememberCreated(file, env, false) : undefined
  if (created !== undefined) {
    rmSync(file)
    // The folders install made for it go too, while they are empty (`.github/hooks`, `.claude`).
    const gone = created.filter((folder) => removeIfEmpty(folder))
    return result('deleted', [`${target.name}: removed ${count(removed, 'entry', 'entries')} and ${file}, which held only hookrun's entries${gone.length > 0 ? ` (and the empty ${gone.join(', ')} install made)` : ''}`, ...notes], removed)
  }
  write(file, text)
  return result('removed', [`${target.name}: removed ${count(removed, 'entry', 'entries')} from ${file}`, ...notes], removed)
}

/** Agents that answered some events through the entries just removed, and have hookrun entries of their own. */
function readersLeftShort(target: AgentTarget, places: Places): string[] {
  return FOREIGN_READS.filter((read) => read.owner === target.name)
    .filter((read) => (['project', 'user'] as const).some((scope) => routedEvents(agentTarget(read.reader)!.file(scope, places), read.reader).length > 0))
    .map((read) => `  note: ${agentTarget(read.reader)!.label} answered some events through these entries; run \`hookrun install --agent ${read.reader}\` again to give them entries of its own`)
}

/**
 * The agent config files `install` created (not edited), with the folders it made for them, in
 * hookrun's state folder, so that `uninstall` removes only those. `add` records `file` (and
 * `folders`); otherwise it is forgotten, and the answer is the folders it was recorded with, or
 * undefined when it was not recorded.
 */
function rememberCreated(file: string, env: Env, add: boolean, folders: readonly string[] = []): string[] | undefined {
  const record = join(stateDir(env), 'installed-files.json')
  let files: string[] = []
  let made: Record<string, string[]> = {}
  try {
    const parsed = JSON.parse(readFileSync(record, 'utf8')) as { files?: unknown; folders?: unknown }
    if (Array.isArray(parsed.files)) files = parsed.files.filter((entry): entry is string => typeof entry === 'string')
    if (typeof parsed.folders === 'object' && parsed.folders !== null) made = parsed.folders as Record<string, string[]>
  } catch {
    // No record yet.
  }
  const had = files.includes(file) ? (Array.isArray(made[file]) ? made[file].filter((entry) => typeof entry === 'string') : []) : undefined
  if (add) {
    if (had === undefined) writeJsonAtomic(record, { files: [...files, file], folders: { ...made, ...(folders.length > 0 && { [file]: [...folders] }) } })
  } else if (had !== undefined) {
    const { [file]: _forgotten, ...rest } = made
    writeJsonAtomic(record, { files: files.filter((entry) => entry !== file), folders: rest })
  }
  return had
}

/** The folders that do not exist yet from `dir` up, deepest first (what writing a file there makes). */
function missingFolders(dir: string): string[] {
  const missing: string[] = []
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.push(at)
  return missing
}

/** Remove a folder if it is empty; whether it went. */
function removeIfEmpty(folder: string): boolean {
  try {
    rmdirSync(folder)
    return true
  } catch {
    return false
  }
}

/** What install starts a new file with: the agent's header keys (Cursor and Copilot: version 1). */
function freshText(target: AgentTarget): string {
  return `${JSON.stringify(target.header, null, 2)}\n`
}

function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b))
  } catch {
    return false
  }
}

function parse(target: AgentTarget, text: string): Node {
  return parseJson(text, target.comments)
}

/** `hooks` must be an object of arrays, and for the groups shape each group an object. */
function checkShape(target: AgentTarget, root: Node): void {
  if (root.type !== 'object') throw new JsonTextError('is not a JSON object')
  const hooks = child(root, 'hooks')
  if (hooks === undefined) return
  if (hooks.type !== 'object') throw new JsonTextError(`"hooks" is ${describe(hooks)}, but ${target.label} expects an object of events`)
  for (const name of target.events) {
    const list = child(hooks, name)
    if (list === undefined) continue
    if (list.type !== 'array') throw new JsonTextError(`"hooks.${name}" is ${describe(list)}, but ${target.label} expects an array`)
    if (target.shape !== 'groups') continue
    for (const [index, group] of (list.children ?? []).entries()) {
      const handlers = child(group, 'hooks')
      if (group.type !== 'object' || (handlers !== undefined && handlers.type !== 'array')) {
        throw new JsonTextError(`"hooks.${name}[${index}]" is not a { "matcher", "hooks": [...] } group`)
      }
    }
  }
}

/**
 * hookrun's router entries for one event: what to remove (a whole group when it holds nothing of
 * the user's, else the handler) and where each handler is (to update its command).
 */
function routerEntries(target: AgentTarget, root: Node, event: string): Array<{ remove: Path; handlers: Path[] }> {
  const list = child(child(root, 'hooks'), event)
  if (list?.type !== 'array') return []
  const entries: Array<{ remove: Path; handlers: Path[] }> = []
  for (const [index, item] of (list.children ?? []).entries()) {
    if (item.type !== 'object') continue
    const at: Path = ['hooks', event, index]
    if (target.shape === 'flat') {
      if (isRouterCommand(child(item, target.commandField)?.value, target.name)) entries.push({ remove: at, handlers: [at] })
      continue
    }
    const handlers = child(item, 'hooks')
    if (handlers?.type !== 'array') continue
    const ours = (handlers.children ?? []).flatMap((handler, inner) =>
      handler.type === 'object' && isRouterCommand(child(handler, target.commandField)?.value, target.name) ? [inner] : [],
    )
    if (ours.length === 0) continue
    const paths = ours.map((inner): Path => [...at, 'hooks', inner])
    // A group with a matcher or handlers of the user's stays; only hookrun's handlers go.
    const matcher = child(item, 'matcher')
    if (ours.length === handlers.children!.length && (matcher === undefined || isCompiledMatcher(matcher.value))) entries.push({ remove: at, handlers: paths })
    else for (const path of paths) entries.push({ remove: path, handlers: [path] })
  }
  return entries
}

/**
 * The file with the router handler at `handler` given the agent's timeout hookrun needs
 * (ROUTER_TIMEOUT_SECONDS, above its own chain budget), when it has none or a shorter one: an
 * agent that kills hookrun mid-gate lets the action through.
 */
function withRouterTimeout(target: AgentTarget, text: string, handler: Path): string {
  if (target.timeout === undefined) return text
  const wanted = ROUTER_TIMEOUT_SECONDS * target.timeout.perSecond
  const node = nodeAt(parse(target, text), handler)
  const current = child(node, target.timeout.field)?.value
  if (typeof current === 'number' ? current >= wanted : current === undefined && (target.timeout.agentDefault ?? 0) > CHAIN_BUDGET_SECONDS) return text
  if (current !== undefined) return replaceAt(text, [...handler, target.timeout.field], wanted)
  return replaceAt(text, handler, { ...(node === undefined ? {} : (valueOf(node) as object)), [target.timeout.field]: wanted })
}

function describe(node: Node): string {
  return node.type === 'array' ? 'an array' : node.type === 'object' ? 'an object' : `a ${node.type}`
}

/** Write beside the file, then rename over it: an agent reading it never sees half a file. */
function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true })
  // Keep the file's mode: a settings file with tokens in it may be private.
  writeFileAtomic(file, text, existsSync(file) ? statSync(file).mode & 0o777 : 0o644)
}
