// Narrowed project installs kept up to date with hooks.json: the background sync a fire starts,
// the one `hookrun trust`, `init` and `plugin add`/`remove` run, and the configs that leave a hook
// unasked (doctor, explain).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { count } from '../core/words.ts'
import { ExitCode } from '../core/errors.ts'
import { homeOf } from '../core/places.ts'
import { loadConfig } from '../config/parse.ts'
import type { ResolvedConfig } from '../config/load.ts'
import { findConfigFiles } from '../config/files.ts'
import { SETTLE_MS } from '../core/stat.ts'
import { compiledSignature, type NarrowedStamp, readStamp, readUserStamp, writeStamp, writeUserStamp } from '../config/narrowed.ts'
import { AGENTS, agentTarget } from './agents.ts'
import { type AgentTarget, groupsAt, type Places, type Scope, PORTABLE_SELF, routerSelf, targetForFile } from './agent-target.ts'
import { folderAgent, installWrappers, wrappersIn } from './hook-folder.ts'
import { eventMap, parse, routerEntries } from './agent-file.ts'
import { ownRoutedEvents } from './own-formats.ts'
import { followNarrowed, installOrRemove } from './install.ts'
import { child, keysOf, nodeAt } from './json-text.ts'
import { projectNativeMatchers } from './matchers.ts'
import { routedEvents } from './overlaps.ts'
import type { InstallOptions, InstallResult } from './results.ts'
import { followedUserInstalls, followUserNarrowed, userRouting } from './user-routing.ts'
import { asInstalled } from './agent-version.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * `install --sync --quiet`, started by a fire when hooks.json changed: nobody watches it, so it changes nothing while the hooks are
 * untrusted (a repository's edit must not rewrite agent configs unseen) and tells what it changed through the next fire.
 */
export function syncInBackground(options: InstallOptions): InstallResult {
  if (options.scope === 'user') return syncUserInBackground(options)
  const project = resolve(options.cwd)
  const env = options.env
  settle(findConfigFiles({ cwd: project, env }).files)
  const config = loadConfig({ cwd: project, env })
  if (config.trust !== undefined && !config.trust.trusted) return { output: '', exitCode: ExitCode.Proceed, results: [] }
  const places = { home: homeOf(env), project, env }
  const compiled = readStamp(config.projectRoot, env)
  const { changed, handEdited, exitCode } = syncFollowed(places, config, options.agents, compiled?.written)
  const folders = syncFolderAgents(places, config, options.agents)
  const stamp = readStamp(config.projectRoot, env)
  if (changed.length + folders.length + handEdited.length > 0 && stamp !== undefined) {
    const where = [...changed.map((target) => target.file('project', places)), ...folders.map((folder) => folder.dir)]
      .map((file) => relative(project, file))
      .join(', ')
    const why = changedConfigs(compiled?.signature ?? '', compiledSignature(config)).map((file) =>
      file.startsWith(`${project}/`) ? relative(project, file) : file,
    )
    const reason =
      why.length > 0
        ? `${why.join(' and ')} changed`
        : "the last install read the project's hooks right after an edit, so a fire compiled them again"
    const notices = [
      ...(where === ''
        ? []
        : [
            `${reason}, so hookrun brought its entries in ${where} up to date; an agent that reads its hooks when a session starts (Claude Code does) asks hookrun about the new ones from its next session`,
          ]),
      ...handEdited.map((line) => line.replace(/^ {2}warning: /, '')),
    ]
    writeStamp({ ...stamp, notice: notices.join('; ') }, env)
  }
  return { output: '', exitCode, results: [] }
}

/** A config file edited a moment ago gets a moment to settle, so the stamp can be exact (a background sync has time). */
function settle(files: readonly { readonly file: string }[]): void {
  const newest = Math.max(0, ...files.map((ref) => (existsSync(ref.file) ? statSync(ref.file).mtimeMs : 0)))
  const wait = newest + SETTLE_MS + 50 - Date.now()
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(wait, SETTLE_MS + 50))
}

/** The config files whose line differs between two config signatures (src/config/narrowed.ts configSignature): added, gone or changed. */
function changedConfigs(before: string, after: string): string[] {
  const files = (signature: string) =>
    new Map(
      signature
        .split('\n')
        .filter((line) => line !== '' && line !== 'hook folders or plugins')
        .map((line) => [line.slice(line.indexOf(' ') + 1, line.lastIndexOf(' ')), line]),
    )
  const had = files(before)
  const has = files(after)
  return [...new Set([...had.keys(), ...has.keys()])].filter((file) => had.get(file) !== has.get(file))
}

