"""Runtime: game-agnostic, tokens conserved, capacities held, modifiers, agents' views."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsmith.runtime.agents import ChoiceRequest, ScriptedAgent
from cardsmith.runtime.game import Game
from cardsmith.runtime.log import lines_for
from cardsmith.runtime.phrases import DEFAULT_LANGUAGE, PHRASES, Phrases
from cardsmith.runtime.session import play
from cardsmith.runtime.values import Delta, Pair, apply_change
from tests.helpers import build_text

ROOT = Path(__file__).resolve().parent.parent
ENGINE = [*sorted((ROOT / "runtime").glob("*.py")), *sorted((ROOT / "compiler").glob("*.py")),
          *sorted(p for p in (ROOT / "compiler" / "templates").rglob("*") if p.is_file() and "__pycache__" not in p.parts), *sorted((ROOT / "cardsmith").rglob("*.py")),
          *sorted((ROOT / "cardsmith" / "templates").glob("*.j2"))]
GAME_WORDS = ["aura", "flare", "dust", "sakura", "crystal", "vigor", "goddess", "megami", "mastery",
              "yurina", "saine", "himika", "tokoyo", "akina", "shisui", "laceration", "reshuffle",
              "装", "命", "气", "虚", "樱花", "集中力", "女神", "heat", "ink", "mana", "hp", "cost", "damage",
              "eatpaint", "ccs", "dragon", "magician", "clow"]


@pytest.mark.parametrize("word", GAME_WORDS)
def test_no_game_word_in_the_engine(word: str) -> None:
    """The runtime, the compiler and the command line know no game."""
    pattern = re.compile(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", re.IGNORECASE)
    for path in ENGINE:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            assert not pattern.search(line), f"{path.relative_to(ROOT)}:{number}: {line.strip()}"


def _mini_game() -> Game:
    result = build_text("")
    assert result.rules is not None
    return Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=3)


def test_moves_take_as_many_as_exist_and_fit() -> None:
    g = _mini_game()
    bank, pot = g.zones[0], g.zones[1]
    purse = g.players[0].zones[2]
    assert bank is not None and pot is not None and purse is not None
    assert g.move(7, "chip", bank, pot) == 5          # capacity 5
    assert g.move(10, "chip", pot, purse) == 3        # capacity 3
    assert g.move(4, "chip", purse, pot) == 3         # only 3 exist
    assert g.invariant_problems({"chip": 0}) == []
    assert g.token_total("chip") == g.supply_flow["chip"] == 5


def test_a_zones_capacity_counts_every_kind_but_tokens_of_a_player() -> None:
    """`max` bounds the tokens of all kinds together (an addendum's extra kind shares it); tokens
    that belong to a player are not counted, as a card's own markers on a shared pile are not."""
    result = build_text('token frost "霜"\ntoken mark "印": owned\nzone bank: also holds frost mark\n'
                        'zone pot: also holds frost mark\n')
    assert result.rules is not None, result.diagnostics
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=3)
    bank, pot = g.zones[0], g.zones[1]
    assert bank is not None and pot is not None
    assert g.move(3, "chip", bank, pot) == 3
    assert g.space(pot) == 2                          # the room left for any kind
    assert g.move(4, "frost", bank, pot) == 2          # 3 chips + 2 frost fill the 5
    assert g.move(1, "chip", bank, pot) == 0
    assert g.move(2, "mark", bank, pot, owner=g.players[0]) == 2  # a player's tokens: not counted
    assert g.invariant_problems({"chip": 0, "frost": 0, "mark": 0}) == []
    pot.tokens[("mark", 0)] = 1  # a player's token lost: conservation covers owned kinds too
    assert g.invariant_problems({"chip": 0, "frost": 0, "mark": 0}) == ["mark: 1 present, 2 expected"]


def test_a_zone_that_miscounts_or_overfills_is_reported() -> None:
    """The capacity checks see an empty zone that counts tokens it does not hold, and a zone
    over its capacity (the pot holds at most 5)."""
    g = _mini_game()
    pot = g.zones[1]
    assert pot is not None and pot.capacity == 5
    pot.held = 2
    assert g.invariant_problems({"chip": 0}) == [f"{pot!r} counts 2 tokens toward its capacity but holds 0"]
    pot.held, pot.tokens["chip"] = 6, 6
    assert g.invariant_problems({"chip": 0}) == ["chip: 6 present, 0 expected",
                                                 f"{pot!r} holds 6 tokens over its capacity 5"]


