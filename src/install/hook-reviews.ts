// Has the user reviewed hookrun's router entries in an agent that runs a hook only once reviewed
// (the target's `reviews`: Codex)? Its headless runs skip unreviewed hooks without a word.
import { existsSync, readFileSync } from 'node:fs'
import { readJsonFile } from '../core/cache-file.ts'
import { type AgentTarget, isRouterCommand } from './agent-target.ts'

/**
 * Codex runs a hook only once trusted in its /hooks, recorded as `[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash`
 * in the target's `reviews` file (seen in the agent lab). Only the record's presence is checked: the hash recipe is Codex's.
 */
interface EntryReview {
  readonly entries: number
  readonly unreviewed: readonly string[]
}

/** hookrun's router entries in the agent's hooks file and those with no review record (undefined: none there, or the agent reviews none). */
export function entryReview(
  target: AgentTarget,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): EntryReview | undefined {
  if (target.reviews === undefined) return undefined
  const parsed = readJsonFile(file) as { hooks?: Record<string, unknown> } | null | undefined
  if (parsed == null) return undefined
  const hooks = parsed.hooks ?? {}
  const config = target.reviews.file(env, home)
  const recorded = existsSync(config) ? readFileSync(config, 'utf8') : ''
  const keys: string[] = []
  for (const [event, groups] of Object.entries(hooks)) {
    if (target.reviews.unlisted.includes(event) || !Array.isArray(groups)) continue
    const snake = event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()
    groups.forEach((group: { hooks?: unknown }, g) => {
      if (!Array.isArray(group?.hooks)) return
      group.hooks.forEach((handler: { command?: unknown }, h) => {
        if (isRouterCommand(handler?.command, target.name)) keys.push(`${file}:${snake}:${g}:${h}`)
      })
    })
  }
  if (keys.length === 0) return undefined
  return { entries: keys.length, unreviewed: keys.filter((key) => !recorded.includes(`hooks.state.${JSON.stringify(key)}`)) }
}
