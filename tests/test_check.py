"""Check stage: names resolved with suggestions, types and arities checked, all problems reported."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest

from cardsmith.compiler.checked import Checked
from cardsmith.compiler.diagnostics import Diagnostic
from cardsmith.compiler.load import game_files
from tests.helpers import MINI_GAME, build_text, codes, problems


def test_mini_game_is_clean() -> None:
    result = build_text("")
    assert result.ok, [str(d) for d in result.diagnostics]


def test_unknown_name_suggests_the_closest() -> None:
    result = build_text("procedure q(p):\n    move 1 chip from bank to p.pursee\n")
    (d,) = problems(result.diagnostics)
    assert d.code == "E101" and d.suggestion == "purse"
    assert (d.span.line, d.span.col) == (2, 32)


def test_every_problem_of_a_run_is_reported() -> None:
    text = ("procedure q(p):\n"
            "    move 1 chp from bank to p.purse\n"     # unknown token
            "    p.scor += 1\n"                          # unknown counter
            "    nope(p)\n"                              # unknown procedure
            "    move \"x\" chip from bank to p.purse\n")  # wrong type
    result = build_text(text)
    assert codes(result.diagnostics) == ["E101", "E101", "E101", "E110"]
    assert result.rules is None


def test_types_are_checked() -> None:
    result = build_text("procedure q(p):\n    if p.purse > 2:\n        pass\n    put 3 into bank\n")
    assert codes(result.diagnostics) == ["E110", "E110"]


def test_argument_counts_are_checked() -> None:
    result = build_text("procedure q(p):\n    q(p, p)\n    emit scored()\n")
    assert codes(result.diagnostics) == ["E106", "E106"]


def test_replacing_a_missing_step_is_reported_with_the_real_steps() -> None:
    result = build_text('instead of play step 9:\n    pass\n')
    (d,) = problems(result.diagnostics)
    assert d.code == "E105" and "1, 2" in (d.hint or "")


def test_duplicate_declarations() -> None:
    result = build_text('zone pot "x": shared\n')
    assert codes(result.diagnostics) == ["E102"]


def test_a_game_language_must_be_one_the_engine_speaks() -> None:
    result = build_text('game other "别的":\n    players 2\n    language klingon\n', with_mini=False)
    d = problems(result.diagnostics)[0]
    assert (d.code, d.span.line, d.span.col) == ("E104", 3, 5) and "zh" in d.message


def test_card_properties_are_typed() -> None:
    text = 'card c:\n    power lots\n    powr 2\n    on_ply:\n        pass\n'
    result = build_text(text)
    assert codes(result.diagnostics) == ["E104", "E113", "E114"]
    assert result.diagnostics[1].suggestion == "power"
    assert result.diagnostics[2].suggestion == "on_play"


def test_assigning_to_a_zone_is_refused() -> None:
    result = build_text("procedure q(p):\n    p.purse = 3\n")
    assert codes(result.diagnostics) == ["E111"]


def test_break_outside_a_loop() -> None:
    result = build_text("procedure q(p):\n    break\n")
    assert codes(result.diagnostics) == ["E112"]


def test_file_without_a_game() -> None:
    result = build_text("card c:\n    power 1\n", with_mini=False)
    assert codes(result.diagnostics) == ["E108"]


def test_scenario_blocks_share_their_variables() -> None:
    text = ('scenario s "s":\n    setup:\n        let n = 2\n        move n chip from bank to p1.purse\n'
            '    verify:\n        expect count(p1.purse) == n "two chips"\n')
    result = build_text(text)
    assert result.ok, [str(d) for d in result.diagnostics]


def test_card_text_must_name_its_keywords() -> None:
    text = ('field sticky "粘性" en "Sticky": bool, keyword\n'
            'card a "a":\n    sticky\n    text "Does nothing special."\n'
            'card b "b":\n    text "Sticky. Holds on."\n'
            'card c "c":\n    sticky\n    text "Sticky. Holds on."\n')
    result = build_text(text)
    warnings = [d for d in result.diagnostics if d.code == "W201"]
    assert [w.severity for w in warnings] == ["warning", "warning"]
    assert "card a" in warnings[0].message and "b" in warnings[1].message
    assert result.ok  # warnings do not stop a build


def test_one_name_cannot_mean_two_things() -> None:
    result = build_text('field colour "颜色": one of pot red\nfield purse "钱": int\n')
    messages = [d.message for d in result.diagnostics]
    assert codes(result.diagnostics) == ["E102", "E102"]
    assert "'pot' is both a zone and a word" in messages[0]
    assert "purse" in messages[1]


def test_fields_with_a_default_may_be_left_out() -> None:
    text = ('character hero "英雄": hp 5\nfield side "阵营": character, default none\n'
            'field kind2 "类": one of a b\ncard c "c":\n    power 1\n')
    result = build_text(text)
    assert codes(result.diagnostics) == ["E115"]   # kind2 has no default; side does
    assert "kind2" in result.diagnostics[0].message


def test_unused_declarations_are_warned_about() -> None:
    text = ('procedure helper(p):\n    pass\n'
            'value twice(n) = n * 2\n'
            'counter spare "备用": per player\n'
            'field weight "重量": int, default 0\n'
            'timing on_sleep "睡觉时"\n')
    result = build_text(text)
    found = sorted((d.code, d.message) for d in result.diagnostics if d.span.file == "test.csm")
    assert found == [("W202", "counter 'spare' is never used"), ("W202", "field 'weight' is never used"),
                     ("W202", "no card fills the timing 'on_sleep'"), ("W202", "procedure 'helper' is never used"),
                     ("W202", "value 'twice' is never used")]
    assert all(d.severity == "warning" for d in result.diagnostics)


def test_a_replacement_must_define_what_later_steps_use() -> None:
    text = ('procedure tally(p):\n    step 1 "数":\n        let n = count(p.purse)\n'
            '    step 2 "记":\n        p.score = n\n'
            'addendum fast "快":\n    instead of tally step 1 "不数":\n        pass\n')
    result = build_text(text)
    (d,) = problems(result.diagnostics)
    assert d.code == "E116" and "'n'" in d.message and "step 2 of tally" in d.message
    assert d.span.line == 7  # the `instead of` line
    fixed = build_text(text.replace("        pass\n", "        let n = 0\n"))
    assert problems(fixed.diagnostics) == []


def test_a_name_read_as_an_attribute_belongs_to_one_declaration() -> None:
    result = build_text('flag plan "计划": per player\ntiming plan(p) "计划时"\nfield plan "计划": int\n')
    found = sorted((d.code, d.span.line, d.message) for d in problems(result.diagnostics))
    assert found == [("E102", 2, "timing 'plan' has the name of a counter"),
                     ("E102", 3, "field 'plan' has the name of a player's zone or counter")]


@pytest.mark.parametrize("value, ok", [("0", True), ("2", True), ("false", True), ("true", True),
                                       ("none", False), ("nothing", False)])
def test_absent_takes_a_number_or_a_truth_value(value: str, ok: bool) -> None:
    text = f'character hero "英雄"\naddendum heroic "英雄的":\n    for hero\n    counter pluck "勇气": per player, absent {value}\n'
    found = [(d.code, d.span.line) for d in problems(build_text(text).diagnostics)]
    assert found == ([] if ok else [("E104", 4)])


def test_only_a_per_player_counter_can_be_absent() -> None:
    text = 'character hero "英雄"\naddendum heroic "英雄的":\n    for hero\n    counter tide "潮": absent 0\n'
    (d,) = problems(build_text(text).diagnostics)
    assert (d.code, d.span.line, d.hint) == ("E104", 4, "drop `absent` or add `per player`")


def test_an_addition_after_a_step_sees_what_the_step_defined() -> None:
    text = ('procedure tally(p):\n    step 1 "数":\n        let n = count(p.purse)\n'
            '    step 2 "记":\n        p.score = n\n'
            'addendum more "多":\n    after tally step 1 "再数":\n        p.score = n + 1\n'
            '    after tally step 3 "没有的步":\n        pass\n')
    (d,) = problems(build_text(text).diagnostics)
    assert (d.code, d.span.line, d.hint) == ("E105", 9, "its steps: 1, 2")


def test_parameter_types_are_checked_at_every_call() -> None:
    """A declared parameter type is checked at calls, `emit`s and timing calls, at the argument."""
    text = ('field reach "射程": range, default 0-1\nfield hurt "伤": pair, default 1/1\n'
            'event struck(p: player, dmg: pair) "被击"\n'
            'procedure hit(p: player, r: range, dmg: pair):\n    emit struck(p, dmg)\n'
            'procedure q(p):\n'
            '    hit(p, 3-4, 2-2)\n'        # a range where a pair belongs
            '    hit(p, 3/4, 2/2)\n'        # a pair where a range belongs
            '    hit(p, 3-4, 2)\n'          # a bare number where a pair belongs
            '    hit(3, 3-4, 2/2)\n'        # a number where a player belongs
            '    emit struck(p, 1-2)\n'
            '    hit(p, 3-4, 2/2)\n')       # right
    result = build_text(text)
    found = [(d.code, d.span.line, d.span.col, d.message) for d in problems(result.diagnostics)]
    assert found == [
        ("E110", 7, 17, "hit: dmg must be a two-sided value like 3/1, found a range like 3-4"),
        ("E110", 8, 12, "hit: r must be a range like 3-4, found a two-sided value like 3/1"),
        ("E110", 9, 17, "hit: dmg must be a two-sided value like 3/1, found a number"),
        ("E110", 10, 9, "hit: p must be a player, found a number"),
        ("E110", 11, 20, "event struck: dmg must be a two-sided value like 3/1, found a range like 3-4"),
    ]


def test_a_typed_parameter_has_its_type_in_the_body() -> None:
    result = build_text('procedure q(p):\n    grow(p, 1/1)\n'
                        'procedure grow(p: player, dmg: pair):\n    let n = dmg + 1\n    p.score = dmg\n')
    assert [(d.code, d.span.line) for d in problems(result.diagnostics)] == [("E110", 4), ("E110", 5)]


def test_an_unknown_type_word_is_located_with_a_suggestion() -> None:
    (d,) = problems(build_text("procedure q(p: plyer):\n    pass\n").diagnostics)
    assert (d.code, d.span.line, d.span.col, d.suggestion) == ("E104", 1, 16, "player")


def test_ranges_pairs_and_their_changes_do_not_mix() -> None:
    """Assignments, `modify` and `+` keep ranges, two-sided values and numbers apart."""
    text = ('field reach "射程": range, default 0-1\nfield hurt "伤": pair, default 1/1\n'
            'card c "c":\n    on_play:\n'
            '        this.reach = 2/1\n'                  # a pair into a range field
            '        this.hurt = 3-4\n'                   # a range into a pair field
            '        modify this.hurt by shift(1)\n'      # a range change on a pair
            '        modify this.reach by +1/+0\n'        # a delta on a range
            '        let x = this.hurt + shift(1)\n'
            '        let y = this.reach - shift(1)\n'     # a range change is only added
            '        this.reach = this.reach + expand(1, 0)\n'
            '        this.hurt = this.hurt + (+1/-1)\n'
            '        modify this.hurt by +1/+1\n'
            '        modify this.reach by shift(-1)\n')
    result = build_text(text)
    assert [(d.code, d.span.line) for d in problems(result.diagnostics)] == [
        ("E110", 5), ("E110", 6), ("E110", 7), ("E110", 8), ("E110", 9), ("E110", 10)]


def test_built_in_arguments_are_checked() -> None:
    result = build_text('procedure q(p):\n    let a = left(3-4)\n    let b = low(2/1)\n    let c = opponent(3)\n')
    assert [(d.code, d.span.line, d.message) for d in problems(result.diagnostics)] == [
        ("E110", 2, "left: value must be a two-sided value like 3/1, found a range like 3-4"),
        ("E110", 3, "low: range must be a range like 3-4 or a list, found a two-sided value like 3/1"),
        ("E110", 4, "opponent: player must be a player, found a number"),
    ]


def test_a_duplicate_declaration_says_where_the_first_is() -> None:
    (d,) = problems(build_text('counter score "又一个": per player\n').diagnostics)
    assert d.code == "E102" and d.hint == "the first one is at mini.csm:11:9; rename one of them"


def _count_checks(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The names of the cards and of the procedures checked from here on, in order."""
    from cardsmith.compiler.check import Checker
    cards: list[str] = []
    procedures: list[str] = []
    real_card, real_procedure = Checker.card, Checker.procedure
    monkeypatch.setattr(Checker, "card", lambda self, card: (cards.append(card.name), real_card(self, card)))
    monkeypatch.setattr(Checker, "procedure", lambda self, p: (procedures.append(p.name), real_procedure(self, p)))
    return cards, procedures


