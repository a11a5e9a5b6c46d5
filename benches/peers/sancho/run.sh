#!/usr/bin/env bash
# yomi's GGP player against Sancho (Steve Draper and Andrew Rose's general game player, a
# fork of ggp-base) under yomi's GGP host: N matches per game at a given play clock, the
# host giving each player every role in turn, then `yomi report` of each game's journal.
#
# This script builds and fetches no peer code. SANCHO_CMD is a shell command, run with
# bash, that starts a Sancho you built yourself as a GGP player on 127.0.0.1:$SANCHO_PORT
# (the script exports SANCHO_PORT) and keeps it running in the foreground. The first runs
# used Sancho commit 115becc (tag IGGPC15, "Version 1.61c for IGGP2015") of
# github.com/SanchoGGP/ggp-base, compiled with javac 17 over its src/ with the jars of
# src/external that its build.xml lists (its Swing table, util/ui/table/JZebraTable.java,
# first and alone with `--release 8`: JDK 9 changed JTable's constructor signature; the
# missing Jython jar is not needed). ggp-base's PlayerRunner
# finds no player on Java 9+ (its class-path scan reads URLClassLoader URLs only), so
# Sancho was started from a one-line main, `new GamePlayer(port, new Sancho()).start()`.
# Sancho reads data/cfg/$HOSTNAME.properties under its working directory; ours held
#   CPU_INTENSIVE_THREADS=1   (one search thread, rollouts on it; yomi's mcts uses one)
#   USE_AFFINITY=false
#   SAFETY_MARGIN=500         (ms kept free on the play clock; yomi's player keeps 0.5 s)
# and the command was
#   SANCHO_CMD='cd /path/to/sancho && HOSTNAME=yomi-peer exec java -Xmx2g -XX:+UseG1GC \
#     -cp /path/to/launcher:bin:data/cfg:JARS SanchoMain $SANCHO_PORT'
# Both players run at the same niceness (PLAYER_NICE, 10 by default, for a shared machine).
# Sancho keeps searching on the opponent's time; on a small machine give each player its
# own cores (SANCHO_CPUS, YOMI_CPUS: taskset lists).
#
# Rule sheets: prefer ggp-base's own (e.g. connectFour.kif in the shared GDL data, which
# Sancho recognises as base.connectfour). yomi's ggp:connect4 sheet makes Sancho 1.61c's
# factor analysis split the board into 7 independent columns ("Game factorizes into 7
# factors" in its log); its rollouts then overrun a 500-move buffer and it stops answering.
# Sancho writes what it learns about a new sheet under data/games/ and its match logs under
# logs/ in its working directory. It spends nearly the whole start clock on analysing the
# game (ready after about 9.5 s of a 10 s clock on connect four); at a 10 s start clock it
# did not answer start in time on ggp-base's 8x8 knightThrough on a busy 2-core machine, so
# give larger sheets START_CLOCK=30 or more.
#
# Usage: SANCHO_CMD='...' benches/peers/sancho/run.sh [matches per game (10)] [play clock s (5)] [game ...]
# A game is ggp:NAME (`yomi games`) or a .kif file; the default is connectFour.kif from
# $YOMI_SHARED_DATA/gdl or ../shared/data/gdl. Other settings, from the environment:
#   SANCHO_PORT (9147), YOMI_PORT (9148), YOMI_AGENT (mcts), START_CLOCK (10 s), PLAYER_NICE (10),
#   YOMI (a yomi binary; default: built here with cargo --release), RESULTS (the journal
#   folder; default results/ beside this script), SANCHO_CPUS, YOMI_CPUS.
# Each game's journal is RESULTS/<game>-pc<clock>-<agent>.jsonl: a rerun with the same
# settings plays only the matches that are missing (both ports are fixed for this reason:
# the host refuses to resume a journal with other players).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
MATCHES="${1:-10}"
CLOCK="${2:-5}"
shift $(($# < 2 ? $# : 2))
if [ -z "${SANCHO_CMD:-}" ]; then
  echo "SANCHO_CMD must start Sancho on port \$SANCHO_PORT; see the comment at the top of this script" >&2
  exit 2
fi
export SANCHO_PORT="${SANCHO_PORT:-9147}"
YOMI_PORT="${YOMI_PORT:-9148}"
YOMI_AGENT="${YOMI_AGENT:-mcts}"
START_CLOCK="${START_CLOCK:-10}"
PLAYER_NICE="${PLAYER_NICE:-10}"
RESULTS="${RESULTS:-$ROOT/benches/peers/sancho/results}"
if [ $# -eq 0 ]; then
  GDL="${YOMI_SHARED_DATA:-$ROOT/../shared/data}/gdl"
  if [ ! -f "$GDL/connectFour.kif" ]; then
    echo "connectFour.kif not found in $GDL (set YOMI_SHARED_DATA or name the games)" >&2
    exit 2
  fi
  set -- "$GDL/connectFour.kif"
fi
if [ -z "${YOMI:-}" ]; then
  (cd "$ROOT" && cargo build --release --quiet -p yomi)
  YOMI="${CARGO_TARGET_DIR:-$ROOT/target}/release/yomi"
fi
mkdir -p "$RESULTS"

# Runs "$@" at niceness PLAYER_NICE in a new session (its own process group, killed whole at
# the end), pinned to the CPU list $1 when that is not empty; prints the group's id.
start_group() {
  local cpus="$1" log="$2"
  shift 2
  if [ -n "$cpus" ]; then
    setsid taskset -c "$cpus" nice -n "$PLAYER_NICE" "$@" >"$log" 2>&1 &
  else
    setsid nice -n "$PLAYER_NICE" "$@" >"$log" 2>&1 &
  fi
  echo $!
}
GROUPS_STARTED=()
stop_groups() {
  for g in "${GROUPS_STARTED[@]}"; do
    kill -- -"$g" 2>/dev/null || true
  done
  GROUPS_STARTED=()
}
listening() {
  ss -ltn "sport = :$1" | grep -q LISTEN
}
trap stop_groups EXIT
wait_for_port() {
  local port="$1" name="$2" log="$3"
  for _ in $(seq 120); do
    if listening "$port"; then
      return 0
    fi
    sleep 0.5
  done
  echo "$name is not listening on port $port after 60 s; its output:" >&2
  tail -20 "$log" >&2
  exit 1
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load$(uptime | sed 's/.*load average//')"
echo "# yomi $YOMI (checkout $(git -C "$ROOT" rev-parse --short HEAD)), agent $YOMI_AGENT, against Sancho; $MATCHES match(es) per game; start clock $START_CLOCK s, play clock $CLOCK s"
JOURNALS=()
for game in "$@"; do
  name="$(basename "${game#ggp:}" .kif)"
  tag="$name-pc$CLOCK-$(printf '%s' "$YOMI_AGENT" | tr -c 'A-Za-z0-9.=_-' '_')"
  journal="$RESULTS/$tag.jsonl"
  # A fresh Sancho and yomi player for each game, so that one game's trouble stays there.
  for port in "$SANCHO_PORT" "$YOMI_PORT"; do
    if listening "$port"; then
      echo "port $port is already in use (a player left from an earlier run?)" >&2
      exit 1
    fi
  done
  GROUPS_STARTED+=("$(start_group "${SANCHO_CPUS:-}" "$RESULTS/$tag.sancho.log" bash -c "$SANCHO_CMD")")
  GROUPS_STARTED+=("$(start_group "${YOMI_CPUS:-}" "$RESULTS/$tag.yomi.log" \
    "$YOMI" ggp player --port "$YOMI_PORT" --agent "$YOMI_AGENT" --verbose)")
  wait_for_port "$SANCHO_PORT" Sancho "$RESULTS/$tag.sancho.log"
  wait_for_port "$YOMI_PORT" "the yomi player" "$RESULTS/$tag.yomi.log"
  echo "## $game"
  "$YOMI" ggp host --game "$game" --player "127.0.0.1:$SANCHO_PORT" --player "127.0.0.1:$YOMI_PORT" \
    --startclock "$START_CLOCK" --playclock "$CLOCK" --matches "$MATCHES" --out "$journal" ||
    echo "(the host stopped with status $?; a rerun resumes the journal)"
  stop_groups
  # Both players are gone before the next game's take the same ports.
  for _ in $(seq 20); do
    if ! listening "$SANCHO_PORT" && ! listening "$YOMI_PORT"; then
      break
    fi
    sleep 0.5
  done
  JOURNALS+=("$journal")
done
echo "# player 127.0.0.1:$SANCHO_PORT is Sancho, 127.0.0.1:$YOMI_PORT is yomi ($YOMI_AGENT)"
for journal in "${JOURNALS[@]}"; do
  "$YOMI" report "$journal"
done
