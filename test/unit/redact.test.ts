import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { auditLine } from '../../src/audit/audit.ts'
import type { Decision } from '../../src/core/protocol.ts'
import {
  ASSIGNED,
  COMMAND_SECRETS,
  FLAG,
  isSecretName,
  MAY_HOLD_SECRET,
  REDACTED,
  redactText,
  redactValue,
  TOKEN_SHAPES,
  URL_PASSWORD,
} from '../../src/audit/redact.ts'
import { cpuMs } from '../helpers.ts'

describe('isSecretName', () => {
  test.each([
    'API_KEY',
    'apiKey',
    'apikey',
    'GITHUB_TOKEN',
    'accessToken',
    'client_secret',
    'password',
    'DB_PASSWD',
    'Authorization',
    'cookie',
    'key',
    'aws-secret-access-key',
    'PRIVATE_KEY',
  ])('%s is secret', (name) => {
    expect(isSecretName(name)).toBe(true)
  })
  test.each(['max_tokens', 'input_tokens', 'keyboard', 'monkey', 'session_id', 'tool_name', 'command', 'file_path', 'author'])(
    '%s is not',
    (name) => {
      expect(isSecretName(name)).toBe(false)
    },
  )
})

describe('redactText', () => {
  const secrets = {
    github: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
    openai: 'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
    anthropic: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    aws: 'AKIAIOSFODNN7EXAMPLE',
    slack: 'xoxb-1234567890-abcdefghij',
    google: 'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
    stripe: 'sk_live_abcdefghij0123456789',
    npm: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
    jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  }
  test.each(Object.entries(secrets))('a %s token shape', (_, token) => {
    const out = redactText(`curl -d x ${token} and more`)
    expect(out).not.toContain(token.slice(4, 14))
    expect(out).toContain(REDACTED)
    expect(out).toContain('and more')
  })

  test.each([
    ['export GITHUB_TOKEN=abc123 && make', 'export GITHUB_TOKEN=[REDACTED] && make'],
    ['API_KEY="my key" ./run', 'API_KEY=[REDACTED] ./run'],
    ['mysql --password hunter2 -u root', 'mysql --password [REDACTED] -u root'],
    ['mysql --password=hunter2', 'mysql --password=[REDACTED]'],
    ['{"user":"u","password":"hunter2"}', '{"user":"u","password":"[REDACTED]"}'.replace('"[REDACTED]"', '[REDACTED]')],
    ['curl -H "Authorization: Bearer abcdefghijkl" x', 'curl -H "Authorization: [REDACTED] [REDACTED]" x'],
    ['git clone https://me:s3cret@github.com/x/y', 'git clone https://me:[REDACTED]@github.com/x/y'],
    ['curl "https://api.x.io/v1?api_key=abc123&q=1"', 'curl "https://api.x.io/v1?api_key=[REDACTED]&q=1"'],
    ['FOO=bar ls -la; echo $PATH', 'FOO=bar ls -la; echo $PATH'],
    ['the password is easy to guess', 'the password is easy to guess'],
  ])('%s', (input, expected) => {
    expect(redactText(input)).toBe(expected)
  })

  test('linear time on hostile text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('a', 'key', 'sk-', 'A=', '"', 'key=', 'a: ', '--token ', 'eyJ', '://a:', 'Bearer '),
        fc.integer({ min: 1000, max: 3000 }),
        (unit, times) => {
          expect(cpuMs(() => redactText(unit.repeat(times))).ms).toBeLessThan(100)
        },
      ),
      { numRuns: 30 },
    )
  })
})

describe('the quick test before redaction', () => {
  // Every text a pattern matches holds something MAY_HOLD_SECRET looks for, so a text it passes
  // over has nothing to redact. Texts are generated from each pattern (fast-check cannot take
  // \b or lookarounds: a positive lookaround's text is made part of the match, \b and negative lookbehinds
  // are dropped, which only widens what is generated; a backreference becomes its group).
  const patterns = [...TOKEN_SHAPES, ...COMMAND_SECRETS.map(([pattern]) => pattern), ASSIGNED, FLAG, URL_PASSWORD]
  test.each(patterns.map((pattern) => [pattern.source.slice(0, 48), pattern] as const))('%s', (_name, pattern) => {
    const source = pattern.source
      .replaceAll('\\b', '')
      .replaceAll(/\(\?<!\[\\w-\]\)/g, '')
      .replaceAll('(?<=', '(?:')
      .replaceAll('(?=', '(?:')
      .replaceAll('\\1', `["']?`)
    const generated = fc.stringMatching(new RegExp(source, pattern.flags.replace(/[gi]/g, '')))
    fc.assert(
      fc.property(generated, (text) => MAY_HOLD_SECRET.test(text)),
      { numRuns: 300 },
    )
  })

  test('usual hook commands are passed over, so redaction compiles none of its patterns for them', () => {
    for (const text of ['true', './check.sh', 'npm test', 'node hook.js', 'python3 scripts/gate.py', 'exit 0', 'echo ran'])
      expect(MAY_HOLD_SECRET.test(text)).toBe(false)
  })

  test('redacting a text it passes over would change nothing', () => {
    for (const text of ['true', './check.sh', 'npm test', 'exit 0', 'echo ran']) expect(redactText(text)).toBe(text)
    fc.assert(fc.property(fc.string(), (text) => MAY_HOLD_SECRET.test(text) || redactText(text) === text))
  })
})

