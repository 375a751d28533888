# --- hookrun policy library: the files a tool call writes ---
# hr_targets FUNCTION: calls FUNCTION PATH for each file the call writes, moves or deletes: a
# write or edit tool's file, or in a shell command the redirections' targets, tee's files, where
# cp/mv/install/ln put things (and what mv takes away), what rm/touch/mkdir/truncate/chmod change,
# sed -i's files and dd's of=.
hr_targets() {
  HR_TARGET_FN=$1
  case ${HOOKRUN_QUALIFIED_EVENT-} in
    *:bash) [ -n "${HOOKRUN_BASH_COMMAND-}" ] && hr_each hr_targets_of "$HOOKRUN_BASH_COMMAND" ;;
    *)
      _hr_file=$(hr_arg file_path absolute_path path filePath notebook_path target_file)
      [ -n "$_hr_file" ] && "$HR_TARGET_FN" "$_hr_file" ;;
  esac
}
hr_targets_of() {
  case $1 in
    R) case $3 in /dev/null | /dev/stdout | /dev/stderr | /dev/tty | /dev/fd/*) ;; *) "$HR_TARGET_FN" "$3" ;; esac; return 0 ;;
    I) return 0 ;;
  esac
  shift 2
  _hr_name=$1
  shift
  _hr_last=
  for _hr_w in "$@"; do case $_hr_w in -*) ;; *) _hr_last=$_hr_w ;; esac; done
  case $_hr_name in
    tee | rm | rmdir | touch | mkdir | truncate | shred | chmod | chown | chgrp | unlink)
      for _hr_w in "$@"; do case $_hr_w in -*) ;; *) "$HR_TARGET_FN" "$_hr_w" ;; esac; done ;;
    cp | install | ln | rsync) [ -n "$_hr_last" ] && case $_hr_last in *:*) ;; *) "$HR_TARGET_FN" "$_hr_last" ;; esac ;;
    mv) for _hr_w in "$@"; do case $_hr_w in -*) ;; *) "$HR_TARGET_FN" "$_hr_w" ;; esac; done ;;
    sed | perl)
      _hr_inplace=no
      for _hr_w in "$@"; do case $_hr_w in -i* | --in-place*) _hr_inplace=yes ;; -pi* | -ni*) _hr_inplace=yes ;; esac; done
      if [ "$_hr_inplace" = yes ]; then
        _hr_first=yes
        for _hr_w in "$@"; do
          case $_hr_w in
            -e | -f) _hr_first=no ;;
            -*) ;;
            *) if [ "$_hr_first" = yes ]; then _hr_first=no; else "$HR_TARGET_FN" "$_hr_w"; fi ;;
          esac
        done
      fi ;;
    dd) for _hr_w in "$@"; do case $_hr_w in of=*) "$HR_TARGET_FN" "${_hr_w#of=}" ;; esac; done ;;
  esac
  return 0
}
