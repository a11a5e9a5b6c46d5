#!/usr/bin/env bash
# Builds the seed corpora and runs every fuzz target (or the ones named) for a while.
#
#   fuzz/run.sh [seconds-per-target] [target...]      (default: 60 s, every target)
#
# "Every target" is those of this crate; `weights` (yomi-nn's weights files) lives in the
# separate crate fuzz/nn/ (it builds burn, a long build) and runs only when named.
#
# Corpora live in fuzz/corpus/<target>/ (git-ignored). Each run copies in the committed
# hand-made seeds (fuzz/seeds/<target>/), the project's own sample files (shipped GDL
# sheets, built-in maps, examples/*.toml), and, when ../shared/data exists next to the
# repository, the shared samples (GDL sheets, FFO / OBF lines, .tbsmap maps); shared data
# is only ever copied into the ignored corpus, never committed.
#
# Environment: CARGO_TARGET_DIR (default /work/target-fuzz if it exists, else fuzz/target),
# SANITIZER (default none: fastest on a busy machine; address for ASan), TOOLCHAIN
# (default nightly; set TOOLCHAIN=stable to build with RUSTC_BOOTSTRAP=1), JOBS (libFuzzer
# -jobs, default 1), FUZZ_ARGS (extra libFuzzer flags).
#
# Prints one line per target: executions, seconds, crashes (artifacts written by this run)
# and the stats line; crash inputs are in fuzz/artifacts/<target>/.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
secs="${1:-60}"
shift || true

all_targets=(gdl ggp_message sgf go_gtp othello_gtp nboard obf tbsmap tubstap_protocol
    geister_protocol cgt agent_spec tournament_file records game_state)
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi
fuzz_dir() { # the cargo-fuzz crate of a target
    if [ "$1" = weights ]; then echo "$here/nn"; else echo "$here"; fi
}
max_len() { # weights files are larger than text inputs (the shipped network is 281 KB)
    if [ "$1" = weights ]; then echo 1048576; else echo 65536; fi
}

if [ -z "${CARGO_TARGET_DIR:-}" ]; then
    if [ -d /work/target-fuzz ]; then export CARGO_TARGET_DIR=/work/target-fuzz
    else export CARGO_TARGET_DIR="$here/target"; fi
fi
sanitizer="${SANITIZER:-none}"
toolchain="${TOOLCHAIN:-nightly}"
if [ "$toolchain" = stable ]; then export RUSTC_BOOTSTRAP=1; fi

# ---- seed corpora ----------------------------------------------------------------------
shared="$repo/../shared/data"
copy() { # copy <target> <files...>: into the corpus under a content-derived name
    local t="$1"; shift
    mkdir -p "$here/corpus/$t"
    local f
    for f in "$@"; do
        [ -f "$f" ] || continue
        cp "$f" "$here/corpus/$t/seed-$(sha1sum "$f" | cut -c1-16)"
    done
}
copy_lines() { # copy_lines <target> <prefix> <file>: one corpus entry per line
    local t="$1" prefix="$2" f="$3" n=0 line
    mkdir -p "$here/corpus/$t"
    [ -f "$f" ] || return 0
    while IFS= read -r line; do
        n=$((n + 1))
        printf '%s%s' "$prefix" "$line" > "$here/corpus/$t/line-$(basename "$f")-$n"
    done < "$f"
}
for t in "${targets[@]}"; do
    mkdir -p "$here/corpus/$t"
    if [ -d "$here/seeds/$t" ]; then copy "$t" "$here/seeds/$t"/*; fi
done
copy gdl "$repo"/crates/yomi-ggp/games/*.kif
copy tbsmap "$repo"/crates/yomi-tubstap/maps/*.tbsmap
copy tournament_file "$repo"/examples/*.toml
# The shipped AlphaZero network; the target itself writes small networks made by yomi-nn's
# writers into the corpus when it starts (YOMI_FUZZ_NN_SEEDS below).
copy weights "$repo"/crates/yomi-geister/nets/*.ynn
if [ -d "$shared" ]; then
    echo "seeds: adding shared samples from $shared"
    copy gdl $(find "$shared/gdl" -name '*.kif' -size -64k)
    copy tbsmap "$shared"/tubstap-maps/*.tbsmap
    for f in "$shared"/othello/*.obf; do
        [ -f "$f" ] || continue
        copy obf "$f"
        copy_lines obf "" "$f"
        copy_lines game_state $'\x06' <(cut -c1-66 "$f")
    done
else
    echo "seeds: no $shared; committed seeds only"
fi

# ---- build -----------------------------------------------------------------------------
cd "$here"
echo "building ${targets[*]} (sanitizer $sanitizer, toolchain $toolchain, target dir $CARGO_TARGET_DIR)"
if [ "$#" -eq 0 ]; then
    cargo "+$toolchain" fuzz build --fuzz-dir "$here" -s "$sanitizer"
else
    for t in "${targets[@]}"; do cargo "+$toolchain" fuzz build --fuzz-dir "$(fuzz_dir "$t")" -s "$sanitizer" "$t"; done
fi

# ---- run -------------------------------------------------------------------------------
mkdir -p "$here/logs"
printf '%-18s %12s %8s %8s  %s\n' target executions seconds crashes "final stats"
total_crashes=0
for t in "${targets[@]}"; do
    mkdir -p "$here/artifacts/$t"
    before=$(find "$here/artifacts/$t" -type f | wc -l)
    log="$here/logs/$t.log"
    # -timeout: an input that runs over 10 s is a finding (a hang), as is one over 2 GB.
    # YOMI_FUZZ_NN_SEEDS: where the weights target writes its generated seeds (others ignore it).
    YOMI_FUZZ_NN_SEEDS="$here/corpus/$t" \
    cargo "+$toolchain" fuzz run --fuzz-dir "$(fuzz_dir "$t")" -s "$sanitizer" "$t" "$here/corpus/$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
        -print_final_stats=1 ${JOBS:+-jobs=$JOBS -workers=$JOBS} \
        -artifact_prefix="$here/artifacts/$t/" ${FUZZ_ARGS:-} >"$log" 2>&1 || true
    after=$(find "$here/artifacts/$t" -type f | wc -l)
    crashes=$((after - before))
    total_crashes=$((total_crashes + crashes))
    done_line=$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second\(s\)' "$log" | tail -1 || true)
    runs=$(echo "$done_line" | awk '{print $2}')
    took=$(echo "$done_line" | awk '{print $5}')
    if [ -z "$done_line" ]; then
        # A crash ends the run before libFuzzer prints "Done"; take the last status line.
        runs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
        took=-
    fi
    printf '%-18s %12s %8s %8s  %s\n' "$t" "${runs:--}" "${took:--}" "$crashes" "${done_line:-(stopped early; see fuzz/logs/$t.log)}"
done
echo "crash inputs: fuzz/artifacts/<target>/ ($total_crashes new)"
