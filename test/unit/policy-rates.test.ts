/**
 * Each policy measured on its corpus (scripts/policy-rates.ts fires every case through `fire()`
 * with that policy on): the table in docs/policies.md is what the measurement gives, so it cannot
 * go stale, and every policy catches at least 95% of its should-block cases and refuses at most
 * 2% of its should-pass ones.
 */
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { DOCS_FILE, docsWith, measure, ratesSection } from '../../scripts/policy-rates.ts'

test('docs/policies.md holds the measured rates (run: npm run policy-rates), and each policy meets the bar', async () => {
  const rates = await measure()
  const docs = readFileSync(DOCS_FILE, 'utf8')
  expect(docs).toBe(docsWith(docs, ratesSection(rates)))
  for (const rate of rates) {
    expect(rate.caught / rate.block, `${rate.policy} misses ${rate.missed.join(' | ')}`).toBeGreaterThanOrEqual(0.95)
    expect(rate.refused / rate.pass, `${rate.policy} refuses ${rate.falsePositives.join(' | ')}`).toBeLessThanOrEqual(0.02)
  }
}, 240_000)
