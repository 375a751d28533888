/**
 * The policy library: what `hookrun init` carries (src/commands/policy-library.json) is what the
 * policies/ folders hold, and every policy folder has what the docs promise: policy.json, a
 * README saying what it stops, what it does not and how to tune it, its script and `hookrun test`
 * cases (every policy with a hook), and (a gate or a flag) a corpus it is measured on.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { LIBRARY_FILE, libraryText, POLICIES_DIR, policyNames } from '../../scripts/policies.ts'
import { TEMPLATES } from '../../src/commands/templates.ts'

/** Policies that decide nothing: no corpus to measure them on. */
const KEPT = new Set(['audit-log', 'notify', 'git-commit'])
/** No hook of its own (it turns on hookrun's audit log): no script, no cases. */
const NO_HOOK = new Set(['audit-log'])

describe('policy library', () => {
  test('src/commands/policy-library.json is what scripts/policies.ts makes of policies/ (run: npm run policies)', () => {
    expect(readFileSync(LIBRARY_FILE, 'utf8')).toBe(libraryText())
  })
  test('at least 12 policies, each with its README; every hook with its script and tests; every gate with its corpus', () => {
    const names = policyNames()
    expect(names.filter((name) => !KEPT.has(name)).length).toBeGreaterThanOrEqual(12)
    for (const name of names) {
      const readme = readFileSync(join(POLICIES_DIR, name, 'README.md'), 'utf8')
      expect(readme, name).toMatch(/## What it stops/)
      expect(readme, name).toMatch(/## What it does not stop/)
      expect(readme, name).toMatch(/## Tune it/)
      if (NO_HOOK.has(name)) continue
      expect(existsSync(join(POLICIES_DIR, name, `${name}.sh`)), name).toBe(true)
      expect(existsSync(join(POLICIES_DIR, name, 'tests.json')), name).toBe(true)
      if (KEPT.has(name)) continue
      expect(existsSync(join(POLICIES_DIR, 'corpus', `${name}.json`)), name).toBe(true)
    }
  })
  test('an installed script stands alone: the shared reader pasted in, no include line left', () => {
    for (const template of TEMPLATES) {
      for (const [path, text] of Object.entries(template.files)) {
        if (!path.endsWith('.sh')) continue
        expect(text, path).not.toContain('# hookrun:include')
        expect(text.startsWith('#!/bin/sh\n'), path).toBe(true)
      }
    }
  })
})
