#!/usr/bin/env bash
# Instruction-level profile of each Rust contender with valgrind's callgrind (instruction
# and simulated cache counts do not depend on the machine's load, unlike timings).
# Runs one warm-up and one measured search of N iterations per contender (default 200000),
# counting only inside the search loop, and prints instructions, data reads, simulated L1
# data read misses and mispredicted branches per iteration, then the top functions / source
# files. Profiles stay in results/prof/ (open with callgrind_annotate or kcachegrind).
#
# Usage: benches/peers/profile.sh [N]
set -euo pipefail
cd "$(dirname "$0")"
N="${1:-200000}"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
cargo build --release --quiet
mkdir -p results/prof
declare -A TOGGLE=(
  [yomi]='*Worker*::run'
  [hand]='*HandUct::search'
  [treant]='*SearchTree*::playout'
)
for c in yomi hand treant; do
  out="results/prof/callgrind.$c.out"
  valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --dump-instr=yes \
    --toggle-collect="${TOGGLE[$c]}" --callgrind-out-file="$out" \
    ./target/release/yomi-peers --only "$c" --sizes "$N" --reps 1 --no-playouts >/dev/null 2>&1
  # Two searches of N iterations ran (warm-up and measured).
  callgrind_annotate --show=Ir,Dr,D1mr,Bcm "$out" 2>/dev/null | awk -v c="$c" -v n="$N" '
    /PROGRAM TOTALS/ { gsub(",", ""); it = 2 * n;
      printf "%s instructions per iteration: %.0f Ir\n", c, $1 / it;
      printf "%s data reads per iteration: %.0f reads\n", c, $3 / it;
      printf "%s simulated L1 data read misses per iteration: %.2f misses\n", c, $5 / it;
      printf "%s mispredicted conditional branches per iteration: %.1f branches\n", c, $7 / it }'
done
for c in yomi hand treant; do
  echo
  echo "## $c: top source files / functions by instructions (with L1 read misses, mispredicts)"
  callgrind_annotate --show=Ir,D1mr,Bcm "results/prof/callgrind.$c.out" 2>/dev/null \
    | grep -E '^ *[0-9,]+ \(' | sed -n '2,13p' | sed -E 's#/rustc/[0-9a-f]+/library/##; s#/root/.cargo/registry/src/[^/]+/##; s#'"$(cd ../.. && pwd)"'/##' | cut -c1-220
done
