// `hookrun explain`: why each hook would or would not run, for people.
import { relative } from 'node:path'
import { type PreparedDialect, renderFor } from '../dialect.ts'
import { ExitCode } from '../core/errors.ts'
import { type Explanation, explainFire, type ExplainOptions, type HookExplanation } from '../explain/explain.ts'
import { renderNative } from '../answer/render.ts'
import { findProjectRoot } from '../config/files.ts'
import { describeOverlap, findOverlaps } from '../install/overlaps.ts'
import { staleAgentConfigs } from '../install/narrowed-sync.ts'
import { type Paint, PLAIN } from '../core/paint.ts'
import { homeOf } from '../core/places.ts'

interface ExplainFlags {
  /** The agent dialect the payload came in, if any: its answer is shown too. */
  readonly prepared?: PreparedDialect
  readonly json: boolean
  readonly dryRun: boolean
  /** Colour for people (`hookrun explain` on a terminal); `fire --explain` prints plain. */
  readonly paint?: Paint
}

/** `hookrun explain` and `fire --explain`: the hooks run as `fire` runs them; the story printed, the answer's exit code. */
export async function explainCommand(options: ExplainOptions, flags: ExplainFlags): Promise<{ output: string; exitCode: number }> {
  const explanation = await explainFire({ ...options, dryRun: flags.dryRun })
  const { decision } = explanation
  const rendered =
    decision === undefined
      ? undefined
      : flags.prepared
        ? {
            format: flags.prepared.dialect.name,
            agentEvent: flags.prepared.agentEvent,
            ...renderFor(flags.prepared.dialect, decision, options.payload ?? {}, flags.prepared.agentEvent),
          }
        : { format: 'hookrun', ...renderNative(decision), warnings: [] as readonly string[] }
  const exitCode = rendered?.exitCode ?? ExitCode.Proceed
  // Where another agent would run this answer a second time (src/install/overlaps.ts).
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const project = findProjectRoot(cwd) ?? cwd
  const overlaps = findOverlaps({ home: homeOf(env), project, env }).filter((overlap) => overlap.twice.length > 0)
  // Agent configs narrowed before hooks.json changed: the agent does not ask about some hook (doctor's check).
  const stale = options.configFiles?.length ? [] : staleAgentConfigs(project, env)
  if (flags.json)
    return {
      output: `${JSON.stringify({ ...explanation, ...(rendered && { answer: rendered }), overlaps, staleAgentConfigs: stale }, null, 2)}\n`,
      exitCode,
    }
  const paint = flags.paint ?? PLAIN
  const overlapLines = overlaps.map((overlap) => `${paint.warn('overlap')}   ${describeOverlap(overlap)}\n`).join('')
  const staleLines = stale
    .map((config) => `${paint.bad('stale')}     ${config.what}\n          ${paint.dim('fix:')} ${config.fix}\n`)
    .join('')
  return { output: formatExplanation(explanation, rendered, cwd, paint) + overlapLines + staleLines, exitCode }
}

const STATUS: Record<HookExplanation['status'], string> = { ran: 'ran', background: 'started', skipped: 'no', 'would-run': 'would run' }

function formatExplanation(
  explanation: Explanation,
  rendered: { format: string; agentEvent?: string; stdout: string; exitCode: number; warnings: readonly string[] } | undefined,
  cwd: string,
  paint: Paint,
): string {
  const lines: string[] = []
  const verdict = (decision: string, text: string) => (decision === 'deny' ? paint.bad : decision === 'ask' ? paint.warn : paint.good)(text)
  const shown = (file: string) => {
    const path = relative(cwd, file)
    return path.startsWith('..') || path === '' ? file : path
  }
  lines.push(`event     ${explanation.event}${explanation.tool !== undefined ? `   (tool: ${explanation.tool})` : ''}`)
  if (explanation.files.length === 0) lines.push('config    no hooks.json found')
  explanation.files.forEach((ref, index) => {
    lines.push(`${index === 0 ? 'config   ' : '         '} ${ref.layer.padEnd(7)} ${shown(ref.file)}`)
  })
  lines.push('', 'hooks')
  if (explanation.hooks.length === 0) lines.push('  (none configured)')
  for (const hook of explanation.hooks) {
    const state = hook.exclusion === undefined ? STATUS[hook.status] : hook.exclusion === 'after-block' ? 'skipped' : hook.exclusion
    const ran = hook.exclusion === undefined
    lines.push(
      `  ${(ran ? paint.strong : paint.dim)(state.padEnd(10))} ${hook.name}   ${paint.dim(`${hook.layer} ${shown(hook.file)} ${hook.path}`)}`,
    )
    if (hook.detail !== undefined) lines.push(`             ${paint.dim(hook.detail)}`)
    const result = hook.result
    if (result !== undefined) {
      const { report } = result
      if (report.outcome === 'background') {
        const how = report.async ? `released after ${report.durationMs} ms ({"async": true})` : 'started detached (blocking: false)'
        lines.push(`             ${how}; not waited for, gives no decision`)
      } else {
        const exit = report.timedOut
          ? 'timed out'
          : report.httpStatus !== undefined
            ? `HTTP ${report.httpStatus}`
            : hook.command.startsWith('POST ')
              ? 'no answer'
              : report.exitCode === null
                ? `killed by ${report.signal ?? 'a signal'}`
                : `exit ${report.exitCode}`
        lines.push(
          `             ${exit} in ${report.durationMs} ms → ${verdict(report.outcome, `${report.outcome}${report.reason !== undefined ? `: ${report.reason}` : ''}`)}`,
        )
      }
      // Each gate's view: shown when a rewrite means hooks may have judged different inputs.
      const rewritten = explanation.decision?.updatedInput !== undefined || explanation.decision?.updatedPrompt !== undefined
      for (const view of rewritten ? (hook.judged ?? []) : []) {
        const input = view.toolInput !== undefined ? JSON.stringify(view.toolInput) : JSON.stringify(view.prompt ?? '')
        lines.push(`             judged ${oneLine(input)}${view.round > 1 ? ` (round ${view.round})` : ''}`)
      }
      const answer = result.answer
      if (answer !== undefined) lines.push(`             answer ${JSON.stringify(answer)}`)
      for (const context of result.context) lines.push(`             context: ${oneLine(context)}`)
      for (const warning of result.warnings) lines.push(`             ${paint.warn('warning:')} ${warning}`)
    }
  }
  const { decision } = explanation
  lines.push('')
  if (decision !== undefined) {
    const said = decision.decidedBy === undefined ? 'allow (no hook decided)' : decision.decision
    lines.push(
      `decision  ${verdict(decision.decision, `${said}${decision.blocked ? ' — blocked' : ''}${decision.reason !== undefined ? `: ${decision.reason}` : ''}`)}`,
    )
  }
  lines.push(...explanation.how.map((line, index) => `${index === 0 ? 'how      ' : '         '} ${line}`))
  if (rendered !== undefined) {
    // hookrun's own answer is the decision above (`--json` has it whole); an agent's is shown as sent.
    const shown = rendered.format === 'hookrun' ? "hookrun's JSON" : rendered.stdout.trim()
    lines.push(
      `answer    ${rendered.format}${rendered.agentEvent !== undefined ? ` (${rendered.agentEvent})` : ''}, exit ${rendered.exitCode}: ${shown}`,
    )
    for (const warning of rendered.warnings) lines.push(`          ${paint.warn('warning:')} ${warning}`)
  }
  for (const problem of explanation.problems) lines.push(`${paint.warn('problem')}   ${problem}`)
  return `${lines.join('\n')}\n`
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ')
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat
}
