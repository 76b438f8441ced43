"""Every statement kind and every built-in compiled and run, with none and empty cases; the
passes handle every node kind; generated code stays within the runtime contract; and a golden
file holds the Python generated for a tiny game."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any

import pytest

from cardsmith.compiler import syntax as s
from cardsmith.compiler.builtins import BUILTINS
from cardsmith.compiler.check_expr import ExprChecker
from cardsmith.compiler.check_stmt import StmtChecker
from cardsmith.compiler.depends import _Reads
from cardsmith.compiler.gen_expr import ExprGen
from cardsmith.compiler.gen_stmt import StmtGen
from cardsmith.compiler.load import build_sources, bundled_games
from cardsmith.compiler.unparse import _Unparse
from cardsmith.runtime import builtins as runtime_builtins
from cardsmith.runtime import contract
from cardsmith.runtime.agents import ScriptedAgent
from cardsmith.runtime.game import Game, RuleViolation
from cardsmith.runtime.log import lines_for
from cardsmith.runtime.values import Pair
from tests.helpers import built

GAME = '''game lang "语言":
    players 2
    start main

token chip "筹码"
token mark "标记": owned
zone bank "银行": shared, holds chip mark, supply
zone pile "牌堆": shared, holds cards, hidden
zone hand "手": per player, holds cards, owner
zone purse "钱包": per player, holds chip mark, max 5
counter score "分数": per player
counter turn "回合": global
field power "力量": int, default 0
field hue "颜色": one of red blue, default red
character hero "英雄": number 7
character sidekick "帮手": number 8
timing on_play(x) "打出时": default 0
event poke(p) "戳"
kind thing "东西"
keyword strong "强" = self.score >= 3
value double(n) = n * 2

card coin "硬币":
    power 2
    on_play:
        self.score += x
        return x + 1

procedure main "一局":
    step 1 "运行":
        pass
'''


def compiled(text: str, answers: list[Any] | None = None) -> tuple[Game, str]:
    """Compile a game's whole text (it must have no errors) and start it: hero against
    sidekick, the first seat answering with `answers`; the game and its generated Python."""
    result = build_sources({"lang.csm": text}, use_cache=False, need_model=True)
    errors = [str(d) for d in result.diagnostics if d.severity == "error"]
    assert result.rules is not None and result.python_source is not None and not errors, errors
    agents = [ScriptedAgent(answers or []), ScriptedAgent()]
    return Game(result.rules, [["hero"], ["sidekick"]], agents, seed=1), result.python_source


def start(text: str, answers: list[Any] | None = None) -> Game:
    return compiled(text, answers)[0]


def with_t(body: str, game: str = GAME) -> str:
    """A game's whole text with `procedure t(p)` holding the body."""
    return game + "\nprocedure t(p):\n" + "".join(f"    {line}\n" for line in body.strip("\n").split("\n"))


def run_text(text: str) -> tuple[Any, Game, str]:
    """Compile a game's whole text and call its `t` for P1: the value, the game and the Python."""
    g, source = compiled(text)
    return g.rules.procedures["t"](g, g.players[0]), g, source


def run(body: str, answers: list[Any] | None = None) -> tuple[Any, Game]:
    """Compile `procedure t(p)` with the body into the game above, call it for P1, return
    its value and the game."""
    g = start(with_t(body), answers)
    return g.rules.procedures["t"](g, g.players[0]), g


# ---- statements ------------------------------------------------------------------------

STATEMENTS: dict[type, tuple[str, Any]] = {
    s.Let: ("let x = 2\nreturn x", 2),
    s.Assign: ("p.score = 4\nreturn p.score", 4),
    s.AugAssign: ("p.score += 3\np.score -= 1\nreturn p.score", 2),
    s.Move: ("let n = move 7 chip from bank to p.purse\nreturn [n, count(p.purse, chip)]", [5, 5]),
    s.Put: ("let c = new_card(coin, p, pile)\nput c into p.hand\nreturn [count(pile), count(p.hand)]", [0, 1]),
    s.Emit: ("once when poke(q):\n    q.score = 9\nemit poke(p)\nreturn p.score", 9),
    s.Modify: ("let c = new_card(coin, p, pile)\nmodify c.power by 3\nreturn c.power", 5),
    s.Forbid: ("let c = new_card(coin, p, p.hand)\nmove 2 chip from bank to c\nforbid chip from c\n"
               "return count(c, chip)", 2),
    s.Reveal: ("let c = new_card(coin, p, p.hand)\nreveal c to opponent(p)\nreturn 1", 1),
    s.Shuffle: ("new_card(coin, p, pile)\nnew_card(coin, p, pile)\nshuffle pile\nreturn count(pile)", 2),
    s.Log: ('log "a {} b", 3\nlog "only {}", p to p\nreturn 0', 0),
    s.Expect: ('expect 1 == 1 "holds"\nreturn 1', 1),
    s.Return: ("return", None),
    s.CallStmt: ("double(3)\nreturn 1", 1),
    s.Pass: ("pass\nreturn 1", 1),
    s.Break: ("let n = 0\nwhile true:\n    n += 1\n    if n == 3:\n        break\nreturn n", 3),
    s.If: ("if p.score > 0:\n    return 1\nelif p.score == 0:\n    return 2\nelse:\n    return 3", 2),
    s.For: ("let n = 0\nfor x in [1, 2, 3]:\n    n += x\nfor y in []:\n    n += 100\nreturn n", 6),
    s.While: ("let n = 0\nwhile n < 4:\n    n += 1\nreturn n", 4),
    s.Repeat: ("let n = 0\nrepeat 3:\n    n += 2\nrepeat 0:\n    n += 100\nreturn n", 6),
    s.Menu: ('choose for p "哪个":\n    option "一" passive:\n        return 1\n    option "二":\n'
             '        return 2', 2),
    s.ExpectOffered: ('expect offered p "二"\nexpect not offered p "三"\nchoose for p "哪个":\n'
                      '    option "一":\n        return 1\n    option "二":\n        return 2', 2),
    s.Once: ("once when poke(q) if q == p:\n    p.score += 5\nemit poke(opponent(p))\nemit poke(p)\n"
             "emit poke(p)\nreturn p.score", 5),
}