describe('redactValue', () => {
  test('secret-named keys lose their values at any depth; strings are redacted and cut', () => {
    const value = {
      tool_input: { command: `echo ${'x'.repeat(5000)}`, env: { API_KEY: 'k', HOME: '/h' } },
      headers: [{ name: 'x', token: { nested: 'y' } }],
      max_tokens: 10,
    }
    const out = redactValue(value, { maxString: 100, maxValues: 100 }) as typeof value
    expect(out.tool_input.env).toEqual({ API_KEY: REDACTED, HOME: '/h' })
    expect(out.headers[0]!.token).toBe(REDACTED)
    expect(out.max_tokens).toBe(10)
    expect(out.tool_input.command).toHaveLength(101)
  })

  test('a token straddling the cut does not leave its start behind', () => {
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345'
    const out = redactValue(`${'x'.repeat(90)} ${token}`, { maxString: 100, maxValues: 10 }) as string
    expect(out).not.toContain('ghp_')
  })
})

describe('auditLine', () => {
  const decision: Decision = {
    event: 'tool:pre_execute:bash',
    decision: 'deny',
    blocked: true,
    reason: 'refused: token ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked',
    continue: true,
    additionalContext: [],
    hooks: [
      {
        name: 'gate',
        source: 'project',
        file: '/p/h.json',
        outcome: 'deny',
        exitCode: 2,
        signal: null,
        durationMs: 3,
        timedOut: false,
        reason: 'PASSWORD=x',
      },
    ],
    warnings: ['w'],
  }

  test('one line: event, each hook’s outcome, the decision, the redacted payload', () => {
    const line = auditLine(
      {
        decision,
        payload: { tool_name: 'Bash', tool_input: { command: 'export AWS_SECRET_ACCESS_KEY=abc' } },
        cwd: '/p',
        projectRoot: '/p',
      },
      new Date(0),
    )
    expect(line).not.toContain('\n')
    expect(JSON.parse(line)).toEqual({
      time: '1970-01-01T00:00:00.000Z',
      pid: process.pid,
      cwd: '/p',
      project: '/p',
      event: 'tool:pre_execute:bash',
      decision: 'deny',
      blocked: true,
      reason: `refused: token ${REDACTED} leaked`,
      continue: true,
      hooks: [
        { name: 'gate', source: 'project', outcome: 'deny', exitCode: 2, durationMs: 3, timedOut: false, reason: `PASSWORD=${REDACTED}` },
      ],
      warnings: ['w'],
      payload: { tool_name: 'Bash', tool_input: { command: `export AWS_SECRET_ACCESS_KEY=${REDACTED}` } },
    })
  })

  test('a payload too large to log is left out, and the line stays small', () => {
    const payload = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`k${index}`, 'v'.repeat(500)]))
    const line = auditLine({ decision, payload, cwd: '/p', projectRoot: '/p' })
    expect(line.length).toBeLessThan(4096)
    expect(JSON.parse(line).payload.omitted).toMatch(/too large to log/)
  })
})

describe('issue 12: secrets that used to reach the log', () => {
  const limits = { maxString: 200, maxValues: 100 }
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAx4Ue'.repeat(80)}\n-----END RSA PRIVATE KEY-----\n`
  test('a private key longer than the cut is redacted before cutting', () => {
    const out = redactValue({ tool_input: { content: pem } }, limits) as { tool_input: { content: string } }
    expect(out.tool_input.content).not.toContain('MIIEowIBAAKCAQEAx4Ue')
  })
  test.each([
    ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
    ['curl -u alice:s3cretpw https://x.test', 's3cretpw'],
    ['mysql -u root -pHunter2pw db', 'Hunter2pw'],
    ['sshpass -p Hunter2pw ssh host', 'Hunter2pw'],
    ['docker login -u me -p Hunter2pw registry.test', 'Hunter2pw'],
    ['aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['token glpat-abcdefghij0123456789', 'glpat-abcdefghij0123456789'],
    ['hf_abcdefghijklmnopqrstuvwxyzABCDEFGH here', 'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH'],
  ])('%s', (text, secret) => {
    const out = redactText(text)
    expect(out).not.toContain(secret)
    expect(out).toContain(REDACTED)
  })
  test('what is not a secret stays', () => {
    expect(redactText('mkdir -p build && curl -u alice https://x.test')).toBe('mkdir -p build && curl -u alice https://x.test')
  })
})
