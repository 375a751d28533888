// Why a gate was blocked when no hook said so: hookrun's own blocks (docs/guarantees.md) and its notices for
// a project whose hooks do not run.
import type { ResolvedConfig } from '../config/load.ts'
import { type ConfigProblem, type FiredEvent, formatProblem, type Hook, type HookResult } from '../core/types.ts'
import { isGate } from '../event/events.ts'
import { compilePattern, patternProblem } from '../event/pattern.ts'
import type { ProjectTrust } from '../trust/trust.ts'
import { join, sep } from 'node:path'

/** The name a block of hookrun's own goes by in `decidedBy` and `hooks[]`. */
export const HOOKRUN = 'hookrun'

/** One warning per untrusted project; its hooks are only named, never matched (a crafted regex must cost nothing). */
export function untrustedWarnings(trusts: readonly ProjectTrust[], untrustedHooks: readonly Hook[]): string[] {
  return trusts
    .filter((trust) => !trust.trusted)
    .map((trust) => {
      const listed = fiveAndMore(untrustedHooks.filter((hook) => hookIsOf(hook, trust.root)).map((hook) => hook.name))
      return `${untrustedNotice(trust)}${listed === '' ? '' : ` (skipped: ${listed})`}`
    })
}

/** The hook comes from the project at `root` (its own hooks.json files, hook folder or plugins). */
function hookIsOf(hook: Hook, root: string): boolean {
  return hook.source.file.startsWith(join(root, '.hookrun') + sep)
}

/** What the user is told in the agent (once per session) and on stderr. */
export function untrustedNotice(trust: ProjectTrust): string {
  if (trust.reason === 'changed') {
    return `project hooks in ${trust.root} changed since you trusted them (${fiveAndMore(trust.changed ?? [])}): review with 'hookrun trust --diff', then run: ${trust.command}`
  }
  return `project hooks in ${trust.root} are not trusted, so they do not run. Review them ('hookrun list'), then run: ${trust.command}`
}

function fiveAndMore(names: readonly string[]): string {
  return names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ')
}

/** A trusted project that changed since blocks a gate (its gates' answers cannot be told); a never-trusted one blocks nothing. */
function changedProjectBlock(trusts: readonly ProjectTrust[], event: FiredEvent): HookResult | undefined {
  const trust = trusts.find((each) => !each.trusted && each.reason === 'changed')
  if (trust === undefined || !isGate(event.name)) return undefined
  return hookrunBlock(untrustedNotice(trust), `${trust.root}/.hookrun`)
}

/** hookrun's own block before any hook runs on a gate: a changed project, a hook a config problem took away, a missing required policy. */
export function gateBlock(
  trusts: readonly ProjectTrust[],
  problems: readonly ConfigProblem[],
  event: FiredEvent,
  policy?: ResolvedConfig['policy'],
): HookResult | undefined {
  return changedProjectBlock(trusts, event) ?? brokenGateBlock(problems, event) ?? missingPolicyBlock(policy, event)
}

/** `policy.required`: without a good copy of the organisation's policy its gates cannot be vouched for. */
function missingPolicyBlock(policy: ResolvedConfig['policy'], event: FiredEvent): HookResult | undefined {
  if (policy === undefined || !policy.required || !policy.missing || !isGate(event.name)) return undefined
  return hookrunBlock(
    `the organisation's remote policy ${policy.url} is required and has no good copy yet; run 'hookrun policy pull' (see 'hookrun policy status')`,
    policy.file,
  )
}

/** A hook entry that cannot be read counts as a failed gate on the events it was for (any event, when that cannot be told). */
export function brokenGateBlock(problems: readonly ConfigProblem[], event: FiredEvent): HookResult | undefined {
  if (!isGate(event.name)) return undefined
  const broken = problems.find(
    ({ brokenHook }) =>
      brokenHook !== undefined && (brokenHook.events === undefined || brokenHook.events.some((pattern) => patternMatches(pattern, event))),
  )
  if (broken === undefined) return undefined
  return hookrunBlock(`${formatProblem(broken)} — a gate entry that cannot be read blocks; fix it (see 'hookrun validate')`, broken.file)
}

/** A pattern hookrun cannot compile could have been for anything. */
function patternMatches(pattern: string, event: FiredEvent): boolean {
  return patternProblem(pattern) !== undefined || compilePattern(pattern).matchesEvent(event)
}

/** A block decided by hookrun itself (not by a hook), reported like a hook that denied. */
export function hookrunBlock(reason: string, file: string): HookResult {
  return {
    report: { name: HOOKRUN, source: 'project', file, outcome: 'deny', exitCode: null, durationMs: 0, timedOut: false, reason },
    blocks: true,
    decision: 'deny',
    reason,
    context: [],
    warnings: [],
  }
}