@pytest.mark.parametrize("kind", list(STATEMENTS), ids=lambda k: k.__name__)
def test_every_statement_kind_compiles_and_runs(kind: type) -> None:
    body, expected = STATEMENTS[kind]
    value, _ = run(body, answers=["二"] if kind in (s.Menu, s.ExpectOffered) else None)
    assert value == expected


def test_the_statement_table_covers_every_statement_kind() -> None:
    kinds = set(s.Stmt.__args__)  # type: ignore[attr-defined]
    assert kinds - {s.End, s.ExpectWinner} == set(STATEMENTS), "add a case for the new statement kind"


def test_end_statements_end_the_game_with_their_reason() -> None:
    from cardsmith.runtime.game import GameOver
    for body, result in (('lose p "太弱"', "P1 loses"), ("win [p, opponent(p)]", "P1, P2 win"),
                         ('draw_game none "平"', "draw")):
        with pytest.raises(GameOver) as over:
            run(body)
        assert over.value.reason == result


def test_a_failed_expectation_stops_a_scenario() -> None:
    from cardsmith.runtime.game import ExpectationFailed
    with pytest.raises(ExpectationFailed, match="no"):
        run('expect 1 == 2 "no"')


def test_log_lines_reach_their_readers() -> None:
    _, g = run(STATEMENTS[s.Log][0])
    assert lines_for(g.lines, 0) == ["a 3 b", "only P1"] and lines_for(g.lines, 1) == ["a 3 b"]


# ---- built-ins -------------------------------------------------------------------------

BUILTIN_CASES: dict[str, list[tuple[str, Any]]] = {
    "count": [("move 2 chip from bank to p.purse\nreturn count(p.purse)", 2), ("return count(pile)", 0),
              ("return count(none)", 0), ("return count([1, 2])", 2),
              ("let c = new_card(coin, p, pile)\nreturn count(c, chip)", 0)],
    "owned": [("move 1 mark of p from bank to p.purse\nreturn owned(p.purse, mark, p)", 1),
              ("return owned(none, mark, p)", 0)],
    "space": [("move 2 chip from bank to p.purse\nreturn space(p.purse)", 3), ("return space(none)", 0)],
    "cards": [("new_card(coin, p, pile)\nreturn size(cards(pile))", 1), ("return cards(none)", [])],
    "top": [("return top(pile)", None), ("return top(none)", None),
            ("let c = new_card(coin, p, pile)\nreturn top(pile) == c", True)],
    "bottom": [("return bottom(pile)", None), ("let c = new_card(coin, p, pile)\nreturn bottom(pile) == c", True)],
    "first": [("return first([4, 5])", 4), ("return first([])", None), ("return first(none)", None)],
    "size": [("return size([1, 2, 3])", 3), ("return size([])", 0), ("return size(none)", 0)],
    "opponent": [("return index_of(opponent(p))", 1), ("return opponent(none)", None)],
    "others": [("return size(others(p))", 1)],
    "players": [("return size(players())", 2)],
    "player_count": [("return player_count()", 2)],
    "seat": [("return index_of(seat(3))", 1)],
    "index_of": [("return index_of(p)", 0), ("return index_of(none)", None)],
    "min": [("return min(3, 5)", 3)],
    "max": [("return max(3, 5)", 5)],
    "abs": [("return abs(-4)", 4)],
    "roll": [("let r = roll(6)\nreturn r >= 0 and r < 6", True), ("return roll(0)", 0)],
    "has": [("let c = new_card(coin, p, pile)\nreturn [has(c, on_play), has(none, on_play)]", [True, False])],
    "new_object": [("let o = new_object(thing, none, p)\nreturn o.kind", "thing")],
    "new_card": [("let c = new_card(coin, p, pile)\nreturn c.power", 2)],
    "remove": [("let c = new_card(coin, p, pile)\nremove(c)\nremove(none)\nreturn count(pile)", 0)],
    "stop_effects": [("stop_effects(none)\nreturn 1", 1)],
    "picked": [("return [picked(p, hero), picked(p, sidekick), picked(none, hero)]", [True, False, False])],
    "any_picked": [("return any_picked(sidekick)", True)],
    "addendum_active": [("return addendum_active(thing)", False)],
    "characters": [("return size(characters())", 2)],
    "character_prop": [('return character_prop(hero, "number")', 7), ('return character_prop(hero, "none")', None)],
    "card_ids": [("return card_ids()", ["coin"]), ('return card_ids("power", [2, 3])', ["coin"]),
                 ('return card_ids("power", 5)', []), ('return card_ids("hue", "red")', ["coin"])],
    "card_prop": [('return [card_prop(coin, "power"), card_prop(coin, "hue")]', [2, "red"])],
    "left": [("return left(3/1)", 3), ("return left(-/1)", None), ("return left(none)", None)],
    "right": [("return right(3/1)", 1)],
    "braced": [("return [braced({1/2}), braced(1/2), braced(none)]", [True, False, False])],
    "pair": [("return pair(2, 1)", Pair(2, 1)), ("return pair(none, 1, true)", Pair(None, 1, True))],
    "low": [("return low(3-5)", 3), ("return low(span(5, 2))", None), ("return low(none)", None)],
    "high": [("return high(3-5)", 5)],
    "span": [("return span(2, 4)", (2, 3, 4)), ("return span(4, 2)", ())],
    "contains": [("return [contains(3-5, 4), contains([], 4), contains(none, 4)]", [True, False, False])],
    "is_none": [("return [is_none(none), is_none(0)]", [True, False])],
    "change": [("return 3/1 + change(1, 2)", Pair(4, 3))],
    "expand": [("return 3-4 + expand(1, 1)", (2, 3, 4, 5))],
    "shift": [("return 3-4 + shift(-1)", (2, 3))],
}


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_compiles_and_runs(name: str) -> None:
    for body, expected in BUILTIN_CASES[name]:
        value, _ = run(body)
        assert value == expected, body


def test_the_builtin_registry_is_complete() -> None:
    """Registry, runtime and tests agree; every built-in has a description."""
    functions = {n for n in vars(runtime_builtins) if n.startswith("fn_")}
    assert {b.runtime_name for b in BUILTINS.values()} == functions
    assert set(BUILTIN_CASES) == set(BUILTINS)
    assert all(b.doc for b in BUILTINS.values()), [b.name for b in BUILTINS.values() if not b.doc]


