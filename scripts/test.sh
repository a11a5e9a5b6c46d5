#!/usr/bin/env bash
# The project's one test command (README.md): the Rust tests of every crate (the CLI with
# its `nn` feature), then the
# Python package's tests (a fresh venv with the wheel built from crates/yomi-py), then the
# web board's end-to-end tests in headless Chromium. Each later part installs what it
# needs (see its script); set YOMI_SKIP_PYTHON=1 or YOMI_SKIP_BROWSER=1 to leave one out.
set -euo pipefail
cd "$(dirname "$0")/.."

# `--features yomi/nn`: the command line with its neural-network commands (off in a plain
# build, which keeps the first build short), so that their tests run too.
cargo test --workspace --features yomi/nn

if [ "${YOMI_SKIP_PYTHON:-0}" != 1 ]; then
  bash scripts/test-python.sh
fi
if [ "${YOMI_SKIP_BROWSER:-0}" != 1 ]; then
  bash scripts/test-browser.sh
fi
