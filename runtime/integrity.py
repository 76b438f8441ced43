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

    trace: bool
    hashes: list[str]
    step_hook: Callable[[Game], None] | None
    zones: list[Zone | None]
    players: list[Player]
    counters: list[Any]
    supply_flow: dict[Any, int]

    def step(self, where: str) -> None:
        """Called at each procedure step while tracing: records a state hash, runs the step hook."""
        if self.trace:
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

    def _all_zones(self) -> list[Zone]:
        zones = [z for z in self.zones if z is not None]
        for p in self.players:
            zones.extend(z for z in p.zones if z is not None)
        return zones

    def token_total(self, kind: str) -> int:
        """Tokens of an unowned kind in every zone and on every object outside the supply."""
        return self.token_totals().get(kind, 0)

    def token_totals(self) -> dict[Any, int]:
        """Every token key's total in the zones and on the objects outside the supply, in one pass."""
        totals: dict[Any, int] = {}
        for z in self._all_zones():
            if not z.spec.supply:
                for key, n in z.tokens.items():
                    totals[key] = totals.get(key, 0) + n
            for c in z.cards:
                for key, n in c.tokens.items():
                    totals[key] = totals.get(key, 0) + n
        return totals

    def invariant_problems(self, initial: dict[str, int], totals: dict[Any, int] | None = None) -> list[str]:
        """Conservation of tokens (given the starting totals and, if already counted, the
        `token_totals()` of now) and zone capacities."""
        problems = []
        totals = self.token_totals() if totals is None else totals
        for kind, start in initial.items():  # a kind that belongs to players: all owners together
            expected = start + sum(n for key, n in self.supply_flow.items() if _of_kind(key, kind))
            actual = sum(n for key, n in totals.items() if _of_kind(key, kind))
            if actual != expected:
                problems.append(f"{kind}: {actual} present, {expected} expected")
        for z in self._all_zones():
            if z.spec.supply:
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


def _of_kind(key: Any, kind: str) -> bool:
    """Whether a token key (a kind, or a kind and its owner's seat) is of this kind."""
    return key == kind or (type(key) is tuple and key[0] == kind)
