// The decisions a hook may print (with older hooks' synonyms), and their one order: deny > ask > allow.

type DecisionWord = 'allow' | 'ask' | 'deny'

/** What each word a hook may print as a decision means: `approve` and `block` are older hooks' synonyms. */
export const DECISION_WORDS: Readonly<Record<string, DecisionWord>> = {
  allow: 'allow',
  ask: 'ask',
  deny: 'deny',
  approve: 'allow',
  block: 'deny',
}

const ORDER: Readonly<Record<DecisionWord, number>> = { allow: 0, ask: 1, deny: 2 }

/** The decision a printed word means, or undefined when it is none. */
export function decisionOf(value: unknown): DecisionWord | undefined {
  return typeof value === 'string' && Object.hasOwn(DECISION_WORDS, value) ? DECISION_WORDS[value] : undefined
}

/** How strict a decision as printed is (allow 0, ask 1, deny 2); -1 for anything else. The one scale everywhere. */
export function strictness(value: unknown): number {
  const decision = decisionOf(value)
  return decision === undefined ? -1 : ORDER[decision]
}

/** Whether decision `value` counts over `current`: a stricter one does, and one that is no decision at all. */
export function outranks(value: unknown, current: unknown): boolean {
  const [mine, theirs] = [strictness(value), strictness(current)]
  return theirs !== -1 && (mine === -1 || mine > theirs)
}
