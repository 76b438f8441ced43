"""The reference as a static HTML site (`cardsmith ref GAME --format html --out DIR`): every
edition's pages, every internal link resolving to a page and an id, the search index holding
every card by each of its names, hostile labels escaped by the template engine. (The same site is
opened in a real browser by tests/test_site_browser.py.)"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardsmith.cli import main
from cardsmith.compiler.load import bundled_games
from cardsmith.compiler.site import write_site
from tests.helpers import build_text


class _Page(HTMLParser):
    """The ids and the links of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag == "script" and found.get("src"):
            self.scripts.append(str(found["src"]))


def pages_of(root: Path) -> dict[Path, _Page]:
    pages = {}
    for path in root.rglob("*.html"):
        page = _Page()
        page.feed(path.read_text("utf-8"))
        pages[path] = page
    return pages


@pytest.fixture(params=bundled_games())
def site(request: pytest.FixtureRequest, bundled_site: Callable[[str], Path]) -> Path:
    return bundled_site(request.param)


def test_every_internal_link_and_script_resolves(site: Path) -> None:
    pages = pages_of(site)
    assert len(pages) > 5
    broken = []
    for path, page in pages.items():
        for href in page.links + page.scripts:
            if re.match(r"^[a-z]+:", href):
                broken.append((path.name, href))  # nothing leaves the site
                continue
            target, _, anchor = href.partition("#")
            file = (path.parent / target).resolve() if target else path
            if not file.exists():
                broken.append((str(path.relative_to(site)), href))
            elif anchor and file.suffix == ".html" and anchor not in pages[file].ids:
                broken.append((str(path.relative_to(site)), href))
    assert not broken, broken[:10]


def test_the_search_index_finds_every_card_by_each_name(site: Path) -> None:
    for edition in [p for p in site.iterdir() if (p / "search-index.js").exists()]:
        text = (edition / "search-index.js").read_text("utf-8")
        entries = json.loads(text.split("=", 1)[1].strip().rstrip(";"))
        cards = [e for e in entries if e["href"].startswith("cards.html#")]
        assert cards and all(len(e["names"]) >= 1 for e in cards)
        assert "</" not in text


def test_every_edition_has_its_pages(site: Path) -> None:
    editions = [p.name for p in site.iterdir() if p.is_dir() and p.name != "assets"]
    assert editions
    for name in editions:
        for page in ("index.html", "glossary.html", "cards.html", "terms.html"):
            assert (site / name / page).is_file()
    assert (site / "assets" / "style.css").is_file() and (site / "index.html").is_file()


def test_hostile_labels_are_escaped_by_the_template_engine(tmp_path: Path) -> None:
    evil = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    result = build_text(f'zone trap "{evil}": shared, holds chip\n'
                        f'procedure shown(p) "{evil}" section 99:\n    step 1 "{evil}":\n        pass\n')
    assert result.ok and result.checked is not None
    write_site(result.checked, tmp_path)
    for path in tmp_path.rglob("*.html"):
        html = path.read_text("utf-8")
        assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (tmp_path / "en" / "ch99.html").read_text("utf-8")


def test_every_card_in_the_gallery_shows_its_definition_highlighted(site: Path) -> None:
    for edition in [p for p in site.iterdir() if (p / "cards.html").exists()]:
        gallery = (edition / "cards.html").read_text("utf-8")
        cards = gallery.count('<article class="card"')
        assert cards > 5
        assert gallery.count('<pre class="csm"><code><span class="kd">card</span><span class="w"> </span>'
                             '<span class="nc">') == cards


def test_a_cards_definition_is_highlighted_with_its_text_escaped(tmp_path: Path) -> None:
    result = build_text('card evil "<script>alert(1)</script>" en "A & B":\n    power 3  # </pre>\n\n# next\n')
    assert result.ok and result.checked is not None
    write_site(result.checked, tmp_path)
    gallery = (tmp_path / "en" / "cards.html").read_text("utf-8")
    start = gallery.index('<details class="source">')
    shown = gallery[start:gallery.index("</details>", start) + len("</details>")]
    assert shown == (
        '<details class="source"><summary>Definition</summary><pre class="csm"><code>'
        '<span class="kd">card</span><span class="w"> </span><span class="nc">evil</span><span class="w"> </span>'
        '<span class="s2">"&lt;script&gt;alert(1)&lt;/script&gt;"</span><span class="w"> </span>'
        '<span class="nt">en</span><span class="w"> </span><span class="s2">"A &amp; B"</span><span class="p">:</span>\n'
        '<span class="w">    </span><span class="na">power</span><span class="w"> </span><span class="mi">3</span>'
        '<span class="w">  </span><span class="c1"># &lt;/pre&gt;</span>\n'
        '</code></pre></details>')
    assert "<script>alert" not in gallery and "# next" not in gallery


def test_the_command_writes_a_site_or_says_what_is_wrong(tmp_path: Path) -> None:
    ok = CliRunner().invoke(main, ["ref", "eatpaint", "--format", "html", "--out", str(tmp_path / "site")])
    assert ok.exit_code == 0 and (tmp_path / "site" / "index.html").is_file(), ok.output
    no_out = CliRunner().invoke(main, ["ref", "eatpaint", "--format", "html"])
    assert no_out.exit_code == 2 and "--out" in no_out.output
    blocker = tmp_path / "file"
    blocker.write_text("x")
    bad = CliRunner().invoke(main, ["ref", "eatpaint", "--format", "html", "--out", str(blocker)])
    assert bad.exit_code == 2 and "not a folder" in bad.output
    wrong = CliRunner().invoke(main, ["ref", "eatpaint", "--lang", "xx"])
    assert wrong.exit_code == 2 and "editions are" in wrong.output
