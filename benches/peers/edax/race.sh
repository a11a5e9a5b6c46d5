#!/usr/bin/env bash
# yomi's exact endgame solver and Edax 4.6 racing on FFO positions that take long on one
# thread: both solve the same position at the same time, one thread each, pinned to two
# cores (yomi on CORE_YOMI, Edax on CORE_EDAX), one process per position, positions in the
# order given. yomi runs each position to the end (or to CAP wall seconds); Edax is stopped
# once its CPU time passes FACTOR times yomi's CPU seconds on that position (and at least
# MIN_EDAX seconds), so a hard position costs at most about FACTOR + 1 times yomi's time,
# and a stopped Edax still bounds the ratio (yomi's time / Edax's is below 1 / FACTOR
# there). Each side writes one line per position to its log as it finishes
# (`$OUT/yomi.log`, `$OUT/edax.log`: position, exit status, user CPU s, wall s, the
# program's result line), so an interrupted race keeps every finished position; rerunning
# with the same OUT skips positions already in both logs.
#
# This script builds and fetches no peer code: EDAX names an Edax 4.6 binary you built
# yourself (see the header of run.sh beside this script for how, and for a zero-weight
# eval.dat). YOMI_FFO names a built `ffo` example (default: built here with cargo).
#
# Usage: EDAX=/path/to/bin/lEdax-x86-64-v3 OUT=/tmp/race benches/peers/edax/race.sh 55 56 57 58 59
# Settings (environment): OUT (default ./ffo-race), CORE_YOMI (0), CORE_EDAX (1), FACTOR (2),
# MIN_EDAX (300), CAP (86400). The FFO files are read from $YOMI_SHARED_DATA/othello or
# ../shared/data/othello.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
if [ "$#" -lt 1 ]; then
  echo "usage: EDAX=... $0 POSITION..." >&2
  exit 2
fi
for p in "$@"; do
  case "$p" in
    '' | *[!0-9]*) echo "positions are numbers 1..59, not '$p'" >&2; exit 2 ;;
  esac
  if [ "$p" -lt 1 ] || [ "$p" -gt 59 ]; then
    echo "positions are numbers 1..59, not '$p'" >&2
    exit 2
  fi
done
command -v taskset >/dev/null || { echo "taskset (util-linux) is needed to pin the two programs" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (Debian package time) is needed for CPU seconds" >&2; exit 2; }
. "$(dirname "$0")/setup.sh"
OUT="$(mkdir -p "${OUT:-ffo-race}" && cd "${OUT:-ffo-race}" && pwd)"
CORE_YOMI="${CORE_YOMI:-0}"
CORE_EDAX="${CORE_EDAX:-1}"
FACTOR="${FACTOR:-2}"
MIN_EDAX="${MIN_EDAX:-300}"
CAP="${CAP:-86400}"
TCK="$(getconf CLK_TCK)"
cat "$DATA/fforum-1-19.obf" "$DATA/fforum-20-39.obf" "$DATA/fforum-40-59.obf" >"$OUT/all.obf"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); yomi $YOMI_FFO on core $CORE_YOMI, Edax on core $CORE_EDAX, Edax stopped at max($FACTOR x yomi's CPU s, $MIN_EDAX s)" >>"$OUT/race.txt"

done_in() { grep -q "^$1 " "$2" 2>/dev/null; }

yomi_side() {
  for p in "$@"; do
    done_in "$p" "$OUT/yomi.log" && continue
    rm -f "$OUT/y$p.time"
    /usr/bin/time -f "%U %e" -o "$OUT/y$p.tmp" taskset -c "$CORE_YOMI" timeout "$CAP" \
      "$YOMI_FFO" "$p" "$p" 1 >"$OUT/y$p.txt" 2>&1
    rc=$?
    mv "$OUT/y$p.tmp" "$OUT/y$p.time"
    echo "$p rc=$rc $(tail -1 "$OUT/y$p.time") $(grep -h '^ *#' "$OUT/y$p.txt")" >>"$OUT/yomi.log"
  done
}

edax_side() {
  for p in "$@"; do
    done_in "$p" "$OUT/edax.log" && continue
    sed -n "${p}p" "$OUT/all.obf" >"$OUT/p$p.obf"
    (cd "$(dirname "$EDAX")/.." && exec /usr/bin/time -f "%U %e" -o "$OUT/e$p.time" \
      taskset -c "$CORE_EDAX" timeout "$CAP" "$EDAX" -n 1 -l 60 -book-usage off -solve "$OUT/p$p.obf" \
      >"$OUT/e$p.txt" 2>&1) &
    pid=$!
    why=""
    while kill -0 "$pid" 2>/dev/null; do
      sleep 2
      # Edax's own process (under time, taskset and timeout), by its position file.
      epid=$(pgrep -f "^$EDAX .*$OUT/p$p.obf" | head -1)
      if [ -f "$OUT/y$p.time" ] && [ -n "$epid" ]; then
        yu=$(awk 'NR == 1 { print int($1) }' "$OUT/y$p.time")
        lim=$(awk -v y="$yu" -v f="$FACTOR" -v m="$MIN_EDAX" 'BEGIN { l = y * f; print int(l > m ? l : m) }')
        ecpu=$(( $(awk '{ print $14 }' "/proc/$epid/stat" 2>/dev/null || echo 0) / TCK ))
        if [ "$ecpu" -gt "$lim" ]; then
          why="stopped at ${lim} s of CPU"
          kill "$epid"
        fi
      fi
    done
    wait "$pid"
    rc=$?
    echo "$p rc=$rc $why $(tail -1 "$OUT/e$p.time") $(grep -h '^ *1|' "$OUT/e$p.txt") $(grep -h 'nodes in' "$OUT/e$p.txt")" >>"$OUT/edax.log"
  done
}

yomi_side "$@" &
edax_side "$@" &
wait
echo "# finished $(date -u '+%Y-%m-%d %H:%M UTC')" >>"$OUT/race.txt"
cat "$OUT/yomi.log" "$OUT/edax.log"
