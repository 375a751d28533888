import { afterEach, expect, test, vi } from 'vitest'
import { terminalProgress } from '../../src/commands/progress.ts'

afterEach(() => vi.useRealTimers())

test('on a terminal: a hook running past the delay is named on stderr, and the line goes when it ends; quick hooks print nothing', () => {
  vi.useFakeTimers()
  const written: string[] = []
  const progress = terminalProgress((text) => written.push(text), 1000)
  const finished = { type: 'hook_finished', outcome: 'allow', exitCode: 0, durationMs: 1, timedOut: false } as const
  progress({ type: 'hook_started', hook: 'quick', event: 'tool:pre_execute:bash', time: '' })
  vi.advanceTimersByTime(500)
  progress({ ...finished, hook: 'quick' })
  vi.advanceTimersByTime(2000)
  expect(written).toEqual([])
  progress({ type: 'hook_started', hook: 'slow-tests', event: 'agent:stop', time: '' })
  vi.advanceTimersByTime(1000)
  expect(written).toEqual(['hookrun: running slow-tests (agent:stop)…'])
  progress({ ...finished, hook: 'slow-tests' })
  expect(written).toEqual(['hookrun: running slow-tests (agent:stop)…', '\r\u001b[K'])
})
