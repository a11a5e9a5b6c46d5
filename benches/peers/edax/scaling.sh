#!/usr/bin/env bash
# Thread scaling of yomi's exact endgame solver beside Edax's on a range of the FFO suite:
# for each thread count T, yomi's `ffo` example with T threads and `edax -n T -solve` solve
# the same positions, and the table gives wall seconds, nodes (all threads) and the
# speed-up over each program's own one-thread run. Where the machine has at least 2T cores,
# the two programs run at the same time on disjoint cores (yomi on cores 0..T-1, Edax on
# T..2T-1, pinned with taskset when it is installed), so that both see the same machine;
# otherwise one after the other. Every score is checked against the suite's listed best.
# CORE0 (default 0) shifts the cores used, so that runs of other thread counts can share a
# large machine, each on its own cores (the speed-up column then needs a 1-thread row in
# the same invocation).
#
# This script builds and fetches no peer code: EDAX names an Edax 4.6 binary you built
# yourself (see the header of run.sh beside this script for how, and for a zero-weight
# eval.dat). YOMI_FFO names a built `ffo` example (default: built here with cargo).
#
# Usage: EDAX=/path/to/bin/lEdax-x86-64-v3 benches/peers/edax/scaling.sh FIRST LAST T...
#   e.g. benches/peers/edax/scaling.sh 40 49 1 2 4 8 16
# The FFO files are read from $YOMI_SHARED_DATA/othello or ../shared/data/othello.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
if [ "$#" -lt 3 ]; then
  echo "usage: EDAX=... $0 FIRST LAST THREADS..." >&2
  exit 2
fi
FIRST="$1"
LAST="$2"
shift 2
. "$(dirname "$0")/setup.sh"
CORE0="${CORE0:-0}"
CORES=$(( $(nproc) - CORE0 ))
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cat "$DATA/fforum-1-19.obf" "$DATA/fforum-20-39.obf" "$DATA/fforum-40-59.obf" | sed -n "${FIRST},${LAST}p" >"$WORK/group.obf"
awk -F';' '{ best = -99; for (i = 2; i <= NF; i++) { if (split($i, a, ":") == 2 && a[2] + 0 > best) best = a[2] + 0 } print best }' "$WORK/group.obf" >"$WORK/listed.scores"

# pin FIRST_CORE T COMMAND...: runs COMMAND on cores FIRST_CORE..FIRST_CORE+T-1 where taskset exists.
pin() {
  local first="$1" n="$2"
  shift 2
  if command -v taskset >/dev/null; then
    taskset -c "$first-$((first + n - 1))" "$@"
  else
    "$@"
  fi
}
run_yomi() { # T FIRST_CORE -> $WORK/yomi-T.txt, wall seconds in $WORK/yomi-T.wall
  local t="$1" c="$2" s
  s=$(date +%s.%N)
  pin "$c" "$t" "$YOMI_FFO" "$FIRST" "$LAST" "$t" >"$WORK/yomi-$t.txt"
  awk -v a="$(date +%s.%N)" -v b="$s" 'BEGIN { print a - b }' >"$WORK/yomi-$t.wall"
}
run_edax() {
  local t="$1" c="$2" s
  s=$(date +%s.%N)
  (cd "$(dirname "$EDAX")/.." && pin "$c" "$t" "$EDAX" -n "$t" -l 60 -book-usage off -solve "$WORK/group.obf" >"$WORK/edax-$t.txt" 2>&1)
  awk -v a="$(date +%s.%N)" -v b="$s" 'BEGIN { print a - b }' >"$WORK/edax-$t.wall"
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); FFO #$FIRST-#$LAST; $CORES cores from core $CORE0: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load:$(uptime | sed 's/.*load average//')"
echo "| threads | run | yomi wall s | yomi nodes | yomi speed-up | Edax wall s | Edax nodes | Edax speed-up | yomi/Edax time | scores |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
y1="" e1=""
for t in "$@"; do
  if [ $((2 * t)) -le "$CORES" ]; then
    how="together"
    run_yomi "$t" "$CORE0" &
    run_edax "$t" $((CORE0 + t)) &
    wait
  else
    how="in turn"
    run_yomi "$t" "$CORE0"
    run_edax "$t" "$CORE0"
  fi
  yw=$(cat "$WORK/yomi-$t.wall")
  ew=$(cat "$WORK/edax-$t.wall")
  yn=$(awk '/^total:/ { print $2 }' "$WORK/yomi-$t.txt")
  en=$(awk '/nodes in/ { print $2 }' "$WORK/edax-$t.txt")
  yok=$(grep -q WRONG "$WORK/yomi-$t.txt" && echo "yomi WRONG" || echo "yomi ok")
  awk -F'|' '$1 ~ /^ *[0-9]+ *$/ && NF == 2 { split($2, a, " "); print a[2] + 0 }' "$WORK/edax-$t.txt" >"$WORK/edax.scores"
  eok=$(cmp -s "$WORK/edax.scores" "$WORK/listed.scores" && echo "Edax ok" || echo "Edax WRONG")
  [ -z "$y1" ] && [ "$t" = 1 ] && y1="$yw" && e1="$ew"
  awk -v t="$t" -v how="$how" -v yw="$yw" -v yn="$yn" -v ew="$ew" -v en="$en" -v y1="$y1" -v e1="$e1" -v ok="$yok, $eok" \
    'BEGIN { ys = y1 == "" ? "—" : sprintf("%.2f", y1 / yw); es = e1 == "" ? "—" : sprintf("%.2f", e1 / ew);
             printf "| %d | %s | %.1f | %.3f G | %s | %.1f | %.3f G | %s | %.2f | %s |\n", t, how, yw, yn / 1e9, ys, ew, en / 1e9, es, yw / ew, ok }'
  if [ -n "${KEEP:-}" ]; then
    cp "$WORK/yomi-$t.txt" "$WORK/edax-$t.txt" "$KEEP/" 2>/dev/null || true
  fi
done
