# --- hookrun policy library: git's subcommand, and a force-push ---
# hr_git ARGS… (after `git`): HR_GIT_SUB is the subcommand; hr_git_rest prints nothing, the
# arguments after it are in HR_GIT_ARGS (tab-separated) — call as: hr_git "$@"; set -f; IFS=tab; set -- $HR_GIT_ARGS
hr_git() {
  HR_GIT_SUB=
  while [ $# -gt 0 ]; do
    case $1 in
      -C | -c | --git-dir | --work-tree | --namespace | --exec-path) shift 2 ;;
      -*) shift ;;
      *) HR_GIT_SUB=$1; shift; break ;;
    esac
  done
  HR_GIT_ARGS=
  for _hr_w in "$@"; do HR_GIT_ARGS="$HR_GIT_ARGS	$_hr_w"; done
}
# hr_force_push NAME ARGS…: refuse `git push --force` and a +refspec.
hr_force_push() {
  [ "$1" = git ] || return 0
  shift
  hr_git "$@"
  [ "$HR_GIT_SUB" = push ] || return 0
  _hr_ifs=$IFS
  IFS='	'
  # shellcheck disable=SC2086
  set -- $HR_GIT_ARGS
  IFS=$_hr_ifs
  for _hr_w in "$@"; do
    case $_hr_w in
      --force | --force-with-lease* | --force-if-includes | --mirror | -f | -[a-z]*f*) hr_deny "force-pushing rewrites shared history; push without --force: $cmd" ;;
      +*) hr_deny "force-pushing rewrites shared history; push without --force (a +refspec forces): $cmd" ;;
    esac
  done
}