def test_count_inlined_and_called_agree_on_a_missing_holder() -> None:
    """`count(x, chip)` is inlined for a known token; both forms count a missing holder as 0."""
    value, _ = run("let c = none\nlet n = count(c, chip)\nlet k = count(c, chip, p)\nreturn [n, k]")
    assert value == [0, 0]


def test_built_ins_written_in_place_agree_with_their_calls() -> None:
    """`contains`, `size`, `seat`, `space`, `index_of`, `players` and `player_count` are written
    out in place where that is safe: one side of `contains` only reads (the item is evaluated
    first there), the zone a named one, the player a variable; a missing list counts as empty
    in both forms, and the call stays where both sides compute."""
    body = ("let gone = none\nlet xs = [1, 2]\n"
            "return [contains(gone, 1), contains(xs, 2), contains([x in xs where x > 0], double(1)), contains(1-3, 4), "
            "size(gone), size(xs), size([x in xs where x > 1]), index_of(seat(0)), index_of(seat(3)), "
            "space(p.purse), index_of(seat(index_of(p) - 1)), player_count(), size(players())]")
    value, _, source = run_text(with_t(body))
    assert value == [False, True, True, False, 0, 2, 1, 0, 1, 5, 1, 2, 2]
    assert source.count("rt.fn_contains(") == 1 and "rt.fn_size(" not in source and "rt.fn_seat(" not in source
    assert "rt.fn_space(" not in source and " := 5 - l_0.zones[3].held) > 0 else 0)" in source  # purse: max 5
    assert "g.players[0]" in source
    assert "(l_0.index if l_0 is not None else None)" in source  # index_of(p); of a seat it is called
    assert "rt.fn_player_count(" not in source and "rt.fn_players(" not in source


def test_card_prop_is_written_in_place_with_the_fields_default() -> None:
    """`card_prop(ID, "field")` with the card in a variable and the field named is a lookup in
    place: the card's value, else the field's default; none for an unknown card, none for a
    name no field has. Where the card is computed, the call stays."""
    body = ('let i = "coin"\nlet u = "nothing"\nlet n = none\n'
            'return [card_prop(i, "power"), card_prop(i, "hue"), card_prop(u, "power"), card_prop(n, "hue"), '
            'card_prop(i, "score"), card_prop(first(["coin"]), "power")]')
    value, _, source = run_text(with_t(body))
    assert value == [2, "red", None, None, None, 2]
    assert source.count("rt.fn_card_prop(") == 1 and source.count(" in g.rules.cards else None)") == 5


def test_max_and_min_are_written_in_place_evaluating_each_side_once_in_order() -> None:
    """`max(a, b)`/`min(a, b)` are comparisons in place (each side named once with `:=`), but
    not inside the items a comprehension walks, where Python forbids `:=`."""
    noisy = GAME + "\nprocedure noisy(p, n):\n    p.score += 1\n    log \"side {}\", n\n    return n\n"
    value, g, source = run_text(with_t("let a = max(noisy(p, 3), noisy(p, 8))\nlet b = min(noisy(p, 3), noisy(p, 8))\n"
                                       "let c = [x in span(0, max(p.score, 1)) where x > min(a, 2)]\n"
                                       "return [a, b, p.score, c]", noisy))
    assert value == [8, 3, 4, [3, 4]]
    assert lines_for(g.lines, None) == ["side 3", "side 8", "side 3", "side 8"]
    assert "rt.fn_max(g, l_0.counters[0], 1)" in source  # in the items walked: called
    assert source.count(":= proc_") == 4 and "rt.fn_min" not in source


def test_a_list_in_a_variable_is_walked_without_a_copy_and_as_it_was() -> None:
    """The language changes no list in place, so a loop walks a variable's list as it is; a
    body that joins to the variable makes a new list and the walk goes on over the old one."""
    body = "let xs = [1, 2, 3]\nlet n = 0\nfor x in xs:\n    xs = xs + [x]\n    n += 1\nreturn [n, xs]"
    value, _, source = run_text(with_t(body))
    assert value == [3, [1, 2, 3, 1, 2, 3]]
    assert "t_1 = l_1\n" in source and "list(l_1)" not in source


def test_a_filter_that_only_reads_walks_the_zone_itself() -> None:
    """`[c in cards(zone) where …]` walks the zone's own list when the condition only reads
    (it cannot move a card meanwhile), calls of procedures that only read included; a condition
    that calls a procedure that acts (here: logs) walks a copy."""
    body = ("new_card(coin, p, p.hand)\nlet c = new_card(coin, p, p.hand)\nc.power = 5\n"
            "let strong = [x in cards(p.hand) where x.power > 2 and not x.hue == blue]\n"
            "let twice = [x in cards(p.hand) where double(x.power) > 4 + size(t2(p))]\n"
            "let noted = [x in cards(p.hand) where x.power > size(t3(p))]\n"
            "return [size(strong), size(twice), size(noted)]")
    value, _, source = run_text(with_t(body, GAME + "\nprocedure t2(p):\n    return []\n"
                                             "procedure t3(p):\n    log \"{} looks\", p\n    return []\n"))
    assert value == [1, 1, 2]
    assert source.count("in l_0.zones[2].cards if") == 2 and source.count("in list(l_0.zones[2].cards) if") == 1


def test_a_join_of_zones_cards_is_a_list_of_its_own() -> None:
    """`cards(zone) + zone.cards` joins the zones' own lists without copying them first; the
    join is new, so later moves do not change it, and none joined to a list gives a copy."""
    from cardsmith.runtime import ops
    body = ("new_card(coin, p, p.hand)\nlet both = cards(p.hand) + pile.cards\n"
            "new_card(coin, p, p.hand)\nnew_card(coin, p, pile)\nreturn [size(both), count(p.hand), count(pile)]")
    value, _, source = run_text(with_t(body))
    assert value == [1, 2, 1] and "rt.concat(l_0.zones[2].cards, g.zones[1].cards)" in source
    live = [1, 2]
    assert ops.add(None, live) == live and ops.add(None, live) is not live


