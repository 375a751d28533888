// Agents that run plugins, not hook commands (OpenCode, Kilo Code, Pi, OpenClaw): install writes
// hookrun's plugin file into the agent's plugin folder (and its companions: OpenClaw's manifest),
// uninstall removes exactly those files, doctor says whether it is there and current.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { shellWords } from '../trust/shell-words.ts'
import { type Places, PORTABLE_SELF, ROUTER_TIMEOUT_SECONDS, type Scope } from './agent-target.ts'
import { pluginText } from './opencode-plugin.ts'
import { type AgentFileResult, type AgentFiles, rememberCreated, removeIfEmpty, throughLink } from './results.ts'
import { type Edited, linkTarget } from './agent-write.ts'
import { appendAt, insertAt, JsonTextError, nodeAt, nodeValue, parseJson, removeAt, replaceAt, styleOf } from './json-text.ts'
import { selfCommand } from './self.ts'
import { type DoctorCheck, type DoctorLine, installCommand } from './doctor-types.ts'
import { onPath } from './on-path.ts'
import { AGENTS } from '../agents/registry.ts'
import { PLUGIN_MARKER, type PluginEnabling, type PluginFacts } from '../agents/plugins.ts'

export interface PluginAgent extends PluginFacts {
  readonly name: string
  readonly label: string
}

/** Every agent that runs plugins, with hookrun's plugin in it (each agent's `plugin`: src/agents/plugins.ts). */
export const PLUGIN_AGENTS: readonly PluginAgent[] = AGENTS.flatMap((agent) =>
  agent.plugin === undefined ? [] : [{ ...agent.plugin, name: agent.name, label: agent.label }],
)

export function pluginAgent(name: string): PluginAgent | undefined {
  return PLUGIN_AGENTS.find((agent) => agent.name === name)
}

/** A plugin's text for hookrun's `command`: the agent's own plugin API, else OpenCode's. */
export function pluginSource(agent: PluginAgent, command: readonly string[]): string {
  return agent.text?.(command, ROUTER_TIMEOUT_SECONDS) ?? pluginText(agent.label, agent.name, command, ROUTER_TIMEOUT_SECONDS)
}

/** The plugin this install writes: a project's runs hookrun from PATH (the file may be committed). */
function expectedPlugin(agent: PluginAgent, scope: Scope, self: string | undefined): string {
  const command = scope === 'project' ? [PORTABLE_SELF] : self !== undefined ? shellWords(self, {}) : selfCommand()
  return pluginSource(agent, command)
}

/** Is this file hookrun's plugin (whatever hookrun wrote it)? */
function isHookrunPlugin(text: string | undefined): boolean {
  return text?.startsWith(PLUGIN_MARKER) === true
}

const result = (agent: PluginAgent, file: string, status: AgentFileResult['status'], notes: string[] = []): AgentFileResult => ({
  agent: agent.name,
  file,
  status,
  eventsAdded: [],
  eventsRemoved: [],
  notes,
  warnings: [],
})

