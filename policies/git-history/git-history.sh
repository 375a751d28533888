#!/bin/sh
# hookrun policy git-history: refuse rewriting shared git history: force-pushes, pushes to a
# protected branch (main, master, … or your list), deleting one, reset --hard or rebase on one,
# filter-branch / filter-repo, and pruning the reflog. See policies/git-history/README.md.
HR_POLICY=git-history
cmd=${HOOKRUN_BASH_COMMAND-}
[ -n "$cmd" ] || exit 0
# hookrun:include lib/commands.sh
# hookrun:include lib/force-push.sh
# Protected branches: HOOKRUN_PROTECTED_BRANCHES (space-separated globs), else one per line in
# .hookrun/protected-branches, else these.
protected=${HOOKRUN_PROTECTED_BRANCHES-}
list=${HOOKRUN_PROJECT_DIR:-.}/.hookrun/protected-branches
[ -z "$protected" ] && [ -f "$list" ] && protected=$(sed -e 's/#.*//' "$list" | tr '\n' ' ')
[ -n "$protected" ] || protected='main master trunk develop production prod release/* release-*'
is_protected() {
  for _p in $protected; do
    # shellcheck disable=SC2254 # the list holds globs
    case $1 in $_p) return 0 ;; esac
  done
  return 1
}
current() { git -C "${HOOKRUN_WORK_DIR:-.}" symbolic-ref --short -q HEAD 2>/dev/null; }
check() {
  case $1 in R | I) return 0 ;; esac
  shift 2
  [ "$1" = git ] || return 0
  hr_force_push "$@"
  shift
  hr_git "$@"
  _ifs=$IFS
  IFS='	'
  # shellcheck disable=SC2086
  set -- $HR_GIT_ARGS
  IFS=$_ifs
  case $HR_GIT_SUB in
    push)
      _n=0
      _delete=no
      _tags=no
      for _w in "$@"; do
        case $_w in
          --delete | -d) _delete=yes ;;
          --tags) _tags=yes ;;
          --all | --branches) hr_deny "pushing every branch includes the protected ones; push one branch: $cmd" ;;
          --repo=* | --receive-pack=* | --exec=* | --push-option=* | -o) ;;
          -*) ;;
          *)
            _n=$((_n + 1))
            [ $_n -ge 2 ] || continue
            _dest=${_w#+}
            case $_dest in *:*) _dest=${_dest##*:}; [ -z "$_dest" ] && continue ;; esac
            case $_w in :*) _delete=yes ;; esac
            _dest=${_dest#refs/heads/}
            [ "$_dest" = HEAD ] && _dest=$(current)
            if is_protected "$_dest"; then
              [ "$_delete" = yes ] && hr_deny "refusing to delete the protected branch $_dest: $cmd"
              hr_deny "refusing to push to the protected branch $_dest; push a branch and open a pull request: $cmd"
            fi ;;
        esac
      done
      if [ $_n -le 1 ] && [ "$_tags" = no ]; then
        _b=$(current)
        [ -n "$_b" ] && is_protected "$_b" && hr_deny "refusing to push the protected branch $_b (checked out); push a branch and open a pull request: $cmd"
      fi ;;
    reset)
      for _w in "$@"; do
        [ "$_w" = --hard ] || continue
        _b=$(current)
        [ -n "$_b" ] && is_protected "$_b" && hr_deny "refusing git reset --hard on the protected branch $_b: $cmd"
      done ;;
    rebase)
      case ${1-} in --continue | --abort | --skip | --quit | --edit-todo | --show-current-patch) return 0 ;; esac
      _b=$(current)
      [ -n "$_b" ] && is_protected "$_b" && hr_deny "refusing to rebase the protected branch $_b: $cmd" ;;
    commit)
      for _w in "$@"; do
        [ "$_w" = --amend ] || continue
        _b=$(current)
        [ -n "$_b" ] && is_protected "$_b" && hr_deny "refusing to amend a commit on the protected branch $_b: $cmd"
      done ;;
    filter-branch | filter-repo) hr_deny "refusing to rewrite the whole history ($HR_GIT_SUB): $cmd" ;;
    branch)
      _del=no
      for _w in "$@"; do
        case $_w in
          -D | -d | --delete | -M | -m | --move | -f | --force | -[a-zA-Z]*[DdMf]*) _del=yes ;;
          -*) ;;
          *) [ "$_del" = yes ] && is_protected "$_w" && hr_deny "refusing to delete, move or reset the protected branch $_w: $cmd" ;;
        esac
      done ;;
    update-ref) for _w in "$@"; do [ "$_w" = -d ] && hr_deny "refusing to delete a ref by hand: $cmd"; done ;;
    reflog) [ "${1-}" = expire ] || [ "${1-}" = delete ] && hr_deny "refusing to prune the reflog (the way back): $cmd" ;;
    gc) for _w in "$@"; do case $_w in --prune=now | --prune=all) hr_deny "refusing to prune unreachable commits now (the way back): $cmd" ;; esac; done ;;
  esac
  return 0
}
hr_each check "$cmd"
exit 0
