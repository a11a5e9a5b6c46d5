#!/usr/bin/env bash
# The Python package's tests: builds the wheel of crates/yomi-py, installs it with the test
# dependencies into a fresh virtual environment, and runs pytest on crates/yomi-py/tests.
#
#   scripts/test-python.sh [pytest arguments]
#
# Environment:
#   YOMI_PY_VENV     the virtual environment (default: target/py-test-venv; recreated)
#   YOMI_PY_PROFILE  "test" (default): release without LTO and with parallel codegen, the
#                    quicker build for tests; "release": the workspace's release profile,
#                    as `pip install ./crates/yomi-py` builds it
#   PYTHON           the interpreter (default: python3; 3.9 or later)
#   YOMI_PY_NN       1: build the wheel with the `nn` feature (burn: minutes more of build),
#                    so that the AlphaZero-on-Ray tests run instead of skipping
#
# Works as root on a fresh Debian machine with Python 3.11 and pip: when the interpreter
# cannot create a virtual environment (no python3-venv), it installs python3-venv with apt
# (as root) or virtualenv with pip.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

PYTHON=${PYTHON:-python3}
venv=${YOMI_PY_VENV:-$root/target/py-test-venv}
profile=${YOMI_PY_PROFILE:-test}
start=$(date +%s)

# Pinned test dependencies (the versions the suite was written against).
MATURIN=maturin==1.16.0
DEPS=(pytest==9.2.0 numpy==2.4.6 pettingzoo==1.27.0 gymnasium==1.4.0 ray==2.60.0)

make_venv() {
  rm -rf "$venv"
  if "$PYTHON" -m venv "$venv" 2>/dev/null; then return 0; fi
  rm -rf "$venv"
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    minor=$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    apt-get update -qq && { apt-get install -y -qq "python$minor-venv" >/dev/null 2>&1 ||
      apt-get install -y -qq python3-venv >/dev/null; }
    "$PYTHON" -m venv "$venv" && return 0
  fi
  "$PYTHON" -m pip install --quiet --user virtualenv 2>/dev/null ||
    "$PYTHON" -m pip install --quiet --user --break-system-packages virtualenv
  "$PYTHON" -m virtualenv --quiet "$venv"
}

echo "test-python: virtual environment $venv" >&2
make_venv
py="$venv/bin/python"
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet "$MATURIN" "${DEPS[@]}"

# The wheel. The test profile keeps the workspace's release settings except link-time
# optimisation and single-unit codegen, which cost minutes of build time on two cores
# and buy little for tests. The `nn` feature (burn) is off unless YOMI_PY_NN=1: only the
# AlphaZero-on-Ray tests need it, and they skip without it.
dist="$root/target/py-wheels"
rm -rf "$dist"
if [ "$profile" = test ]; then
  export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_DEBUG=0
fi
build_start=$(date +%s)
features=()
[ "${YOMI_PY_NN:-0}" = 1 ] && features=(--features nn)
"$venv/bin/maturin" build --release --quiet "${features[@]}" -m crates/yomi-py/Cargo.toml -i "$py" --out "$dist"
build_end=$(date +%s)
"$py" -m pip install --quiet "$dist"/*.whl

# Run from the tests folder, so that `import yomi` finds the installed wheel.
cd crates/yomi-py/tests
"$py" -m pytest -q -p no:cacheprovider "$@"
echo "test-python: passed in $(( $(date +%s) - start )) s (wheel build $(( build_end - build_start )) s)" >&2
