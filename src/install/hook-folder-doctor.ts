// `hookrun doctor` on hook-folder agents (Cline): wrappers missing or not executable, and a
// provider that runs tools itself, where no hook fires at all.
import { loadConfig } from '../config/parse.ts'
import { readJsonFile } from '../core/cache-file.ts'
import { count } from '../core/words.ts'
import type { Places } from './agent-target.ts'
import { type DoctorLine, installCommand } from './doctor-types.ts'
import { FOLDER_AGENTS, type FolderAgent, wrapperProblems } from './hook-folder.ts'
import { projectNativeMatchers } from './matchers.ts'

/** The provider the agent runs with, from its own settings (`cline auth` writes Cline's). */
function providerOf(agent: FolderAgent, env: Readonly<Record<string, string | undefined>>, home: string): string | undefined {
  const providers = agent.toolRunningProviders
  if (providers === undefined) return undefined
  const provider = (readJsonFile(providers.file(env, home)) as Record<string, unknown> | null | undefined)?.[providers.key]
  return typeof provider === 'string' ? provider : undefined
}

/** Are hookrun's wrappers in any hook-folder agent's folder (then that agent runs hookrun)? */
export function folderInstalls(places: Places): boolean {
  return FOLDER_AGENTS.some((agent) =>
    (['user', 'project'] as const).some((scope) => wrapperProblems(agent, agent.dir(scope, places)).routed.length > 0),
  )
}

export function folderAgentsCheck(context: {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly places: Places
}): DoctorLine[] {
  const lines: DoctorLine[] = []
  for (const agent of FOLDER_AGENTS) {
    let wired = false
    for (const scope of ['user', 'project'] as const) {
      const dir = agent.dir(scope, context.places)
      if (scope === 'project' && dir === agent.dir('user', context.places)) continue
      const { routed, problems } = wrapperProblems(agent, dir)
      if (routed.length === 0) continue
      wired = true
      for (const problem of problems)
        lines.push({ status: 'warn', what: `${agent.label}: ${problem}`, fix: installCommand(agent.name, scope) })
      // The events a wrapper should be on: every one for the user folder; the ones the project's hooks fire on for the project's.
      let wanted: readonly string[] = agent.events
      if (scope === 'project') {
        try {
          const native = projectNativeMatchers(agent, loadConfig({ cwd: context.places.project, env: context.env }))
          if (native !== undefined) wanted = agent.events.filter((event) => native.has(event))
        } catch {
          // A config doctor reports elsewhere: every event.
        }
      }
      const missing = wanted.filter((event) => !routed.includes(event))
      if (missing.length > 0)
        lines.push({
          // Without its PreToolUse wrapper no gate runs before Cline's tool calls.
          status: missing.includes('PreToolUse') ? 'fail' : 'warn',
          what: `${agent.label}: ${dir} has no hookrun wrapper for ${missing.join(', ')}: ${count(missing.length, 'event')} of hooks.json do${missing.length === 1 ? 'es' : ''} not fire there`,
          fix: installCommand(agent.name, scope),
        })
      else
        lines.push({
          status: 'ok',
          what: `${agent.label}: ${dir}: hookrun wrappers for ${routed.join(', ')}; ${agent.label} acts on the answers of ${agent.answered.join(' and ')} only`,
        })
    }
    const providers = agent.toolRunningProviders
    if (providers === undefined || !wired) continue
    const provider = providerOf(agent, context.env, context.places.home)
    if (provider !== undefined && providers.names.includes(provider))
      lines.push({
        status: 'fail',
        what: `${agent.label}: its provider ${provider} runs tools itself, and ${agent.label} then runs no hook for them (${providers.source}): no gate holds`,
        fix: providers.fix,
      })
    else
      lines.push({
        status: 'warn',
        what: `${agent.label}: hooks do not fire where the provider runs tools itself (its ${providers.names.join(' and ')} providers, ${providers.source}); ${provider === undefined ? 'no provider is configured yet' : `the provider now is ${provider}`}`,
      })
  }
  return lines
}
