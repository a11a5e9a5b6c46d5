#!/bin/sh
# The paper's table 1 (Kimura & Ito, seed 002; issue 7): the AlphaZero agent on
# perfect-information Geister (the paper's 200-move draw) against a random agent and against
# MCTS with UCB1 and random playouts, 100 games each, 50 first and 50 second; then the
# real-Geister agent (blueness estimation + the same network search) against determinized
# MCTS on hidden-colour Geister (tournament rules, 300 plies). The network is the one shipped
# in crates/yomi-geister/nets/az-perfect.ynn (`az` without `net=`). Records go to
# experiments/geister-table1/*.jsonl (a rerun resumes each match), the standings to
# experiments/geister-table1/*.md; experiments/geister-az-report.md discusses them.
#
#   cargo build --release -p yomi
#   YOMI=target/release/yomi SIMS=400 MCTS=1000 experiments/geister-table1.sh
# NET=FILE.ynn plays another network (or the shipped one through a binary built before it
# was embedded).
set -eu
YOMI=${YOMI:-target/release/yomi}
SIMS=${SIMS:-400}
MCTS=${MCTS:-1000}
GAMES=${GAMES:-100}
NET=${NET:-}
AZ="az:sims=$SIMS${NET:+,net=$NET}"
DIR=experiments/geister-table1
mkdir -p "$DIR"
run() { # name game agent opponent
  "$YOMI" match "$2" "$3" "$4" --games "$GAMES" --seed 1 --quiet --markdown \
    --out "$DIR/$1.jsonl" > "$DIR/$1.md"
  cat "$DIR/$1.md"
}
run az-vs-random geister-perfect-200 "$AZ" random
run az-vs-mcts geister-perfect-200 "$AZ" "mcts:iters=$MCTS"
run estimate-az-vs-dets-mcts geister "estimate:inner=az,sims=$SIMS${NET:+,net=$NET}" "mcts:iters=$MCTS,dets=8"
