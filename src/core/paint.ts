// Colour for people (doctor, list, explain, test, …): never in JSON, never on fire's stdout.
import type { styleText } from 'node:util'
import { nodeUtil } from './builtins.ts'

/** `--color=WHEN` (git's, ls's and grep's word): `auto` colours a terminal only. */
export type ColourMode = 'auto' | 'always' | 'never'

/** Styles by meaning: `bad` a deny or failure, `good` an allow or pass, `warn`, `dim` secondary text. */
export interface Paint {
  readonly bad: (text: string) => string
  readonly good: (text: string) => string
  readonly warn: (text: string) => string
  readonly dim: (text: string) => string
  readonly strong: (text: string) => string
}

/**
 * Colour or not, decided here once for every runtime: `--color`/`--no-color` first, then
 * FORCE_COLOR (on unless `0` or `false`; it wins over NO_COLOR, as in Node), then NO_COLOR (any
 * non-empty value), then whether the output is a terminal (and TERM is not `dumb`). styleText's
 * own checks differ between Node versions, Bun and Deno, so it is told not to check.
 */
export function wantsColour(mode: ColourMode, env: Readonly<Record<string, string | undefined>>, isTerminal: boolean): boolean {
  if (mode !== 'auto') return mode === 'always'
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force !== 'false'
  if (env.NO_COLOR) return false
  return isTerminal && env.TERM !== 'dumb'
}

const style = (format: Parameters<typeof styleText>[0]) => (text: string) =>
  text === '' ? text : nodeUtil().styleText(format, text, { validateStream: false })
const same = (text: string) => text

export const PLAIN: Paint = { bad: same, good: same, warn: same, dim: same, strong: same }
const COLOURED: Paint = { bad: style('red'), good: style('green'), warn: style('yellow'), dim: style('dim'), strong: style('bold') }

export function paintFor(colour: boolean): Paint {
  return colour ? COLOURED : PLAIN
}