/** `install --user --sync --quiet`: as syncInBackground, from hooks that run only (the user's, trusted projects'). */
function syncUserInBackground(options: InstallOptions): InstallResult {
  const env = options.env
  const { files, projectRoot, inProject } = findConfigFiles({ cwd: resolve(options.cwd), env })
  settle(files)
  const { changed, exitCode } = syncUserInstalls(env, inProject ? [projectRoot] : [])
  const stamp = readUserStamp(env)
  if (changed.length > 0 && stamp !== undefined) {
    const where = changed.map((target) => userFileOf(target, env)).join(', ')
    const notice = `your hooks changed, so hookrun brought its entries in ${where} up to date; the agent asks hookrun about the new ones from its next session`
    writeUserStamp({ ...stamp, notice }, env)
  }
  return { output: '', exitCode, results: [] }
}

function userFileOf(target: AgentTarget, env: Env): string {
  return target.file('user', { home: homeOf(env), project: homeOf(env), env })
}

/** The user configs the user stamp follows, compiled again (user-routing.ts); `also`: project folders to read besides those known. */
function syncUserInstalls(env: Env, also: readonly string[]): ReturnType<typeof installAgain> {
  const stamp = readUserStamp(env)
  if (stamp === undefined) return { changed: [], failures: [], handEdited: [], exitCode: ExitCode.Proceed }
  const agents = followedUserInstalls(env)
  // A user config hookrun was taken out of is no longer followed.
  const gone = stamp.agents.flatMap((name) => agentTarget(name) ?? []).filter((target) => !agents.includes(target))
  const seen = Object.keys(stamp.signatures).filter((root) => root !== '')
  const routing = userRouting(env, [...seen, ...also])
  followUserNarrowed(env, agents.length === 0 ? undefined : routing, [], gone)
  return installAgain(agents, 'user', { cwd: homeOf(env), env, narrow: true, routing })
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined)

/** Each agent's file installed again: the agents whose file changed, and the lines of hand-edited entries and failures it told. */
function installAgain(
  agents: readonly AgentTarget[],
  scope: Scope,
  base: Omit<InstallOptions, 'agents' | 'scope' | 'self'>,
  config?: ResolvedConfig,
): { changed: AgentTarget[]; failures: string[]; handEdited: string[]; exitCode: number } {
  const places = { home: homeOf(base.env), project: base.cwd, env: base.env }
  const changed: AgentTarget[] = []
  const lines: string[] = []
  let exitCode: number = ExitCode.Proceed
  for (const target of agents) {
    const file = target.file(scope, places)
    const before = read(file)
    // The entries keep the hookrun they run: a sync by `npx hookrun trust` must not point them at npx's cache.
    const self = installedSelf(scope === 'project' ? targetForFile(target, file) : target, before)
    const result = installOrRemove({ ...base, agents: [target.name], scope, self }, false, config)
    if (read(file) !== before) changed.push(target)
    lines.push(...result.output.split('\n'))
    if (result.exitCode !== ExitCode.Proceed) exitCode = result.exitCode
  }
  return {
    changed,
    failures: lines.filter((line) => line.endsWith('; left untouched')),
    handEdited: lines.filter((line) => line.includes('was edited by hand')),
    exitCode,
  }
}

/** The configs fires follow, compiled again, but never one the agent stops running once changed until reviewed (Codex): unfollowed. */
function syncFollowed(
  places: Places,
  config: ResolvedConfig,
  names: readonly string[],
  written: NarrowedStamp['written'],
): ReturnType<typeof installAgain> {
  const wired = new Set(projectInstalls(places.project, places.env).map((target) => target.name))
  const asked = names.flatMap((name) => agentTarget(name) ?? [])
  const agents = asked.filter((target) => wired.has(target.name) && !target.reviewsChangedHooks)
  followNarrowed(
    places,
    undefined,
    [],
    asked.filter((target) => !agents.includes(target)),
  )
  const base = { cwd: places.project, env: places.env, narrow: true, ...(written !== undefined && { written }) }
  return installAgain(agents, 'project', base, config)
}

/** Hook-folder agents the stamp follows: their wrappers written again; the folders that changed, with the events routed now. */
function syncFolderAgents(places: Places, config: ResolvedConfig, names: readonly string[]): { dir: string; events: readonly string[] }[] {
  const changed: { dir: string; events: readonly string[] }[] = []
  for (const agent of names.flatMap((name) => folderAgent(name) ?? [])) {
    const dir = agent.dir('project', places)
    if (wrappersIn(agent, dir).size === 0) continue
    const done = installWrappers(agent, 'project', places, PORTABLE_SELF, undefined, config)
    if (done.result.status !== 'unchanged') changed.push({ dir, events: done.result.events ?? [] })
  }
  return changed
}