def test_a_small_value_is_written_in_place_with_its_bound() -> None:
    """`double(n)` with a plain argument is written out where it is used (no call), is bounded
    as its own function is, and is still called where its argument computes."""
    body = "let n = 21\nlet m = 600000000000\nreturn [double(n), double(n + 1), double(m)]"
    with pytest.raises(RuleViolation, match="grew beyond"):
        run(body)
    value, _, source = run_text(with_t(body.replace(", double(m)]", "]")))
    assert value == [42, 44] and "rt.num((l_0 * 2))" in source
    assert source.count("val_0(g") == 2  # its definition and the call with `n + 1`


def test_adding_to_a_number_variable_is_plain_arithmetic_with_its_bound() -> None:
    """`n += k` on a variable holding a number, by a number, is Python's own `+` (as `n = n + k`
    is), still held to the bound; a list variable joins; a variable of no known type takes the
    general `rt.add`."""
    body = ("let n = 0\nlet k = 2\nfor x in [1, 2, 3]:\n    n += k\nlet xs = []\nxs += [n]\nlet m = none\n"
            "m += 2\nreturn [n, xs, m]")
    value, _, source = run_text(with_t(body))
    assert value == [6, [6], 2]
    assert re.search(r"(l_\d+) = rt\.num\(\(\1 \+ l_\d+\)\)\n", source) is not None
    assert re.search(r"(l_\d+) = rt\.concat\(\1, \[l_\d+\]\)\n", source) is not None
    assert re.search(r"(l_\d+) = rt\.num\(rt\.add\(\1, 2\)\)\n", source) is not None
    with pytest.raises(RuleViolation, match="grew beyond"):
        run("let n = 1000000000000\nlet k = 1\nn += k\nreturn n")


@pytest.mark.parametrize("write", ["p.score = p.score + big + big", "p.score += big + big",
                                   "c.power = c.power + big + big", "c.power += big + big",
                                   "p.cap = p.cap + big + big", "p.cap += big + big"])
def test_a_stored_number_past_the_bound_is_refused_wherever_it_is_stored(write: str) -> None:
    """The bound is checked by the game where it stores the number (a field, a counter without
    bounds) and in the generated code before a counter with bounds holds it to them."""
    game = GAME.replace('counter turn "回合": global', 'counter turn "回合": global\ncounter cap "上限": per player, range 0..3')
    with pytest.raises(RuleViolation, match="grew beyond"):
        run_text(with_t(f"let c = new_card(coin, p, pile)\nlet big = 700000000000\n{write}", game))


def test_an_event_with_plain_arguments_is_emitted_only_where_something_may_hear_it() -> None:
    """`emit poke(p)` is skipped while nothing answers, awaits or listens to `poke`; a listener
    added to the game, or a `once` waiting for it, hears it from then on."""
    g, source = compiled(with_t("emit poke(p)\nonce when poke(q):\n    p.score += 1\nemit poke(p)\nemit poke(p)\n"
                                "return p.score"))
    heard: list[str] = []
    g.listen("poke", lambda p: heard.append(p.name))
    assert g.rules.procedures["t"](g, g.players[0]) == 1 and heard == ["P1", "P1", "P1"]
    quiet, _ = compiled(with_t("emit poke(p)\nreturn 0"))
    assert "poke" not in quiet.heard and quiet.rules.procedures["t"](quiet, quiet.players[0]) == 0
    assert source.count(" in g.heard:") == 3


def test_a_timing_is_asked_of_a_card_only_when_it_has_the_block() -> None:
    """`x.on_play(n)` with plain arguments tests the object's blocks first (most cards have no
    such block); a card with the block runs it, any other object gives the timing's default,
    and arguments that compute still go through the call."""
    body = ("let c = new_card(coin, p, pile)\nlet o = new_object(thing, none, p)\nlet n = 3\n"
            "return [c.on_play(n), o.on_play(n), c.on_play(double(n)), o.on_play(double(n)), p.score]")
    value, _, source = run_text(with_t(body))
    assert value == [4, 0, 7, 0, 9]
    assert source.count(".timings else 0)") == 2 and source.count("g.run(") == 4


def test_writes_of_a_value_already_held_are_skipped_without_changing_what_they_do() -> None:
    """Writing none, a flag, an empty list, a number inside the bounds, or a word to a counter
    or a field that holds it already skips the game's call (a computed value for a field is
    computed once, before the test); a number past a bound still goes through the call and is
    held at the bound, and a logged change is logged once."""
    game = GAME.replace('counter turn "回合": global',
                        'counter turn "回合": global\ncounter cap "上限": per player, range 0..3, logged\n'
                        'flag done "完成": per player\ncounter seen "见过": per player, starts none')
    body = ("let c = new_card(coin, p, pile)\n"
            "p.cap = 2\np.cap = 2\np.cap = 7\np.done = true\np.done = true\np.seen = none\n"
            "c.power = 2\nc.power = 5\nc.hue = blue\nc.hue = blue\nc.hue = c.hue\nc.power = c.power + 1\n"
            "return [p.cap, p.done, p.seen, c.power, c.hue]")
    value, g, source = run_text(with_t(body, game))
    assert value == [3, True, None, 6, "blue"]
    assert "if l_0.counters[" in source and source.count("if l_1.fields[K_") == 6  # the guards are written
    assert "!= 7" not in source  # 7 is past the bound: the call holds it at 3
    assert [line.text for line in g.lines if "上限" in line.text] == ["上限(P1): 0 → 2", "上限(P1): 2 → 3"]


def test_counting_a_card_needs_a_token_kind() -> None:
    with pytest.raises(RuleViolation):
        run("let c = new_card(coin, p, pile)\nreturn count(c)")


def test_a_two_sided_change_adds_per_side() -> None:
    value, _ = run("return 2/2 + +1/-1")
    assert value == Pair(3, 1)


# ---- passes and the contract -----------------------------------------------------------

