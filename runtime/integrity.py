"""Tracing and integrity: a state hash per step, token conservation and zone capacities."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from .state import Player, Zone

if TYPE_CHECKING:
    from .game import Game


class Integrity:
    """The part of `Game` that hashes states and checks invariants."""

    hashes: list[str]
    step_hook: Callable[[Game], None] | None
    zones: list[Zone | None]
    players: list[Player]
    counters: list[Any]
    supply_flow: dict[Any, int]

    def step(self) -> None:
        """Called at each procedure step while tracing: records a state hash, runs the step hook."""
        self.hashes.append(self.state_hash())
        if self.step_hook is not None:
            self.step_hook(cast("Game", self))

    def state_hash(self) -> str:
        h = hashlib.blake2b(digest_size=12)
        for z in self._all_zones():
            h.update(repr(z).encode())
            h.update(repr(sorted(z.tokens.items(), key=repr)).encode())
            for c in z.cards:
                h.update(f"{c.name}{c.uid}{sorted(c.tokens.items(), key=repr)}".encode())
        h.update(repr(self.counters).encode())
        for p in self.players:
            h.update(repr(p.counters).encode())
        return h.hexdigest()

    _zone_list: list[Zone] | None = None

    def _all_zones(self) -> list[Zone]:
        """Every zone of the game, shared and each player's (made with the game, so listed once)."""
        if self._zone_list is None:
            zones = [z for z in self.zones if z is not None]
            for p in self.players:
                zones.extend(z for z in p.zones if z is not None)
            self._zone_list = zones
        return self._zone_list

    def token_total(self, kind: str) -> int:
        """Tokens of an unowned kind in every zone and on every object outside the supply."""
        return self.token_totals().get(kind, 0)

    def token_totals(self) -> dict[Any, int]:
        """Every token key's total in the zones and on the objects outside the supply, in one pass."""
        totals: dict[Any, int] = {}
        for z in self._all_zones():
            if z.tokens and not z.spec.supply:
                for key, n in z.tokens.items():
                    totals[key] = totals.get(key, 0) + n
            for c in z.cards:
                if c.tokens:
                    for key, n in c.tokens.items():
                        totals[key] = totals.get(key, 0) + n
        return totals

    def invariant_problems(self, initial: dict[str, int], totals: dict[Any, int] | None = None) -> list[str]:
        """Conservation of tokens (given the starting totals and, if already counted, the
        `token_totals()` of now) and zone capacities."""
        problems = []
        present = _by_kind(self.token_totals() if totals is None else totals)
        flow = _by_kind(self.supply_flow)
        for kind, start in initial.items():  # a kind that belongs to players: all owners together
            expected = start + flow.get(kind, 0)
            actual = present.get(kind, 0)
            if actual != expected:
                problems.append(f"{kind}: {actual} present, {expected} expected")
        for z in self._all_zones():
            if z.spec.supply or not (z.tokens or z.held):
                continue
            held = 0
            for key, n in z.tokens.items():
                if n < 0:
                    problems.append(f"{z!r} holds {n} {key}")
                if type(key) is str:
                    held += n
            if z.held != held:
                problems.append(f"{z!r} counts {z.held} tokens toward its capacity but holds {held}")
            if z.capacity is not None and held > z.capacity:
                problems.append(f"{z!r} holds {held} tokens over its capacity {z.capacity}")
        return problems


def _by_kind(counts: dict[Any, int]) -> dict[str, int]:
    """Counts by token key (a kind, or a kind and its owner's seat) added up by kind."""
    kinds: dict[str, int] = {}
    for key, n in counts.items():
        kind = key if type(key) is str else key[0] if type(key) is tuple else None
        if kind is not None:
            kinds[kind] = kinds.get(kind, 0) + n
    return kinds


class Traced(Integrity):
    """What a game that traces adds: generated code counts each procedure step (`g.steps += 1`)
    and nothing more, and here the count is a property, so each step it counts is also seen
    by `step`. A game that does not trace keeps `steps` as a plain attribute: its steps do not
    ask whether to trace."""

    _steps = 0

    @property
    def steps(self) -> int:
        return self._steps

    @steps.setter
    def steps(self, value: int) -> None:
        grew = value > self._steps
        self._steps = value
        if grew:
            self.step()