@contextmanager
def _memo_of_its_own() -> Iterator[None]:
    """A check from nothing meanwhile, leaving the check memo under test as it was."""
    from cardsmith.compiler import check_memo
    kept = check_memo.MEMO.copy()
    check_memo.MEMO.load(check_memo.Memo())
    try:
        yield
    finally:
        check_memo.MEMO.load(kept)


def test_checking_again_after_an_edit_finds_what_a_fresh_check_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards and scenarios are re-checked only when they (or the rules around them) changed,
    and the rules only when a rule or a card's name changed (`check_memo.py`): a card's edit
    re-checks that card, a procedure's body the rules alone, a zone's name everything; each time
    the diagnostics, resolutions, card properties and the names steps define are those of a
    check from nothing."""
    from cardsmith.compiler.check import check
    from cardsmith.compiler.parse import parse_source
    from cardsmith.compiler.parse_cache import parse_file
    cards = "".join(f'card c{i} "牌{i}":\n    power {i}\n    on_play:\n        move 1 chip from bank to self.purse\n\n'
                    for i in range(6))
    base = {"mini.csm": MINI_GAME, "cards.csm": "use mini\n" + cards}
    edits = [("cards.csm", "move 1 chip from bank to self.purse\n\ncard c3",  # the last line of c2
              "move 1 chip from bank to self.nowhere\n\ncard c3"),          # a card breaks
             ("mini.csm", "move 2 chip", "\n            move 3 chip"),      # a procedure's body: the rules again
             ("mini.csm", 'zone purse "钱包"', 'zone wallet "钱包"')]       # a rule's interface changes: all again

    def found(checked: Checked, diags: list[Diagnostic]) -> tuple[object, ...]:
        return (sorted(str(d.span) + d.message for d in diags), len(checked.resolution), len(checked.types),
                checked.card_props, checked.step_names)

    def fresh(sources: dict[str, str]) -> tuple[object, ...]:
        with _memo_of_its_own():
            return found(*check([parse_source(p, t)[0] for p, t in sources.items()]))

    checked_cards, checked_procedures = _count_checks(monkeypatch)
    sources = dict(base)
    check([parse_file(p, t, None)[0] for p, t in sources.items()])  # remembered from here on
    every_procedure = list(checked_procedures)
    assert every_procedure
    for (path, old, new), rechecked, procedures in zip(
            edits, (["c2"], [], [f"c{i}" for i in range(6)]), ([], every_procedure, every_procedure), strict=True):
        sources[path] = sources[path].replace(old, new, 1)
        checked_cards.clear()
        checked_procedures.clear()
        again = found(*check([parse_file(p, t, None)[0] for p, t in sources.items()]))
        assert checked_cards == rechecked  # the edited card alone; after a rule change, every card
        assert checked_procedures == procedures  # no rule after a card edit; after a rule change, all
        assert again == fresh(sources), path
    assert any("nowhere" in d for d in fresh(sources)[0])


def test_a_card_that_comes_goes_or_is_renamed_rechecks_only_what_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change to the set of cards keeps the rules' check and every card's that does not name
    the card that changed (`check_memo.Memo.enter`): a card is named by its name, labels and
    text properties (c0's text quotes c9's label; c1's definition holds c9's code, so its text
    should say c9). Adding c9 re-checks it and both; renaming it, c0; changing its code, c1; a
    card nobody names comes and goes alone. Each time the result is a fresh check's."""
    from cardsmith.compiler.check import check
    from cardsmith.compiler.parse import parse_source
    from cardsmith.compiler.parse_cache import parse_file
    game = MINI_GAME.replace('default 0', 'default 0\nfield text "文本": text, default ""\nfield code "编号": text', 1)
    cards = ('use mini\ncard c0 "牌0":\n    power 0\n    text "「牌9」"\n\n'
             'card c1 "牌1":\n    power 1\n    text "拿筹码"\n    on_play:\n        if "K9" == "K9":\n'
             '            move 1 chip from bank to self.purse\n')

    def c9(label: str, code: str) -> str:
        return f'\ncard c9 "{label}":\n    power 9\n    code "{code}"\n'

    steps = [("add the card c0 and c1 name", cards + c9("牌9", "K9"), ["c0", "c1", "c9"]),
             ("rename it", cards + c9("牌十", "K9"), ["c0", "c9"]),
             ("change its code", cards + c9("牌十", "K8"), ["c1", "c9"]),
             ("add a card nobody names", cards + c9("牌十", "K8") + '\ncard c2 "牌2":\n    power 2\n', ["c2"]),
             ("remove it again", cards + c9("牌十", "K8"), [])]

    def found(checked: Checked, diags: list[Diagnostic]) -> tuple[object, ...]:
        return (sorted(str(d.span) + d.message for d in diags), len(checked.resolution), len(checked.types),
                checked.card_props)

    def fresh(text: str) -> tuple[object, ...]:
        with _memo_of_its_own():
            return found(*check([parse_source("mini.csm", game)[0], parse_source("cards.csm", text)[0]]))

    checked_cards, checked_procedures = _count_checks(monkeypatch)
    check([parse_file("mini.csm", game, None)[0], parse_file("cards.csm", cards, None)[0]])
    named: list[tuple[bool, bool]] = []
    for what, text, rechecked in steps:
        checked_cards.clear()
        checked_procedures.clear()
        again = found(*check([parse_file("mini.csm", game, None)[0], parse_file("cards.csm", text, None)[0]]))
        assert (checked_cards, checked_procedures) == (rechecked, []), what
        assert again == fresh(text), what
        named.append((any("c0: the text names the card 牌9 (c9)" in d for d in again[0]),
                      any("c1: the definition has the card" in d for d in again[0])))
    assert named == [(True, True), (False, True), (False, False), (False, False), (False, False)]


