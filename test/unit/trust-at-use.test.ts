/**
 * Trust checked at the moment of use (issue 29 row 4): a project hook's script edited while an
 * earlier hook of the same fire runs is not run as trusted; it blocks as a changed project does.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { fire } from '../../src/fire.ts'
import { materialCheck } from '../../src/trust/verify.ts'
import { statSignature } from '../../src/core/stat.ts'
import type { TrustFootprint } from '../../src/trust/footprint.ts'
import type { ProjectTrust } from '../../src/trust/trust.ts'
import type { Hook } from '../../src/core/types.ts'
import { cliEnvironment, makeProject, removeProject, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

/** A trusted project whose first hook rewrites the second hook's script (to let everything through). */
function project(event: string) {
  const dir = makeProject({
    '.hookrun/gate.sh': 'touch gate-ran; echo "no rm" >&2; exit 2\n',
    '.hookrun/hooks.json': {
      hooks: [
        { name: 'editor', event, command: `printf 'touch gate-ran; exit 0\\n' > .hookrun/gate.sh` },
        { name: 'gate', event, command: 'sh .hookrun/gate.sh' },
      ],
    },
  })
  projects.push(dir)
  trustProjectFor(dir)
  return { dir, env: cliEnvironment(dir) }
}

const payload = { tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } }

describe('trust at the moment of use', () => {
  test('a gate script edited after the fire started blocks as changed-since-trusted; it is not run', async () => {
    const { dir, env } = project('tool:pre_execute')
    const decision = await fire({ event: 'tool:pre_execute', payload, cwd: dir, env })
    expect(decision).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'gate' })
    expect(decision.reason).toBe(
      `project hooks in ${dir} changed since you trusted them (.hookrun/gate.sh edited): review with 'hookrun trust --diff', then run: hookrun trust ${dir}`,
    )
    expect(existsSync(join(dir, 'gate-ran'))).toBe(false)
  })

  test('outside a gate the changed hook is skipped with the same notice', async () => {
    const { dir, env } = project('tool:post_execute')
    const decision = await fire({ event: 'tool:post_execute', payload, cwd: dir, env })
    expect(decision.blocked).toBe(false)
    expect(decision.warnings).toContain(
      `hook 'gate' was not run: project hooks in ${dir} changed since you trusted them (.hookrun/gate.sh edited): review with 'hookrun trust --diff', then run: hookrun trust ${dir}`,
    )
    expect(existsSync(join(dir, 'gate-ran'))).toBe(false)
  })

  test('a file rewritten with the same content (a new signature) is hashed and still runs', async () => {
    const dir = makeProject({
      '.hookrun/gate.sh': 'echo "no rm" >&2; exit 2\n',
      '.hookrun/hooks.json': {
        hooks: [
          // Written again in place (same content and mode, a new modification time).
          {
            name: 'toucher',
            event: 'tool:pre_execute',
            command: 'cat .hookrun/gate.sh > copy.sh && sleep 0.01 && cat copy.sh > .hookrun/gate.sh',
          },
          { name: 'gate', event: 'tool:pre_execute', command: 'sh .hookrun/gate.sh' },
        ],
      },
    })
    projects.push(dir)
    trustProjectFor(dir)
    const decision = await fire({ event: 'tool:pre_execute', payload, cwd: dir, env: cliEnvironment(dir) })
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'gate', reason: 'no rm' })
  })
})

describe("trust at use with the footprint the fire's trust rested on", () => {
  /** A trusted project whose gate runs `sh .hookrun/gate.sh`, the hook as the config stage gives it, and its record's file. */
  function trustedGate() {
    const dir = makeProject({
      '.hookrun/gate.sh': 'exit 0\n',
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'sh .hookrun/gate.sh' }] },
    })
    projects.push(dir)
    trustProjectFor(dir)
    const env = cliEnvironment(dir)
    const hook = {
      name: 'gate',
      event: 'tool:pre_execute',
      command: 'sh .hookrun/gate.sh',
      projectRoot: dir,
      source: { file: join(dir, '.hookrun', 'hooks.json'), layer: 'project' },
    } as unknown as Hook
    const trusts: ProjectTrust[] = [{ root: dir, trusted: true, via: 'record', command: `hookrun trust ${dir}` }]
    const recordFile = readdirSync(join(dir, '.xdg-state', 'hookrun', 'trust'))
      .map((name) => join(dir, '.xdg-state', 'hookrun', 'trust', name))
      .find((file) => !file.endsWith('.texts.json'))!
    return { dir, env, hook, trusts, gate: join(dir, '.hookrun', 'gate.sh'), recordFile }
  }

  test('a file the footprint pins at its signature is not looked up in the record', async () => {
    const { dir, env, hook, trusts, gate, recordFile } = trustedGate()
    writeFileSync(gate, 'exit 2\n')
    // The record says edited; a footprint that pins the file as it is now (its record unchanged) vouches for it.
    expect(await materialCheck(trusts, env)!(hook)).toEqual(['.hookrun/gate.sh edited'])
    const footprint: TrustFootprint = {
      record: [recordFile, statSignature(recordFile)],
      files: [[gate, statSignature(gate)]],
      configFiles: [],
      commandPaths: [],
    }
    expect(await materialCheck(trusts, env, new Map([[dir, footprint]]))!(hook)).toEqual([])
  })

  test('a file changed since its footprint, or a record removed, is judged by the record', async () => {
    const { dir, env, hook, trusts, gate, recordFile } = trustedGate()
    const footprint: TrustFootprint = {
      record: [recordFile, statSignature(recordFile)],
      files: [[gate, statSignature(gate)]],
      configFiles: [],
      commandPaths: [],
    }
    const footprints = new Map([[dir, footprint]])
    writeFileSync(gate, 'exit 2\n')
    expect(await materialCheck(trusts, env, footprints)!(hook)).toEqual(['.hookrun/gate.sh edited'])
    rmSync(recordFile)
    expect(await materialCheck(trusts, env, footprints)!(hook)).toEqual(['the trust record removed'])
  })
})
