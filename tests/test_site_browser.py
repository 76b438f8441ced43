"""The HTML reference opened in headless Chromium (tests/browser.py): every page of every edition
loads without an error, the card gallery draws a face per card, the search box finds a card by
each of its names in every language and Enter opens it, the edition links lead to the same page
in the other language; screenshots of the main pages go to out/test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardsmith.compiler.load import bundled_games
from cardsmith.compiler.rulebook import CardEntry
from cardsmith.compiler.vocabulary import vocabulary
from tests.browser import Watched
from tests.helpers import built
from tests.helpers import edition as edition_of

ARTIFACTS = Path(__file__).resolve().parent.parent / "out" / "test-artifacts"
CARDS_SEARCHED = 6  # cards per edition looked up by every one of their names


@pytest.fixture(params=bundled_games())
def site(request: pytest.FixtureRequest, bundled_site: Callable[[str], Path]) -> tuple[str, Path]:
    return request.param, bundled_site(request.param)


def _cards(game: str, language: str) -> list[CardEntry]:
    """The cards of one edition's gallery."""
    return [c for g in edition_of(game, language).groups for c in g.cards]


def _editions(out: Path) -> list[Path]:
    return sorted(p for p in out.iterdir() if p.is_dir() and p.name != "assets")


def test_every_page_of_every_edition_loads_without_an_error(site: tuple[str, Path], browser: Any) -> None:
    game, out = site
    opened = Watched(browser, (out / "index.html").as_uri())
    try:
        own = vocabulary(built(game).checked).language  # type: ignore[arg-type]
        opened.page.wait_for_url(f"**/{own}/index.html")  # the landing page leads to the game's own edition
        for edition in _editions(out):
            for path in sorted(edition.glob("*.html")):
                opened.errors.clear()
                opened.page.goto(path.as_uri())
                assert opened.page.locator("main").count() == 1, path
                assert opened.page.title(), path
                assert not opened.errors, (path, opened.errors)
                if path.name in ("index.html", "cards.html", "glossary.html", "ch3.html"):
                    ARTIFACTS.mkdir(parents=True, exist_ok=True)
                    opened.page.screenshot(path=str(ARTIFACTS / f"site-{game}-{edition.name}-{path.stem}.png"))
    finally:
        opened.page.close()


def test_the_gallery_draws_every_cards_face(site: tuple[str, Path], browser: Any) -> None:
    game, out = site
    for edition in _editions(out):
        cards = len(_cards(game, edition.name))
        opened = Watched(browser, (edition / "cards.html").as_uri())
        try:
            faces = opened.page.locator("article.card .face svg")
            assert faces.count() == cards
            box = faces.first.bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 100
            assert not opened.errors, opened.errors
        finally:
            opened.page.close()


def test_search_finds_a_card_by_each_of_its_names_and_enter_opens_it(site: tuple[str, Path], browser: Any) -> None:
    game, out = site
    for edition in _editions(out):
        cards = _cards(game, edition.name)
        step = max(1, len(cards) // CARDS_SEARCHED)
        opened = Watched(browser, (edition / "index.html").as_uri())
        try:
            box = opened.page.locator("#search")
            for card in cards[::step][:CARDS_SEARCHED]:
                for name in {card.name, *(n for _, n in card.names), *([card.number] if card.number else [])}:
                    box.fill(name)
                    results = opened.page.locator("#results a")
                    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
                    assert f"cards.html#{card.anchor}" in hrefs, (edition.name, card.name, name, hrefs[:5])
            first = cards[0]
            box.fill(first.number or first.name)
            target = opened.page.locator("#results a").first.get_attribute("href")
            box.press("Enter")
            opened.page.wait_for_url(f"**/{target}")
            assert opened.page.locator(f"#{target.split('#')[1]}").is_visible()  # type: ignore[union-attr]
            assert not opened.errors, opened.errors
        finally:
            opened.page.close()


def test_the_edition_links_open_the_same_page_in_another_language(site: tuple[str, Path], browser: Any) -> None:
    _, out = site
    editions = _editions(out)
    assert len(editions) >= 2, "every bundled game has at least two editions"
    opened = Watched(browser, (editions[0] / "glossary.html").as_uri())
    try:
        for other in editions[1:]:
            opened.page.locator(".editions a", has_text=other.name).first.click()
            opened.page.wait_for_url(f"**/{other.name}/glossary.html")
            assert opened.page.locator("html").get_attribute("lang") == other.name
            opened.page.go_back()
        assert not opened.errors, opened.errors
    finally:
        opened.page.close()
