"""Hidden information reaches only the players allowed to see it: views, log lines and the
visibility options of counters. The audit plays many random games of every bundled game and
checks every view and every log line against its own account of who may see which card."""

from __future__ import annotations

from typing import Any

import pytest

from cardsmith.runtime.agents import ChoiceRequest, RandomAgent
from cardsmith.runtime.events import CardMoved, Chose, TokensMoved
from cardsmith.runtime.game import Game, Obj, Zone
from cardsmith.runtime.log import LogLine, lines_for
from cardsmith.runtime.rules import RuleSet
from cardsmith.runtime.session import agent_seed, play
from cardsmith.runtime.table import draw_picks
from tests.helpers import Bundled, build_text, problems


class Audit:
    """Its own account of what each seat knows, kept by watching reveals, moves and shuffles;
    it reads every line and record the game logs, as each seat reads it."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.shown: dict[int, set[int]] = {}  # card uid -> seats shown it since it last moved
        self.before: dict[int, set[int]] = {}  # card uid -> seats that saw it before its move
        self.problems: list[str] = []
        reveal, put, shuffle, add = g.reveal, g.put, g.shuffle, g.recorder.add

        def on_reveal(what: Any, to: Any) -> None:
            cards = what.cards if isinstance(what, Zone) else what if isinstance(what, list) else [what]
            seats = {p.index for p in (to if isinstance(to, list) else [to])}
            for c in cards:
                self.shown.setdefault(c.uid, set()).update(seats)
            reveal(what, to)

        def on_put(obj: Obj, dest: Zone, place: str | None = None) -> None:
            self.before[obj.uid] = {seat for seat in self.seats() if self.sees(obj, seat)}
            self.shown.pop(obj.uid, None)
            put(obj, dest, place)
            self.before.pop(obj.uid, None)

        def on_shuffle(zone: Zone) -> None:
            for c in zone.cards:
                self.shown.pop(c.uid, None)
            shuffle(zone)

        def on_add(build: Any, cards: Any, audience: Any = None, sees: Any = None) -> None:
            cards = list(cards)
            before = len(g.lines)
            add(build, cards, audience, sees)
            for line in g.lines[before:]:
                self.read(line, cards)

        g.reveal, g.put, g.shuffle = on_reveal, on_put, on_shuffle  # type: ignore[method-assign]
        g.recorder.add = on_add  # type: ignore[method-assign]

    def read(self, line: LogLine, cards: list[Obj]) -> None:
        """A seat for which a card of a new line is hidden must read it masked: its text and
        record differ from the full ones, and no card field of its record names the card."""
        for seat in self.seats():
            text = line.for_seat(seat)
            if text is None:
                continue
            hidden = [c for c in cards if not self.sees(c, seat) and seat not in self.before.get(c.uid, ())]
            if not hidden:
                continue
            masked = line.seen_by is not None and seat not in line.seen_by
            event = line.masked_event if masked else line.event
            if not masked or text == line.text or event == line.event:
                self.problems.append(f"P{seat + 1} read {text!r} unmasked ({hidden[0].name} is hidden)")
                continue
            for c in hidden:
                if c.name in _card_fields(event):
                    self.problems.append(f"P{seat + 1} found {c.name!r} (hidden) in {event!r}")

    def seats(self) -> range:
        return range(len(self.g.players))

    def sees(self, card: Obj, seat: int) -> bool:
        zone = card.zone
        if zone is None or zone.spec.visibility == "public":
            return True
        if zone.spec.visibility == "owner" and zone.owner is not None and zone.owner.index == seat:
            return True
        if zone.spec.reveal_field and card.fields.get(zone.spec.reveal_field):
            return True
        return seat in self.shown.get(card.uid, set())

    def check_views(self) -> None:
        g = self.g
        for seat in self.seats():
            view = g.view(seat)
            zones = [(z, view.shared[z.spec.name]) for z in g.zones if z is not None and not z.spec.supply]
            for p in g.players:
                zones += [(z, view.players[p.name].zones[z.spec.name]) for z in p.zones if z is not None]
            for zone, shown in zones:
                for card, entry in zip(zone.cards, shown.cards or [], strict=True):
                    if entry != g.rules.hidden_card and not self.sees(card, seat):
                        self.problems.append(f"P{seat + 1} saw {entry!r} in {zone!r}")


def _card_fields(event: Any) -> list[str | None]:
    """The fields of a record that name cards."""
    if isinstance(event, CardMoved):
        return [event.card]
    if isinstance(event, TokensMoved):
        return [event.source.card, event.dest.card, event.by]
    if isinstance(event, Chose):
        return [event.label.split(": ", 1)[-1]]
    return []


class Watching(RandomAgent):
    """A random agent that has the audit look at every view at each of its decisions."""

    audit: Audit

    def choose(self, request: ChoiceRequest) -> int:
        self.audit.check_views()
        return super().choose(request)


def _audited_games(rules: RuleSet, players: int, games: int) -> list[str]:
    problems: list[str] = []
    for seed in range(games):
        agents = [Watching(agent_seed(seed, seat)) for seat in range(players)]
        g = Game(rules, draw_picks(rules, players, seed), agents, seed)
        audit = Audit(g)
        for a in agents:
            a.audit = audit
        outcome = play(g)
        assert outcome.error is None, f"seed {seed}: {outcome.error}"
        problems += [f"seed {seed}: {p}" for p in audit.problems]
    return problems


@pytest.mark.parametrize(("game", "players", "games"), [
    ("sakura", 2, 40), ("eatpaint", 2, 40), ("ccs", 2, 30), ("ccs", 4, 15), ("ccs", 10, 2)])
def test_no_view_or_log_line_names_a_card_its_reader_may_not_see(game: str, players: int, games: int) -> None:
    rules = Bundled(game).rules
    problems = _audited_games(rules, players, games)
    assert problems == [], "\n".join(problems[:20])


def test_the_audit_catches_leaks(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the runtime's visibility broken on purpose, the audit reports views and log
    lines that show hidden cards."""
    monkeypatch.setattr(Game, "can_see", lambda self, card, seat: True)
    rules = Bundled("sakura").rules
    assert any(" saw " in p for p in _audited_games(rules, 2, 1))
    result = build_text(MASKING)
    assert result.rules is not None
    g = Game(result.rules, [[], []], [RandomAgent(1), RandomAgent(2)], 1)
    audit = Audit(g)
    result.rules.procedures["show"](g, g.players[0])
    assert "P2 read 'P1 holds chip' unmasked (chip is hidden)" in audit.problems


