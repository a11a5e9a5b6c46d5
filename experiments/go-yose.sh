#!/bin/sh
# The yose next-move experiment (issue 6 item 6; Nakamura & Ishida, GPW 2015): plain MCTS,
# MCTS with each of Pachi's dynamic komi schemes, difference-game MCTS and GNU Go on the
# proven suite crates/yomi-go/data/yose (34 problems, A and B kinds), RUNS runs per problem
# and engine (each run starts the engine afresh with seed = run + 1; GNU Go is
# deterministic). Answers go to experiments/go-yose.jsonl (appended; a rerun resumes), the
# table to experiments/go-yose-report.md.
#
#   cargo build --release -p yomi
#   YOMI=target/release/yomi RUNS=20 ITERS=2000 experiments/go-yose.sh
set -eu
YOMI=${YOMI:-target/release/yomi}
RUNS=${RUNS:-20}
ITERS=${ITERS:-2000}
BIG=${BIG:-10000}
PERIOD=$((ITERS / 10))
GNUGO=${GNUGO:-/usr/games/gnugo}
set -- \
  --engine "$YOMI go gtp --agent mcts:iters=$ITERS --seed {seed}" --label "mcts iters=$ITERS" \
  --engine "$YOMI go gtp --agent dkmcts-linear:iters=$ITERS,period=$PERIOD --seed {seed}" --label "dkmcts-linear iters=$ITERS" \
  --engine "$YOMI go gtp --agent dkmcts-score:iters=$ITERS,period=$PERIOD --seed {seed}" --label "dkmcts-score iters=$ITERS" \
  --engine "$YOMI go gtp --agent dkmcts-value:iters=$ITERS,period=$PERIOD --seed {seed}" --label "dkmcts-value iters=$ITERS" \
  --engine "$YOMI go gtp --agent diffmcts:iters=$ITERS --seed {seed}" --label "diffmcts iters=$ITERS" \
  --engine "$YOMI go gtp --agent mcts:iters=$BIG --seed {seed}" --label "mcts iters=$BIG" \
  --engine "$YOMI go gtp --agent diffmcts:iters=$BIG --seed {seed}" --label "diffmcts iters=$BIG"
if [ -x "$GNUGO" ]; then
  set -- "$@" --engine "$GNUGO --mode gtp --level 10 --chinese-rules" --label "GNU Go 3.8 level 10"
else
  echo "GNU Go not found at $GNUGO: left out" >&2
fi
"$YOMI" go yose score --suite crates/yomi-go/data/yose --runs "$RUNS" \
  --out experiments/go-yose.jsonl --report experiments/go-yose-report.md "$@"
