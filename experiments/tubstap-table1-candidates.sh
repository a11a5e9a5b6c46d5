#!/bin/sh
# Why UCT+PW beats UCT by 53.5 % here and 99.1 % in the paper (issue 17 item 3): UCT+PW
# against UCT, 100 games each (colours alternated), on every map of the public platform that
# could be the paper's figure 1 (map01-05, GAT_fujiki by the paper's first author,
# testMurayama by its second), then the other candidates on the map that separates them
# most: plain UCT with uniformly random playouts (`uct:p=0`) and eq. 2 as printed
# (`pw=printed`). Records go to experiments/tubstap-table1-candidates/*.jsonl (a rerun
# resumes each match), the standings to *.md beside them; experiments/tubstap-table1.md
# discusses them.
#
#   cargo build --release -p yomi
#   YOMI=target/release/yomi experiments/tubstap-table1-candidates.sh
# MAPS names the folder of the platform's .tbsmap files (default ../shared/data/tubstap-maps).
set -eu
YOMI=${YOMI:-target/release/yomi}
GAMES=${GAMES:-100}
MAPS=${MAPS:-../shared/data/tubstap-maps}
if [ ! -f "$MAPS/GAT_fujiki.tbsmap" ]; then
  echo "the platform's maps are not in $MAPS (set MAPS)" >&2
  exit 2
fi
DIR=experiments/tubstap-table1-candidates
mkdir -p "$DIR"
run() { # name map agent opponent
  "$YOMI" match "tubstap:$MAPS/$2.tbsmap" "$3" "$4" --games "$GAMES" --seed 1 --threads 1 \
    --quiet --markdown --out "$DIR/$1.jsonl" > "$DIR/$1.md"
  cat "$DIR/$1.md"
}
for m in map01 map04 testMurayama map03 map02 map05 GAT_fujiki; do
  run "$m" "$m" uct-pw uct
done
run fujiki-pw-vs-uctp0 GAT_fujiki uct-pw uct:p=0
run fujiki-pwprinted-vs-uctp0 GAT_fujiki uct-pw:pw=printed uct:p=0
# eq. 2 as printed on the standard map (built in, so not through MAPS)
"$YOMI" match tubstap:standard uct-pw:pw=printed uct --games "$GAMES" --seed 1 --threads 1 \
  --quiet --markdown --out "$DIR/standard-pwprinted-vs-uct.jsonl" > "$DIR/standard-pwprinted-vs-uct.md"
cat "$DIR/standard-pwprinted-vs-uct.md"
