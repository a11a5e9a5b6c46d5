#!/usr/bin/env bash
# Peer comparison of yomi's MCTS on connect four (see README.md in this folder).
# Builds the Rust contenders in release mode and runs them (yomi, treant, hand-written),
# then OpenSpiel's MCTS when the interpreter has open-spiel (install it yourself:
# `pip install open-spiel`; this script installs no peer).
# Outputs are also kept under results/ (ignored by git).
#
# Usage: benches/peers/run.sh [args for the Rust binary, e.g. --reps 7]
# Environment: PYTHON (default python3), SKIP_OPENSPIEL=1 to skip the Python part,
# BENCH_PRIORITY=1 on a machine shared with other work (e.g. builds): runs everything in
# its own scheduler autogroup at nice -19 (needs root and kernel.sched_autogroup_enabled),
# so that the benchmark gets a whole core while it runs and wall-clock times mean something.
set -euo pipefail
cd "$(dirname "$0")"
if [ "${BENCH_PRIORITY:-0}" = 1 ] && [ -z "${_PEERS_PRIORITY:-}" ]; then
  export _PEERS_PRIORITY=1
  exec setsid --wait bash -c 'echo -19 > /proc/self/autogroup 2>/dev/null \
    || echo "# BENCH_PRIORITY: could not set the autogroup priority; running at normal priority"
    exec "$0" "$@"' "$0" "$@"
fi
PYTHON="${PYTHON:-python3}"
mkdir -p results

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
echo "# yomi: last commit to yomi-core/yomi-classic $(git -C ../.. log -1 --format='%h (%cd)' --date=short \
 -- crates/yomi-core crates/yomi-classic 2>/dev/null || echo '?'),\
 $(git -C ../.. status --porcelain -- crates/yomi-core crates/yomi-classic 2>/dev/null | wc -l) uncommitted files in yomi-core/yomi-classic"
echo "# load before measuring:$(uptime | sed 's/.*load average//')$([ -n "${_PEERS_PRIORITY:-}" ] && echo "; $(cat /proc/self/autogroup 2>/dev/null)")"
load1=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load1" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
  if [ -n "${_PEERS_PRIORITY:-}" ]; then
    echo "# the machine is busy (1-minute load $load1): measuring at raised priority"
  else
    echo "# warning: the machine is busy (1-minute load $load1); numbers will be noisy (see BENCH_PRIORITY)"
  fi
fi

cargo build --release --quiet
./target/release/yomi-peers "$@" | tee results/rust.txt

if [ "${SKIP_OPENSPIEL:-0}" = 1 ]; then
  exit 0
fi
echo
if ! "$PYTHON" -c 'import pyspiel' 2>/dev/null; then
  echo "# $PYTHON has no open-spiel (skipping OpenSpiel): install it yourself, e.g. \`pip install open-spiel\`"
  exit 0
fi
"$PYTHON" openspiel_mcts.py --rust-output results/rust.txt | tee results/openspiel.txt