def test_an_object_with_tokens_on_it_cannot_be_taken_out_of_the_game() -> None:
    """Taking an object away with tokens on it would lose them: a rule error, not a silent loss."""
    from cardsmith.runtime.game import RuleViolation
    g = _mini_game()
    bank = g.zones[0]
    assert bank is not None
    chest = g.new_object("chest", None, g.players[0], None)
    g.move(2, "chip", bank, chest)
    with pytest.raises(RuleViolation, match="taken out of the game with tokens on it"):
        g.remove_object(chest)
    g.move(2, "chip", chest, bank)
    g.remove_object(chest)
    assert g.invariant_problems({"chip": 0}) == []


def test_counters_clamp_to_their_range() -> None:
    g = _mini_game()
    p = g.players[0]
    g.set(p, 0, 12)
    assert g.get(p, 0) == 9
    g.set(p, 0, -3)
    assert g.get(p, 0) == 0


def test_modifiers_apply_while_their_condition_holds_and_end_with_their_event() -> None:
    g = _mini_game()
    obj = g.new_object("thing", None, g.players[0], None)
    g.write(obj, "power", Pair(2, 1))
    switch = {"on": True}
    g.modify(obj, "power", Delta(1, 0), lambda: switch["on"], None, None)
    g.modify(obj, "power", Delta(0, 2), None, "scored", None)
    assert g.read(obj, "power") == Pair(3, 3)
    switch["on"] = False
    assert g.read(obj, "power") == Pair(2, 3)
    g.emit("scored", g.players[0])
    assert g.read(obj, "power") == Pair(2, 1)


def test_two_sided_changes_never_go_below_zero_and_keep_dashes() -> None:
    assert apply_change(Pair(1, None), Delta(-3, 2)) == Pair(0, None)


def test_views_hide_what_a_player_may_not_see() -> None:
    result = build_text("")
    assert result.rules is not None
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    hand0 = g.players[0].zones[3]
    assert hand0 is not None
    g.new_object("card", None, g.players[0], hand0)
    mine = g.view(0).players["P1"].zones["hand"].cards
    theirs = g.view(1).players["P1"].zones["hand"].cards
    assert mine == ["card"] and theirs == ["(hidden card)"]


def test_scripted_agent_matches_labels() -> None:
    g = _mini_game()
    agent = ScriptedAgent(["yes", 1])
    request = ChoiceRequest(0, "menu", "?", ["no", "yes"], 2, g)
    assert agent.choose(request) == 1
    assert agent.choose(request) == 1


def test_anchored_modifiers_end_when_their_card_leaves_its_zone() -> None:
    g = _mini_game()
    hand = g.players[0].zones[3]
    other = g.players[1].zones[3]
    assert hand is not None and other is not None
    card = g.new_object("card", None, g.players[0], hand)
    target = g.new_object("thing", None, g.players[0], None)
    g.write(target, "power", 1)
    g.modify(target, "power", 2, None, None, card)
    assert g.read(target, "power") == 3
    g.put(card, other)
    assert g.read(target, "power") == 1
    g.put(card, hand)  # coming back does not revive the old modifier
    assert g.read(target, "power") == 1


def _game_of(text: str) -> Game:
    """A game of the mini rules with `text` added."""
    result = build_text(text)
    assert result.rules is not None, [str(d) for d in result.diagnostics]
    return Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)


def _counter(g: Game, name: str) -> int:
    return next(i for i, c in enumerate(g.rules.counters) if c.name == name)


def test_checks_run_again_after_their_own_moves() -> None:
    text = ('check spill "溢出":\n    if count(pot) >= 5:\n        move 5 chip from pot to bank\n'
            'check note_empty "记录":\n    if count(pot) == 0 and count(bank) == 0:\n        pass\n'
            'flag seen "看见": global\n'
            'check watch "观察":\n    if count(pot) == 0:\n        seen = true\n')
    g = _game_of(text)
    bank, pot = g.zones[0], g.zones[1]
    assert bank is not None and pot is not None
    g.move(1, "chip", bank, pot)
    seen = _counter(g, "seen")
    g.counters[seen] = False
    g.move(4, "chip", bank, pot)   # pot reaches 5; `spill` empties it; `watch` must see that
    assert g.count(pot, "chip") == 0 and g.counters[seen] is True


