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
    _marked_checks: dict[str, tuple[tuple[int, str], ...]]
    _active_addenda: frozenset[str]
    _cards_present: frozenset[str]  # cards with objects in this game that some check reads through
    _cards_read: frozenset[str]

    def _init_checks(self, rules: RuleSet, active_addenda: frozenset[str]) -> None:
        self._checking = False
        self._pending = set()
        self._active_addenda = active_addenda
        self._cards_present = frozenset()
        self._cards_read = rules.cards_read()
        self._index_checks()

    def _card_arrives(self, ident: str) -> None:
        """A card's first copy in this game: what checks read through its blocks counts now."""
        if ident in self._cards_read and ident not in self._cards_present:
            self._cards_present = self._cards_present | {ident}
            self._index_checks()

    def _index_checks(self) -> None:
        index = self.rules.check_index(self._active_addenda, self._cards_present)
        self._zone_checks, self._counter_checks, self._object_checks = index.zones, index.counters, index.objects
        self._marked_checks = index.marked

    def _card_checks(self, card: Obj, source: Zone | None, dest: Zone) -> tuple[int, ...]:
        """The checks that a card leaving `source` (None: a new card) for `dest` concerns: those
        reading either zone, and those reading it for the cards marked by a field this card
        carries."""
        zones = self._zone_checks
        checks = zones.get(dest.spec.name, ())
        if source is not None:
            checks = zones.get(source.spec.name, ()) + checks
        if self._marked_checks:
            for zone in (source, dest):
                marked = self._marked_checks.get(zone.spec.name) if zone is not None else None
                if marked:
                    checks += tuple(i for i, field in marked if card.fields.get(field))
        return checks

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
