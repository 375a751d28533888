import { expect, test } from 'vitest'
import { formatTable } from '../../src/commands/list.ts'
import { table } from '../../src/core/table.ts'

test('columns line up whatever a cell holds: long names, and characters wider than a byte', () => {
  const long = 'PreToolUse[Bash|Edit|Write] "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'
  expect(
    formatTable(
      ['NAME', 'EVENT'],
      [
        [long, 'tool:pre_execute'],
        ['short', 'session:start'],
      ],
    ),
  ).toEqual([
    `NAME${' '.repeat(long.length - 4)}  EVENT`,
    `${long}  tool:pre_execute`,
    `short${' '.repeat(long.length - 5)}  session:start`,
  ])
  expect(
    table([
      ['é›', 'x'],
      ['ab', 'y'],
    ]),
  ).toEqual(['é›  x', 'ab  y'])
  expect(
    table([
      ['a', ''],
      ['bb', 'z'],
    ]),
  ).toEqual(['a', 'bb  z'])
})
