// Which folder a fire finds its projects from: the agent's project, whatever folder its tool is in.
import { realpathSync, statSync } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import type { ProjectSource } from '../core/types.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * The folder the agent names as its project (README "Which project"): the first of its variables
 * set to a folder, else — only when it sets none — the payload field it fills from its session.
 * The variable is the agent's own (it sets it in every hook's environment); a payload field is
 * read last because for some agents it follows the model's `cd`. Undefined when the agent names
 * none, or names a path that is not a folder here (a remote agent's path).
 */
export function agentProjectDir(
  source: ProjectSource | undefined,
  env: Env,
  payload: Readonly<Record<string, unknown>>,
): string | undefined {
  if (source === undefined) return undefined
  for (const name of source.variables) {
    const value = env[name]
    if (value) return folderOrUndefined(value)
  }
  const field =
    source.payloadField === 'workspace_roots' || source.payloadField === 'workspacePaths'
      ? firstOf(payload[source.payloadField])
      : source.payloadField === undefined
        ? undefined
        : payload[source.payloadField]
  return typeof field === 'string' ? folderOrUndefined(field) : undefined
}

/**
 * Where a fire looks for its projects. The agent's project wins over the process's folder: an
 * agent runs hooks in its tool's current folder, which follows the model's `cd`, and a `cd` out
 * of the project (into an `--add-dir` folder, anywhere) must not leave its gates behind. Inside
 * the agent's project the process's folder is kept, so a nested project on the way adds its own
 * layer (src/config/files.ts: enclosing projects always apply).
 */
export function projectSearchStart(agentProject: string | undefined, processCwd: string): string {
  if (agentProject === undefined) return processCwd
  return isWithin(processCwd, agentProject) ? processCwd : agentProject
}

/** `folder` is `root` or below it, as written or once links are resolved. */
function isWithin(folder: string, root: string): boolean {
  if (below(resolve(folder), resolve(root))) return true
  try {
    return below(realpathSync(folder), realpathSync(root))
  } catch {
    return false
  }
}

function below(folder: string, root: string): boolean {
  const path = relative(root, folder)
  return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path))
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined
}

function folderOrUndefined(path: string): string | undefined {
  if (!isAbsolute(path)) return undefined
  try {
    return statSync(path).isDirectory() ? path : undefined
  } catch {
    return undefined
  }
}
