/**
 * Which reading of an MCP tool's name is the real one, where an agent joins server and tool with
 * a character a server's name may hold (Copilot CLI's `github-mcp-server-get_me`): the servers the
 * agent is configured with tell. Read only for such a name; a file that is missing or not plain
 * JSON tells nothing, and then every reading stays (a gate matching any of them holds).
 */
import { dirname, join } from 'node:path'
import { readJsonFile } from '../core/cache-file.ts'
import type { McpTool, Payload } from '../core/types.ts'

/** Where an agent keeps its MCP servers: files, the key of the server table in each, built-in servers. */
export interface McpServerFiles {
  /** The files to read, from the session's folder and the user's home. */
  files(cwd: string, home: string, env: NodeJS.ProcessEnv): string[]
  /** The object whose keys are the servers' names (`mcpServers`, OpenCode's `mcp`). */
  readonly key: string
  /** Servers the agent has without any file (Copilot CLI's `github-mcp-server`). */
  readonly builtIn?: readonly string[]
  /** The server's name as the agent writes it into a tool's name. */
  readonly spell?: (name: string) => string
}

/**
 * The readings whose server the agent is configured with, longest name first; all of them when
 * none is. `keepOthers` (on a gate) keeps the rest after them: the files may be the repository's,
 * and a server they name must not take away the reading a gate matches.
 */
export function configuredReadings(readings: readonly McpTool[], where: McpServerFiles, payload: Payload, keepOthers = false): McpTool[] {
  const env = process.env
  const cwd = typeof payload.cwd === 'string' && payload.cwd !== '' ? payload.cwd : process.cwd()
  const known = new Set((where.builtIn ?? []).map((name) => where.spell?.(name) ?? name))
  for (const file of where.files(cwd, env.HOME ?? '', env)) {
    for (const name of serverNames(file, where.key)) known.add(where.spell?.(name) ?? name)
  }
  const configured = readings.filter((reading) => known.has(reading.server))
  if (configured.length === 0) return [...readings]
  const others = keepOthers ? readings.filter((reading) => !known.has(reading.server)) : []
  return [...configured.sort((a, b) => b.server.length - a.server.length), ...others]
}

function serverNames(file: string, key: string): string[] {
  const table = (readJsonFile(file) as Record<string, unknown> | null | undefined)?.[key]
  return typeof table === 'object' && table !== null && !Array.isArray(table) ? Object.keys(table) : []
}

/** `dir` and each folder above it up to the home folder (or the root): where project files are looked for. */
export function foldersUp(dir: string, home: string): string[] {
  const folders: string[] = []
  for (let at = dir; ; at = dirname(at)) {
    folders.push(at)
    if (at === home || dirname(at) === at) return folders
  }
}

export const inEach = (folders: readonly string[], ...names: string[]): string[] =>
  folders.flatMap((folder) => names.map((name) => join(folder, name)))
