#!/bin/sh
# hookrun policy secrets: refuse writing a secret into a file or a command (private keys, cloud
# keys, tokens in their well-known formats) and echoing secret variables (echo $AWS_SECRET_…,
# printenv TOKEN, a bare env or printenv). Reads the whole payload on stdin, so a long file is
# read whole. See policies/secrets/README.md.
HR_POLICY=secrets
cmd=${HOOKRUN_BASH_COMMAND-}
# hookrun:include lib/commands.sh
# What an edit replaces is not written: taking a leaked key out of a file must pass.
payload=$(sed -E 's/"(old_string|old_str|oldString)" *: *"([^"\\]|\\.)*"//g') || hr_deny "could not read the payload (sed failed)"
# Well-known formats (gitleaks' and GitHub secret scanning's rules, simplified).
found=$(printf '%s' "$payload" | grep -oE -e '-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----' \
  -e '(AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}' \
  -e 'gh[pousr]_[A-Za-z0-9]{36}' -e 'github_pat_[A-Za-z0-9_]{50,}' -e 'glpat-[A-Za-z0-9_-]{20}' \
  -e 'xox[abposr]-[0-9A-Za-z-]{10,}' -e 'hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{20,}' \
  -e 'sk-ant-(api|admin)[0-9]{2}-[A-Za-z0-9_-]{40,}' -e 'sk-(proj|svcacct|admin)-[A-Za-z0-9_-]{40,}' \
  -e 'sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}' -e 'AIza[0-9A-Za-z_-]{35}' \
  -e 'private_key_id\\?" *: *\\?"[a-f0-9]{40}' -e '[sr]k_live_[0-9a-zA-Z]{24,}' -e 'npm_[A-Za-z0-9]{36}' \
  -e 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}' -e 'SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}' \
  -e 'hf_[A-Za-z0-9]{34}' -e 'dop_v1_[a-f0-9]{64}' | head -n 20)
# Allowed on purpose: HOOKRUN_SECRETS_ALLOW, an extended regex (AWS's documented example keys end in EXAMPLE).
allow=${HOOKRUN_SECRETS_ALLOW:-EXAMPLE}
kept=$(printf '%s\n' "$found" | grep -vE -e "$allow" | grep -v '^$' | head -n 1)
if [ -n "$kept" ]; then
  shown=$(printf '%s' "$kept" | cut -c1-12)
  hr_deny "refusing to write or pass a secret (${shown}…): keep it in an environment variable or a secret store, not in files or commands"
fi
[ -n "$cmd" ] || exit 0
secret_name() {
  case $1 in
    *_KEY | *_KEY_* | KEY | *APIKEY* | *TOKEN* | *SECRET* | *PASSWORD* | *PASSWD* | *CREDENTIAL* | *PRIVATE_KEY*) return 0 ;;
    *_key | *_key_* | *apikey* | *token* | *secret* | *password* | *passwd*) return 0 ;;
  esac
  return 1
}
check() {
  case $1 in R | I) return 0 ;; esac
  shift 2
  name=$1
  shift
  case $name in
    env | printenv | export | set | declare | typeset)
      if [ $# -eq 0 ] || { [ "$name" = export ] && [ "$*" = -p ]; } || { [ "$name" = declare ] && [ "$*" = -x ]; }; then
        hr_deny "refusing to print every environment variable (secrets among them); print the one you need: $cmd"
      fi
      [ "$name" = printenv ] && for _w in "$@"; do secret_name "$_w" && hr_deny "refusing to print the secret variable $_w: $cmd"; done ;;
    echo | printf | cat | print | tee | logger)
      for _w in "$@"; do
        case $_w in
          *'$'*) _v=${_w#*\$}; _v=${_v#\{}; _v=${_v%%[!A-Za-z0-9_]*}; secret_name "$_v" && hr_deny "refusing to print the secret variable $_v: $cmd" ;;
        esac
      done ;;
  esac
  return 0
}
hr_each check "$cmd"
exit 0
