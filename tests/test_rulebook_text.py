"""What players read in the reference holds no engine names: no identifiers of the source
(snake_case names, a built-in or procedure called by name), no Python values, no leftover marks
of the templates — in every edition of every game. Rules read as sentences in the edition's
language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardsmith.compiler.builtins import BUILTINS
from cardsmith.compiler.card_text import load_templates, template_folders
from cardsmith.compiler.check_expr import OBJ_ATTRS, PLAYER_ATTRS, ZONE_ATTRS
from cardsmith.compiler.checked import Checked
from cardsmith.compiler.library import library_root
from cardsmith.compiler.load import bundled_games
from cardsmith.compiler.rulebook import Rule, Rulebook, rulebook
from tests.helpers import build_text, built, edition, languages

ENGINE = {
    "identifier": re.compile(r"(?<![A-Za-z0-9])[a-z][a-z0-9]*_[a-z0-9_]+"),
    # a Python value, not a word of a phrase ("False testimony", "None of them")
    "Python value": re.compile(r"(?<![A-Za-z] )\b(True|False|None)\b(?! [a-z])"),
    "template mark": re.compile(r"«[^»]*»"),
    # a text value of the source shown as it is written (`"fixture"`, `""`), not as the game's word
    "quoted identifier": re.compile(r"[「\"“](?:[a-z][a-z0-9_]*)?[」\"”]"),
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
                for check in e.checks:
                    yield here, check
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
            for label, value in c.numbers:
                yield f"card {c.name}", label
                yield f"card {c.name}", value
    for d in book.decisions:
        yield "decisions", d


SOURCE_VALUE = re.compile(r"(?<![A-Za-z])(?:true|false|none|target|self)(?![A-Za-z])")
CALL = re.compile(r"(?<![A-Za-z0-9])([a-z][a-z0-9_]*)[(（]")


def engine_words(book: Rulebook, checked: Checked | None = None) -> dict[str, list[tuple[str, str]]]:
    """What engine names the book shows, by kind. A call by name is something callable (a built-in,
    or a procedure or value of the game when it is given) written as `name(`; a word of the game
    before a bracket is not one (EAT/PAINT's own 'cost（INK）')."""
    callable_names = set(BUILTINS)
    if checked is not None:
        callable_names |= {*checked.symbols.procedures, *checked.symbols.values}
    found: dict[str, list[tuple[str, str]]] = {}
    patterns = dict(ENGINE)
    if book.language.startswith(("zh", "ja")):  # an English word of the source amid CJK text
        patterns["source value"] = SOURCE_VALUE
    for where, text in player_facing(book):
        for kind, pattern in patterns.items():
            for m in pattern.finditer(text or ""):
                found.setdefault(kind, []).append((where, m.group(0)))
        for m in CALL.finditer(text or ""):
            if m.group(1) in callable_names:
                found.setdefault("call by name", []).append((where, m.group(0)))
    return found


@pytest.mark.parametrize("game", bundled_games())
def test_no_engine_names_in_any_edition(game: str) -> None:
    checked = built(game).checked
    assert checked is not None
    for language in languages(game):
        found = engine_words(edition(game, language), checked)
        assert not found, (language, {k: (len(v), v[:6]) for k, v in found.items()})


LIBRARY_TEMPLATES = sorted((Path(__file__).resolve().parent.parent / "cards" / "text").glob("*.j2"))


@pytest.mark.parametrize("path", [p for p in LIBRARY_TEMPLATES if p.name != "card.svg.j2"], ids=lambda p: p.name)
def test_the_library_phrases_every_built_in_and_attribute_in_each_language(path: Path) -> None:
    """A rule that calls a built-in reads as words in every edition, never as `name(…)`."""
    text = path.read_text("utf-8")
    macros = set(re.findall(r"\{%-? macro (\w+)\(", text))
    wanted = {f"builtin_{name}" for name in BUILTINS} | {f"attr_{name}" for name in (*OBJ_ATTRS, *ZONE_ATTRS, *PLAYER_ATTRS)}
    assert not wanted - macros, sorted(wanted - macros)


def test_a_builtin_call_reads_as_words() -> None:
    """The phrasing reaches the reference: a rule calling built-ins shows no call."""
    result = build_text('procedure tally(p: player) "清点" section 3:\n'
                        '    step 1 "数":\n'
                        '        if contains(others(p), seat(1)) and player_count() > 1:\n'
                        '            move 1 chip from bank to seat(0).purse\n', with_mini=True)
    assert result.checked is not None, [str(d) for d in result.diagnostics]
    for language in ("zh", "en", "ja"):
        found = engine_words(rulebook(result.checked, language), result.checked)
        assert not found, (language, found)


@pytest.mark.parametrize("game", bundled_games())
def test_the_gallery_names_card_kinds_in_each_edition(game: str) -> None:
    """A card's type words are phrased by the edition (a `word_NAME` macro), never shown as a
    field's raw value (`attack`, `ink_red`); a value written in the game's own language may
    stand for itself in that edition only."""
    checked = built(game).checked
    assert checked is not None
    own = languages(game)[0]
    folders = template_folders(checked, library_root())
    for language in languages(game):
        templates = load_templates(folders, language)
        used = {str(w) for props in checked.card_props.values() for n in checked.symbols.fields
                if checked.symbols.fields[n].type in ("enum", "set") and props.get(n)
                for w in (props[n] if isinstance(props[n], tuple) else (props[n],))}
        unphrased = {w for w in used if not templates.has(f"word_{w}") and (w.isascii() or language != own)}
        assert not unphrased, (language, sorted(unphrased))


def test_a_loop_over_written_zones_calls_its_item_a_zone() -> None:
    """A loop over a written list of zones names the zone it is at as a zone, even when the
    zones' names end in the word for cards (it used to read "that card")."""
    sweep = ('procedure sweep(p: player) "{}" section 3:\n    step 1 "{}":\n        for z in [p.stash, p.spare]:\n'
             '            for c in cards(z):\n                put c into p.stash\n')
    chinese = build_text('zone stash "暗格牌": per player, holds cards\nzone spare "备用牌": per player, holds cards\n'
                         + sweep.format("清扫", "扫"), with_mini=True)
    english = build_text('game sweeping "Sweeping":\n    players 2\n    start turn\n    language en\n'
                         'zone stash "Stash cards": per player, holds cards\n'
                         'zone spare "Spare cards": per player, holds cards\n'
                         'procedure turn "Turn":\n    pass\n' + sweep.format("Sweep", "Sweep"), with_mini=False)
    for result, language, said, old in ((chinese, "zh", "该区域中", "该牌中"), (english, "en", "that zone", "of that card")):
        assert result.checked is not None, [str(d) for d in result.diagnostics]
        text = "\n".join(t for _, t in player_facing(rulebook(result.checked, language)))
        assert said in text and old not in text, (language, text)