def test_a_new_card_in_a_zone_runs_the_checks_that_read_the_zone() -> None:
    text = ('flag crowded "手满": per player\n'
            'check full_hand "手牌满":\n    for p in players():\n        if count(p.hand) >= 2:\n'
            '            p.crowded = true\n'
            'card coin "硬币":\n    power 1\n')
    g = _game_of(text)
    p = g.players[0]
    hand = p.zones[3]
    assert hand is not None
    crowded = _counter(g, "crowded")
    g.new_card("coin", p, hand)
    assert p.counters[crowded] is False
    g.new_card("coin", p, hand)  # the second card fills the hand: the check must see it
    assert p.counters[crowded] is True


def test_range_changes_follow_the_rulebook_example() -> None:
    from cardsmith.runtime.values import RangeChange, change_range
    assert change_range((4,), RangeChange(0, 2, 2)) == (2, 3, 4, 5, 6)
    assert change_range((3, 4), RangeChange(-1, 0, 0)) == (2, 3)
    assert change_range((0, 1), RangeChange(-1, 1, 0)) == (0,)
    assert change_range((), RangeChange(0, 1, 1)) == ()
    assert change_range((2, 3, 4), RangeChange(0, -1, 0)) == (3, 4)      # the near end shrinks
    assert change_range((1, 3, 5), RangeChange(0, -1, 0)) == (3, 5)      # a range with gaps too
    assert change_range((2, 3, 4), RangeChange(0, 0, -2)) == (2,)
    assert change_range((3,), RangeChange(0, -1, 0)) == ()               # shrunk away entirely
    assert change_range((2, 3), RangeChange(0, -1, 1)) == (3, 4)
    assert apply_change(None, RangeChange(0, 0, 1)) == RangeChange(0, 0, 1)


def test_checks_run_only_after_changes_to_what_they_read() -> None:
    from cardsmith.compiler.depends import check_reads
    text = ('counter alarms "警报": global\n'
            'check crowded "拥挤":\n    if count(pot) >= 4 and alarms < 9:\n        alarms += 1\n'
            '        move 1 chip from pot to bank\n')
    result = build_text(text)
    assert result.rules is not None and result.checked is not None
    (chk, _), = result.checked.symbols.checks
    reads = check_reads(result.checked, chk)
    assert reads.zones == {"pot"} and reads.counters == {"alarms"} and not reads.objects
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    bank, pot = g.zones[0], g.zones[1]
    purse = g.players[0].zones[2]
    assert bank is not None and pot is not None and purse is not None
    g.move(3, "chip", bank, purse)          # the check does not read purses: nothing runs
    g.move(4, "chip", bank, pot)            # pot reaches 4: the check moves one back, once
    alarms = next(i for i, c in enumerate(result.rules.counters) if c.name == "alarms")
    assert g.count(pot, "chip") == 3 and g.counters[alarms] == 1


def test_what_a_check_reads_through_an_addendum_counts_only_where_it_plays() -> None:
    from cardsmith.compiler.depends import check_reads
    text = ('character knight "骑士"\ncounter alarms "警报": global\n'
            'procedure limit() "上限":\n    step 1 "通常":\n        return 4\n'
            'addendum watch "守望":\n    for knight\n    instead of limit step 1 "看钱包":\n'
            '        return 4 - count(seat(0).purse)\n'
            'check crowded "拥挤":\n    if count(pot) >= limit() and alarms == 0:\n        alarms += 1\n')
    result = build_text(text)
    assert result.rules is not None and result.checked is not None
    (chk, _), = result.checked.symbols.checks
    reads = check_reads(result.checked, chk)
    assert reads.zones == {"pot"} and reads.counters == {"alarms"}
    assert set(reads.through) == {"watch"} and reads.through["watch"].zones == {"purse"}
    alarms = next(i for i, c in enumerate(result.rules.counters) if c.name == "alarms")
    for picks, rings in (([[], []], 0), ([["knight"], []], 1)):
        g = Game(result.rules, picks, [ScriptedAgent(), ScriptedAgent()], seed=1)
        bank, pot, purse = g.zones[0], g.zones[1], g.players[0].zones[2]
        assert bank is not None and pot is not None and purse is not None
        g.move(1, "chip", bank, pot)        # 1 chip: below either limit
        g.move(3, "chip", bank, purse)      # the watch's limit drops to 1, but only a knight's game looks
        assert g.counters[alarms] == rings, picks


_SPARKLE = ('field shiny "闪亮": bool\nzone box "盒子": per player, holds cards\n'
            'counter looks "查看": global\n'
            'check sparkle "找闪亮的牌":\n    for p in players():\n        for z in [p.hand, p.box]:\n'
            '            for c in cards(z):\n                if c.shiny:\n                    looks += 1\n'
            'card coin "硬币":\n    power 1\ncard gem "宝石":\n    shiny\n')


