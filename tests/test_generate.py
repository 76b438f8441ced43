"""Generate stage: user text reaches Python only through repr(); output parses; lines map back."""

from __future__ import annotations

import ast
from pathlib import Path
from sys import intern

import pytest

from cardsmith.runtime.values import Pair
from tests.helpers import build_text, built

NASTY = "\"); import os; os.system('echo pwned'); (\""


def test_strings_that_look_like_python_stay_strings() -> None:
    text = 'procedure q(p):\n    log "{}__import__(\'os\')\\" + x", p\n'
    result = build_text(text)
    assert result.ok
    src = result.python_source or ""
    ast.parse(src)
    assert "__import__('os')" not in src.replace(repr("{}__import__('os')\" + x"), "")


def test_labels_with_quotes_and_code_are_inert() -> None:
    text = f'procedure q(p) "{NASTY.replace(chr(34), chr(39))}":\n    pass\n'
    result = build_text(text)
    assert result.ok
    tree = ast.parse(result.python_source or "")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "system"]
    assert calls == []


def test_identifiers_are_made_by_the_compiler() -> None:
    result = build_text("procedure print(p):\n    let import = 1\n    let lambda = import + 1\n")
    assert result.ok
    src = result.python_source or ""
    assert "def print" not in src and "import =" not in src
    ast.parse(src)


def test_line_map_points_at_the_card_source() -> None:
    result = build_text("procedure q(p):\n    pass\n    move 1 chip from bank to p.purse\n", path="cards.csm")
    assert result.rules is not None
    targets = {source for _, source in result.rules.source_map.entries()}
    assert ("cards.csm", 3) in targets


def test_a_choice_can_be_returned() -> None:
    text = 'procedure pick_one(p):\n    return pick c in cards(p.hand) for p optional "which"\n'
    result = build_text(text)
    assert result.ok, [str(d) for d in result.diagnostics]
    assert "return g.pick(" in (result.python_source or "")


def test_not_in_and_team_wins() -> None:
    text = ('procedure finish(p):\n    if p not in [seat(1)]:\n        win [p, seat(1)]\n')
    result = build_text(text)
    assert result.ok, [str(d) for d in result.diagnostics]
    assert "not in" in (result.python_source or "")


def test_the_cache_is_used_and_keyed_by_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.compiler.load import build_sources
    from tests.helpers import MINI_GAME
    monkeypatch.setenv("CARDSMITH_CACHE", str(tmp_path))
    first = build_sources({"mini.csm": MINI_GAME})
    again = build_sources({"mini.csm": MINI_GAME})
    changed = build_sources({"mini.csm": MINI_GAME + '\ntoken extra "额外"\n'})
    assert first.ok and not first.from_cache
    assert again.from_cache and again.rules is not None
    assert not changed.from_cache
    assert len([p for p in tmp_path.glob("*.bin") if not p.name.startswith("grammar-")]) == 2


def test_what_no_modifier_changes_is_read_without_looking_for_one() -> None:
    """A field or counter that some `modify` changes is read through the modifiers in force;
    one that none changes is read straight from its holder (the generated code never asks)."""
    text = ('field shine "光": int, default 0\n'
            'procedure q(p, c):\n    modify c.power by 1\n    modify p.score by 1\n'
            '    return [c.power, c.shine, p.score, p.score + c.shine]\n')
    result = build_text(text)
    assert result.ok and result.rules is not None
    src = result.python_source or ""
    body = next(f for f in src.split("\ndef ") if "g.modify(" in f)
    consts = {line.split(" = ")[1]: line.split(" = ")[0] for line in src.splitlines()
              if line.startswith("K_") and " = '" in line}
    power, shine, score = consts["'power'"], consts["'shine'"], consts["'score'"]
    assert f"{power} not in g.mods" in body and f"{score} not in g.mods" in body
    assert f"l_1.fields[{shine}]" in body and f"{shine} not in g.mods" not in body


