#!/bin/sh
# hookrun policy dangerous-commands: refuse shell commands that destroy data or take over the
# machine. Runs on tool:pre_execute:bash, every agent's shell tool. Exit 2 blocks; the message on
# stderr goes back to the agent as the reason. See policies/dangerous-commands/README.md.
#
# It reads the command as the shell would, roughly (the word reader below), so `rm -Rf /`,
# `rm -r -f  /`, `sh -c 'rm -rf ~/'` and `cd / && rm -rf *` are one and the same. It guards
# against accidents, not against an adversary: a script file written first and run later, or a
# command built from variables at run time, is beyond what any pattern can see.
HR_POLICY=dangerous-commands
cmd=${HOOKRUN_BASH_COMMAND-}
[ -n "$cmd" ] || exit 0
# hookrun:include lib/commands.sh
# hookrun:include lib/download-run.sh
# hookrun:include lib/force-push.sh
case $cmd in *':(){'* | *'(){ :|:&'*) hr_deny "refusing a fork bomb: $cmd" ;; esac
at_root=no
# is_everything WORD: WORD means the root, the home folder or a system folder (or all of it).
is_everything() {
  _w=$1
  _what='the root or home folder'
  while :; do
    case $_w in
      */) _w=${_w%/} ;;
      */\*) _w=${_w%/\*} ;;
      */.) _w=${_w%/.} ;;
      *) break ;;
    esac
  done
  case $_w in
    '' | '~' | '$HOME' | '${HOME}') return 0 ;;
    /bin | /boot | /dev | /etc | /home | /lib | /lib64 | /opt | /root | /sbin | /srv | /usr | /var | /Users | /System | /Library | /Applications | /private | /mnt | /media) _what="a system folder ($_w)"; return 0 ;;
    '*' | '.') [ "$at_root" = yes ] && return 0 ;;
    '$'[A-Za-z_]* | '${'[A-Za-z_]*'}')
      # "$DIR/" or "$DIR/*": the root folder itself when DIR is empty or unset.
      [ "$_w" != "$1" ] && { _what="the root folder if $_w is empty"; return 0; } ;;
  esac
  [ -n "${HOME-}" ] && [ "$HOME" != / ] && [ "$_w" = "$HOME" ] && return 0
  return 1
}
disk() { case $1 in /dev/sd* | /dev/nvme* | /dev/hd* | /dev/vd* | /dev/xvd* | /dev/disk* | /dev/rdisk* | /dev/mmcblk* | /dev/md* | /dev/mapper/*) return 0 ;; esac; return 1; }
# recursive_everything WORDS…: a recursive flag and a target that is everything (or the .git folder).
recursive_everything() {
  _rec=no
  _all=no
  for _w in "$@"; do
    case $_w in
      --recursive) _rec=yes ;;
      --no-preserve-root) _rec=yes; _all=yes ;;
      --*) ;;
      -*[rR]*) _rec=yes ;;
      -*) ;;
      .git | .git/ | ./.git | ./.git/) _all=git ;;
      *) is_everything "$_w" && { _all=yes; _found=$_what; } ;;
    esac
  done
  _what=${_found:-the root or home folder}
  _found=
  [ "$_rec" = yes ] && [ "$_all" != no ]
}
check() {
  kind=$1
  up=$2
  shift 2
  case $kind in
    R) disk "$1" && hr_deny "refusing to write to a disk device: $cmd"; return 0 ;;
    I) hr_download_run "$kind" "$up" "$@"; return 0 ;;
    *s) hr_deny "sudo is not allowed for the agent: $cmd" ;;
  esac
  name=$1
  shift
  case $name in
    cd) case ${1-'~'} in / | '~' | '~/' | '$HOME' | '${HOME}') at_root=yes ;; *) at_root=no ;; esac ;;
    rm | rmdir)
      if recursive_everything "$@"; then
        [ "$_all" = git ] && hr_deny "refusing to delete the project's .git folder (its whole history): $cmd"
        hr_deny "refusing to delete $_what: $cmd"
      fi ;;
    mv) for _w in "$@"; do case $_w in -*) ;; *) is_everything "$_w" && hr_deny "refusing to move $_what: $cmd" ;; esac; done ;;
    find)
      _top=no
      _where=
      for _w in "$@"; do
        case $_w in
          -*) break ;;
          *) is_everything "$_w" && { _top=yes; _where=$_what; } ;;
        esac
      done
      _what=$_where
      if [ "$_top" = yes ]; then
        for _w in "$@"; do case $_w in -delete | rm | shred | -execdir) hr_deny "refusing to delete across $_what: $cmd" ;; esac; done
      fi ;;
    mkfs | mkfs.* | mke2fs | wipefs | newfs* ) hr_deny "refusing to format a disk: $cmd" ;;
    dd) for _w in "$@"; do case $_w in of=/dev/*) disk "${_w#of=}" && hr_deny "refusing to write to a disk device: $cmd" ;; esac; done ;;
    shred) for _w in "$@"; do disk "$_w" && hr_deny "refusing to write to a disk device: $cmd"; done ;;
    diskutil) case ${1-} in eraseDisk | eraseVolume | zeroDisk | secureErase | partitionDisk) hr_deny "refusing to erase a disk: $cmd" ;; esac ;;
    chmod | chown | chgrp)
      recursive_everything "$@" && [ "$_all" = yes ] && hr_deny "refusing to open up the whole file system: $cmd" ;;
    shutdown | reboot | halt | poweroff) hr_deny "refusing to shut the machine down: $cmd" ;;
    kill | pkill | killall) for _w in "$@"; do [ "$_w" = -1 ] && hr_deny "refusing to kill every process: $cmd"; done ;;
    crontab) [ "${1-}" = -r ] && hr_deny "refusing to delete every cron job: $cmd" ;;
    psql | mysql | mariadb | sqlite3 | mongo | mongosh | sqlcmd | cockroach | clickhouse-client | redis-cli)
      _s=$(printf '%s ' "$@" | tr '[:lower:]' '[:upper:]')
      case $_s in
        *'DROP DATABASE'* | *'DROP SCHEMA'* | *'DROP TABLE'* | *'TRUNCATE '* | *DROPDATABASE* | *FLUSHALL* | *FLUSHDB*) hr_deny "refusing to drop or empty a database: $cmd" ;;
      esac ;;
    dropdb) hr_deny "refusing to drop a database: $cmd" ;;
    terraform | tofu | pulumi) case ${1-} in destroy) hr_deny "refusing to destroy infrastructure: $cmd" ;; esac ;;
    kubectl)
      if [ "${1-}" = delete ]; then
        for _w in "$@"; do case $_w in --all | namespace | namespaces | ns | -A | --all-namespaces) hr_deny "refusing to delete a namespace or every resource: $cmd" ;; esac; done
      fi ;;
    aws)
      case "${1-} ${2-}" in
        's3 rb') hr_deny "refusing to delete a bucket: $cmd" ;;
        's3 rm') for _w in "$@"; do [ "$_w" = --recursive ] && hr_deny "refusing to delete a bucket's contents: $cmd"; done ;;
      esac ;;
    gsutil | gcloud)
      case " $* " in
        *' rm -r '* | *' rm -rf '* | *' rb '* | *' projects delete '*) hr_deny "refusing to delete cloud storage or a project: $cmd" ;;
      esac ;;
  esac
  hr_download_run "$kind" "$up" "$name" "$@"
  hr_force_push "$name" "$@"
}
hr_each check "$cmd"
exit 0