export function installPlugin(
  agent: PluginAgent,
  scope: Scope,
  places: Places,
  self: string | undefined,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  const file = agent.file(scope, places)
  const text = expectedPlugin(agent, scope, self)
  const notes = [
    agent.note,
    ...(scope === 'project'
      ? ['the plugin runs hookrun from PATH, so the file can be committed; everyone who uses it needs hookrun on PATH']
      : []),
  ]
  let before: string | undefined
  let edited: Edited
  try {
    edited = files.edit(file, (current) => {
      before = current
      return current === undefined || isHookrunPlugin(current) ? text : undefined
    })
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error
    const why = `${file}: ${error.message}; left untouched`
    return { lines: [`${agent.name}: ${why}`], result: { ...result(agent, file, 'failed'), error: why } }
  }
  if (before !== undefined && !isHookrunPlugin(before)) {
    const error = `${file} is not hookrun's plugin; left untouched (move it away and install again)`
    return { lines: [`${agent.name}: ${error}`], result: { ...result(agent, file, 'failed'), error } }
  }
  // The files the agent needs beside the plugin (OpenClaw's manifest) are hookrun's too: written as they should be.
  for (const companion of agent.companions?.(file) ?? []) {
    const wrote = files.edit(companion.file, (current) => (current === companion.text ? undefined : companion.text))
    if (wrote.written) edited = { ...edited, written: true }
  }
  // The agent's config lets the plugin in (OpenClaw): else the file would sit there, never loaded.
  const enabling = agent.enabledBy
  let enabledIn = ''
  if (enabling !== undefined) {
    const config = enabling.file(places)
    try {
      const wrote = files.edit(config, (current) => enabledText(current ?? '{}\n', enabling), false)
      if (wrote.written) enabledIn = `; let it in: ${config} (${settingsNamed(enabling)})`
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      const why = `${config}: ${error.message}, so hookrun could not let its plugin in and ${agent.label} will not load it; set ${settingsNamed(enabling)} there by hand, then install again`
      return { lines: [`${agent.name}: ${why}`], result: { ...result(agent, file, 'failed'), error: why } }
    }
    if (!edited.written && enabledIn !== '') edited = { ...edited, written: true }
  }
  if (!edited.written) return { lines: [`${agent.name}: already installed in ${file}`], result: result(agent, file, 'unchanged', notes) }
  const status = edited.created ? 'created' : 'updated'
  return {
    lines: [
      `${agent.name}: ${status} ${file}${throughLink(edited)} (hookrun's plugin)${enabledIn}`,
      ...notes.map((note) => `  note: ${note}`),
    ],
    result: result(agent, file, status, notes),
  }
}

/** The settings that let the plugin in, as a person would type them. */
function settingsNamed(enabling: PluginEnabling): string {
  return [
    ...enabling.lists.map(({ path, item }) => `${JSON.stringify(item)} in ${path.join('.')}`),
    ...enabling.values.map(({ path, value }) => `${path.join('.')}: ${JSON.stringify(value)}`),
  ].join(', ')
}

/** Every leaf of a value, with its path below it. */
function leaves(value: unknown, path: readonly string[] = []): Array<[readonly string[], unknown]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [[path, value]]
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]))
}

/** The config's text with the plugin let in: each list names it, each value's leaves set (the user's other keys kept). */
function enabledText(text: string, enabling: PluginEnabling): string {
  const style = styleOf(text)
  let out = text
  for (const { path, item } of enabling.lists) {
    const list = nodeAt(parseJson(out, true), path)
    const value = list === undefined ? undefined : nodeValue(list)
    if (!Array.isArray(value) || !value.includes(item)) out = appendAt(out, style, path, item)
  }
  for (const { path, value } of enabling.values)
    for (const [below, leaf] of leaves(value)) out = setAt(out, style, [...path, ...below], leaf)
  return out
}

/** Set the value at `path`, making the objects on the way that are missing. */
function setAt(text: string, style: ReturnType<typeof styleOf>, path: readonly string[], value: unknown): string {
  const root = parseJson(text, true)
  const node = nodeAt(root, path)
  if (node !== undefined) return JSON.stringify(nodeValue(node)) === JSON.stringify(value) ? text : replaceAt(text, path, value)
  let depth = path.length - 1
  while (depth > 0 && nodeAt(root, path.slice(0, depth)) === undefined) depth--
  const built = path.slice(depth + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value)
  return insertAt(text, style, path.slice(0, depth + 1), built)
}

/** What of the settings that let the plugin in the agent's config lacks (doctor), or why it cannot be read. */
function missingEnabling(enabling: PluginEnabling, places: Places): string[] {
  const file = enabling.file(places)
  if (!existsSync(file)) return [`${file} does not exist`]
  try {
    const text = readFileSync(file, 'utf8')
    return enabledText(text, enabling) === text ? [] : [`${file} lacks ${settingsNamed(enabling)}`]
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error
    return [`${file} ${error.message}`]
  }
}

