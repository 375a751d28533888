// The nearest of a few known words to a mistyped one (commands, options, templates, agents).

/**
 * The candidate closest to `word` by edit distance, when it is close enough to be a typo (at most
 * a third of the word's length, at least 1, wrong); a prefix of exactly one candidate counts too.
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase()
  let best: string | undefined
  let bestDistance = Infinity
  const prefixed: string[] = []
  for (const candidate of candidates) {
    if (lower.length >= 2 && candidate.toLowerCase().startsWith(lower)) prefixed.push(candidate)
    const distance = editDistance(lower, candidate.toLowerCase())
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance]
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3))) return best
  return prefixed.length === 1 ? prefixed[0] : undefined
}

/** ` (did you mean X?)`, or nothing when no candidate is close. */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  show: (candidate: string) => string = (candidate) => candidate,
): string {
  const found = nearest(word, candidates)
  return found === undefined ? '' : ` (did you mean ${show(found)}?)`
}

/** Edit distance, a swap of two neighbours counting as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, before[j - 2]! + 1)
    }
    before = previous
    previous = current
  }
  return previous[b.length]!
}
