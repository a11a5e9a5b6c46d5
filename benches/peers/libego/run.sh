#!/usr/bin/env bash
# libEGO against yomi-go: 9x9 light playouts per second of CPU time, one thread, the two
# programs run alternately so that both see the same machine load.
#
# This script builds and fetches no peer code. LIBEGO_BENCH names the libEGO benchmark
# binary you built yourself: yomi's driver bench_main.cpp (in this folder) compiled against
# libEGO's `ego/` sources, with the include path pointing at them. The figures in
# ../README.md were measured with libEGO commit 4201447f (github.com/lukaszlew/libego),
# built with g++ -O3 -march=x86-64-v3 (libEGO's config.h refuses NDEBUG).
#
# Usage: LIBEGO_BENCH=/path/to/libego-bench benches/peers/libego/run.sh [rounds (default 5)] [seconds per libEGO run (default 3)]
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS="${1:-5}"
SECS="${2:-3}"
if [ -z "${LIBEGO_BENCH:-}" ] || [ ! -x "$LIBEGO_BENCH" ]; then
  echo "LIBEGO_BENCH must name an executable libEGO benchmark (bench_main.cpp built against libEGO's ego/ sources); see the comment at the top of this script" >&2
  exit 2
fi
mkdir -p results
(cd ../../.. && cargo build --release --quiet -p yomi-go --example playout_count)
YOMI=../../../target/release/examples/playout_count
# yomi: a fixed count sized to take about as long as the libEGO run.
N=$(awk -v s="$SECS" 'BEGIN { printf "%d", s * 200000 }')
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load:$(uptime | sed 's/.*load average//')"
for r in $(seq "$ROUNDS"); do
  "$LIBEGO_BENCH" "$SECS"
  TIMEFORMAT=%3U
  cpu=$( { time "$YOMI" 9 "$N" >results/yomi.txt; } 2>&1 )
  awk -v n="$N" -v t="$cpu" '{ printf "yomi 9x9 light playouts: %.0f playouts/s (cpu), %s moves each, black wins %s at komi 7.5\n", n / t, $3, $8 }' results/yomi.txt
done
