#!/usr/bin/env bash
# libEGO against yomi-go: 9x9 light playouts per second of CPU time, one thread, the two
# programs run alternately so that both see the same machine load.
#
# libEGO is built from its own source: LIBEGO_SRC names a folder holding libEGO's `ego/`
# sources (board.h, board.cpp, playout.h, playout.cpp, ...); without it the script clones
# https://github.com/lukaszlew/libego into results/libego and uses commit 4201447f (the
# `ego/` library the figures in crates/yomi-go/README.md were measured with).
#
# Usage: benches/peers/libego/run.sh [rounds (default 5)] [seconds per libEGO run (default 3)]
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS="${1:-5}"
SECS="${2:-3}"
mkdir -p results
if [ -z "${LIBEGO_SRC:-}" ]; then
  if [ ! -d results/libego ]; then
    git clone -q https://github.com/lukaszlew/libego results/libego
  fi
  git -C results/libego checkout -q 4201447f9a39c4999bdb07690a6ee4d87a0f0221
  LIBEGO_SRC=results/libego/ego
fi
[ -f "$LIBEGO_SRC/board.h" ] || { echo "no libEGO sources (board.h) in $LIBEGO_SRC" >&2; exit 1; }
# libEGO's config.h refuses NDEBUG (its checks are compile-time constants instead).
g++ -O3 -march=x86-64-v3 -I "$LIBEGO_SRC" -o results/libego-bench bench_main.cpp 2>results/libego-build.log \
  || { cat results/libego-build.log >&2; exit 1; }
(cd ../../.. && cargo build --release --quiet -p yomi-go --example playout_count)
YOMI=../../../target/release/examples/playout_count
# yomi: a fixed count sized to take about as long as the libEGO run.
N=$(awk -v s="$SECS" 'BEGIN { printf "%d", s * 200000 }')
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load:$(uptime | sed 's/.*load average//')"
for r in $(seq "$ROUNDS"); do
  results/libego-bench "$SECS"
  TIMEFORMAT=%3U
  cpu=$( { time "$YOMI" 9 "$N" >results/yomi.txt; } 2>&1 )
  awk -v n="$N" -v t="$cpu" '{ printf "yomi 9x9 light playouts: %.0f playouts/s (cpu), %s moves each, black wins %s at komi 7.5\n", n / t, $3, $8 }' results/yomi.txt
done