/** The settings that let the plugin in, taken out again (the user's other settings kept). */
function disabledText(text: string, enabling: PluginEnabling): string {
  let out = text
  for (const { path, item } of enabling.lists) {
    const list = nodeAt(parseJson(out, true), path)
    const index = list?.type === 'array' ? (list.children ?? []).findIndex((entry) => nodeValue(entry) === item) : -1
    if (index >= 0) out = removeAt(out, [...path, index])
  }
  for (const { path } of enabling.values) if (nodeAt(parseJson(out, true), path) !== undefined) out = removeAt(out, path)
  return out
}

export function uninstallPlugin(agent: PluginAgent, scope: Scope, places: Places): { lines: string[]; result: AgentFileResult } {
  const file = agent.file(scope, places)
  if (!existsSync(file)) return { lines: [`${agent.name}: no plugin in ${file}`], result: result(agent, file, 'absent') }
  if (!isHookrunPlugin(readFileSync(file, 'utf8'))) {
    return { lines: [`${agent.name}: ${file} is not hookrun's plugin; left untouched`], result: result(agent, file, 'unchanged') }
  }
  // A link (the plugin kept in a dotfiles repository): the link goes, so the agent no longer loads
  // it, and the file it points to is the user's, left as it is.
  const through = linkTarget(file)
  rmSync(file)
  for (const companion of agent.companions?.(file) ?? []) rmSync(companion.file, { force: true })
  const enabling = agent.enabledBy
  const config = enabling?.file(places)
  let released = ''
  if (enabling !== undefined && config !== undefined && existsSync(config)) {
    try {
      const before = readFileSync(config, 'utf8')
      const after = disabledText(before, enabling)
      if (after !== before) {
        writeFileSync(config, after)
        released = `; took hookrun's plugin out of ${config}`
      }
    } catch (error) {
      if (!(error instanceof JsonTextError)) throw error
      released = `; ${config} ${error.message}: take ${settingsNamed(enabling)} out by hand`
    }
  }
  // The folders install made for it go too, when nothing else is in them.
  for (const folder of rememberCreated(file, places.env, false) ?? []) if (!removeIfEmpty(folder)) break
  const kept = through === undefined ? '' : ` (a link: the file it pointed to, ${through}, is left as it is)`
  return { lines: [`${agent.name}: removed ${file}${kept}${released}`], result: result(agent, file, 'deleted') }
}

/** hookrun's plugin files there are, for every plugin agent and scope (whatever hookrun wrote them). */
export function pluginInstalls(places: Places): Array<{ agent: PluginAgent; scope: Scope; file: string; text: string }> {
  return PLUGIN_AGENTS.flatMap((agent) =>
    (agent.userOnly === undefined ? (['project', 'user'] as const) : (['user'] as const)).flatMap((scope) => {
      const file = agent.file(scope, places)
      const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined
      // A plugin of the user's own, named the same, is not hookrun's.
      return text !== undefined && isHookrunPlugin(text) ? [{ agent, scope, file, text }] : []
    }),
  )
}

/** doctor: each plugin hookrun wrote, whether it is this hookrun's, and whether a project plugin's hookrun is on PATH (it fails closed). */
export const pluginCheck: DoctorCheck = (context) =>
  pluginInstalls(context.places).map(({ agent, scope, file, text }): DoctorLine => {
    const fix = installCommand(agent.name, scope)
    if (text !== expectedPlugin(agent, scope, undefined))
      return { status: 'warn', what: `${agent.label}: ${file} was written by another hookrun (version or path)`, fix }
    if (scope === 'project' && onPath(PORTABLE_SELF, context.env) === undefined)
      return {
        status: 'fail',
        what: `${agent.label}: ${file} runs hookrun from PATH, which has none: ${agent.label} refuses every tool call`,
        fix: 'put hookrun on PATH: npm install -g hookrun, or the release installer (docs/install.md)',
      }
    const missing = agent.enabledBy === undefined ? [] : missingEnabling(agent.enabledBy, context.places)
    if (missing.length > 0)
      return {
        status: 'fail',
        what: `${agent.label}: ${file} is never loaded: ${missing.join('; ')}, so none of hookrun's hooks run there`,
        fix,
      }
    return { status: 'ok', what: `${agent.label}: ${file}: hookrun's plugin` }
  })
