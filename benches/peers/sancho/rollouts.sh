#!/usr/bin/env bash
# Random playouts per CPU second, yomi's GDL reasoner beside Sancho's propnet state machine,
# on every .kif rule sheet under the given paths: a markdown table on stdout with the
# ratio per sheet, the geometric mean of the ratios and the worst sheet.
#
# yomi's column is its `ggp_table` example (crates/yomi-ggp/examples/ggp_table.rs, `--one`:
# load = read, check, ground, compile; then random playouts from the initial state for SECS
# CPU seconds of the measuring thread). Sancho's column is SanchoRollouts.java beside this
# script (what Sancho's own StateMachinePerformanceAnalyser measures as "direct state machine
# rollouts", on a .kif file, per CPU second, after WARM seconds of JIT warm-up). The plies
# per playout of both are printed: equal lengths say both play the same game.
#
# This script builds and fetches no peer code: SANCHO_CLASSPATH is the class path of a
# Sancho you built yourself (its compiled classes and the jars its build.xml lists; see the
# comment at the top of run.sh for the build the first runs used). SanchoRollouts.java is
# compiled into a temporary folder against it.
#
# Usage: SANCHO_CLASSPATH=... benches/peers/sancho/rollouts.sh [SECS (3)] PATH...
# Environment: WARM (1 s), TIMEOUT (30 s: a sheet must load and finish a playout within it
# beside SECS + WARM), YOMI_CPUS and SANCHO_CPUS (taskset lists), PARALLEL (1: the two
# programs measure the same sheet at the same time, each on its own cores; by default one
# after the other: on the shared 2-core machine the two cores' speeds drifted apart by up to
# 30% over a run, so the same core for both, one after the other, gives the fairer ratio),
# GGP_TABLE (the example's binary; default: built here with cargo).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
SECS="${1:-3}"
shift || true
if [ $# -eq 0 ]; then
  echo "usage: SANCHO_CLASSPATH=... $0 [SECS] PATH... (rule sheets or folders of them)" >&2
  exit 2
fi
if [ -z "${SANCHO_CLASSPATH:-}" ]; then
  echo "SANCHO_CLASSPATH must hold Sancho's compiled classes and its jars; see the comment at the top of this script" >&2
  exit 2
fi
WARM="${WARM:-1}"
TIMEOUT="${TIMEOUT:-30}"
if [ -z "${GGP_TABLE:-}" ]; then
  (cd "$ROOT" && cargo build --release --quiet -p yomi-ggp --example ggp_table)
  GGP_TABLE="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/ggp_table"
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
javac -nowarn -d "$WORK" -cp "$SANCHO_CLASSPATH" "$ROOT/benches/peers/sancho/SanchoRollouts.java"
mkdir -p "$WORK/run"

pinned() {
  local cpus="$1"
  shift
  if [ -n "$cpus" ]; then
    taskset -c "$cpus" "$@"
  else
    "$@"
  fi
}
limit=$(awk -v a="$TIMEOUT" -v b="$SECS" -v c="$WARM" 'BEGIN { printf "%d", a + b + c + 1 }')
yomi_one() {
  # ggp_table's child prints LOADED first; the last line is the result.
  pinned "${YOMI_CPUS:-}" timeout -s KILL "$limit" "$GGP_TABLE" --one "$1" "$SECS" 2>/dev/null |
    tail -1 || true
}
sancho_one() {
  # Sancho writes logs under its working directory: give it an empty one.
  (cd "$WORK/run" && pinned "${SANCHO_CPUS:-}" timeout -s KILL "$limit" \
    java -Xmx4g -Xss256m -cp "$WORK:$SANCHO_CLASSPATH" SanchoRollouts "$1" "$SECS" "$WARM" 2>/dev/null |
    tail -1) || true
}

files=()
for p in "$@"; do
  if [ -d "$p" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$p" -name '*.kif' | LC_ALL=C sort)
  else
    files+=("$p")
  fi
done
common=""
if [ $# -eq 1 ] && [ -d "$1" ]; then
  common="${1%/}/"
fi

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load$(uptime | sed 's/.*load average//')"
echo "# yomi checkout $(git -C "$ROOT" rev-parse --short HEAD); $SECS CPU s of playouts per sheet (Sancho after $WARM s of warm-up); a sheet that does not load and play within $TIMEOUT s is a failure"
echo
echo "| sheet | yomi playouts/s | Sancho playouts/s | yomi / Sancho | plies/playout yomi | plies/playout Sancho | yomi load CPU s | Sancho load CPU s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
summary="$WORK/summary"
: >"$summary"
for f in "${files[@]}"; do
  shown="${f#"$common"}"
  if [ "${PARALLEL:-0}" = 1 ]; then
    yomi_one "$f" >"$WORK/y" &
    sancho_one "$f" >"$WORK/s"
    wait
  else
    yomi_one "$f" >"$WORK/y"
    sancho_one "$f" >"$WORK/s"
  fi
  y="$(cat "$WORK/y")"
  s="$(cat "$WORK/s")"
  IFS=$'\t' read -r -a yc <<<"$y" || true
  IFS=$'\t' read -r -a sc <<<"$s" || true
  if [ "${yc[0]:-}" = OK ]; then
    yrate="${yc[3]}"
    yplies="${yc[4]}"
    yload="${yc[1]}"
  else
    yrate="–"
    yplies="–"
    yload="${yc[1]:-no output (killed after $limit s)}"
  fi
  if [ "${sc[0]:-}" = OK ]; then
    srate="${sc[3]}"
    splies="${sc[4]}"
    sload="${sc[1]}"
  else
    srate="–"
    splies="–"
    sload="${sc[1]:-no output (killed after $limit s)}"
  fi
  ratio="–"
  if [ "$yrate" != "–" ] && [ "$srate" != "–" ]; then
    ratio=$(awk -v a="$yrate" -v b="$srate" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "–" }')
    echo "$shown $yrate $srate" >>"$summary"
  fi
  echo "| $shown | $yrate | $srate | $ratio | $yplies | $splies | $yload | $sload |"
done
echo
awk -v total="${#files[@]}" '
  { n++; l = log($2 / $3); s += l; if (n == 1 || l < worst) { worst = l; wname = $1 } }
  END {
    if (n == 0) { print "no sheet played in both programs"; exit }
    printf "%d of %d sheets play in both; geometric mean of yomi / Sancho: %.2f; worst: %s (%.2f)\n",
      n, total, exp(s / n), wname, exp(worst)
  }' "$summary"
