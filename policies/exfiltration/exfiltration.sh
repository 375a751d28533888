#!/bin/sh
# hookrun policy exfiltration: refuse sending files to the network: curl -T / -d @file / -F f=@file
# / --data-binary @file, a body made of $(cat …), wget --post-file, scp and rsync to a remote
# host, nc/ncat/socat/telnet to a host, /dev/tcp, and copies to cloud storage (aws s3 cp, gsutil,
# rclone, az storage). Hosts you allow are let through. See policies/exfiltration/README.md.
HR_POLICY=exfiltration
cmd=${HOOKRUN_BASH_COMMAND-}
[ -n "$cmd" ] || exit 0
# hookrun:include lib/commands.sh
hosts="localhost 127.0.0.1 ::1 0.0.0.0 ${HOOKRUN_EXFIL_ALLOW_HOSTS-}"
list=${HOOKRUN_PROJECT_DIR:-.}/.hookrun/upload-hosts
[ -f "$list" ] && hosts="$hosts $(sed -e 's/#.*//' "$list" | tr '\n' ' ')"
case $cmd in */dev/tcp/* | */dev/udp/*) hr_deny "refusing to open a network connection through /dev/tcp: $cmd" ;; esac
# allowed URL|HOST: the host is one you allow.
allowed() {
  _h=${1#*://}
  _h=${_h#*@}
  _h=${_h%%[/:?]*}
  set -f
  for _a in $hosts; do
    # shellcheck disable=SC2254
    case $_h in $_a) return 0 ;; esac
  done
  return 1
}
deny_upload() { hr_deny "refusing to send $1 to the network: $cmd (allow a host in .hookrun/upload-hosts)"; }
check() {
  kind=$1
  up=$2
  case $kind in R | I) return 0 ;; esac
  shift 2
  name=$1
  shift
  url=
  sends=
  case $name in
    curl | http | https | xh | wget)
      _next=
      for _w in "$@"; do
        if [ -n "$_next" ]; then
          case $_next:$_w in
            file:-) [ "$up" != , ] && sends="what the pipe gives" ;;
            file:*) sends=$_w ;;
            data:@-) [ "$up" != , ] && sends="what the pipe gives" ;;
            data:@*) sends=${_w#@} ;;
            data:*@SUB\[*) sends="a command's output" ;;
            form:*=@* | form:*=\<*) sends=${_w#*=?} ;;
          esac
          _next=
          continue
        fi
        case $_w in
          -T | --upload-file | --post-file | --body-file) _next=file ;;
          --post-file=* | --body-file=* | --upload-file=*) sends=${_w#*=} ;;
          -d | --data | --data-binary | --data-raw | --data-ascii | --data-urlencode | --json) _next=data ;;
          --data=@* | --data-binary=@* | --data-urlencode=*@* | --json=@*) sends=${_w#*@} ;;
          -d@*) sends=${_w#-d@} ;;
          -F | --form) _next=form ;;
          -*) ;;
          *://*@SUB\[* | *@SUB\[*) url=$_w; sends="a command's output in the URL" ;;
          *://*) [ -z "$url" ] && url=$_w ;;
          # httpie and xh: field@file and field=@file send a file; field=value does not.
          [A-Za-z0-9_-]*=@?*) case $name in http | https | xh) sends=${_w#*=@} ;; esac ;;
          *=* | *:=*) ;;
          [A-Za-z0-9_-]*@?*.*) case $name in http | https | xh) sends=${_w#*@} ;; *) [ -z "$url" ] && url=$_w ;; esac ;;
          *.*) [ -z "$url" ] && url=$_w ;;
        esac
      done ;;
    scp | rsync | sftp)
      _n=0
      _last=
      for _w in "$@"; do case $_w in -*) ;; *) _n=$((_n + 1)); _last=$_w ;; esac; done
      case $_last in *:* | rsync://*) [ $_n -ge 2 ] && { url=${_last%%:*}; sends="files"; } ;; esac
      case $_last in rsync://*) url=$_last ;; esac ;;
    nc | ncat | netcat | socat | telnet)
      _listen=no
      _host=
      for _w in "$@"; do
        case $_w in
          -l | -lp | -lk | -*l* | -z | -zv | -vz | -*z*) _listen=yes ;;
          -*) ;;
          *) [ -z "$_host" ] && _host=$_w ;;
        esac
      done
      [ "$name" = socat ] && case "$*" in *TCP:* | *UDP:* | *tcp:* | *OPENSSL:*) _listen=no; _host=$(printf '%s' "$*" | sed -n 's/.*[A-Za-z]*:\([^:,]*\):[0-9].*/\1/p') ;; *) _listen=yes ;; esac
      [ "$_listen" = no ] && [ -n "$_host" ] && { url=$_host; sends="data"; } ;;
    aws)
      case "${1-} ${2-}" in 's3 cp' | 's3 sync' | 's3 mv')
        _last=
        for _w in "$@"; do _last=$_w; done
        case $_last in s3://*) url=$_last; sends="files" ;; esac ;;
      esac ;;
    gsutil | gcloud | rclone | azcopy | az)
      _last=
      for _w in "$@"; do case $_w in -*) ;; *) _last=$_w ;; esac; done
      case "$*" in
        *' upload'* | *'upload-batch'*) url=storage; sends="files" ;;
        *) case $_last in gs://* | *:* | https://*) case "${1-} ${2-} ${3-}" in *cp* | *copy* | *sync* | *rsync* | *move*) url=${_last%%:*}; sends="files" ;; esac ;; esac ;;
      esac ;;
  esac
  [ -n "$sends" ] || return 0
  [ -n "$url" ] && allowed "$url" && return 0
  deny_upload "$sends"
}
hr_each check "$cmd"
exit 0