def test_a_check_that_looks_for_marked_cards_runs_only_when_one_moves() -> None:
    """`shiny` is written by no statement: the check reads the hand and the box only to find
    shiny cards, so plain coins coming and going do not run it; a gem's moves do."""
    from cardsmith.compiler.depends import check_reads
    result = build_text(_SPARKLE)
    assert result.rules is not None and result.checked is not None
    (chk, _), = result.checked.symbols.checks
    reads = check_reads(result.checked, chk)
    assert reads.zones == frozenset() and reads.marked == {"hand": {"shiny"}, "box": {"shiny"}}
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    p = g.players[0]
    hand, box = p.zones[3], p.zones[4]
    assert hand is not None and box is not None
    looks = _counter(g, "looks")
    coin = g.new_card("coin", p, hand)
    assert g.counters[looks] == 0           # a coin: the check does not run
    gem = g.new_card("gem", p, hand)
    assert g.counters[looks] == 1           # a gem arrives: it runs and finds one
    g.put(coin, box)
    assert g.counters[looks] == 1
    g.put(gem, box)
    assert g.counters[looks] == 2           # the gem moves: it runs again


def test_a_zone_the_marked_loop_also_reads_otherwise_is_read_in_full() -> None:
    """`count(z)` inside the loop reads the whole zone the loop walks: no zone is marked."""
    from cardsmith.compiler.depends import check_reads
    result = build_text(_SPARKLE.replace("if c.shiny:", "if c.shiny and count(z) > 1:"))
    assert result.checked is not None
    (chk, _), = result.checked.symbols.checks
    reads = check_reads(result.checked, chk)
    assert reads.zones == {"hand", "box"} and reads.marked == {}


def test_a_field_that_some_statement_writes_marks_nothing() -> None:
    """Once any statement writes `shiny`, a coin may become shiny: the zones are read in full
    and every card's arrival runs the check."""
    from cardsmith.compiler.depends import check_reads
    result = build_text(_SPARKLE + 'procedure polish(c) "擦亮":\n    c.shiny = true\n')
    assert result.rules is not None and result.checked is not None
    (chk, _), = result.checked.symbols.checks
    reads = check_reads(result.checked, chk)
    assert reads.zones == {"hand", "box"} and reads.marked == {}
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    hand = g.players[0].zones[3]
    assert hand is not None
    g.new_card("gem", g.players[0], hand)
    g.new_card("coin", g.players[0], hand)
    assert g.counters[_counter(g, "looks")] == 2    # it ran for the coin too and found the gem again


def test_character_options_are_readable() -> None:
    from cardsmith.runtime import builtins as rt
    result = build_text('character hero "英雄": hp 5, side light\n')
    assert result.rules is not None
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    assert rt.fn_character_prop(g, "hero", "hp") == 5
    assert rt.fn_character_prop(g, "hero", "side") == "light"


def test_a_team_can_win_together() -> None:
    from cardsmith.runtime.game import GameOver
    g = _mini_game()
    with pytest.raises(GameOver):
        g.end("win", [g.players[1], g.players[0]])
    assert g.winner == 1 and g.result == "P2, P1 win"


def test_standing_actions_join_real_decisions_and_the_menu_is_asked_again() -> None:
    text = ('action cash_in "兑换" for p if count(p.purse) >= 2:\n    p.score += 1\n    move 2 chip from p.purse to bank\n'
            'procedure turn(p):\n    choose for p "选":\n        option "甲":\n            p.score += 5\n'
            '        option "乙":\n            pass\n    choose for p "只有一个":\n        option "丙":\n            pass\n')
    result = build_text(text)
    assert result.rules is not None, [str(d) for d in result.diagnostics]
    agent = ScriptedAgent(["兑换", "甲"], strict=True)
    g = Game(result.rules, [[], []], [agent, ScriptedAgent()], seed=1)
    bank, purse = g.zones[0], g.players[0].zones[2]
    assert bank is not None and purse is not None
    g.move(3, "chip", bank, purse)
    result.rules.procedures["turn"](g, g.players[0])   # the one-option menu asks nothing
    assert g.get(g.players[0], 0) == 6 and g.count(purse, "chip") == 1 and agent.answers == []