/** The hookrun the file's first router entry runs; undefined (this hookrun) when that cannot be read. */
function installedSelf(target: AgentTarget, text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  try {
    const root = parse(target, text)
    for (const event of keysOf(eventMap(target, root))) {
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
 * `hookrun trust`, `init` and `plugin add`/`remove` after the hooks changed: the followed configs compiled again now (untrusted too:
 * the user sees each line). One line per config changed, and one per config still leaving a hook unasked (Codex's, or --events).
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
    const { changed, failures, handEdited } = syncFollowed(places, loadConfig({ cwd: stamp.dir, env }), stamp.agents, stamp.written)
    for (const target of changed) {
      const file = target.file('project', places)
      lines.push(
        `${target.name}: brought ${shown(file)} up to date with the project's hooks: it now asks hookrun on ${asksOn(target, file)}`,
      )
    }
    lines.push(...failures, ...handEdited.map((line) => line.trim()))
    for (const folder of syncFolderAgents(places, loadConfig({ cwd: stamp.dir, env }), stamp.agents))
      lines.push(
        `brought the wrappers in ${shown(folder.dir)} up to date with the project's hooks: ${folder.events.length === 0 ? 'no event' : folder.events.join(', ')}`,
      )
  }
  const users = syncUserInstalls(env, [])
  for (const target of users.changed) {
    const file = userFileOf(target, env)
    lines.push(`${target.name}: brought ${file} up to date with your hooks: it now asks hookrun on ${asksOn(target, file)}`)
  }
  lines.push(...users.failures)
  for (const stale of staleAgentConfigs(dir, env)) {
    const target = agentTarget(stale.agent)
    const review = target?.reviewsChangedHooks
      ? `, then review the changed entries in ${target.label}'s /hooks (hookrun leaves this file: ${target.label} stops running a changed entry until you review it)`
      : ''
    lines.push(`${stale.what.replace(/; the next fire here brings it up to date by itself$/, '')}: run ${stale.fix}${review}`)
  }
  return lines
}

/** The events an agent's file routes to hookrun, as a sync tells them. */
function asksOn(target: AgentTarget, file: string): string {
  const events = routedEvents(file, target.name)
  if (events.length === 0) return 'no event'
  return events.length === target.events.length ? 'every event' : events.length <= 6 ? events.join(', ') : count(events.length, 'event')
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

/** An agent config of the project that leaves a hook unasked, and the command that fixes it. */
interface StaleAgentConfig {
  readonly agent: string
  readonly file: string
  readonly what: string
  readonly fix: string
}

/** This project's agent configs that leave a hook unasked (an event without an entry, a matcher naming other tools): for doctor and explain. */
export function staleAgentConfigs(cwd: string, env: Readonly<Record<string, string | undefined>>): StaleAgentConfig[] {
  const project = resolve(cwd)
  const places = { home: homeOf(env), project, env }
  const installs = projectInstalls(project, env)
  if (installs.length === 0) return []
  const config = loadConfig({ cwd: project, env })
  const stamp = readStamp(config.projectRoot, env)
  const found: StaleAgentConfig[] = []
  for (const installed of installs) {
    // An event left out for the installed agent's version is not missing (src/install/agent-version.ts).
    const { target } = asInstalled(installed, env)
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
      if (wanted === undefined || !groupsAt(target, event)) continue
      for (const entry of entries.filter((found) => found.remove.length === 3)) {
        const matcher = child(nodeAt(root, entry.remove), 'matcher')?.value
        // Every tool is no matcher, or the agent's own spelling of all (Goose's `.*`).
        const wantedMatcher = wanted.matcher ?? target.allMatcher
        if (matcher !== undefined && matcher !== wantedMatcher)
          differences.push(`${event} matches ${matcher}, hooks.json wants ${wanted.matcher ?? 'every tool'}`)
      }
    }
    if (differences.length === 0) continue
    const followed = stamp?.dir === project && stamp.agents.includes(target.name)
    const by = !followed
      ? ''
      : config.trust?.trusted === false
        ? "; fires here bring it up to date once you trust the project's hooks (hookrun trust)"
        : '; the next fire here brings it up to date by itself'
    found.push({
      agent: target.name,
      file,
      what: `${target.label}: ${file} is out of date with hooks.json (${differences.join('; ')})${by}`,
      fix: 'hookrun install --project --sync',
    })
  }
  return found
}

/** The agents whose project config file holds hookrun's router entries. */
export function projectInstalls(project: string, env: Readonly<Record<string, string | undefined>>): AgentTarget[] {
  const places = { home: homeOf(env), project, env }
  return AGENTS.filter((target) => {
    // An agent that reads one file for every project has no project install.
    if (target.userOnly) return false
    // Kiro's v3 file, or its agent config where an older Kiro reads that.
    const legacy = target.legacy?.ownsFile === undefined ? [] : [target.legacy.file('project', places)]
    const file = target.file('project', places)
    if (target.format === 'hook-list' && ownRoutedEvents(file, target).length > 0) return true
    return [...(target.format === 'hook-list' ? [] : [file]), ...legacy].some((each) => holdsRouterEntries(target, each))
  })
}

/** Whether an agent's JSON file holds a router entry of hookrun's. */
function holdsRouterEntries(target: AgentTarget, file: string): boolean {
  const inFile = targetForFile(target, file)
  if (inFile.format !== undefined || !existsSync(file)) return false
  try {
    const root = parse(inFile, readFileSync(file, 'utf8'))
    return keysOf(eventMap(inFile, root)).some((event) => routerEntries(inFile, root, event).length > 0)
  } catch {
    return false
  }
}
