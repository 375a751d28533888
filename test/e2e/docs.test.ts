/**
 * The documentation as a reader meets it: generated pages match what the built hookrun says
 * (scripts/docs.ts), every relative link and anchor leads somewhere, and no page sends a reader
 * to a document that is not in the repository.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { markdownPages } from './pages.ts'

/** GitHub's anchor for a heading (lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2), and `<a id>` anchors. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const counts = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    if (!fenced) for (const named of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(named[1]!)
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const base = heading[1]!
      .toLowerCase()
      .replace(/`/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const seen = counts.get(base) ?? 0
    counts.set(base, seen + 1)
    anchors.add(seen === 0 ? base : `${base}-${seen}`)
  }
  return anchors
}

/** The links of a page outside code blocks and code spans: [text](target). */
export function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!)
}

describe('generated pages', () => {
  test('docs/events.md, cli.md, reference.md and agents/README.md are what scripts/docs.ts writes now', () => {
    const check = spawnSync(join(ROOT, 'node_modules', '.bin', 'bun'), [join(ROOT, 'scripts', 'docs.ts'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(check.status, check.stderr).toBe(0)
  })
})

describe('links', () => {
  const pages = markdownPages()
  test('there are pages', () => expect(pages.length).toBeGreaterThan(3))
  for (const page of pages) {
    test(`${relative(ROOT, page)}: every relative link and anchor resolves`, () => {
      const text = readFileSync(page, 'utf8')
      const broken: string[] = []
      for (const link of linksOf(text)) {
        if (/^[a-z]+:/i.test(link)) continue
        const [path, anchor] = link.split('#') as [string, string | undefined]
        const target = path === '' ? page : resolve(dirname(page), decodeURIComponent(path))
        if (!existsSync(target)) {
          broken.push(`${link}: no such file`)
          continue
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
          broken.push(`${link}: no heading with that anchor`)
      }
      expect(broken).toEqual([])
    })
  }
  test('no page cites a document a reader of the repository does not have', () => {
    const outside = pages.flatMap((page) =>
      readFileSync(page, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /DESIGN §|shared\/reference|shared\/seeds|\bseeds?\b/.test(line) ? [`${relative(ROOT, page)}:${index + 1}: ${line.trim()}`] : [],
        ),
    )
    expect(outside).toEqual([])
  })
})

describe('the checkers themselves', () => {
  test('anchors follow GitHub: punctuation dropped, repeats numbered', () => {
    expect([...anchorsOf('# Quick start: Claude Code\n## `hookrun fire`\n## A b\n## A b\n```\n# not a heading\n```')]).toEqual([
      'quick-start-claude-code',
      'hookrun-fire',
      'a-b',
      'a-b-1',
    ])
  })
  test('links in code are not links', () => {
    expect(linksOf('[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n')).toEqual(['x.md'])
  })
})
