#!/bin/sh
# hookrun policy secret-files: refuse reading files that hold credentials: .env files, SSH keys,
# cloud credential folders (~/.aws, ~/.config/gcloud, ~/.azure), .npmrc, .pypirc, .netrc, kube
# and docker configs, *.pem and *.key, whether by the agent's read tool or a shell command.
# See policies/secret-files/README.md.
HR_POLICY=secret-files
cmd=${HOOKRUN_BASH_COMMAND-}
# hookrun:include lib/commands.sh
allow=${HOOKRUN_SECRET_FILES_ALLOW-}
list=${HOOKRUN_PROJECT_DIR:-.}/.hookrun/secret-files.allow
[ -f "$list" ] && allow="$allow $(sed -e 's/#.*//' "$list" | tr '\n' ' ')"
# secret WORD: WORD names a credentials file or folder.
secret() {
  _p=$1
  set -f
  for _a in $allow; do
    # shellcheck disable=SC2254
    case $_p in $_a) return 1 ;; esac
  done
  case $_p in
    *.example | *.sample | *.template | *.dist | *.defaults | *.pub | *.md | */known_hosts | *.env.test | */.env.test) return 1 ;;
  esac
  case $_p in
    .env | */.env | .env.* | */.env.* | .envrc | */.envrc) return 0 ;;
    # prod.env is a file name; process.env is not: a name.env word counts when such a file exists.
    *.env) [ -f "$_p" ] || [ -f "${HOOKRUN_WORK_DIR:-.}/$_p" ] && return 0 ;;
    *.pem | *.key | *.p12 | *.pfx | *.jks | *.keystore | *.ppk | *.asc) return 0 ;;
    .ssh | .ssh/* | */.ssh | */.ssh/* | id_rsa* | id_ed25519* | id_ecdsa* | id_dsa* | */id_rsa* | */id_ed25519* | */id_ecdsa*) return 0 ;;
    .aws | .aws/* | */.aws | */.aws/* | */gcloud | */gcloud/* | */.azure | */.azure/* | */.kube/config | .kube/config) return 0 ;;
    .netrc | */.netrc | .npmrc | */.npmrc | .pypirc | */.pypirc | .git-credentials | */.git-credentials | */.docker/config.json) return 0 ;;
    */.config/gh/hosts.yml | */.vault-token | */.gnupg | */.gnupg/* | */.password-store/* | *service-account*.json | *credentials.json | */secrets.yml | */secrets.yaml) return 0 ;;
  esac
  return 1
}
deny_file() { hr_deny "refusing to read $1: it holds credentials (allow it in .hookrun/secret-files.allow if it does not)"; }
case ${HOOKRUN_QUALIFIED_EVENT-} in
  *:bash) ;;
  *)
    file=$(hr_arg file_path absolute_path path filePath notebook_path)
    [ -n "$file" ] && secret "$file" && deny_file "$file"
    exit 0 ;;
esac
[ -n "$cmd" ] || exit 0
check() {
  case $1 in
    R) return 0 ;;
    I) secret "$3" && deny_file "$3"; return 0 ;;
  esac
  shift 2
  name=$1
  shift
  case $name in
    ls | touch | mkdir | chmod | chown | test | '[' | stat | ssh | ssh-keygen | ssh-add | ssh-copy-id | echo | rm | which | file | git | gpg) return 0 ;;
  esac
  # A program given on the command line (python3 -c, node -e, ruby -e, perl -e): a credentials path in its text.
  case $name in
    python* | node | nodejs | ruby | perl | php | deno | bun | osascript)
      if printf '%s\n' "$@" | grep -qE "(^|[^A-Za-z0-9_])\.env([.'\"/ )]|\$)|\.ssh/|\.aws/|gcloud/|\.netrc|\.npmrc|\.git-credentials|id_rsa|id_ed25519"; then
        hr_deny "refusing a program that reads credentials files: $cmd"
      fi ;;
  esac
  _last=
  for _w in "$@"; do _last=$_w; done
  _skip=no
  for _w in "$@"; do
    [ "$_skip" = yes ] && { _skip=no; continue; }
    case $_w in --env-file) _skip=yes; continue ;; --env-file=*) continue ;; esac
    # cp/mv/install: the last word is where it goes, not what is read.
    case $name in cp | mv | install | ln) [ "$_w" = "$_last" ] && continue ;; esac
    _f=${_w#*=}
    secret "$_f" && deny_file "$_f"
  done
  return 0
}
hr_each check "$cmd"
exit 0
