#!/bin/sh
# The yose next-move experiment (issue 6 item 6; Nakamura & Ishida, GPW 2015): plain MCTS,
# MCTS with each of Pachi's dynamic komi schemes, difference-game MCTS and GNU Go on the
# proven suite crates/yomi-go/data/yose (34 problems, A and B kinds), RUNS runs per problem
# and engine (each run starts the engine afresh with seed = run + 1; GNU Go is
# deterministic). Answers go to experiments/go-yose.jsonl (appended; a rerun resumes), the
# table to experiments/go-yose-report.md. The committed answers are gzipped
# (experiments/go-yose.jsonl.gz, 10 MB unpacked): gunzip it first to resume or extend.
#
# The paper's peers join when their binaries are named (built outside the repository from
# their public sources; nothing here fetches or builds them): PACHI10 (Pachi 10.00, the
# paper's version) and PACHI (Pachi 12.90, built with DCNN=0) run with dynamic komi off
# (dynkomi=none) and on (adaptive, value indicator, kept on to the end of the game:
# no_komi_at_game_end=0), FUEGO (Fuego 1.1, the paper's version)
# with experiments/go-yose-fuego.gtp (10,000 playouts a move, whatever BIG is). Both run
# one thread, no resignation, seed = run + 1. Run from the repository's root.
#
#   cargo build --release -p yomi
#   YOMI=target/release/yomi RUNS=20 ITERS=2000 experiments/go-yose.sh
#   PACHI10=... PACHI=... FUEGO=/path/to/fuego YOMI=... RUNS=100 experiments/go-yose.sh
#
# ENGINES=yomi or ENGINES=peers runs only yomi's or only the other programs (default all),
# OUT and REPORT name the answer file and the report: two parts can run at the same time
# into two files; the second file's answers (every line after its header) appended to the
# first, a run with all engines on it finds every answer and writes the whole table.
set -eu
YOMI=${YOMI:-target/release/yomi}
ENGINES=${ENGINES:-all}
OUT=${OUT:-experiments/go-yose.jsonl}
REPORT=${REPORT:-experiments/go-yose-report.md}
case "$ENGINES" in all | yomi | peers) ;; *) echo "ENGINES must be all, yomi or peers" >&2; exit 2 ;; esac
RUNS=${RUNS:-20}
ITERS=${ITERS:-2000}
BIG=${BIG:-10000}
PERIOD=$((ITERS / 10))
GNUGO=${GNUGO:-/usr/games/gnugo}
set --
[ "$ENGINES" = peers ] || set -- \
  --engine "$YOMI go gtp --agent mcts:iters=$ITERS --seed {seed}" --label "mcts iters=$ITERS" \
  --engine "$YOMI go gtp --agent dkmcts-linear:iters=$ITERS,period=$PERIOD --seed {seed}" --label "dkmcts-linear iters=$ITERS" \
  --engine "$YOMI go gtp --agent dkmcts-score:iters=$ITERS,period=$PERIOD --seed {seed}" --label "dkmcts-score iters=$ITERS" \
  --engine "$YOMI go gtp --agent dkmcts-value:iters=$ITERS,period=$PERIOD --seed {seed}" --label "dkmcts-value iters=$ITERS" \
  --engine "$YOMI go gtp --agent diffmcts:iters=$ITERS --seed {seed}" --label "diffmcts iters=$ITERS" \
  --engine "$YOMI go gtp --agent mcts:iters=$BIG --seed {seed}" --label "mcts iters=$BIG" \
  --engine "$YOMI go gtp --agent diffmcts:iters=$BIG --seed {seed}" --label "diffmcts iters=$BIG"
if [ "$ENGINES" = yomi ]; then
  :
elif [ -x "$GNUGO" ]; then
  set -- "$@" --engine "$GNUGO --mode gtp --level 10 --chinese-rules" --label "GNU Go 3.8 level 10"
else
  echo "GNU Go not found at $GNUGO: left out" >&2
fi
if [ -n "${PACHI10:-}" ] && [ "$ENGINES" != yomi ]; then
  set -- "$@" \
    --engine "$PACHI10 -t =$BIG -s {seed} threads=1,resign_threshold=0,dynkomi=none" \
    --label "Pachi 10.00 =$BIG DAKV off" \
    --engine "$PACHI10 -t =$BIG -s {seed} threads=1,resign_threshold=0,dynkomi=adaptive:no_komi_at_game_end=0" \
    --label "Pachi 10.00 =$BIG DAKV on"
fi
if [ -n "${PACHI:-}" ] && [ "$ENGINES" != yomi ]; then
  set -- "$@" \
    --engine "$PACHI -t =$BIG --nodcnn -s {seed} threads=1,resign_threshold=0,dynkomi=none" \
    --label "Pachi 12.90 =$BIG DAKV off" \
    --engine "$PACHI -t =$BIG --nodcnn -s {seed} threads=1,resign_threshold=0,dynkomi=adaptive:no_komi_at_game_end=0" \
    --label "Pachi 12.90 =$BIG DAKV on"
fi
if [ -n "${FUEGO:-}" ] && [ "$ENGINES" != yomi ]; then
  set -- "$@" \
    --engine "$FUEGO --nobook --srand {seed} --config experiments/go-yose-fuego.gtp" \
    --label "Fuego 1.1 max_games=10000"
fi
"$YOMI" go yose score --suite crates/yomi-go/data/yose --runs "$RUNS" \
  --out "$OUT" --report "$REPORT" "$@"