EXPRESSIONS = set(s.Expr.__args__)  # type: ignore[attr-defined]
STATEMENT_KINDS = set(s.Stmt.__args__)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("visitor", "kinds"), [
    (ExprChecker, EXPRESSIONS), (StmtChecker, STATEMENT_KINDS), (ExprGen, EXPRESSIONS),
    (StmtGen, STATEMENT_KINDS), (_Unparse, EXPRESSIONS), (_Reads, STATEMENT_KINDS)])
def test_every_pass_handles_every_kind(visitor: type, kinds: set[type]) -> None:
    missing = sorted(k.__name__ for k in kinds if not visitor.handles(k))
    assert missing == [], f"{visitor.__name__} does not handle {missing}"


def test_a_pass_fails_loudly_on_a_kind_it_does_not_know() -> None:
    from cardsmith.compiler.visit import Unhandled

    class Stranger(s.Node):
        span = s.NO_SPAN
    with pytest.raises(Unhandled, match="does not handle Stranger"):
        _Unparse().visit(Stranger())


def _generated(game: str) -> ast.Module:
    source = built(game).python_source
    assert source is not None
    return ast.parse(source)


@pytest.mark.parametrize("game", bundled_games())
def test_generated_code_uses_only_the_runtime_contract(game: str) -> None:
    tree = _generated(game)
    used_rt = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
               and isinstance(n.value, ast.Name) and n.value.id == "rt"}
    used_g = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
              and isinstance(n.value, ast.Name) and n.value.id == "g"}
    other = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
             and not (isinstance(n.value, ast.Name) and n.value.id in ("rt", "g"))}
    assert used_rt <= set(contract.exported), used_rt - set(contract.exported)
    assert used_g <= contract.GAME_API, used_g - contract.GAME_API
    assert other <= contract.DATA_API, other - contract.DATA_API
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(n, ast.ImportFrom) and n.module in ("cardsmith.runtime", "cardsmith.runtime.contract")
               for n in imports)


def test_spec_constructors_take_keyword_arguments() -> None:
    tree = _generated("sakura")
    specs = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr.endswith(("Spec", "Def", "RuleSet"))]
    assert specs and all(not n.args for n in specs)


GOLDEN = Path(__file__).parent / "data" / "generated" / "tiny_game.py"


