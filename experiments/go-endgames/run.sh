#!/bin/sh
# Go endgames from real games (issue 18): GNU Go 3.8 level 10 self-play games, the
# position FROM_END moves before each game's end (`yomi go positions`), then each of
# yomi's engines against GNU Go from every position, once with each colour
# (`yomi go twogtp --openings`), compared by win rate and by score margin (compare.py).
# Every step resumes: the journals keep finished games. Run from the repository's root.
#
#   cargo build --release -p yomi
#   YOMI=target/release/yomi experiments/go-endgames/run.sh
#
# SELFPLAY (default 60) self-play games; FROM_END (default 14); ITERS (default 10000)
# iterations a move; AGENTS (default "mcts diffmcts rave diffrave decided") the engines; DIR
# (default experiments/go-endgames) where the journals go. GNU Go is Debian's `gnugo`.
set -eu
YOMI=${YOMI:-target/release/yomi}
GNUGO=${GNUGO:-/usr/games/gnugo}
SELFPLAY=${SELFPLAY:-60}
FROM_END=${FROM_END:-14}
ITERS=${ITERS:-10000}
AGENTS=${AGENTS:-mcts diffmcts rave diffrave decided}
DIR=${DIR:-experiments/go-endgames}
[ -x "$GNUGO" ] || { echo "GNU Go not found at $GNUGO (Debian: apt install gnugo)" >&2; exit 2; }
G="$GNUGO --mode gtp --level 10 --chinese-rules"
"$YOMI" go twogtp --games "$SELFPLAY" --out "$DIR/gnugo-selfplay.jsonl" \
  --first "$G --seed {seed}" --second "$G --seed {seed}" > /dev/null
"$YOMI" go positions "$DIR/gnugo-selfplay.jsonl" --from-end "$FROM_END" \
  --out "$DIR/positions-$FROM_END"
n=$(ls "$DIR/positions-$FROM_END" | grep -c '\.sgf$')
journals=""
for a in $AGENTS; do
  case "$a" in
    mcts) spec="mcts:iters=$ITERS" ;;
    diffmcts) spec="diffmcts:iters=$ITERS" ;;
    rave) spec="rave:iters=$ITERS,resign=0" ;;
    diffrave) spec="rave:iters=$ITERS,diff=true" ;;
    decided) spec="rave:iters=$ITERS,diff=decided,resign=0" ;;
    *) echo "unknown agent $a (mcts, diffmcts, rave, diffrave, decided)" >&2; exit 2 ;;
  esac
  out="$DIR/$a-from$FROM_END.jsonl"
  "$YOMI" go twogtp --games $((2 * n)) --openings "$DIR/positions-$FROM_END" --out "$out" \
    --first "$YOMI go gtp --agent $spec --seed {seed}" --second "$G" | tail -3
  journals="$journals $out"
done
python3 "$(dirname "$0")/compare.py" $journals
