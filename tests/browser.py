"""A headless browser for tests that open pages: Playwright driving Debian's Chromium.

Playwright's own browser download is never used (it needs a network this machine lacks):
`make browser` installs the `chromium` package with apt, and Playwright launches that
executable (`CARDSMITH_CHROMIUM`, default /usr/bin/chromium) with a fresh profile folder and
nothing that reaches out to the network. Without Playwright or Chromium the tests that use
the `browser` fixture skip, saying what is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CARDSMITH_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Playwright `BrowserContext` of headless Chromium for the whole session (a fresh
    user-data folder); each test opens its own pages with `browser.new_page()`."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: pip install -e '.[dev]' (or `make test`) installs it")
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"no Chromium at {CHROMIUM}: `make browser` installs Debian's chromium with apt "
                    "(or set CARDSMITH_CHROMIUM to a Chromium executable)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        try:
            context = playwright.chromium.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, headless=True, args=ARGS, viewport=VIEWPORT)
        except Error as err:
            pytest.skip(f"Chromium at {CHROMIUM} did not start: {str(err).splitlines()[0]}")
        try:
            yield context
        finally:
            context.close()


class Watched:
    """A page opened in the browser, with every console error and page error it raised."""

    def __init__(self, context: Any, url: str) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