MASKING = '''
procedure show(p):
    let c = new_object(chip, p.hand, p)
    log "{} holds {}", p, c
    log "only for {}", p to p
'''


def test_log_lines_mask_cards_and_honour_their_audience() -> None:
    result = build_text(MASKING)
    assert result.ok and result.rules is not None
    g = Game(result.rules, [[], []], [RandomAgent(1), RandomAgent(2)], 1)
    result.rules.procedures["show"](g, g.players[0])
    assert lines_for(g.lines, 0) == ["P1 holds chip", "only for P1"]
    assert lines_for(g.lines, 1) == ["P1 holds (hidden card)"]
    assert lines_for(g.lines, None) == ["P1 holds chip", "only for P1"]


COUNTERS = '''
counter secret_plan "计划": per player, owner
counter hidden_seed "种子": global, hidden
counter open_score "公开": per player
'''


def test_counter_visibility_is_honoured_in_views() -> None:
    result = build_text(COUNTERS)
    assert result.ok and result.rules is not None
    g = Game(result.rules, [[], []], [RandomAgent(1), RandomAgent(2)], 1)
    mine, theirs = g.view(0), g.view(1)
    assert "secret_plan" in mine.players["P1"].counters and "secret_plan" not in theirs.players["P1"].counters
    assert "open_score" in theirs.players["P1"].counters
    assert "hidden_seed" not in mine.counters and "hidden_seed" not in theirs.counters


LOGGED_COUNTERS = '''
counter secret_plan "计划": per player, owner, logged
counter hidden_seed "种子": global, hidden, logged
counter open_score "公开": per player, logged

procedure change(p):
    p.secret_plan = 2
    hidden_seed = 5
    p.open_score = 1
'''


def test_logged_counters_reach_only_the_seats_that_may_see_them() -> None:
    result = build_text(LOGGED_COUNTERS)
    assert result.ok and result.rules is not None
    g = Game(result.rules, [[], []], [RandomAgent(1), RandomAgent(2)], 1)
    result.rules.procedures["change"](g, g.players[0])
    assert lines_for(g.lines, 0) == ["计划(P1): 0 → 2", "公开(P1): 0 → 1"]
    assert lines_for(g.lines, 1) == ["公开(P1): 0 → 1"]
    assert lines_for(g.lines, None) == ["计划(P1): 0 → 2", "种子: 0 → 5", "公开(P1): 0 → 1"]


def test_an_owner_counter_needs_an_owner() -> None:
    result = build_text('counter plan "计划": global, owner\n')
    (d,) = problems(result.diagnostics)
    assert d.code == "E104" and d.span.line == 1


def test_a_views_log_is_the_end_of_what_its_seat_may_read() -> None:
    """Views keep counts as lines are added instead of reading the whole log each time."""
    rules = Bundled("ccs").rules
    g = Game(rules, draw_picks(rules, 4, 7), [RandomAgent(i) for i in range(4)], 7)
    play(g)
    for seat in range(4):
        readable = lines_for(g.lines, seat)
        view = g.view(seat)
        assert view.log == readable[-12:] and view.log_total == len(readable) > 12
