"""What the lab watches in a game as it is played, without changing it: the cards each player
uses (the game's `card_uses` event) and which seat moved first.

Who moves first is the rules' business: a game names the global counter that says it with
`first_mover COUNTER` (a counter set once to the first player, or the turn player). The lab
reads that counter at each decision until it names a seat, and at the end of the game if no
decision came after it did; a game that names none is counted as if seat 1 always moved
first, and the report says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..runtime.agents import Agent, ChoiceRequest
from ..runtime.game import Game
from ..runtime.rules import RuleSet
from ..runtime.state import Obj, Player


@dataclass(frozen=True)
class FirstMover:
    """How the lab learns which seat moved first in games of one rule set."""

    counter: int | None  # the place in `rules.counters` of the game's `first_mover`, if it names one
    known_from: str  # in words, for the report

    @classmethod
    def of(cls, rules: RuleSet) -> FirstMover:
        name = rules.first_mover
        place = next((i for i, c in enumerate(rules.counters) if c.name == name and not c.per_player), None)
        if name is None or place is None:
            return cls(None, "not declared by the game (`first_mover COUNTER`): seat 1 is counted as the "
                             "first player")
        return cls(place, f"the game's counter {name} (its `first_mover`), the first seat it names")


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
        """The agents, each wrapped to read the first mover's counter at decisions (their
        choices are theirs, unchanged)."""
        if self.first.counter is None:
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
        """Read the first mover's counter, until it has named a seat."""
        if self.seen_first is None and self.first.counter is not None:
            value = game.counters[self.first.counter]
            if isinstance(value, Player):
                self.seen_first = value.index

    def first_seat(self, game: Game) -> int:
        """The seat that moved first (seat 0 when the game does not say), once the game is over."""
        self.peek(game)
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
