#!/usr/bin/env bash
# A yomi Geister agent against a Geister-cpp-lib player (github.com/ats-ito/Geister-cpp-lib:
# randomPlayer, chototsuPlayer, or any player built with it) over the tournament protocol,
# refereed by `yomi geister server`: N games with yomi first, then N with yomi second, the
# server's line per game kept in OUT, and the score at the end.
#
# This script builds and fetches no peer code. GEISTER_CPP names the bin/ folder of a
# Geister-cpp-lib you built yourself (`make` in its checkout; the first runs used commit
# 883342f). Its client.out loads a player library (.so) and plays `-c N` games,
# reconnecting for each.
#
# Usage: GEISTER_CPP=/path/to/Geister-cpp-lib/bin benches/peers/geister/run.sh \
#          AGENT PEER.so [games per seat (10)] [port (12400)] [out folder (geister-results)]
# e.g.   ... run.sh estimate:iters=2000 chototsuPlayer.so 50
# Environment: YOMI (the yomi binary; default: built here with cargo), SEED (0).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
AGENT="${1:?usage: run.sh AGENT PEER.so [games per seat] [port] [out folder]}"
PEER="${2:?usage: run.sh AGENT PEER.so [games per seat] [port] [out folder]}"
GAMES="${3:-10}"
PORT="${4:-12400}"
OUT="${5:-geister-results}"
SEED="${SEED:-0}"
if [ -z "${GEISTER_CPP:-}" ] || [ ! -x "$GEISTER_CPP/client.out" ] || [ ! -f "$GEISTER_CPP/$PEER" ]; then
  echo "GEISTER_CPP must name a Geister-cpp-lib bin/ folder holding client.out and $PEER" >&2
  exit 2
fi
if [ -z "${YOMI:-}" ]; then
  (cd "$ROOT" && cargo build --release --quiet --bin yomi)
  YOMI="${CARGO_TARGET_DIR:-$ROOT/target}/release/yomi"
fi
mkdir -p "$OUT"
tag="$(echo "$AGENT-vs-${PEER%.so}" | tr -c 'A-Za-z0-9_.=-' '_')"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
# One series per seat: yomi first (the peer on the second player's port), then second.
for seat in first second; do
  log="$OUT/$tag-yomi-$seat.txt"
  "$YOMI" geister server --port "$PORT" --games "$GAMES" --seat-timeout 60 >"$log" 2>"$log.err" &
  server=$!
  pids=("$server")
  sleep 0.5
  if [ "$seat" = first ]; then yport=$PORT; pport=$((PORT + 1)); else yport=$((PORT + 1)); pport=$PORT; fi
  (cd "$GEISTER_CPP" && exec ./client.out -H 127.0.0.1 -p "$pport" -c "$GAMES" -o 1 "./$PEER") >"$log.peer" 2>&1 &
  pids+=("$!")
  "$YOMI" geister client --port "$yport" --games "$GAMES" --agent "$AGENT" --seed "$SEED" >"$log.yomi" 2>&1 || true
  wait "$server" || echo "the server stopped with an error: see $log.err" >&2
  PORT=$((PORT + 2))
done
# Score: the server's line says which seat won.
awk -v agent="$AGENT" -v peer="$PEER" '
  FNR == 1 { seat = (FILENAME ~ /-yomi-first.txt$/) ? "first" : "second" }
  /^game [0-9]+:/ {
    n++
    if ($0 ~ /drawn|draw/) { d++ }
    else if ($0 ~ ("^game [0-9]+: " seat " player won") || $0 ~ ("^game [0-9]+: " (seat == "first" ? "second" : "first") " player lost")) { w++ }
    else { l++ }
  }
  END {
    s = (w + d / 2) / (n ? n : 1)
    printf "%s vs %s: %d games, %d-%d-%d (W-D-L), score %.1f%%\n", agent, peer, n, w, d, l, 100 * s
  }' "$OUT/$tag-yomi-first.txt" "$OUT/$tag-yomi-second.txt"