def test_edits_inside_sakuras_rule_bodies_are_checked_again_as_a_fresh_check_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo's rules interface on the real library: a number changed inside the body of a
    procedure, trigger, replacement, check or action of Sakura (every other edit also adds a
    line, moving what follows), checked again with the memo, finds what a check from nothing
    finds, and re-checks no card. Edits drawn with a fixed seed; CARDSMITH_FUZZ_SCALE=N tries N
    times as many."""
    import os
    import random
    import re

    from cardsmith.compiler import syntax as s
    from cardsmith.compiler.cache import open_cache
    from cardsmith.compiler.check import check
    from cardsmith.compiler.load import read_sources
    from cardsmith.compiler.parse_cache import parse_file
    sources, _ = read_sources(game_files("sakura"))
    cache = open_cache()

    def found(sources: dict[str, str], fresh: bool = False) -> tuple[object, ...]:
        """Diagnostics, card properties, step names, and what each node of these very objects
        resolves to and its type (a replayed check must cover the nodes the parse made now)."""
        files = [parse_file(p, t, cache)[0] for p, t in sources.items()]
        with _memo_of_its_own() if fresh else nullcontext():
            checked, diags = check(files)
        nodes = [(checked.resolution.get(n), checked.types.get(n)) for n in s.walk([f.items for f in files])]
        return sorted(str(d.span) + d.message for d in diags), checked.card_props, checked.step_names, nodes

    rules = [(path, node) for path, text in sources.items() for item in parse_file(path, text, cache)[0].items
             for node in (item.items if isinstance(item, s.Addendum) else (item,))
             if isinstance(node, (s.Procedure, s.Trigger, s.Replace, s.Check, s.Action))]
    number = re.compile(r"(?<![\w.\"])(\d+)(?![\w\"])")
    draw = random.Random(16)
    found(sources)
    checked_cards, _ = _count_checks(monkeypatch)
    edits = 0
    while edits < 3 * int(os.environ.get("CARDSMITH_FUZZ_SCALE", "1")):
        path, node = draw.choice(rules)
        lines = sources[path].split("\n")
        body = [i for i in range(node.span.line, node.span.end_line - 1)
                if number.search(lines[i]) and not lines[i].lstrip().startswith(("#", "decision"))]
        if not body:
            continue
        at = draw.choice(body)
        changed = number.sub(lambda m: str(int(m.group(1)) + 1), lines[at], count=1)
        edited = {**sources, path: "\n".join([*lines[:at], changed, *([""] if edits % 2 else []), *lines[at + 1:]])}
        checked_cards.clear()
        again = found(edited)
        moved = {c for c in checked_cards if edits % 2}  # cards below an added line are new objects
        assert set(checked_cards) == moved, (path, at)
        assert again == found(edited, fresh=True), (path, at + 1)
        found(sources)
        edits += 1


def test_an_undo_rechecks_only_the_card_it_brings_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A text seen before (an undo, or switching back) comes from the parse cache whole, with
    objects of its own: its unchanged declarations must still be the objects the last check saw,
    or the `use` line at its top would count as a changed rule and every declaration of the game
    would be checked again (`check --watch` took a second instead of milliseconds)."""
    from cardsmith.compiler import check_memo, parse_cache
    from cardsmith.compiler.cache import open_cache
    from cardsmith.compiler.check import check
    monkeypatch.setenv("CARDSMITH_CACHE", str(tmp_path / "cache"))
    cache = open_cache()
    assert cache is not None
    cards = "".join(f'card c{i} "牌{i}":\n    power {i}\n\n' for i in range(4))
    base = {"mini.csm": MINI_GAME, "cards.csm": "use mini\n" + cards}
    edited = {**base, "cards.csm": base["cards.csm"].replace("power 2", "power 7")}
    for path, text in base.items():
        parse_cache.parse_file(path, text, cache)  # another process parsed these texts before
    for table in ("_MEMORY", "_CHUNKS", "_LAST"):
        monkeypatch.setattr(parse_cache, table, {})
    checked_cards, checked_procedures = _count_checks(monkeypatch)
    check_memo.MEMO.load(check_memo.Memo())
    check([parse_cache.parse_file(p, t, cache)[0] for p, t in edited.items()])
    checked_cards.clear()
    checked_procedures.clear()
    undone = [parse_cache.parse_file(p, t, cache)[0] for p, t in base.items()]  # read back whole from the cache
    checked, diags = check(undone)
    assert (checked_cards, checked_procedures) == (["c2"], [])
    assert checked.card_props["c2"]["power"] == 2 and not [d for d in diags if d.severity == "error"]
