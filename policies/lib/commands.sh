# --- hookrun policy library: a shell command read as words (shared by the policies; init copies
# it into each script, so an installed script stands alone). ---
#
# hr_each FUNCTION COMMAND calls FUNCTION once per simple command in COMMAND, as the shell would
# split it: at ; & | && || newlines and ( ), into words with quotes and backslashes removed (no
# globbing, no expansion). Wrappers are dropped (sudo, doas, env, command, exec, nohup, time, nice,
# timeout, xargs, stdbuf, assignments); the commands inside `sh -c '…'`, `bash -c`, `eval`,
# `su -c`, `$(…)`, backticks, `<(…)`, `>(…)` and a here-document fed to a shell are read too.
# FUNCTION gets: KIND UPSTREAM NAME ARGS…
#   KIND      S (starts a pipeline) or P (reads the one before it), then s if sudo/doas ran it;
#             R for an output redirection: R OP TARGET (OP is > >> &> >| …)
#   UPSTREAM  the earlier stages of its pipeline, ",curl,base64," (just "," when none)
#   NAME      the command's name without its folder (/bin/rm is rm)
# A $(…) or `…` in a word becomes @SUB[names] and <(…) @PSUB[names] (names: its commands).
HR_AWK='
function flat(w) { gsub(/[\t\n\r]/, " ", w); return w }
function base(w) { sub(/.*\//, "", w); return w }
function matching(s, p,   n, d, c, q) {
  n = length(s); d = 0; q = ""
  for (; p <= n; p++) {
    c = substr(s, p, 1)
    if (q != "") { if (c == "\\" && q == "\"") { p++; continue } if (c == q) q = ""; continue }
    if (c == "\\") { p++; continue }
    if (c == "\047" || c == "\"") { q = c; continue }
    if (c == "(") d++
    else if (c == ")") { d--; if (d == 0) return p }
  }
  return n + 1
}
function shell(b) { return b ~ /^(sh|bash|zsh|dash|ksh|mksh|ash|fish|busybox)$/ }
function finish(W, nw, pin, up,   A, k, j, w, b, op, t, sudo, line, name, script, wrapper) {
  k = 0
  for (j = 1; j <= nw; j++) {
    w = W[j]
    if (substr(w, 1, 1) == "\001") {
      op = substr(w, 2); t = (j < nw) ? W[j + 1] : ""; j++
      if (op ~ /^<<</) { print "I\t" op "\t" flat(t); continue }
      if (op ~ /^<</) { HD = t; sub(/^-/, "", HD); HDOP = op; continue }
      if (t !~ /^[0-9-]*$/) print (op ~ />/ ? "R" : "I") "\t" op "\t" flat(t)
      continue
    }
    A[++k] = w
  }
  sudo = 0; j = 1; wrapper = ""
  while (j <= k) {
    w = A[j]; b = base(w); wrapper = b
    if (w ~ /^[A-Za-z_][A-Za-z0-9_]*=/) { j++; continue }
    if (b == "sudo" || b == "doas" || b == "run0" || b == "pkexec") {
      sudo = 1; j++
      while (j <= k && A[j] ~ /^-/) { if (A[j] ~ /^-[ugCDhprTU]$/) j++; j++ }
      continue
    }
    if (b == "env") { j++; while (j <= k && (A[j] ~ /^-/ || A[j] ~ /^[A-Za-z_][A-Za-z0-9_]*=/)) { if (A[j] ~ /^-[uCS]$/) j++; j++ } continue }
    if (b == "nice" || b == "ionice") { j++; while (j <= k && A[j] ~ /^-/) { if (A[j] ~ /^-[nct]$/) j++; j++ } continue }
    if (b == "timeout") { j++; while (j <= k && A[j] ~ /^-/) { if (A[j] ~ /^-[sk]$/) j++; j++ } j++; continue }
    if (b == "xargs") { j++; while (j <= k && A[j] ~ /^-/) { if (A[j] ~ /^-[IdEnLPsa]$/) j++; j++ } continue }
    if (b ~ /^(command|exec|nohup|builtin|time|stdbuf|then|do|else|elif|if|while|until|!|\{|\}|unbuffer|caffeinate)$/) {
      j++; while (j <= k && A[j] ~ /^-/) j++; continue
    }
    break
  }
  if (j > k) {
    # env alone prints the environment: it is the command then, not a wrapper.
    if (wrapper == "env") { print (pin ? "P" : "S") (sudo ? "s" : "") "\t" up "\tenv"; return "env" }
    if (sudo) { print "Ss\t" up "\tsudo"; return "sudo" }
    return ""
  }
  name = base(A[j])
  line = (pin ? "P" : "S") (sudo ? "s" : "") "\t" up "\t" flat(name)
  for (t = j + 1; t <= k; t++) line = line "\t" flat(A[t])
  print line
  HDSHELL = shell(name) || name ~ /^(python[0-9.]*|perl|ruby|node|source|\.)$/
  if (shell(name) || name == "su") {
    for (t = j + 1; t < k; t++) if (A[t] ~ /^-[A-Za-z]*c[A-Za-z]*$/) { parse(A[t + 1]); break }
  }
  if (name == "eval") { script = ""; for (t = j + 1; t <= k; t++) script = script " " A[t]; parse(script) }
  return name
}
function parse(s,   n, i, c, d, cur, have, W, nw, pin, up, j, inner, op, name, rest, body, all, line) {
  n = length(s); i = 1; cur = ""; have = 0; nw = 0; pin = 0; up = ","; all = ""
  while (i <= n) {
    c = substr(s, i, 1); d = substr(s, i + 1, 1)
    if (c == "\\") { if (d != "\n") { cur = cur d; have = 1 } i += 2; continue }
    if (c == "\047") {
      j = index(substr(s, i + 1), "\047"); if (j == 0) j = n - i + 1
      cur = cur substr(s, i + 1, j - 1); have = 1; i += j + 1; continue
    }
    if (c == "\"") {
      i++; have = 1
      while (i <= n) {
        c = substr(s, i, 1); d = substr(s, i + 1, 1)
        if (c == "\\") { if (d ~ /[$`"\\]/) { cur = cur d; i += 2; continue } if (d == "\n") { i += 2; continue } cur = cur c; i++; continue }
        if (c == "\"") { i++; break }
        if (c == "$" && d == "(") { j = matching(s, i + 1); cur = cur "@SUB[" parse(substr(s, i + 2, j - i - 2)) "]"; i = j + 1; continue }
        if (c == "`") { j = index(substr(s, i + 1), "`"); if (j == 0) j = n - i + 1; cur = cur "@SUB[" parse(substr(s, i + 1, j - 1)) "]"; i += j + 1; continue }
        cur = cur c; i++
      }
      continue
    }
    if (c == "$" && d == "(") { j = matching(s, i + 1); cur = cur "@SUB[" parse(substr(s, i + 2, j - i - 2)) "]"; have = 1; i = j + 1; continue }
    if (c == "`") { j = index(substr(s, i + 1), "`"); if (j == 0) j = n - i + 1; cur = cur "@SUB[" parse(substr(s, i + 1, j - 1)) "]"; have = 1; i += j + 1; continue }
    if ((c == "<" || c == ">") && d == "(") { j = matching(s, i + 1); cur = cur "@PSUB[" parse(substr(s, i + 2, j - i - 2)) "]"; have = 1; i = j + 1; continue }
    if (c == " " || c == "\t") { if (have) { W[++nw] = cur; cur = ""; have = 0 } i++; continue }
    if (c == "#" && !have) { j = index(substr(s, i), "\n"); if (j == 0) break; i += j - 1; continue }
    if (c == ">" || c == "<" || (c == "&" && d == ">")) {
      if (have && cur !~ /^[0-9]+$/) W[++nw] = cur
      cur = ""; have = 0; op = c; i++
      while (i <= n && substr(s, i, 1) ~ /[<>&|-]/) { op = op substr(s, i, 1); i++ }
      while (i <= n && substr(s, i, 1) ~ /[ \t]/) i++
      W[++nw] = "\001" op
      continue
    }
    if (c == ";" || c == "&" || c == "|" || c == "\n" || c == "(" || c == ")") {
      if (have) { W[++nw] = cur; cur = ""; have = 0 }
      HD = ""
      name = finish(W, nw, pin, up); nw = 0
      if (name != "") all = all name ","
      if (c == "|" && d != "|") { if (name != "") up = up name ","; pin = 1; i += (d == "&") ? 2 : 1; continue }
      pin = 0; up = ","; i += ((c == "|" || c == "&") && d == c) ? 2 : 1
      if (c == "\n" && HD != "") {
        rest = substr(s, i); body = ""
        while (rest != "") {
          j = index(rest, "\n"); if (j == 0) { line = rest; rest = "" } else { line = substr(rest, 1, j - 1); rest = substr(rest, j + 1) }
          if (HDOP ~ /-$/) sub(/^\t+/, "", line)
          if (line == HD) break
          body = body line "\n"
        }
        if (HDSHELL) parse(body)
        i = n - length(rest) + 1; HD = ""
      }
      continue
    }
    cur = cur c; have = 1; i++
  }
  if (have) W[++nw] = cur
  HD = ""
  name = finish(W, nw, pin, up)
  return all name
}
BEGIN { parse(ENVIRON["HR_CMD"]) }
'
hr_split() { HR_CMD=$1 awk "$HR_AWK"; }
hr_each() {
  _hr_fn=$1
  # A gate never fails open: a command the reader cannot read is refused.
  _hr_lines=$(hr_split "$2") || hr_deny "could not read the command as words (awk failed)"
  _hr_ifs=$IFS
  set -f
  while IFS= read -r _hr_line; do
    [ -n "$_hr_line" ] || continue
    IFS='	'
    # shellcheck disable=SC2086 # splitting at tabs is the point: the fields awk wrote
    set -- $_hr_line
    IFS=$_hr_ifs
    "$_hr_fn" "$@"
  done <<HR_LINES
$_hr_lines
HR_LINES
}
# hr_path WORD: WORD as an absolute path without . and .. (~ and $HOME are the home folder,
# a relative one is from HOOKRUN_WORK_DIR or the current folder).
hr_path() {
  HR_P=$1 HR_H=${HOME-} HR_W=${HOOKRUN_WORK_DIR:-$(pwd)} awk 'BEGIN {
    p = ENVIRON["HR_P"]; h = ENVIRON["HR_H"]
    if (p == "~" || substr(p, 1, 2) == "~/") p = h substr(p, 2)
    else if (substr(p, 1, 5) == "$HOME") p = h substr(p, 6)
    else if (substr(p, 1, 7) == "${HOME}") p = h substr(p, 8)
    if (substr(p, 1, 1) != "/") p = ENVIRON["HR_W"] "/" p
    n = split(p, part, "/"); k = 0
    for (i = 1; i <= n; i++) {
      if (part[i] == "" || part[i] == ".") continue
      if (part[i] == "..") { if (k > 0) k--; continue }
      out[++k] = part[i]
    }
    s = ""; for (i = 1; i <= k; i++) s = s "/" out[i]
    print (s == "" ? "/" : s)
  }'
}
# hr_arg KEY…: the first of these string fields in the tool input (HOOKRUN_TOOL_ARGS).
hr_arg() {
  for _hr_key in "$@"; do
    _hr_v=$(printf '%s' "${HOOKRUN_TOOL_ARGS-}" | sed -n "s/.*\"$_hr_key\" *: *\"\\([^\"]*\\)\".*/\\1/p" | head -n 1)
    [ -n "$_hr_v" ] && { printf '%s' "$_hr_v"; return 0; }
  done
  return 1
}
# hr_deny MESSAGE: refuse, with MESSAGE as the reason the agent sees.
hr_deny() {
  echo "$1 (blocked by .hookrun/scripts/${HR_POLICY-}.sh)" >&2
  exit 2
}
# --- end of the hookrun policy library ---