def test_a_standing_action_is_left_out_of_a_menu_offering_an_option_under_its_label() -> None:
    """While a menu offers an option labelled like a standing action, the action is not offered
    beside it (only that menu is given its entries to compare); other menus offer it."""
    text = ('action cash_in "兑换" for p if count(p.purse) >= 2:\n    p.score += 1\n'
            'procedure turn(p):\n    choose for p "选":\n        option "兑换":\n            p.score += 3\n'
            '        option "乙":\n            pass\n    choose for p "再选":\n        option "丙":\n            pass\n'
            '        option "丁":\n            pass\n')
    result = build_text(text)
    assert result.rules is not None and result.python_source is not None, [str(d) for d in result.diagnostics]
    offered: list[list[str]] = []

    class Watching:
        def choose(self, request: ChoiceRequest) -> int:
            offered.append(list(request.options))
            return 2 if len(offered) == 2 else 0  # the action, in the second menu; then 丙

    g = Game(result.rules, [[], []], [Watching(), ScriptedAgent()], seed=1)
    bank, purse = g.zones[0], g.players[0].zones[2]
    assert bank is not None and purse is not None
    g.move(3, "chip", bank, purse)
    result.rules.procedures["turn"](g, g.players[0])
    assert offered == [["兑换", "乙"], ["丙", "丁", "兑换"], ["丙", "丁", "兑换"]]
    assert g.get(g.players[0], 0) == 4  # the option, then the action once
    assert re.findall(r"g\.standing_actions\(t_\d+, (\(\)|t_\d+)\)", result.python_source)[-2:] == ["t_1", "()"]


def test_revealed_cards_are_seen_by_that_player_until_they_move() -> None:
    g = _mini_game()
    hand0, hand1 = g.players[0].zones[3], g.players[1].zones[3]
    assert hand0 is not None and hand1 is not None
    card = g.new_object("secret", None, g.players[0], hand0)
    assert g.view(1).players["P1"].zones["hand"].cards == ["(hidden card)"]
    g.reveal(hand0, g.players[1])
    assert g.view(1).players["P1"].zones["hand"].cards == ["secret"]
    assert "secret" not in " ".join(lines_for(g.lines, 1))   # no log line names it
    g.put(card, hand1)
    g.put(card, hand0)
    assert g.view(1).players["P1"].zones["hand"].cards == ["(hidden card)"]
    g.reveal(hand0, g.players[1])
    g.shuffle(hand0)                                  # a shuffle forgets where it lies
    assert g.view(1).players["P1"].zones["hand"].cards == ["(hidden card)"]


def test_a_guard_stops_other_cards_but_not_its_own_card_or_the_rules() -> None:
    g = _mini_game()
    bank, hand = g.zones[0], g.players[0].zones[3]
    assert bank is not None and hand is not None
    guard = g.new_object("guard", None, g.players[0], hand)
    other = g.new_object("other", None, g.players[0], hand)
    g.move(3, "chip", bank, guard)
    g.forbid("chip", guard, None, guard)
    assert g.move(1, "chip", guard, bank, None, other) == 0      # another card's effect
    assert g.move(1, "chip", guard, bank, None, guard) == 1      # the card's own effect
    assert g.move(1, "chip", guard, bank) == 1                   # a rule procedure


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(-2, 9)), max_size=40))
def test_moves_conserve_tokens_and_respect_capacities(moves: list[tuple[int, int, int]]) -> None:
    g = _mini_game()
    holders = [z for z in g.zones if z is not None] + [z for p in g.players for z in p.zones[2:3] if z is not None]
    holders.append(g.new_object("card", None, g.players[0], g.players[0].zones[3]))
    for src, dst, amount in moves:
        moved = g.move(amount, "chip", holders[src], holders[dst])
        assert 0 <= moved <= max(amount, 0)
        assert g.invariant_problems({"chip": 0}) == []


def test_stop_effects_ends_anchored_effects_while_the_card_stays() -> None:
    text = ('timing ongoing "持续": anchored\n'
            'card charm "护符":\n    ongoing:\n        modify self.score by 2\n        forbid chip from self.purse\n'
            'procedure arm(p, c):\n    c.ongoing()\n'
            'procedure drop(c):\n    stop_effects(c)\n')
    result = build_text(text)
    assert result.rules is not None, [str(d) for d in result.diagnostics]
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    hand = g.players[0].zones[3]
    assert hand is not None
    charm = g.new_card("charm", g.players[0], hand)
    result.rules.procedures["arm"](g, g.players[0], charm)
    assert g.get(g.players[0], 0) == 2 and len(g.forbids) == 1
    result.rules.procedures["drop"](g, charm)
    assert g.get(g.players[0], 0) == 0 and g.forbids == [] and charm.zone is hand


