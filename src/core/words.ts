// Counted nouns in messages: "1 hook", "2 hooks" (never "hook(s)").

/** `count(2, 'hook')` is "2 hooks"; `count(1, 'entry', 'entries')` is "1 entry". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`
}
