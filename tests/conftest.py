"""Shared fixtures: the bundled games, each built once per test session (`helpers.built`)
with the compiled-library cache in a fresh folder of the session."""

from __future__ import annotations

import os
import tempfile

import pytest

from cardsmith.compiler.load import BuildResult
from tests.helpers import built

os.environ.setdefault("CARDSMITH_CACHE", tempfile.mkdtemp(prefix="cardsmith-test-cache-"))


@pytest.fixture(scope="session")
def sakura() -> BuildResult:
    return built("sakura")