PREFERENCES = '''
action rest "休息" for p if count(p.purse) > 0 passive:
    move 1 chip from p.purse to bank
procedure target(p) "选目标":
    let c = pick c in [1, 2, 3, 4] for p prefer c == 3 "哪一个"
    return c
procedure turn(p) "回合":
    choose for p "做什么":
        option "行动":
            pass
        option "结束" passive:
            pass
'''


@given(st.integers(0, 2**32), st.lists(st.integers(1, 10**6), min_size=1, max_size=30))
@settings(max_examples=50)
def test_a_random_agent_draws_what_randrange_would(seed: int, sizes: list[int]) -> None:
    """A random agent's choices are the numbers `random.Random(seed).randrange` gives for the
    same sizes in turn, so seeded games replay as they always have; a choice of nothing is
    refused, not drawn for ever."""
    import random

    from cardsmith.runtime.agents import RandomAgent
    agent, reference = RandomAgent(seed), random.Random(seed)
    assert [agent.below(n) for n in sizes] == [reference.randrange(n) for n in sizes]
    with pytest.raises(ValueError, match="below 0"):
        agent.below(0)


def test_an_active_agent_prefers_what_the_rules_prefer_and_acts_before_passing() -> None:
    from cardsmith.runtime.agents import ActiveAgent, RandomAgent
    result = build_text(PREFERENCES)
    assert result.ok and result.rules is not None, [str(d) for d in result.diagnostics]
    rules = result.rules
    assert rules.actions[0].passive
    seen: dict[str, list[int]] = {"active": [], "random": []}
    for kind, agent in (("active", ActiveAgent(5)), ("random", RandomAgent(5))):
        g = Game(rules, [[], []], [agent, agent], seed=1)
        for _ in range(200):
            seen[kind].append(rules.procedures["target"](g, g.players[0]))
    assert seen["active"].count(3) > 150 and seen["random"].count(3) < 80
    asked: list[frozenset[int]] = []

    class Spy(ActiveAgent):
        def choose(self, request: ChoiceRequest) -> int:
            asked.append(request.passive)
            return super().choose(request)
    g = Game(rules, [[], []], [Spy(1), Spy(2)], seed=1)
    purse = g.players[0].zones[2]
    assert purse is not None
    purse.tokens["chip"] = 2
    rules.procedures["turn"](g, g.players[0])
    assert asked[0] == frozenset({1, 2})  # "结束" and the passive standing action


def test_changes_of_a_logged_field_are_logged() -> None:
    text = ('field tired "疲惫": bool, logged\n'
            'procedure tire(p):\n    let c = new_object(chip, bank, p)\n    c.tired = true\n    c.tired = true\n')
    result = build_text(text)
    assert result.ok and result.rules is not None, [str(d) for d in result.diagnostics]
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    result.rules.procedures["tire"](g, g.players[0])
    assert lines_for(g.lines, None) == ["chip 疲惫: False → True"]  # written twice, changed once


def test_writing_the_value_a_field_holds_changes_nothing() -> None:
    """A card's own fields are copied from its definition's at the first write that changes
    one; writing the very value a field holds (a card restored to what it shows) copies nothing
    and logs nothing, and a change after it is written and logged as before."""
    result = build_text('field shown "显示": int, logged\n\ncard plain "白板":\n    note "a card"\n')
    assert result.ok and result.rules is not None, [str(d) for d in result.diagnostics]
    g = Game(result.rules, [[], []], [ScriptedAgent(), ScriptedAgent()], seed=1)
    card = g.new_card("plain", g.players[0], g.players[0].zones[[z.name for z in result.rules.zones].index("hand")])
    starting = card.fields
    g.write(card, "power", card.fields["power"])
    assert card.shared and card.fields is starting and g.lines == []
    g.write(card, "shown", 3)
    assert not card.shared and card.fields["shown"] == 3 and starting.get("shown") != 3
    assert lines_for(g.lines, None) == ["白板 显示: None → 3"]


LANGUAGE_GAME = '''game words "词":
    players 2
    start main
{props}

zone hand "手牌": per player, holds cards, owner

card secret "秘密":
    note "a card nobody plays"

procedure main "一局":
    step 1 "问":
        let c = new_card(secret, seat(0), seat(0).hand)
        let sure = ask seat(0) "确定？"
        if sure:
            win seat(0)
        lose seat(0)
'''


