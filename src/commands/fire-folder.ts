// Where a fire runs its hooks from (README "Which project").
import { isAbsolute } from 'node:path'
import { statSync } from 'node:fs'
import type { ProjectSource } from '../core/types.ts'
import { findProjectRoot } from '../config/files.ts'
import { agentProjectDir, projectSearchStart } from '../config/project.ts'

/**
 * The folder a fire finds its projects from: the project the agent names (`Dialect.project`), over the working directory (which follows
 * the model's `cd`); with neither in a project, the payload's `cwd` or first workspace root (agents run user hooks from their own folder).
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
    // Started above its repositories (~/src), a named folder with no hooks: the tool's folder finds its project.
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
