#!/bin/sh
# hookrun policy protected-paths: refuse edits to files an agent should not change on its own:
# lockfiles, the .git folder, CI config, the agents' own settings and hooks, and hookrun's config.
# Checks the write and edit tools and shell commands that write (see lib/write-targets.sh).
# See policies/protected-paths/README.md.
HR_POLICY=protected-paths
cmd=${HOOKRUN_BASH_COMMAND-}
# hookrun:include lib/commands.sh
# hookrun:include lib/write-targets.sh
allow=${HOOKRUN_PROTECTED_PATHS_ALLOW-}
list=${HOOKRUN_PROJECT_DIR:-.}/.hookrun/protected-paths.allow
[ -f "$list" ] && allow="$allow $(sed -e 's/#.*//' "$list" | tr '\n' ' ')"
protect() {
  _p=$(hr_path "$1")
  _rel=${_p#"${HOOKRUN_PROJECT_DIR:-/nowhere}"/}
  set -f
  for _a in $allow; do
    # shellcheck disable=SC2254
    case $_rel in $_a) return 0 ;; esac
  done
  _why=
  case $_p in
    */package-lock.json | */npm-shrinkwrap.json | */yarn.lock | */pnpm-lock.yaml | */bun.lock | */bun.lockb | */Cargo.lock | */poetry.lock | */Pipfile.lock | */uv.lock | */pdm.lock | */Gemfile.lock | */composer.lock | */go.sum | */flake.lock | */mix.lock | */pubspec.lock | */Podfile.lock | */packages.lock.json | */gradle.lockfile | */deno.lock)
      _why="a lockfile: change it with the package manager (npm install, cargo update, …), not by hand" ;;
    */.git | */.git/*) _why="inside .git: use git commands" ;;
    */.github/workflows/* | */.gitlab-ci.yml | */.circleci/* | */Jenkinsfile | */azure-pipelines.yml | */.buildkite/* | */.travis.yml | */bitbucket-pipelines.yml | */.drone.yml | */.woodpecker/* | */.woodpecker.yml)
      _why="CI config: it runs with the repository's secrets" ;;
    */.claude/settings*.json | */.claude/hooks/* | */.cursor/hooks.json | */.cursor/hooks/* | */.gemini/settings.json | */.codex/config.toml | */.codex/hooks.json | */.github/hooks/* | */.windsurf/hooks.json | */.kiro/hooks/* | */.vscode/settings.json | */.mcp.json | */.cursor/mcp.json | */.claude.json | */.config/opencode/* | */.opencode/*)
      _why="an agent's own settings, hooks or MCP servers" ;;
    */.hookrun | */.hookrun/* | */hookrun/hooks.json | */hookrun/hooks.local.json) _why="hookrun's own config and policies" ;;
  esac
  [ -n "$_why" ] && hr_deny "refusing to change $1: $_why (allow it in .hookrun/protected-paths.allow)"
  return 0
}
hr_targets protect
exit 0
