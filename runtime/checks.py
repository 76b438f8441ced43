"""State checks: each runs after a change to what it reads (the compiler works out which zones
and counters), repeating while checks change something."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import RuleViolation
from .state import Obj, Zone

if TYPE_CHECKING:
    from .rules import RuleSet


class Checks:
    """The part of `Game` that schedules state checks."""

    rules: RuleSet
    _checking: bool
    _pending: set[int]
    _zone_checks: dict[str, tuple[int, ...]]
    _counter_checks: list[tuple[int, ...]]
    _object_checks: tuple[int, ...]

    def _init_checks(self, rules: RuleSet, active_addenda: set[str]) -> None:
        """Index the checks by what they read; those of addenda not in play are left out."""
        self._checking = False
        self._pending = set()
        live = [(i, c.reads_in(active_addenda)) for i, c in enumerate(rules.checks)
                if c.addendum is None or c.addendum in active_addenda]
        self._zone_checks = {spec.name: tuple(i for i, r in live if spec.name in r.zones) for spec in rules.zones}
        self._counter_checks = [tuple(i for i, r in live if counter.name in r.counters) for counter in rules.counters]
        self._object_checks = tuple(i for i, r in live if r.objects)

    def _holder_checks(self, holder: Zone | Obj) -> tuple[int, ...]:
        if isinstance(holder, Zone):
            return self._zone_checks.get(holder.spec.name, ())
        zone = self._zone_checks.get(holder.zone.spec.name, ()) if holder.zone is not None else ()
        return self._object_checks + zone

    def _changed(self, checks: tuple[int, ...]) -> None:
        """Run the state checks that read what just changed, until a round changes nothing.

        Checks never run re-entrantly: a change made by a check adds the checks it concerns
        to the next round."""
        if not checks:
            return
        self._pending.update(checks)
        if self._checking:
            return
        self._checking = True
        try:
            for _ in range(100):
                if not self._pending:
                    return
                batch = sorted(self._pending)
                self._pending.clear()
                for i in batch:
                    self.rules.checks[i].fn(self)
            raise RuleViolation("state checks keep changing the game")
        finally:
            self._checking = False
