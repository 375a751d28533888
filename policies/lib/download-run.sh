# --- hookrun policy library: a download (or decoded text) run as a program ---
# hr_runs_stdin NAME ARGS…: NAME is an interpreter that runs the program it reads on stdin.
hr_runs_stdin() {
  case $1 in
    sh | bash | zsh | dash | ksh | mksh | ash | fish | python | python[23] | python3.* | pypy* | perl | ruby | node | nodejs | php | lua | tclsh | Rscript | osascript | iex | Invoke-Expression) ;;
    pwsh | powershell) return 0 ;;
    *) return 1 ;;
  esac
  shift
  for _hr_w in "$@"; do
    case $_hr_w in
      -s | - | /dev/stdin | --) return 0 ;;
      -c | -[a-zA-Z]*c | -e | -E | -m | -r | -p | --eval | --command | --print) return 1 ;;
      -*) ;;
      *) return 1 ;;
    esac
  done
  return 0
}
# Words for something that fetches from the network, and for something that decodes hidden text.
hr_fetcher() { case $1 in curl | wget | fetch | http | https | xh | lwp-request | GET | aria2c | irm | iwr | Invoke-WebRequest | Invoke-RestMethod | nc | ncat | socat) return 0 ;; esac; return 1; }
hr_fetches() { # "… ,curl,base64, …": a fetcher or decoder among these names
  _hr_rest=$1
  for _hr_n in curl wget fetch http https xh lwp-request GET irm iwr Invoke-WebRequest Invoke-RestMethod nc ncat socat base64 base32 xxd openssl uudecode; do
    case $_hr_rest in *[\[,]"$_hr_n"[],]*) return 0 ;; esac
  done
  return 1
}
HR_DOWNLOADED=
# hr_download_run KIND UPSTREAM NAME ARGS…: refuse running what was just downloaded or decoded.
hr_download_run() {
  case $1 in
    I) case $2 in '<<<'*) hr_fetches "$3" && hr_deny "refusing to run a download (or decoded text) fed in as a here-string: $cmd" ;; esac; return 0 ;;
    R) return 0 ;;
  esac
  _hr_up=$2
  _hr_name=$3
  shift 3
  if hr_runs_stdin "$_hr_name" "$@" && hr_fetches "$_hr_up"; then
    hr_deny "refusing to pipe a download (or decoded text) into $_hr_name; download it to a file, read it, then run it: $cmd"
  fi
  case $_hr_name in
    sh | bash | zsh | dash | ksh | mksh | ash | fish | python* | pypy* | perl | ruby | node | nodejs | php | lua | source | . | eval | exec | iex | pwsh | powershell)
      for _hr_w in "$@"; do
        case $_hr_w in
          *@PSUB\[* | *@SUB\[*) hr_fetches "$_hr_w" && hr_deny "refusing to run a download (or decoded text) with $_hr_name: $cmd" ;;
        esac
        for _hr_f in $HR_DOWNLOADED; do
          [ "${_hr_w##*/}" = "$_hr_f" ] && hr_deny "refusing to run $_hr_f, downloaded by the same command; read it first, then run it: $cmd"
        done
      done ;;
    curl | wget)
      _hr_next=
      for _hr_w in "$@"; do
        case $_hr_next in o) HR_DOWNLOADED="$HR_DOWNLOADED ${_hr_w##*/}"; _hr_next=; continue ;; esac
        case $_hr_w in
          -o | --output | -O | --output-document) [ "$_hr_name:$_hr_w" = curl:-O ] && _hr_next=u || _hr_next=o ;;
          --output=* | --output-document=*) HR_DOWNLOADED="$HR_DOWNLOADED ${_hr_w##*/}" ;;
          -*) ;;
          *://*) _hr_u=${_hr_w%%\?*}; [ "$_hr_name" = wget ] || [ "$_hr_next" = u ] && HR_DOWNLOADED="$HR_DOWNLOADED ${_hr_u##*/}" ;;
        esac
      done ;;
    *)
      for _hr_f in $HR_DOWNLOADED; do
        [ "${_hr_name}" = "$_hr_f" ] && hr_deny "refusing to run $_hr_f, downloaded by the same command; read it first, then run it: $cmd"
      done ;;
  esac
}
