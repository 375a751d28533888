// `hookrun explain`'s account of the decision: which rules ran which hooks, who decided and why.
import { count } from '../core/words.ts'
import type { FiredEvent, Hook, HookResult } from '../core/types.ts'
import type { Decision } from '../core/protocol.ts'
import { type ChainOutcome, ruleOf } from '../chain.ts'
import { answerUpdatedInput } from '../answer/interpret.ts'

/** The decision, told as the rules of docs/protocol.md reached it. */
export function howDecided(event: FiredEvent, selected: readonly Hook[], chain: ChainOutcome, decision: Decision): string[] {
  const how: string[] = []
  const { results } = chain
  const ran = results.filter((result) => result.report.outcome !== 'background')
  const background = results.length - ran.length
  if (selected.length === 0) how.push(`no hook matched ${event.qualified}`)
  else
    how.push(
      `${count(selected.length, 'hook')} matched; ${ran.length} ran${background > 0 ? `, ${background} started in the background` : ''}`,
    )
  how.push(...rulesApplied(selected))

  const winner = results.find((result) => result.report.name === decision.decidedBy)
  if (winner === undefined) {
    how.push("no hook gave a decision: allow without one, so the agent's own permission rules apply")
  } else {
    how.push(`'${winner.report.name}' decided ${decision.decision} by ${verdictSource(winner)}`)
    const others = results.filter((result) => result !== winner && result.decision !== undefined)
    if (others.length > 0) {
      const listed = others.map((result) => `${result.decision} from '${result.report.name}'`).join(', ')
      how.push(`it beats ${listed}: deny beats ask beats allow, and the first of equals stands`)
    }
  }
  const blocker = results.find((result) => result.blocks)
  if (blocker !== undefined && chain.skipped.length > 0) {
    how.push(`the chain stopped at '${blocker.report.name}': ${count(chain.skipped.length, 'later hook')} did not run`)
  }
  if (decision.keepGoing) how.push(`on ${event.name} a block means the agent keeps going, with the reason as its next instruction`)
  const stopper = results.find((result) => result.answer?.continue === false)
  if (stopper !== undefined) how.push(`'${stopper.report.name}' asked the agent to stop (continue: false)`)
  const rewriter = [...results].reverse().find((result) => answerUpdatedInput(result.answer) !== undefined)
  if (rewriter !== undefined)
    how.push(
      `the tool input is replaced by the updatedInput of '${rewriter.report.name}' (each hook saw the input as earlier hooks left it)`,
    )
  const prompter = [...results].reverse().find((result) => result.answer?.updatedPrompt !== undefined)
  if (prompter !== undefined) how.push(`the prompt is replaced by the updatedPrompt of '${prompter.report.name}'`)
  how.push(...rejudgedLines(chain))
  const contributors = results.filter((result) => result.context.length > 0).map((result) => `'${result.report.name}'`)
  if (contributors.length > 0) how.push(`context for the model from ${contributors.join(', ')}, in that order`)
  return how
}

/** Which rule decided which handlers run, one line per rule that applied (docs/protocol.md "Which handlers run"). */
export function rulesApplied(selected: readonly Hook[]): string[] {
  const rules = new Set(selected.map(ruleOf))
  const lines: string[] = []
  if (rules.has('all')) {
    const sequential = selected.some((hook) => hook.sequential === true)
    lines.push(
      `rule 'all' for the agent-shaped handlers: every one runs, whatever another answers, ${sequential ? 'one after another (a Gemini group says sequential)' : 'concurrently'}; the most restrictive answer wins`,
    )
  }
  if (rules.has('chain'))
    lines.push("rule 'chain' for hookrun's own hooks: in order, each seeing earlier rewrites, stopping at the first block")
  return lines
}

function verdictSource(result: HookResult): string {
  const { report } = result
  if (report.outcome === 'error') return `failing (${report.reason ?? 'error'}), which blocks under its onError`
  if (report.exitCode === 2) return 'exiting 2'
  return 'its JSON answer'
}

/** How rewrites were judged again: which hooks ran a second time, on whose rewrite. */
function rejudgedLines(chain: ChainOutcome): string[] {
  const again = [...new Set(chain.judged.filter((view) => view.round > 1).map((view) => `'${view.step}'`))]
  if (again.length === 0)
    return chain.rewrites.updatedInput !== undefined || chain.rewrites.updatedPrompt !== undefined
      ? ['every hook that judged the input judged it as it runs (no later hook rewrote what an earlier one approved)']
      : []
  const rounds = Math.max(...chain.judged.map((view) => view.round))
  return [
    `${again.join(', ')} judged the input again after a later hook rewrote it (${rounds} rounds): the input that runs is the one each judge last saw`,
  ]
}
