# Sourced by run.sh, scaling.sh and race.sh (ROOT set to the repository's root): checks
# EDAX and the FFO files and builds yomi's `ffo` example unless YOMI_FFO names one. Sets
# EDAX (absolute), YOMI_SHARED_DATA (absolute, exported: the example reads it), DATA (its
# othello folder) and YOMI_FFO.
if [ -z "${EDAX:-}" ] || [ ! -x "$EDAX" ]; then
  echo "EDAX must name an executable Edax binary; see the header of run.sh" >&2
  exit 2
fi
EDAX="$(cd "$(dirname "$EDAX")" && pwd)/$(basename "$EDAX")"
SHARED="${YOMI_SHARED_DATA:-$ROOT/../shared/data}"
if [ ! -f "$SHARED/othello/fforum-40-59.obf" ]; then
  echo "FFO files not found in $SHARED/othello (set YOMI_SHARED_DATA)" >&2
  exit 2
fi
YOMI_SHARED_DATA="$(cd "$SHARED" && pwd)"
export YOMI_SHARED_DATA
DATA="$YOMI_SHARED_DATA/othello"
if [ -z "${YOMI_FFO:-}" ]; then
  (cd "$ROOT" && cargo build --release --quiet -p yomi-othello --example ffo) || exit 2
  YOMI_FFO="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/ffo"
fi
