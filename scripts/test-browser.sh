#!/usr/bin/env bash
# The web board's end-to-end tests in headless Chromium (crates/yomi-server/tests/browser.rs).
# Installs Debian's chromium and chromium-driver when they are missing (needs root or sudo),
# then runs the tests one at a time. With --screenshots it also writes a PNG of every
# game's board into docs/screenshots/. With --install-only it installs and stops:
# scripts/test.sh does that, then runs these tests inside its one `cargo test` (a separate
# `cargo test -p yomi-server` resolves features differently and rebuilds minutes of crates).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  echo "test-browser: installing chromium and chromium-driver"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if [[ "${1:-}" == "--install-only" ]]; then
  exit 0
fi

export YOMI_BROWSER=1
if [[ "${1:-}" == "--screenshots" ]]; then
  export YOMI_SCREENSHOTS="$PWD/docs/screenshots"
  shift
fi
cargo test -p yomi-server --test browser "$@" -- --test-threads=1 --nocapture
