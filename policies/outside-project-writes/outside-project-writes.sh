#!/bin/sh
# hookrun policy outside-project-writes: refuse writing, moving or deleting files outside the
# project (and the temporary folders): ~/.bashrc, /etc/hosts, another repository. Checks the
# write and edit tools and shell commands that write (see lib/write-targets.sh).
# See policies/outside-project-writes/README.md.
HR_POLICY=outside-project-writes
cmd=${HOOKRUN_BASH_COMMAND-}
# hookrun:include lib/commands.sh
# hookrun:include lib/write-targets.sh
project=${HOOKRUN_PROJECT_DIR:-$(pwd)}
allow="$project /tmp /var/tmp /private/tmp /private/var/folders /var/folders /dev/null ${TMPDIR:-/tmp} ${HOOKRUN_WRITE_ALLOW-}"
list=$project/.hookrun/write-folders
[ -f "$list" ] && allow="$allow $(sed -e 's/#.*//' "$list" | tr '\n' ' ')"
inside() {
  _p=$(hr_path "$1")
  set -f
  for _a in $allow; do
    _a=$(hr_path "$_a")
    case $_p in "$_a" | "$_a"/*) return 0 ;; esac
  done
  case $_p in *'$'* | *'@SUB['*) ;; *) hr_deny "refusing to write outside the project: $_p is not in $project (allow a folder in .hookrun/write-folders)" ;; esac
  return 0
}
hr_targets inside
exit 0
