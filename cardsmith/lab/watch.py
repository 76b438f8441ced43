"""What the lab watches in a game as it is played, without changing it: the cards each player
uses (the game's `card_uses` event) and which seat moved first.

Who moves first is the rules' business, and a game says it in its own counters. The lab
reads a global counter named `first_player` at the end of the game when the rules have one
(set once, when the first player is chosen); otherwise a global counter named `turn_player`
at the first decision taken while it names a seat (the turn of the first player, or the
set-up just before it); a game with neither is counted as if seat 1 always moved first,
and the report says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..runtime.agents import Agent, ChoiceRequest
from ..runtime.game import Game
from ..runtime.rules import RuleSet
from ..runtime.state import Obj, Player

FIRST_COUNTER = "first_player"  # a global counter the rules set to the seat that starts
TURN_COUNTER = "turn_player"  # a global counter naming the seat whose turn it is


@dataclass(frozen=True)
class FirstMover:
    """How the lab learns which seat moved first in games of one rule set."""

    counter: int | None  # the global counter's place in `rules.counters`, if the rules have one
    at_end: bool  # read at the end of the game (FIRST_COUNTER), or at the first decision
    known_from: str  # in words, for the report

    @classmethod
    def of(cls, rules: RuleSet) -> FirstMover:
        places = {c.name: i for i, c in enumerate(rules.counters) if not c.per_player}
        if FIRST_COUNTER in places:
            return cls(places[FIRST_COUNTER], True, f"the game's counter {FIRST_COUNTER}")
        if TURN_COUNTER in places:
            return cls(places[TURN_COUNTER], False,
                       f"the game's counter {TURN_COUNTER} at the first decision after it names a seat")
        return cls(None, False, f"not exposed by the game (no global counter {FIRST_COUNTER} or "
                                f"{TURN_COUNTER}): seat 1 is counted as the first player")


class Watch:
    """Watches one game: `agents` wraps its players' agents, `attach` hooks the game before it
    is played; afterwards `first_seat` and `uses` say what was seen."""

    def __init__(self, rules: RuleSet, first: FirstMover, card_places: dict[str, int], seats: int) -> None:
        self.first = first
        self.card_places = card_places
        self.event = rules.use_event
        self.times: list[dict[int, int]] = [{} for _ in range(seats)]
        self.seen_first: int | None = None

    def agents(self, agents: Sequence[Agent]) -> list[Agent]:
        """The agents, each wrapped to read the turn counter at decisions when that is how the
        first seat is learnt (their choices are theirs, unchanged)."""
        if self.first.counter is None or self.first.at_end:
            return list(agents)
        return [_Peeking(agent, self) for agent in agents]

    def attach(self, game: Game) -> None:
        if self.event is not None:
            game.listen(self.event, self._used)

    def _used(self, player: Any, card: Any, *_: Any) -> None:
        if isinstance(player, Player) and isinstance(card, Obj) and card.defn is not None:
            place = self.card_places[card.defn.ident]
            seat = self.times[player.index]
            seat[place] = seat.get(place, 0) + 1

    def peek(self, game: Game) -> None:
        """Read the turn counter at a decision, until it has named a seat."""
        if self.seen_first is None and self.first.counter is not None:
            value = game.counters[self.first.counter]
            if isinstance(value, Player):
                self.seen_first = value.index

    def first_seat(self, game: Game) -> int:
        """The seat that moved first (seat 0 when the game does not say)."""
        if self.first.at_end and self.first.counter is not None:
            value = game.counters[self.first.counter]
            return value.index if isinstance(value, Player) else 0
        return self.seen_first or 0

    def uses(self) -> list[dict[int, int]]:
        """Each seat's cards used: card (its place in `rules.cards`) → times."""
        return self.times


class _Peeking:
    """An agent that lets the watch read the game at each decision, then chooses as it would."""

    def __init__(self, agent: Agent, watch: Watch) -> None:
        self.agent = agent
        self.watch = watch

    def choose(self, request: ChoiceRequest) -> int:
        self.watch.peek(request.game)
        return self.agent.choose(request)