def _words_game(props: str) -> tuple[Game, list[str]]:
    """A game that asks seat 0 one question (answered yes), with the given game options."""
    result = build_text(LANGUAGE_GAME.format(props=props), with_mini=False)
    assert result.rules is not None, result.diagnostics
    seen: list[str] = []

    class Yes:
        def choose(self, request: ChoiceRequest) -> int:
            seen.extend(request.options)
            return 0

    g = Game(result.rules, [[], []], [Yes(), Yes()], seed=1)
    return g, seen


@pytest.mark.parametrize("language, yes, no, hidden", [
    ("", "yes", "no", "(hidden card)"), ("    language zh", "是", "否", "（暗牌）"),
    ("    language ja", "はい", "いいえ", "（非公開のカード）")])
def test_the_engines_own_words_follow_the_games_language(language: str, yes: str, no: str, hidden: str) -> None:
    g, seen = _words_game(language)
    result = play(g)
    assert seen == [yes, no] and result.winner == 0
    assert g.view(1).players["P1"].zones["hand"].cards == [hidden]
    assert g.lines[-1].text == g.phrases.won.format(player="P1")


def test_a_game_can_name_its_hidden_card_in_any_language() -> None:
    g, _ = _words_game('    language zh\n    hidden_card "背面朝上的牌"')
    play(g)
    assert g.view(1).players["P1"].zones["hand"].cards == ["背面朝上的牌"]
    assert g.view(0).players["P1"].zones["hand"].cards == ["秘密"]


def test_every_language_has_every_phrase_with_the_same_blanks() -> None:
    english = PHRASES[DEFAULT_LANGUAGE]
    for language, words in PHRASES.items():
        for name in Phrases.__struct_fields__:
            text, model = getattr(words, name), getattr(english, name)
            assert text.strip(), (language, name)
            assert re.findall(r"{\w+}", text) == re.findall(r"{\w+}", model), (language, name)


@pytest.mark.parametrize("game", ["sakura", "eatpaint", "ccs"])
def test_a_listener_sees_every_card_use_the_game_declares(game: str) -> None:
    """`card_uses EVENT` names the event the rules emit when a player uses a card; a listener
    (what `cardsmith sim` counts uses with) sees each one with the player and the card, and
    changes nothing: the game ends as it does unwatched."""
    from cardsmith.runtime.session import new_game
    from cardsmith.runtime.table import draw_picks
    from tests.helpers import Bundled
    rules = Bundled(game).rules
    assert rules.use_event is not None
    picks = draw_picks(rules, rules.table.min_players, 7)
    watched = new_game(rules, picks, seed=7, log=False)
    seen: list[tuple[int, str]] = []
    watched.listen(rules.use_event, lambda p, c: seen.append((p.index, c.defn.ident)))
    result = play(watched)
    plain = play(new_game(rules, picks, seed=7, log=False))
    assert seen and all(seat in range(len(picks)) for seat, _ in seen)
    assert (result.winner, result.reason, result.steps) == (plain.winner, plain.reason, plain.steps)


@pytest.mark.parametrize("game", ["sakura", "eatpaint", "ccs"])
def test_a_traced_game_hashes_every_step_and_plays_as_an_untraced_one(game: str) -> None:
    """Tracing is seen only by the trace: a traced game (`TracedGame`) records one state hash
    and runs the step hook once for each step it counts, and ends with the same result, step
    count, decisions and log as the same game untraced."""
    from cardsmith.runtime.game import Game, TracedGame
    from cardsmith.runtime.session import new_game
    from cardsmith.runtime.table import draw_picks
    from tests.helpers import Bundled
    rules = Bundled(game).rules
    picks = draw_picks(rules, rules.table.min_players, 11)
    traced = new_game(rules, picks, seed=11, trace=True)
    hooked: list[int] = []
    traced.step_hook = lambda g: hooked.append(g.steps)
    plain = new_game(rules, picks, seed=11)
    assert type(traced) is TracedGame and type(plain) is Game
    seen, unseen = play(traced), play(plain)
    assert seen.error is None and seen.steps > 100
    assert len(seen.hashes) == seen.steps and hooked == list(range(1, seen.steps + 1))
    assert unseen.hashes == []
    assert (seen.winner, seen.reason, seen.steps, seen.decisions, seen.log, seen.final_hash) == \
        (unseen.winner, unseen.reason, unseen.steps, unseen.decisions, unseen.log, unseen.final_hash)