@pytest.mark.parametrize("game", ["sakura", "eatpaint", "ccs"])
def test_the_card_table_gives_back_each_card_as_checked(game: str) -> None:
    """The cards go to the module as a JSON table (`CARD_TABLE`) and come back through
    `rt.card_defs` with the values the check found, of the same types (a `Pair` stays a
    `Pair`, a range a tuple), each timing block bound to its own function."""
    result = built(game)
    assert result.rules is not None and result.checked is not None and result.python_source is not None
    checked, cards = result.checked, result.rules.cards
    assert list(cards) == list(checked.symbols.cards)
    for name, card in cards.items():
        expected = checked.card_props[name]
        assert card.props == expected and [type(v) for v in card.props.values()] == [type(v) for v in expected.values()]
        assert all(intern(k) is k and (type(v) is not str or intern(v) is v) for k, v in card.props.items()), \
            "names and words are interned, as the code's constants are"
        decl = checked.symbols.cards[name]
        assert card.name == (decl.labels.default or name) and card.labels == dict(decl.labels.langs)
        assert list(card.timings) == [blk.name for blk in decl.blocks]
        assert all(fn.__code__.co_firstlineno and f"def {fn.__name__}(" in result.python_source
                   for fn in card.timings.values())
    kinds = {type(v) for card in cards.values() for v in card.props.values()}
    assert kinds >= {str, int, bool}
    assert (Pair in kinds, tuple in kinds) == {"sakura": (True, True), "eatpaint": (True, False), "ccs": (False, True)}[game]


def test_a_card_table_line_maps_to_its_card() -> None:
    result = build_text('card c1 "One":\n    note "a line with \\"quotes\\" and \'more\'"\n')
    assert result.ok and result.python_source is not None and result.rules is not None
    lines = result.python_source.splitlines()
    at = next(n for n, line in enumerate(lines, 1) if line.strip().startswith("'[\"c1\""))
    assert (result.rules.source_map.where(at) or "").startswith("test.csm:1 ")
    assert result.rules.cards["c1"].props["note"] == "a line with \"quotes\" and 'more'"


PURITY = '''
procedure reads(p):
    let n = 0
    for c in cards(p.hand):
        n += 1
    return n > helper(p)
procedure helper(p):
    return count(p.hand) + p.score
procedure logs(p):
    log "{} logs", p
procedure writes(p):
    p.score = 1
procedure moves(p):
    move 1 chip from bank to p.purse
procedure asks(p):
    let c = pick c in cards(p.hand) for p "which"
procedure draws(p):
    return roll(6)
procedure emits(p):
    emit scored(p)
procedure plays(p, c):
    c.on_play(p)
procedure ping(p, n):
    if n > 0:
        return pong(p, n - 1)
    return 0
procedure pong(p, n):
    return ping(p, n)
procedure tick(p, n):
    if n > 0:
        return tock(p, n - 1)
    log "{} ticks", p
procedure tock(p, n):
    return tick(p, n)
procedure calls_logs(p):
    return 1 + size([x in cards(p.hand) where logs(p)])
card quiet "静":
    on_play:
        let n = target.score
card loud "响":
    on_play:
        move 1 chip from bank to target.purse
'''


def test_what_only_reads_is_told_from_what_acts() -> None:
    """`purity.py`: a procedure only reads when nothing it runs moves, writes a field or
    counter, logs, emits, asks a player or draws at random, through any call; a cycle of
    calls that only read reads, and one that acts anywhere acts throughout (tock, which only
    calls tick, acts, whichever of the two is asked about first)."""
    from cardsmith.compiler.purity import Purity
    from cardsmith.compiler.refs import Callee
    from cardsmith.compiler.writes import Writes
    result = build_text(PURITY)
    assert result.ok and result.checked is not None, result.diagnostics
    reading = {"reads", "helper", "ping", "pong"}
    for first in ("tock", "tick"):  # the order of the questions changes nothing
        purity = Purity(result.checked, Writes(result.checked))
        order = [first] + [n for n in result.checked.symbols.procedures if n != first]
        found = {name for name in order if purity.declaration(Callee.PROCEDURE, name)}
        assert found == reading, found
    purity = Purity(result.checked, Writes(result.checked))
    assert not purity.declaration(Callee.TIMING, "on_play")  # one card's block moves


@pytest.mark.parametrize(("prop", "value", "expected"), [("copies", "3", 3), ("note", '"3/1"', "3/1"), ("fixture", "", True)])
def test_a_pair_field_named_like_a_built_in_property_keeps_the_built_in_value(prop: str, value: str,
                                                                             expected: object) -> None:
    """A designer's `pair` field under a built-in property's name: the card table gives the
    card the built-in's value (as the check found it), not a two-sided value made of it."""
    result = build_text(f'field {prop} "x": pair\ncard c1 "One":\n    {prop} {value}\n')
    assert result.ok and result.rules is not None and result.checked is not None, result.diagnostics
    assert result.rules.cards["c1"].props[prop] == expected == result.checked.card_props["c1"][prop]
