#!/bin/sh
# What trust costs on a large project: hashing N files at `hookrun trust`, and `fire` on the
# trusted, unchanged project (stat fast path) against the same project without the files.
# Usage: npm run build && sh scripts/bench-trust.sh [N=5000] [FIRES=20]
set -eu
N=${1:-5000}
FIRES=${2:-20}
HOOKRUN=${HOOKRUN:-$(cd "$(dirname "$0")/.." && pwd)/dist/hookrun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_STATE_HOME="$work/home/.state" XDG_CACHE_HOME="$work/home/.cache"
mkdir -p "$HOME"
make_project() {
  mkdir -p "$1/.hookrun/hooks/lib"
  printf '{"hooks":[{"name":"gate","event":"tool:pre_execute","command":"exit 0"}]}' > "$1/.hookrun/hooks.json"
}
make_project "$work/small"
make_project "$work/large"
i=0
while [ "$i" -lt "$N" ]; do
  printf 'echo %s\n# some script text to hash, about one line long\n' "$i" > "$work/large/.hookrun/hooks/lib/f$i.sh"
  i=$((i + 1))
done
sleep 2.2 # let the timestamps settle, so trust can record stat signatures
now() { date +%s%N; }
ms() { echo "$(( ($2 - $1) / 1000000 ))"; }
t0=$(now); "$HOOKRUN" trust "$work/large" > /dev/null; t1=$(now)
echo "hookrun trust, $N files in .hookrun/hooks: $(ms "$t0" "$t1") ms"
"$HOOKRUN" trust "$work/small" > /dev/null
for project in small large; do
  (cd "$work/$project" && echo '{}' | "$HOOKRUN" fire tool:pre_execute --payload - > /dev/null) # warm the config cache
  t0=$(now)
  j=0
  while [ "$j" -lt "$FIRES" ]; do
    (cd "$work/$project" && echo '{}' | "$HOOKRUN" fire tool:pre_execute --payload - > /dev/null)
    j=$((j + 1))
  done
  t1=$(now)
  echo "fire, trusted and unchanged, $project project: $(( ($t1 - $t0) / 1000000 / FIRES )) ms per fire (mean of $FIRES)"
done
echo changed >> "$work/large/.hookrun/hooks/lib/f0.sh"
t0=$(now); (cd "$work/large" && echo '{}' | "$HOOKRUN" fire tool:pre_execute --payload - > /dev/null) || true; t1=$(now)
echo "fire after one file changed (every file hashed, gate blocked): $(ms "$t0" "$t1") ms"
