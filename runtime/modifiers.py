"""Modifiers and guards: changes to fields and counters that last while a condition holds, until
an event, or while the card that made them stays where it is; and `forbid` guards that stop
other cards' effects from moving tokens out of a place."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import check_number
from .limits import MAX_NUMBER
from .state import Obj, Zone
from .values import apply_change

if TYPE_CHECKING:
    from .record import Recorder
    from .rules import RuleSet

Guard = tuple[str, Zone | Obj, Callable[[], Any] | None, Obj | None, Zone | None]  # kind, place, cond, anchor, its zone


class Modifier:
    """A change to a field or counter of one target while a condition and an anchor hold."""

    __slots__ = ("target", "name", "change", "live", "cond", "until", "anchor", "anchor_zone")

    def __init__(self, target: Any, name: str, change: Any, cond: Callable[[], Any] | None,
                 until: str | None, anchor: Obj | None, live: bool = False) -> None:
        self.target = target
        self.name = name
        self.change = change  # live: a function giving the change at each read
        self.live = live
        self.cond = cond
        self.until = until
        self.anchor = anchor
        self.anchor_zone = anchor.zone if anchor is not None else None


class Modifiers:
    """The part of `Game` that keeps modifiers and guards."""

    mods: dict[str, list[Modifier]]
    awaited: set[str]
    heard: set[str]
    forbids: list[Guard]
    rules: RuleSet
    logging: bool
    recorder: Recorder

    def read(self, obj: Obj, name: str) -> Any:
        """A field of an object, with the modifiers in force applied."""
        mods = self.mods.get(name)
        if mods:
            return self._apply_mods(mods, obj, obj.fields.get(name))
        return obj.fields.get(name)

    def _apply_mods(self, mods: list[Modifier], target: Any, value: Any) -> Any:
        stale = False
        for m in mods:
            if m.anchor is not None and m.anchor.zone is not m.anchor_zone:
                stale = True
                continue
            if m.target is target and (m.cond is None or m.cond()):
                value = apply_change(value, m.change() if m.live else m.change)
        if stale:
            mods[:] = [m for m in mods if m.anchor is None or m.anchor.zone is m.anchor_zone]
            if not mods:
                self.mods = {k: v for k, v in self.mods.items() if v}
        return value

    def write(self, obj: Obj, name: str, value: Any) -> None:
        if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
            check_number(value)  # refuses it (tested here first: most values are small)
        before = obj.fields.get(name)
        if before is value and name in obj.fields:
            return  # the very value it holds (a card restored to what it already shows): nothing changes
        obj.own_fields()[name] = value
        if self.logging and name in self.rules.logged_fields and before != value:
            self.recorder.field(obj, self.rules.logged_fields[name], before, value)

    def modify(self, target: Any, name: str, change: Any, cond: Callable[[], Any] | None,
               until: str | None, anchor: Obj | None, live: bool = False) -> None:
        """Register a change to a field/counter; it lasts while cond and anchor hold, or until an
        event. `live`: `change` is a function, called for the change at every read."""
        self.mods.setdefault(name, []).append(Modifier(target, name, change, cond, until, anchor, live))
        if until is not None:
            self.awaited.add(until)
            self.heard.add(until)

    def forbid(self, kind: str, holder: Zone | Obj, cond: Callable[[], Any] | None, anchor: Obj | None) -> None:
        """Effects of other cards may not move tokens of a kind out of a zone or off an object
        while cond (and the anchor card's place) hold; the anchor card's own effects still may."""
        self.forbids.append((kind, holder, cond, anchor, anchor.zone if anchor is not None else None))

    def _forbidden(self, kind: str, source: Zone | Obj, mover: Obj) -> bool:
        live = [f for f in self.forbids if f[3] is None or f[3].zone is f[4]]
        if len(live) != len(self.forbids):
            self.forbids = live
        return any(k == kind and z is source and a is not mover and (c is None or c())
                   for k, z, c, a, _ in live)

    def release(self, card: Obj) -> None:
        """End what the card's anchored blocks registered (modifiers and guards), now."""
        for name, mods in list(self.mods.items()):
            kept = [m for m in mods if m.anchor is not card]
            if kept:
                self.mods[name] = kept
            else:
                del self.mods[name]
        self.forbids = [f for f in self.forbids if f[3] is not card]
