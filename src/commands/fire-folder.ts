// Where a fire runs its hooks from: the project the agent names, else hookrun's working directory,
// else the folder the payload names (README "Which project").
import { isAbsolute } from 'node:path'
import { statSync } from 'node:fs'
import type { ProjectSource } from '../core/types.ts'
import { findProjectRoot } from '../config/files.ts'
import { agentProjectDir, projectSearchStart } from '../config/project.ts'

/**
 * The folder a fire finds its projects from (README "Which project"): the project the agent names
 * (its variable, else the payload field it fills from its session: `Dialect.project`), which wins
 * over hookrun's own working directory — the tool's current folder, which follows the model's
 * `cd` (src/config/project.ts). When the agent names none and the working directory is in no
 * project, the payload's `cwd` or Cursor's first workspace root: agents run user-level hooks from
 * their own folder (Cursor: ~/.cursor).
 */
export function agentWorkingDirectory(
  payload: Record<string, unknown>,
  source: ProjectSource | undefined,
  env: Readonly<Record<string, string | undefined>>,
  processCwd = process.cwd(),
): string {
  const named = agentProjectDir(source, env, payload)
  if (named !== undefined) {
    const start = projectSearchStart(named, processCwd)
    // Started above its repositories (in ~/src), the agent names a folder with no hooks: there
    // are no gates to leave behind, so the folder the tool is in finds its project, as before.
    return start !== processCwd && findProjectRoot(start) === undefined ? processCwd : start
  }
  const roots = payload.workspace_roots
  const candidates = [payload.cwd, Array.isArray(roots) ? roots[0] : undefined]
  if (candidates.every((candidate) => typeof candidate !== 'string') || findProjectRoot(processCwd) !== undefined) return processCwd
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || !isAbsolute(candidate)) continue
    try {
      if (statSync(candidate).isDirectory()) return candidate
    } catch {
      // Not a folder here (a remote agent's path): use the working directory instead.
    }
  }
  return processCwd
}