@pytest.mark.parametrize("game", ["sakura", "eatpaint", "ccs"])
def test_a_game_without_a_log_plays_as_the_same_game_with_one(game: str) -> None:
    """Log lines whose arguments are only variables are not asked for without a log; the game
    is the same: result, steps, decisions and final state, over several seeded games."""
    from cardsmith.runtime.session import new_game
    from cardsmith.runtime.table import draw_picks
    from tests.helpers import Bundled
    rules = Bundled(game).rules
    for seed in (3, 4, 5):
        picks = draw_picks(rules, rules.table.min_players, seed)
        logged, quiet = play(new_game(rules, picks, seed=seed)), play(new_game(rules, picks, seed=seed, log=False))
        assert logged.error is None and len(logged.log) > 20 and quiet.log == []
        assert (logged.winner, logged.reason, logged.steps, logged.decisions, logged.final_hash) == \
            (quiet.winner, quiet.reason, quiet.steps, quiet.decisions, quiet.final_hash)


@pytest.mark.parametrize(("line", "code"), [("first_mover nobody", "E101"), ("first_mover score", "E104"),
                                            ("first_mover", "E104")])
def test_first_mover_names_a_global_counter(line: str, code: str) -> None:
    from tests.helpers import MINI_GAME, build_sources, codes
    text = MINI_GAME.replace("    start play\n", f"    start play\n    {line}\n")
    assert codes(build_sources({"mini.csm": text}, use_cache=False).diagnostics) == [code]


@pytest.mark.parametrize("game", ["sakura", "eatpaint", "ccs"])
def test_each_game_names_the_counter_of_its_first_mover(game: str) -> None:
    """Each bundled game declares who moves first with a global counter (tests/test_sim.py holds
    the seat the lab reads from it against Sakura's log)."""
    from cardsmith.lab.watch import FirstMover
    from tests.helpers import Bundled
    rules = Bundled(game).rules
    first = FirstMover.of(rules)
    assert first.counter is not None and rules.counters[first.counter].name == rules.first_mover
    assert not rules.counters[first.counter].per_player


@pytest.mark.parametrize(("line", "code"), [("card_uses nothing_here", "E101"), ("card_uses scored", "E104")])
def test_card_uses_names_an_event_of_two_parameters(line: str, code: str) -> None:
    from tests.helpers import MINI_GAME, build_sources, codes
    text = MINI_GAME.replace("    start play\n", f"    start play\n    {line}\n")
    assert codes(build_sources({"mini.csm": text}, use_cache=False).diagnostics) == [code]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_check_index_lists_each_check_once_under_what_it_reads(data: st.DataObject) -> None:
    """The index of state checks, for any addenda active and any cards present, is the
    definition: a check under each zone and counter it reads there, in declared order, once."""
    from tests.helpers import Bundled
    rules = Bundled("sakura").rules
    active = frozenset(data.draw(st.sets(st.sampled_from(sorted(rules.addenda)))))
    present = frozenset(data.draw(st.sets(st.sampled_from(sorted(rules.cards_read())))))
    index = rules.check_index(active, present)
    live = [(i, c.reads_in(active, present)) for i, c in enumerate(rules.checks)
            if c.addendum is None or c.addendum in active]
    assert index.zones == {z.name: tuple(i for i, r in live if z.name in r.zones) for z in rules.zones}
    assert index.counters == [tuple(i for i, r in live if c.name in r.counters) for c in rules.counters]
    assert index.objects == tuple(i for i, r in live if r.objects)
    assert index.marked == {z.name: found for z in rules.zones if (found := tuple(
        (i, f) for i, r in live for f in rules.checks[i].marked.get(z.name, ()) if z.name not in r.zones))}


@pytest.mark.parametrize("game", ["sakura", "eatpaint", "ccs"])
def test_every_object_holds_every_declared_field(game: str) -> None:
    """Generated code reads a field by subscript (`obj.fields[K]`): every object carries every
    field the rules declare, written or not, from its creation to the end of a game."""
    from cardsmith.runtime.session import new_game
    from cardsmith.runtime.table import draw_picks
    from tests.helpers import Bundled
    rules = Bundled(game).rules
    declared = set(rules.field_defaults)
    picks = draw_picks(rules, rules.table.min_players, 7)
    g = new_game(rules, picks, seed=7, log=False)
    assert play(g).error is None
    objects = [obj for copies in g.objects_by_card.values() for obj in copies]
    zones = [z for z in [*g.zones, *(z for p in g.players for z in p.zones)] if z is not None]
    objects += [card for zone in zones for card in zone.cards]
    assert len(objects) > 20 and any(not obj.shared for obj in objects)  # some were written
    assert all(declared <= obj.fields.keys() for obj in objects)
