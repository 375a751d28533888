// Which project a fire belongs to: the agent's (README "Which project"), enclosing projects, git worktrees.
import { spawnSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { findConfigFiles } from '../../src/config/files.ts'
import { agentProjectDir, projectSearchStart } from '../../src/config/project.ts'
import { DIALECTS } from '../../src/agents/registry.ts'
import { mainCheckoutOf } from '../../src/trust/worktree.ts'
import { cliEnvironment, makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

function folders(...names: string[]): Record<string, string> & { root: string } {
  const root = makeProject()
  dirs.push(root)
  const made: Record<string, string> = { root }
  // Each folder by its first name: `project/sub` makes both and names `project`.
  for (const name of names) {
    mkdirSync(join(root, name), { recursive: true })
    made[name.split('/')[0]!] = join(root, name.split('/')[0]!)
  }
  return made as Record<string, string> & { root: string }
}

const dialect = (name: string) => DIALECTS.find((each) => each.name === name)!.project

describe("the agent's project", () => {
  test('every dialect says where its project comes from', () => {
    for (const each of DIALECTS) expect(each.project, each.name).toBeDefined()
  })

  test("the agent's variable wins over its payload: Claude Code's cwd follows the model's cd", () => {
    const { project, elsewhere } = folders('project', 'elsewhere')
    expect(agentProjectDir(dialect('claude'), { CLAUDE_PROJECT_DIR: project }, { cwd: elsewhere })).toBe(project)
    // Claude Code's payload cwd is never the project: it is the tool's folder.
    expect(agentProjectDir(dialect('claude'), {}, { cwd: elsewhere })).toBeUndefined()
  })

  test("aliases count after the agent's own variable; another agent's variable counts for nothing", () => {
    const { mine, leaked } = folders('mine', 'leaked')
    expect(agentProjectDir(dialect('gemini'), { GEMINI_PROJECT_DIR: mine, CLAUDE_PROJECT_DIR: leaked }, {})).toBe(mine)
    expect(agentProjectDir(dialect('cursor'), { CLAUDE_PROJECT_DIR: mine }, {})).toBe(mine)
    expect(agentProjectDir(dialect('droid'), { CLAUDE_PROJECT_DIR: leaked }, {})).toBeUndefined()
  })

  test('a payload field counts only where the agent sets no variable and fills it from its session', () => {
    const { session, root, variable } = folders('session', 'root', 'variable')
    expect(agentProjectDir(dialect('codex'), {}, { cwd: session })).toBe(session)
    // Copilot runs its hooks in the project root: its payload's cwd does not move the search.
    expect(agentProjectDir(dialect('copilot'), {}, { cwd: session })).toBeUndefined()
    expect(agentProjectDir(dialect('cursor'), {}, { workspace_roots: [root], cwd: session })).toBe(root)
    // A variable set beats the payload even when the agent has a payload field.
    expect(agentProjectDir(dialect('cursor'), { CURSOR_PROJECT_DIR: variable }, { workspace_roots: [root] })).toBe(variable)
  })

  test('a path that is not a folder here names nothing (a remote agent); a relative one neither', () => {
    const { root } = folders()
    expect(agentProjectDir(dialect('claude'), { CLAUDE_PROJECT_DIR: join(root, 'gone') }, {})).toBeUndefined()
    expect(agentProjectDir(dialect('claude'), { CLAUDE_PROJECT_DIR: 'relative/path' }, {})).toBeUndefined()
    expect(agentProjectDir(dialect('codex'), {}, { cwd: 7 })).toBeUndefined()
  })

  test("the search starts in the agent's project unless the tool's folder is inside it", () => {
    const { project, elsewhere } = folders('project/sub/deep', 'elsewhere')
    const sub = join(project!, 'sub')
    expect(projectSearchStart(project, elsewhere!)).toBe(project)
    expect(projectSearchStart(project, sub)).toBe(sub)
    expect(projectSearchStart(project, project!)).toBe(project)
    // A sibling whose name starts the same is not inside.
    expect(projectSearchStart(project, `${project}-other`)).toBe(project)
    expect(projectSearchStart(undefined, elsewhere!)).toBe(elsewhere)
  })

  test('inside the project through a link counts as inside', () => {
    const { project, root } = folders('project/sub')
    symlinkSync(project!, join(root, 'link'))
    expect(projectSearchStart(join(root, 'link'), join(project!, 'sub'))).toBe(join(project!, 'sub'))
  })
})

describe('enclosing projects', () => {
  const write = (file: string, content: unknown) => {
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, JSON.stringify(content))
  }

  test('every project at or above the folder takes part, outermost first; a nested one never hides the enclosing', () => {
    const { root } = folders('sub/deeper')
    write(join(root, '.hookrun/hooks.json'), { hooks: [] })
    write(join(root, '.hookrun/hooks.local.json'), { hooks: [] })
    write(join(root, 'sub/.hookrun/hooks.json'), {})
    const env = cliEnvironment(root)
    const found = findConfigFiles({ cwd: join(root, 'sub/deeper'), env })
    expect(found.projects).toEqual([root, join(root, 'sub')])
    expect(found.projectRoot).toBe(join(root, 'sub'))
    expect(found.files.map((ref) => [ref.layer, ref.file])).toEqual([
      ['project', join(root, '.hookrun/hooks.json')],
      ['local', join(root, '.hookrun/hooks.local.json')],
      ['project', join(root, 'sub/.hookrun/hooks.json')],
    ])
  })

  test('an empty hook folder makes a project, with no file: the enclosing files stay', () => {
    const { root } = folders('sub/.hookrun/hooks')
    write(join(root, '.hookrun/hooks.json'), { hooks: [] })
    const found = findConfigFiles({ cwd: join(root, 'sub'), env: cliEnvironment(root) })
    expect(found.projects).toEqual([root, join(root, 'sub')])
    expect(found.files.map((ref) => ref.file)).toEqual([join(root, '.hookrun/hooks.json')])
  })
})

describe('git worktrees', () => {
  const git = (cwd: string, ...args: string[]) => {
    const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
      cwd,
      encoding: 'utf8',
    })
    if (run.status !== 0) throw new Error(run.stderr)
  }

  test("a linked worktree's folder maps to the same folder of the main checkout; the main checkout maps to nothing", () => {
    const { repo, root } = folders('repo/pkg')
    writeFileSync(join(repo!, 'pkg/file'), 'x')
    git(repo!, 'init', '-q')
    git(repo!, 'add', '-A')
    git(repo!, 'commit', '-q', '-m', 'x')
    git(repo!, 'worktree', 'add', '-q', join(root, 'wt'))
    expect(mainCheckoutOf(join(root, 'wt'))).toBe(repo)
    expect(mainCheckoutOf(join(root, 'wt', 'pkg'))).toBe(join(repo!, 'pkg'))
    expect(mainCheckoutOf(repo!)).toBeUndefined()
    expect(mainCheckoutOf(join(repo!, 'pkg'))).toBeUndefined()
  })

  test('a .git file that its git folder does not point back at claims nothing', () => {
    const { repo, root } = folders('repo')
    git(repo!, 'init', '-q')
    mkdirSync(join(repo!, '.git/worktrees/fake'), { recursive: true })
    writeFileSync(join(repo!, '.git/worktrees/fake/commondir'), '../..\n')
    writeFileSync(join(repo!, '.git/worktrees/fake/gitdir'), `${join(root, 'real/.git')}\n`)
    mkdirSync(join(root, 'stray'))
    writeFileSync(join(root, 'stray/.git'), `gitdir: ${join(repo!, '.git/worktrees/fake')}\n`)
    expect(mainCheckoutOf(join(root, 'stray'))).toBeUndefined()
    // With the pointer back it is a worktree of repo.
    writeFileSync(join(repo!, '.git/worktrees/fake/gitdir'), `${join(root, 'stray/.git')}\n`)
    expect(mainCheckoutOf(join(root, 'stray'))).toBe(repo)
  })

  test('no git at all, or a submodule-like .git file without commondir: nothing', () => {
    const { root, sub } = folders('sub/gitdir')
    expect(mainCheckoutOf(root)).toBeUndefined()
    writeFileSync(join(sub!, '.git'), `gitdir: ${join(sub!, 'gitdir')}\n`)
    expect(mainCheckoutOf(sub!)).toBeUndefined()
  })
})
