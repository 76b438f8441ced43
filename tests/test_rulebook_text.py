"""What players read in the reference holds no engine names: no identifiers of the source
(snake_case names, a built-in or procedure called by name), no Python values, no leftover marks
of the templates — in every edition of every game. Rules read as sentences in the edition's
language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from cardsmith.compiler.load import bundled_games
from cardsmith.compiler.rulebook import Rule, Rulebook, rulebook
from tests.helpers import built

ENGINE = {
    "identifier": re.compile(r"(?<![A-Za-z0-9])[a-z][a-z0-9]*_[a-z0-9_]+"),
    "call by name": re.compile(r"(?<![A-Za-z0-9])[a-z][a-z0-9_]*[(（]"),
    "Python value": re.compile(r"\b(True|False|None)\b"),
    "template mark": re.compile(r"«[^»]*»"),
}


def player_facing(book: Rulebook) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of the book a player reads."""
    def rules(where: str, items: list[Rule]) -> Iterator[tuple[str, str]]:
        for r in items:
            here = f"{where} {r.number or r.title}"
            yield here, r.title
            for p in r.prose:
                yield here, p
            for n in r.notes:
                yield here, n.prose
                yield here, n.condition
            for d in r.decisions:
                yield here, d
            for e in r.examples:
                yield here, e.title
            yield from rules(here, r.steps)
    for ch in book.chapters:
        yield ch.key, ch.title
        for p in ch.intro:
            yield ch.key, p
        yield from rules(ch.key, ch.rules)
    for t in book.glossary:
        yield f"glossary {t.label}", t.label
        yield f"glossary {t.label}", t.definition
    for g in book.groups:
        for c in g.cards:
            yield f"card {c.name}", c.text
            yield f"card {c.name}", c.kinds
            for label, _ in c.numbers:
                yield f"card {c.name}", label
    for d in book.decisions:
        yield "decisions", d


def engine_words(book: Rulebook) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {}
    for where, text in player_facing(book):
        for kind, pattern in ENGINE.items():
            for m in pattern.finditer(text or ""):
                found.setdefault(kind, []).append((where, m.group(0)))
    return found


@pytest.mark.parametrize("game", bundled_games())
def test_no_engine_names_in_any_edition(game: str) -> None:
    checked = built(game).checked
    assert checked is not None
    for language in rulebook(checked).languages:
        found = engine_words(rulebook(checked, language))
        assert not found, (language, {k: (len(v), v[:6]) for k, v in found.items()})