def test_the_python_generated_for_a_tiny_game_is_as_recorded() -> None:
    """A golden file: a change to the generator shows here as a diff to review
    (CARDSMITH_UPDATE_GOLDEN=1 rewrites it)."""
    text = GAME + "\nprocedure t(p):\n    let n = count(p.purse)\n    if n > 0:\n        p.score += n\n"
    result = build_sources({"tiny.csm": text}, use_cache=False, need_model=True)
    assert result.python_source is not None
    if os.environ.get("CARDSMITH_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(result.python_source, "utf-8")
    assert result.python_source == GOLDEN.read_text("utf-8")


SCENARIOS = GAME + '''
scenario offered_and_won "提供与胜负":
    players hero vs sidekick
    script p1 "二"
    run:
        expect not offered p1 "三"
        choose for p1 "哪个":
            option "一":
                pass
            option "二":
                lose p2 "输了"
    verify:
        expect winner p1
scenario offered_wrongly "提供":
    players hero vs sidekick
    script p1 "二"
    run:
        expect offered p1 "三"
        choose for p1 "哪个":
            option "一":
                pass
            option "二":
                pass
scenario ended_unchecked "没检查的结局":
    players hero vs sidekick
    run:
        lose p1
scenario wrong_winner "错的胜者":
    players hero vs sidekick
    run:
        lose p1
    verify:
        expect winner p1
scenario unused_answer "多余的回答":
    players hero vs sidekick
    script p1 "一" "一"
    run:
        choose for p1 "哪个":
            option "一":
                pass
            option "二":
                pass
scenario ambiguous_answer "含糊的回答":
    players hero vs sidekick
    script p1 "选"
    run:
        choose for p1 "哪个":
            option "选一":
                pass
            option "选二":
                pass
scenario number_by_value "按数值回答":
    players hero vs sidekick
    script p1 7
    run:
        let n = number from 5 to 9 for p1 "几"
        expect n == 7 "seven"
'''


def test_scenarios_check_offers_winners_and_scripts() -> None:
    from cardsmith.runtime.session import run_scenario
    result = build_sources({"lang.csm": SCENARIOS}, use_cache=False)
    assert result.rules is not None
    outcome = {name: run_scenario(result.rules, name) for name in result.rules.scenarios}
    assert outcome["offered_and_won"] is None and outcome["number_by_value"] is None
    assert "'三' was not offered at '哪个'" in str(outcome["offered_wrongly"])
    assert outcome["ended_unchecked"] == "game ended: P1 loses"
    assert "expected P1 to win, but the game ended: P1 loses" in str(outcome["wrong_winner"])
    assert outcome["unused_answer"] == "scripted answers were not used: P1: 一"
    assert "the answer '选' fits several options" in str(outcome["ambiguous_answer"])


def test_scenarios_are_code_apart_loaded_only_when_one_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's scenarios are compiled apart from its rules and run only when a scenario is
    asked for (`play` never is); an error inside one is still located on its own source line."""
    from cardsmith.runtime.session import run_scenario
    monkeypatch.setenv("CARDSMITH_CACHE", str(tmp_path / "cache"))
    text = SCENARIOS + 'procedure forever(n):\n    forever(n + 1)\nscenario runs_away "失控":\n' \
        '    players hero vs sidekick\n    run:\n        forever(0)\n'
    called = text.split("\n").index("        forever(0)") + 1
    build_sources({"lang.csm": text})
    cached = build_sources({"lang.csm": text})
    assert cached.from_cache and cached.rules is not None
    assert cached.rules._scenarios is None  # loaded, not yet run
    assert run_scenario(cached.rules, "number_by_value") is None
    failed = run_scenario(cached.rules, "runs_away")
    assert failed is not None and failed.startswith("RuleViolation: calls nested too deeply")
    assert f"lang.csm:{called} in scenario runs_away" in failed, failed


def test_conditions_and_handlers_made_in_a_loop_keep_their_own_values() -> None:
    """A `while` of modify or forbid, and a `once` handler, made for each card of a loop see
    that card, not the last one the loop left behind."""
    body = """
let a = new_card(coin, p, p.hand)
let b = new_card(coin, p, pile)
for c in [a, b]:
    modify c.power by 10 while c.zone == p.hand
    once when poke(q) if q == p:
        c.hue = blue
emit poke(p)
return [a.power, b.power, a.hue, b.hue]
"""
    value, _ = run(body)
    assert value == [12, 2, "blue", "blue"]


def test_a_live_modify_works_its_change_out_at_every_read() -> None:
    """`by … live` follows what the change reads; a plain modify keeps the amount of the moment
    it was made (both lasting while their condition holds)."""
    body = """
let c = new_card(coin, p, p.hand)
let d = new_card(coin, p, p.hand)
p.score = 1
modify c.power by p.score live while c.zone == p.hand
modify d.power by p.score
let before = [c.power, d.power]
p.score = 4
let after = [c.power, d.power]
put c into pile
return before + after + [c.power]
"""
    value, _ = run(body)
    assert value == [3, 3, 6, 3, 2]


MOVES = GAME.replace('    start main\n', '    start main\n    card_moves shifted\n') + (
    'event shifted(c, source, dest) "移动了"\n'
    'counter shifts "移动次数": per player\n'
    'when shifted(c, source, dest) if dest == c.owner.hand "进手":\n'
    '    c.owner.shifts += 1\n')


def test_a_game_can_name_the_event_the_engine_emits_when_a_card_changes_zone() -> None:
    """`card_moves EVENT`: every change of zone emits it with the card and both zones; putting
    a card where it already is does not."""
    text = MOVES + ('procedure t(p):\n    let c = new_card(coin, p, pile)\n    put c into p.hand\n'
                    '    put c into p.hand bottom\n    put c into pile\n    put c into p.hand\n'
                    '    return p.shifts\n')
    g = start(text)
    assert g.rules.procedures["t"](g, g.players[0]) == 2


@pytest.mark.parametrize(("declared", "message"), [
    ('event shifted(c, source, dest) "移动了"\n', None),
    ('event shifted(c) "移动了"\n', "needs three parameters"),
    ('', "unknown event 'shifted'"),
])
def test_card_moves_names_an_event_with_the_card_and_both_zones(declared: str, message: str | None) -> None:
    text = GAME.replace('    start main\n', '    start main\n    card_moves shifted\n') + declared
    result = build_sources({"lang.csm": text}, use_cache=False, need_model=True)
    found = [d.message for d in result.diagnostics if d.severity == "error"]
    assert (found == []) if message is None else (len(found) == 1 and message in found[0]), found


TOKEN_MOVES = GAME.replace('    start main\n', '    start main\n    token_moves tokens_moved\n') + (
    'event tokens_moved(kind, n, source, dest, by) "筹码移动了"\n'
    'counter seen "看到": per player\n'
    'counter by_cards "卡牌移动": per player\n'
    'when tokens_moved(kind, n, source, dest, by) if kind == chip and dest != bank "进钱包":\n'
    '    first(players()).seen += n\n'
    '    if by != none:\n'
    '        first(players()).by_cards += n\n')


def test_a_game_can_name_the_event_the_engine_emits_when_tokens_move() -> None:
    """`token_moves EVENT`: every move of tokens emits it with the kind, how many moved (not how
    many were asked for), both places and the card whose effect moved them; a move of nothing
    emits nothing."""
    text = TOKEN_MOVES + ('procedure t(p):\n    move 3 chip from bank to p.purse\n'
                          '    move 9 chip from bank to p.purse\n'      # only 2 fit: 2 are seen
                          '    move 4 chip from bank to p.purse\n'      # a full purse: nothing moves
                          '    move 1 mark from bank to p.purse\n'      # another kind
                          '    return [p.seen, p.by_cards, count(p.purse, chip)]\n'
                          'card giver "给":\n    on_play:\n        move 1 chip from self.purse to bank\n'
                          '        move 1 chip from bank to self.purse\n        return self.by_cards\n')
    g = start(text)
    assert g.rules.procedures["t"](g, g.players[0]) == [5, 0, 5]
    card = g.new_card("giver", g.players[0], g.players[0].zones[2])
    assert g.run(card, "on_play", 0, 0) == 1  # the card's move out to the bank is not counted


@pytest.mark.parametrize(("declared", "message"), [
    ('event moved(kind, n, source, dest, by) "移动了"\n', None),
    ('event moved(kind, n) "移动了"\n', "needs five parameters"),
    ('', "unknown event 'moved'"),
])
def test_token_moves_names_an_event_with_five_parameters(declared: str, message: str | None) -> None:
    text = GAME.replace('    start main\n', '    start main\n    token_moves moved\n') + declared
    result = build_sources({"lang.csm": text}, use_cache=False, need_model=True)
    found = [d.message for d in result.diagnostics if d.severity == "error"]
    assert (found == []) if message is None else (len(found) == 1 and message in found[0]), found


def test_live_is_still_a_name_where_a_name_is_expected() -> None:
    """`live` marks a modify only after its change: elsewhere it stays an ordinary name."""
    value, _ = run("let live = 2\nreturn live + double(live)")
    assert value == 6


ADDITIONS = GAME.replace('''procedure main "一局":
    step 1 "运行":
        pass
''', '''procedure main "一局":
    step 1 "记一":
        let n = 1
        log "step 1: {}", n
    step 2 "记二":
        log "step 2: {}", n

addendum hero_rules "英雄":
    for hero
    after main step 1 "英雄在第一步之后":
        log "hero after 1: {}", n
    instead of main step 2 "英雄替换第二步":
        log "hero instead of 2"

addendum sidekick_rules "帮手":
    for sidekick
    after main step 1 when n == 1 "帮手在第一步之后":
        log "sidekick after 1"
    after main step 2 "帮手在第二步之后":
        log "sidekick after 2"
''')


@pytest.mark.parametrize("picks, lines", [
    ([["hero"], ["sidekick"]], ["step 1: 1", "hero after 1: 1", "sidekick after 1", "hero instead of 2",
                                "sidekick after 2"]),
    ([["hero"], ["hero"]], ["step 1: 1", "hero after 1: 1", "hero instead of 2"]),
    ([["sidekick"], ["sidekick"]], ["step 1: 1", "sidekick after 1", "step 2: 1", "sidekick after 2"]),
    ([[], []], ["step 1: 1", "step 2: 1"]),
])
def test_addenda_add_after_a_step_and_every_addition_runs(picks: list[list[str]], lines: list[str]) -> None:
    """(The two additions after step 1 sit under one test of whether any addendum is active.)"""
    result = build_sources({"lang.csm": ADDITIONS}, use_cache=False, need_model=True)
    assert result.rules is not None, [str(d) for d in result.diagnostics]
    assert result.python_source is not None and result.python_source.count("if g.active_addenda:") == 1
    g = Game(result.rules, picks, [ScriptedAgent(), ScriptedAgent()], seed=1)
    result.rules.procedures["main"](g)
    assert lines_for(g.lines, None) == lines


OPTIONS = GAME.replace('''procedure main "一局":
    step 1 "运行":
        pass
''', '''procedure main "一局":
    step 1 "选":
        while true:
            let bonus = 5
            choose for seat(0) "做什么":
                option "加一":
                    seat(0).score += 1
                option "结束" passive:
                    break
    step 2 "记":
        log "score {}", seat(0).score

addendum hero_rules "英雄":
    for hero
    in main step 1 option "英雄加分" if seat(0).score < bonus:
        seat(0).score += bonus
        break

addendum sidekick_rules "帮手":
    for sidekick
    in main step 1 option "帮手加二":
        seat(0).score += 2
''')


@pytest.mark.parametrize(("picks", "answers", "offered", "score"), [
    ([["hero"], ["sidekick"]], ["英雄加分"], ["加一", "结束", "英雄加分", "帮手加二"], 5),
    ([["sidekick"], ["sidekick"]], ["帮手加二", "结束"], ["加一", "结束", "帮手加二"], 2),
    ([["hero"], ["hero"]], ["加一", "结束"], ["加一", "结束", "英雄加分"], 1),
    ([[], []], ["加一", "结束"], ["加一", "结束"], 1),
])
def test_an_addendum_adds_an_option_to_a_steps_menu(picks: list[list[str]], answers: list[str],
                                                     offered: list[str], score: int) -> None:
    """`in PROC step ID option …`: the option joins the step's menu where the addendum plays,
    sees what the menu's options see (`bonus`, defined in the loop) and may end that loop (the
    two added options sit under one test of whether any addendum is active)."""
    result = build_sources({"lang.csm": OPTIONS}, use_cache=False, need_model=True)
    assert result.rules is not None, [str(d) for d in result.diagnostics if d.severity == "error"]
    assert result.python_source is not None and result.python_source.count("if g.active_addenda:") == 1
    asked: list[list[str]] = []
    agent = ScriptedAgent(list(answers))
    first = agent.choose

    def watching(request: Any) -> Any:
        asked.append(list(request.options))
        return first(request)
    agent.choose = watching  # type: ignore[method-assign]
    g = Game(result.rules, picks, [agent, ScriptedAgent()], seed=1)
    result.rules.procedures["main"](g)
    assert asked[0] == offered and g.players[0].counters[0] == score


@pytest.mark.parametrize(("added", "code", "message"), [
    ("in main step 1 option \"多\":\n        pass\n", "E105", "holds 0 `choose` menus"),
    ("in main step 9 option \"多\":\n        pass\n", "E105", "has no step '9'"),
    ("in mian step 1 option \"多\":\n        pass\n", "E101", "unknown procedure 'mian'"),
])
def test_an_added_option_needs_a_step_with_one_menu(added: str, code: str, message: str) -> None:
    text = GAME + "addendum hero_rules \"英雄\":\n    for hero\n    " + added
    result = build_sources({"lang.csm": text}, use_cache=False, need_model=True)
    found = [(d.code, d.message) for d in result.diagnostics if d.severity == "error"]
    assert len(found) == 1 and found[0][0] == code and message in found[0][1], found


@pytest.mark.parametrize("body, expected", [
    ("return [c in [1, 2, 3, 4] where c > 2]", [3, 4]),
    ("return [c in [] where c > 2]", []),
    ("let c = 9\nlet kept = [c in [1, 2] where c > 1]\nreturn [kept, c]", [[2], 9]),
    ("let a = new_card(coin, p, p.hand)\nlet b = new_card(coin, p, p.hand)\nb.power = 5\n"
     "return size([x in cards(p.hand) where x.power > 2])", 1),
])
def test_a_filtered_list_keeps_the_items_its_condition_holds_for(body: str, expected: Any) -> None:
    value, _ = run(body)
    assert value == expected


def test_a_filtered_list_names_its_item() -> None:
    text = GAME + "\nprocedure t(p):\n    return [p.score in [1, 2] where true]\n"
    result = build_sources({"lang.csm": text}, use_cache=False, need_model=True)
    (d,) = [d for d in result.diagnostics if d.severity == "error"]
    assert (d.code, d.span.line) == ("E001", GAME.count("\n") + 3)


def test_built_ins_generated_as_pythons_own_are_the_same_functions() -> None:
    import builtins

    from cardsmith.compiler.gen_expr import PYTHON_SAME
    for name in PYTHON_SAME | {"max", "min"}:  # max and min are written out, and agree with Python's
        for args in ((3, -4), (-4, 3), (0, 0), (2, 2)) if name != "abs" else ((-3,), (0,), (5,)):
            assert BUILTINS[name].fn(None, *args) == getattr(builtins, name)(*args), name
    assert run("return [max(2, 5), min(2, 5), abs(-3), max(-1, -7), min(-1, -7)]")[0] == [5, 2, 3, -1, -7]


def test_a_counter_read_applies_its_own_modifiers_and_no_others() -> None:
    """A counter is read directly while no modifier of it is in force, even with modifiers of
    other counters and fields in force (generated code tests for the counter's own name)."""
    body = ("let c = new_card(coin, p, pile)\nmodify c.power by 3\np.score = 1\nturn = 4\n"
            "let before = [p.score, turn]\nmodify p.score by 2\n"
            "return before + [p.score, opponent(p).score, turn, c.power]")
    value, g = run(body)
    assert value == [1, 4, 3, 0, 4, 5]
    assert sorted(g.mods) == ["power", "score"]


def test_a_loop_walks_the_items_its_list_held_when_it_began() -> None:
    """`cards(zone)` and a sum of lists are walked as they were when the loop began, whatever
    the body moves (they are copies or new lists; nothing is copied twice to get there)."""
    body = ("for i in [1, 2, 3]:\n    new_card(coin, p, pile)\nlet kept = cards(pile)\nlet walked = 0\n"
            "for c in cards(pile):\n    put c into p.hand\n    walked += 1\n"
            "for c in cards(p.hand) + cards(pile):\n    put c into pile\n    walked += 1\n"
            "for q in players():\n    walked += 10\n"
            "return [walked, size(kept), count(pile), count(p.hand)]")
    value, _ = run(body)
    assert value == [26, 3, 3, 0]


def test_a_once_handler_ends_at_its_until_event_when_the_engine_emits_it() -> None:
    """The engine emits its own move event only when something waits for it: a `once` handler
    lasting `until` that event counts as waiting, so a move ends it even when nothing else
    answers the event (it used to stay and fire later)."""
    text = GAME.replace('    start main\n', '    start main\n    card_moves shifted\n') + (
        'event shifted(c, source, dest) "移动了"\n'
        'procedure t(p):\n    once when poke(q) until shifted:\n        p.score += 5\n'
        '    let c = new_card(coin, p, pile)\n    put c into p.hand\n    emit poke(p)\n    return p.score\n'
        'procedure u(p):\n    once when poke(q) until shifted:\n        p.score += 5\n'
        '    emit poke(p)\n    return p.score\n')
    g = start(text)
    assert g.rules.procedures["t"](g, g.players[0]) == 0
    assert g.rules.procedures["u"](g, g.players[1]) == 5  # without a move it fires


SHARED = '''
procedure ready(p):
    return p.score == 0
procedure noisy(p):
    log "{} asks", p
    return true
procedure t(p):
    choose for p "哪个":
        option "一" if ready(p):
            p.score = 1
        option "二" if not ready(p) or count(p.hand) >= 0:
            p.score = 2
        option "三" if count(p.hand) > 5 and ready(p):
            p.score = 3
    choose for p "再":
        option "四" if count(p.hand) > 5 and ready(p):
            p.score = 4
        option "五" if ready(p):
            p.score = 5
        option "六":
            p.score = 6
    choose for p "又":
        option "七" if ready(p):
            p.score = 7
        option "八" if ready(p) and noisy(p):
            p.score = 8
        option "九":
            p.score = 9
    return p.score
'''


def test_a_call_several_options_test_is_worked_out_once() -> None:
    """Where a menu's conditions only read and the first to make a call always makes it (its
    leading test), the call is worked out once ahead of them: the first menu asks `ready`
    once. The second menu's first call sits behind a test that may skip it, the third has a
    condition that acts (it logs): each asks at every place. The options offered and taken
    are the same either way."""
    g, source = compiled(GAME + SHARED, ["二"])
    names = {name: fn.__name__ for name, fn in g.rules.procedures.items()}
    t = source[source.index(f"def {names['t']}("):]
    menus = t[:t.index("\ndef ")].split("g.menu(")
    ready = f"{names['ready']}(g, l_0)"
    assert [m.count(ready) for m in menus[:3]] == [1, 2, 2]
    assert re.search(rf"t_\d+ = {names['ready']}\(g, l_0\)\n", menus[0]) is not None
    assert g.rules.procedures["t"](g, g.players[0]) == 9
    assert g.decisions == [(0, 1)]  # 二 of 一 and 二; then 六 and 九 alone: ready() is false by then


def test_a_loop_whose_body_only_reads_walks_the_zone_itself() -> None:
    """A `for` whose body only reads walks the zone's own list; one whose body moves a card
    walks a copy, so every card of the zone is met once however the body changes it (made only
    when the zone holds cards)."""
    body = ("new_card(coin, p, p.hand)\nnew_card(coin, p, p.hand)\nlet n = 0\nfor x in cards(p.hand):\n"
            "    n += x.power\nfor x in cards(p.hand):\n    put x into pile\n    n += 1\n"
            "return [n, count(p.hand), count(pile)]")
    value, _, source = run_text(with_t(body))
    assert value == [6, 0, 2]
    walks = re.findall(r"(t_\d+) = l_0\.zones\[2\]\.cards\n    if \1:\n        (.*)\n", source)
    assert [copy for _, copy in walks] == ["g.loops += len(t_1)", "t_2 = list(t_2)"]
    assert run(body.replace("cards(p.hand)", "cards(pile)"))[0] == [0, 2, 0]  # an empty zone: nothing walked


def test_the_players_and_a_picks_items_are_walked_without_a_copy() -> None:
    """`players()` is walked in the game's own list, which no rule changes, even by a body that
    acts. `g.pick` copies its items before anything runs, so a pick walks the zone's own list
    unless its filter acts (here: logs), and then a copy."""
    body = ("new_card(coin, p, p.hand)\nlet c = new_card(coin, p, p.hand)\nc.power = 5\n"
            "for q in players():\n    q.score += 1\n"
            "let a = pick x in cards(p.hand) for p where x.power > 2 \"a\"\n"
            "let b = pick x in cards(p.hand) for p where x.power > size(t3(p)) + 2 \"b\"\n"
            "put a into pile\nlet d = pick x in cards(p.hand) for p \"d\"\n"
            "return [p.score + seat(1).score, a == c, b == c, d != c, count(p.hand), count(pile)]")
    value, g, source = run_text(with_t(body, GAME + "\nprocedure t3(p):\n    log \"{} looks\", p\n    return []\n"))
    assert value == [2, True, True, True, 1, 1]
    assert re.search(r"t_\d+ = g\.players\n", source) is not None and "list(g.players)" not in source
    assert len(re.findall(r"g\.pick\(l_0, \[(l_\d+) for \1 in l_0\.zones\[2\]\.cards if", source)) == 1
    assert len(re.findall(r"g\.pick\(l_0, \[(l_\d+) for \1 in list\(l_0\.zones\[2\]\.cards\) if", source)) == 1
    assert "g.pick(l_0, l_0.zones[2].cards, " in source
