#!/usr/bin/env bash
# The project's one test command (README.md): the module-circle check
# (scripts/module-cycles.py, seconds, so it fails fast), the Rust tests of every crate (the
# CLI with its `nn` feature), the web board's end-to-end tests in headless Chromium among
# them, then the Python package's tests (a fresh venv with the wheel built from
# crates/yomi-py). Each part installs what it needs (see scripts/test-browser.sh and
# scripts/test-python.sh); set YOMI_SKIP_PYTHON=1 or YOMI_SKIP_BROWSER=1 to leave one out.
set -euo pipefail
cd "$(dirname "$0")/.."

# No import circles between the modules of a crate (scripts/module-cycles.py says what it
# counts as a use); it needs only Python's standard library.
python3 scripts/module-cycles.py

# The browser tests live in crates/yomi-server/tests/browser.rs and run when YOMI_BROWSER=1
# (they take turns on one browser). They run inside the one workspace `cargo test` below:
# a separate `cargo test -p yomi-server` would resolve features differently and rebuild
# minutes of crates.
if [ "${YOMI_SKIP_BROWSER:-0}" != 1 ]; then
  bash scripts/test-browser.sh --install-only
  export YOMI_BROWSER=1
fi

# `--features yomi/nn`: the command line with its neural-network commands (off in a plain
# build, which keeps the first build short), so that their tests run too.
step=$(date +%s)
cargo test --workspace --features yomi/nn
echo "test: cargo test passed in $(( $(date +%s) - step )) s" >&2

if [ "${YOMI_SKIP_PYTHON:-0}" != 1 ]; then
  bash scripts/test-python.sh
fi
