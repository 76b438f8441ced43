"""The rule reference as a static HTML site: one folder per edition (language) with a page per
chapter, the contents, the glossary, the card gallery, the decisions and the index, a shared
stylesheet, and client-side search over every name in every language. Pages come from Jinja2
templates with autoescape on: text from sources is escaped by the template engine, never by hand;
card faces are SVG drawn by our own (sandboxed, autoescaped) template, and a card's definition is
coloured by the cardsmith Pygments lexer, whose HTML formatter escapes the text it wraps."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter

from ..highlight import CardsmithLexer
from .checked import Checked
from .rulebook import Rulebook, rulebook, text_book
from .vocabulary import game_languages

ASSETS = ("style.css", "search.js")


@dataclass(frozen=True)
class Page:
    """One page of an edition: its file name, title and template."""

    name: str
    title: str
    template: str


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("cardsmith.compiler", "templates/site"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["safe_svg"] = Markup  # drawn by card_face's own autoescaped template
    env.filters["csm"] = highlighted_source
    return env


def highlighted_source(text: str) -> Markup:
    """cardsmith source as HTML for a `<pre>`: a `<span>` with Pygments' short class (`kd`, `s2`,
    `nf`…) around each token, coloured by the site's stylesheet; the formatter escapes the text."""
    formatter = HtmlFormatter(nowrap=True)
    return Markup(highlight(text, CardsmithLexer(), formatter))


def search_index(book: Rulebook) -> list[dict[str, object]]:
    """What the search box looks through: every card by all its names and number, every term by
    all its names, every numbered rule by its number and title."""
    entries: list[dict[str, object]] = []
    for g in book.groups:
        for c in g.cards:
            names = [c.name] + [n for _, n in c.names] + ([c.number] if c.number else [])
            entries.append({"label": c.name, "kind": book.words.cards, "names": names,
                            "href": f"cards.html#{c.anchor}"})
    for t in book.glossary:
        entries.append({"label": t.label, "kind": t.kind, "names": [t.label] + [n for _, n in t.names],
                        "href": f"glossary.html#{t.anchor}"})
    for ch in book.chapters:
        for r in ch.rules:
            if r.number:
                entries.append({"label": f"{r.number} {r.title}", "kind": ch.title, "names": [r.number, r.title],
                                "href": f"{ch.key}.html#{r.anchor}"})
    return entries


def _script(name: str, value: object) -> str:
    """A script that sets a global to a JSON value (safe inside HTML: `</` never appears)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    return f"window.{name} = {text};\n"


def write_edition(book: Rulebook, folder: Path) -> list[Path]:
    """Write one edition's pages into `folder`; return the files written."""
    env = _environment()
    folder.mkdir(parents=True, exist_ok=True)

    def href(anchor: str) -> str:
        return f"{book.pages.get(anchor, 'index')}.html#{anchor}"

    pages = [Page("index.html", book.words.contents, "contents.html.j2"),
             Page("glossary.html", book.words.glossary, "glossary.html.j2"),
             Page("cards.html", book.words.cards, "cards.html.j2"),
             Page("terms.html", book.words.index, "terms.html.j2")]
    if book.decisions:
        pages.append(Page("decisions.html", book.words.decisions, "decisions.html.j2"))
    written = []
    for page in pages:
        html = env.get_template(page.template).render(book=book, page_title=page.title, page_name=page.name, href=href)
        written.append(_write(folder / page.name, html))
    for chapter in book.chapters:
        name = f"{chapter.key}.html"
        title = f"{chapter.number} {chapter.title}" if chapter.number else chapter.title
        html = env.get_template("chapter.html.j2").render(book=book, chapter=chapter, page_title=title,
                                                         page_name=name, href=href)
        written.append(_write(folder / name, html))
    written.append(_write(folder / "search-index.js", _script("CARDSMITH_SEARCH", search_index(book))))
    return written


def write_site(checked: Checked, out: Path, done: Callable[[str], None] | None = None) -> list[Path]:
    """Every edition of the game's reference under `out/LANG/`, the shared assets under
    `out/assets/`, and `out/index.html` leading to the game's own edition; `done` is told of each
    edition once it is written (a progress bar)."""
    languages = game_languages(checked.symbols)
    written: list[Path] = []
    assets = out / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    source = resources.files("cardsmith.compiler") / "templates" / "site"
    for name in ASSETS:
        written.append(_write(assets / name, (source / name).read_text("utf-8")))
    book = text_book(checked)
    for language in languages:
        written += write_edition(rulebook(checked, language, faces=True, book=book), out / language)
        if done is not None:
            done(language)
    env = _environment()
    landing = env.from_string(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={{ first }}/index.html">'
        '<title>{{ title }}</title></head><body>{% for lang in languages %}<p><a href="{{ lang }}/index.html">{{ lang }}</a></p>'
        '{% endfor %}</body></html>')
    written.append(_write(out / "index.html", landing.render(first=languages[0], languages=languages,
                                                           title=checked.symbols.game.name if checked.symbols.game else "")))
    return written


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
