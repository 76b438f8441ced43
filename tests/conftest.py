"""Shared fixtures: the bundled games built once per test session (cache disabled per run)."""

from __future__ import annotations

import os
import tempfile

import pytest

from cardsmith.compiler.load import BuildResult, build_game

os.environ.setdefault("CARDSMITH_CACHE", tempfile.mkdtemp(prefix="cardsmith-test-cache-"))


@pytest.fixture(scope="session")
def sakura() -> BuildResult:
    result = build_game("sakura", use_cache=False, need_model=True)
    assert result.ok, [str(d) for d in result.diagnostics]
    return result
