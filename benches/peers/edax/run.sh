#!/usr/bin/env bash
# Edax against yomi's exact endgame solver on the FFO suite: per group of five positions,
# nodes and user CPU seconds of each, one program then the other (so that both see the same
# machine load), every score checked against the suite's listed best score.
#
# This script builds and fetches no peer code. EDAX names an Edax 4.6 binary you built
# yourself from its public source (github.com/abulmo/edax-reversi; the figures in
# crates/yomi-othello/README.md used commit 14f048c, built for x86-64-v3 with gcc).
# Edax reads data/eval.dat beside bin/ (run from the folder above the binary's); its
# trained weights are a separate release download. Without them, a zero-weight file of
# the same format (what our figures used; Edax then orders moves by mobility only) is
#   python3 -c "import struct,sys; f=open('data/eval.dat','wb'); f.write(struct.pack('<5Id',0x45444158,0x4556414c,4,4,0,0.0)); f.write(bytes(2*114364*61))"
#
# YOMI_FFO names a built `ffo` example (default: built here with cargo).
# Usage: EDAX=/path/to/bin/lEdax-x86-64-v3 benches/peers/edax/run.sh [first (40)] [last (59)] [threads (1)] [rounds (1)]
# The FFO files are read from $YOMI_SHARED_DATA/othello or ../shared/data/othello.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
FIRST="${1:-40}"
LAST="${2:-59}"
THREADS="${3:-1}"
ROUNDS="${4:-1}"
. "$(dirname "$0")/setup.sh"
YOMI="$YOMI_FFO"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# Positions #1..#59, one per line, numbered by line.
cat "$DATA/fforum-1-19.obf" "$DATA/fforum-20-39.obf" "$DATA/fforum-40-59.obf" >"$WORK/all.obf"

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load:$(uptime | sed 's/.*load average//'); $THREADS thread(s)"
echo "| positions | yomi nodes | yomi CPU s | Edax nodes | Edax CPU s | yomi/Edax time | yomi/Edax nodes | scores |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
TIMEFORMAT=%3U
for r in $(seq "$ROUNDS"); do
  g="$FIRST"
  while [ "$g" -le "$LAST" ]; do
    e=$((g + 4 > LAST ? LAST : g + 4))
    # yomi: the example checks each score itself.
    ycpu=$( { time "$YOMI" "$g" "$e" "$THREADS" >"$WORK/yomi.txt"; } 2>&1 )
    ynodes=$(awk '/^total:/ { print $2 }' "$WORK/yomi.txt")
    yok=$(grep -q WRONG "$WORK/yomi.txt" && echo "yomi WRONG" || echo "yomi ok")
    # Edax: its score beside the best listed score of each line.
    sed -n "${g},${e}p" "$WORK/all.obf" >"$WORK/group.obf"
    ecpu=$( { time (cd "$(dirname "$EDAX")/.." && "$EDAX" -n "$THREADS" -l 60 -book-usage off -solve "$WORK/group.obf" >"$WORK/edax.txt" 2>&1); } 2>&1 )
    enodes=$(awk '/nodes in/ { print $2 }' "$WORK/edax.txt")
    awk -F'|' '$1 ~ /^ *[0-9]+ *$/ && NF == 2 { split($2, a, " "); print a[2] + 0 }' "$WORK/edax.txt" >"$WORK/edax.scores"
    awk -F';' '{ best = -99; for (i = 2; i <= NF; i++) { if (split($i, a, ":") == 2 && a[2] + 0 > best) best = a[2] + 0 } print best }' "$WORK/group.obf" >"$WORK/listed.scores"
    eok=$(cmp -s "$WORK/edax.scores" "$WORK/listed.scores" && echo "Edax ok" || echo "Edax WRONG")
    awk -v g="#$g-#$e" -v yn="$ynodes" -v yc="$ycpu" -v en="$enodes" -v ec="$ecpu" -v ok="$yok, $eok" \
      'BEGIN { printf "| %s | %.3f G | %.1f | %.3f G | %.1f | %.2f | %.2f | %s |\n", g, yn / 1e9, yc, en / 1e9, ec, yc / ec, yn / en, ok }'
    g=$((e + 1))
  done
done
