"""Shared settings of yomi's Python tests (run by scripts/test-python.sh)."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def repo_root() -> pathlib.Path:
    """The repository root (rule sheets, maps and example files live there)."""
    return ROOT


def pytest_configure(config):
    # Ray's own tests and ours must not pick up a cluster of the machine running them.
    os.environ.pop("RAY_ADDRESS", None)
