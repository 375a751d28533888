// `hookrun install` / `uninstall`: router entries in agents' config files (the work is in src/install/).
import { resolve } from 'node:path'
import { ExitCode } from '../core/errors.ts'
import { projectInstalls } from '../install/narrowed-sync.ts'
import { FOLDER_AGENTS, wrappersIn } from '../install/hook-folder.ts'
import { homeOf } from '../core/places.ts'
import { installOrRemove } from '../install/install.ts'
import { chooseFormats, hasFormats } from '../install/agent-formats.ts'
import { syncInBackground } from '../install/narrowed-sync.ts'
import { userInstalls } from '../install/user-routing.ts'
import type { InstallOptions, InstallResult } from '../install/results.ts'

/** `hookrun install` and `uninstall`: hookrun's router entries in the agent's own config, a text edit that keeps every other byte. */
export function installAgents(options: InstallOptions, remove: boolean): InstallResult {
  if (options.sync && !remove) {
    if (options.quiet) return syncInBackground(options)
    if (options.scope === 'user') {
      const names = options.agents.length > 0 ? options.agents : userInstalls(options.env).map((target) => target.name)
      if (names.length === 0)
        return {
          output: 'no user agent config holds hookrun entries; run hookrun install --agent NAME first\n',
          exitCode: ExitCode.Proceed,
          results: [],
        }
      return installOrRemove({ ...options, agents: names, sync: false, narrow: true }, false)
    }
    const agents =
      options.agents.length > 0
        ? options.agents
        : [
            ...projectInstalls(resolve(options.cwd), options.env).map((target) => target.name),
            // Hook-folder agents (Cline) whose project folder holds hookrun's wrappers.
            ...FOLDER_AGENTS.filter(
              (agent) =>
                wrappersIn(agent, agent.dir('project', { home: homeOf(options.env), project: resolve(options.cwd), env: options.env }))
                  .size > 0,
            ).map((agent) => agent.name),
          ]
    if (agents.length === 0)
      return {
        output: 'no agent config in this project holds hookrun entries; run hookrun install --project --agent NAME first\n',
        exitCode: ExitCode.Proceed,
        results: [],
      }
    // Each agent keeps the shape installed (Kiro's, Vibe's): no version asked.
    return installAgents({ ...options, agents, scope: 'project', sync: false, narrow: true, formats: {} }, false)
  }
  if (remove || options.formats !== undefined || (options.agentFormat === undefined && !options.agents.some(hasFormats)))
    return installOrRemove(options, remove)
  // Kiro and Vibe: the shape the installed agent reads, and a line saying which.
  const { formats, lines } = chooseFormats(options.agents, options.agentFormat, options.env)
  const result = installOrRemove({ ...options, formats }, remove)
  return {
    output: `${Object.values(lines).join('\n')}\n${result.output}`,
    exitCode: result.exitCode,
    results: result.results.map((each) =>
      lines[each.agent] === undefined ? each : { ...each, notes: [lines[each.agent]!, ...each.notes] },
    ),
  }
}
