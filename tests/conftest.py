"""Shared fixtures: the bundled games, each built once per test session (`helpers.built`)
with the compiled-library cache in a fresh folder of the session."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from cardsmith.compiler.load import BuildResult
from tests.helpers import built

os.environ.setdefault("CARDSMITH_CACHE", tempfile.mkdtemp(prefix="cardsmith-test-cache-"))

# the headless browser (tests/browser.py): one Chromium per session for every module that opens pages
pytest_plugins = ["tests.browser"]


@pytest.fixture(scope="session")
def sakura() -> BuildResult:
    return built("sakura")


@pytest.fixture(scope="session")
def bundled_site(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The HTML reference of a bundled game (`write_site`), written once per test process for
    every module that reads it (test_site.py and test_site_browser.py); nobody writes into it."""
    from cardsmith.compiler.site import write_site
    written: dict[str, Path] = {}

    def site(game: str) -> Path:
        if game not in written:
            out = tmp_path_factory.mktemp(f"site-{game}")
            checked = built(game).checked
            assert checked is not None
            write_site(checked, out)
            written[game] = out
        return written[game]
    return site


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
