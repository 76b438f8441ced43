"""Shared fixtures: the bundled games, each built once per test session (`helpers.built`)
with the compiled-library cache in a fresh folder of the session."""

from __future__ import annotations

import os
import tempfile

import pytest

from cardsmith.compiler.load import BuildResult
from tests.helpers import built

os.environ.setdefault("CARDSMITH_CACHE", tempfile.mkdtemp(prefix="cardsmith-test-cache-"))

# the headless browser (tests/browser.py): one Chromium per session for every module that opens pages
pytest_plugins = ["tests.browser"]


@pytest.fixture(scope="session")
def sakura() -> BuildResult:
    return built("sakura")


def pytest_sessionstart(session: pytest.Session) -> None:
    """A report from an earlier run is not this run's (removed once, by the controller)."""
    from tests.test_sakura_text import REPORT
    if not hasattr(session.config, "workerinput"):
        REPORT.unlink(missing_ok=True)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The per-goddess agreement of the library with the printed card texts, when the test that
    measures it ran (it writes the table; workers of pytest-xdist cannot print it themselves)."""
    from tests.test_sakura_text import REPORT
    if REPORT.is_file():
        terminalreporter.section("printed card text agreement")
        terminalreporter.write(REPORT.read_text("utf-8"))
