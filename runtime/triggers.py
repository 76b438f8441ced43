"""Events and what answers them: rule triggers, card triggers, one-shot `once` handlers,
and the end of modifiers that last until an event; and running a card's timing block."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .modifiers import Modifier
from .state import Obj

if TYPE_CHECKING:
    from .rules import RuleSet

Waiting = tuple[Callable[..., Any], str | None]  # a once handler and the event that cancels it


class Triggers:
    """The part of `Game` that delivers events."""

    rules: RuleSet
    handlers: dict[str, list[Callable[..., Any]]]
    card_handlers: dict[str, list[tuple[int, str, Callable[..., Any]]]]  # event -> (order, card, fn)
    objects_by_card: dict[str, list[Obj]]
    dynamic: dict[str, list[Waiting]]
    listeners: dict[str, list[Callable[..., None]]]  # observers of events (they change nothing)
    mods: dict[str, list[Modifier]]
    awaited: set[str]
    heard: set[str]

    def _init_triggers(self, rules: RuleSet, active_addenda: frozenset[str]) -> None:
        self.handlers = rules.handlers_in(active_addenda)
        self.card_handlers = {}  # filled as each card's first copy enters the game
        self.dynamic = {}
        self.listeners = {}
        # the events something may answer, await or listen to: it only grows (an event emitted
        # with nothing answering it does nothing); the engine's own move events, and events the
        # rules emit with plain arguments, are emitted only when heard
        self.heard = set(self.handlers)

    def _card_triggers_arrive(self, ident: str) -> None:
        """A card's first copy in this game: its triggers answer events from now on, in the
        order the cards declare them (the same in every game)."""
        for order, ct in self.rules.card_triggers_of(ident):
            self.heard.add(ct.event)
            bisect.insort(self.card_handlers.setdefault(ct.event, []), (order, ct.card, ct.fn),
                          key=lambda entry: entry[0])

    def listen(self, event: str, fn: Callable[..., None]) -> None:
        """Call fn with an event's arguments each time it is emitted, before what answers it: an
        observer (statistics, a viewer) that must not change the game."""
        self.listeners.setdefault(event, []).append(fn)
        self.heard.add(event)

    def emit(self, event: str, *args: Any) -> None:
        if self.listeners and event in self.listeners:
            for listener in self.listeners[event]:
                listener(*args)
        for fn in self.handlers.get(event, ()):
            fn(self, *args)
        for _, ident, fn in self.card_handlers.get(event, ()):
            for obj in list(self.objects_by_card.get(ident, ())):
                fn(self, obj, *args)
        if event in self.dynamic:
            waiting = self.dynamic.pop(event)
            keep = []
            for fn, until in waiting:
                if not fn(*args):
                    keep.append((fn, until))
            if keep:
                self.dynamic.setdefault(event, [])[:0] = keep
        if event in self.awaited:
            self._end_what_lasts_until(event)

    def _end_what_lasts_until(self, event: str) -> None:
        """Drop the modifiers and the waiting `once` handlers that last until this event."""
        for name, mods in list(self.mods.items()):
            if any(m.until == event for m in mods):
                kept = [m for m in mods if m.until != event]
                if kept:
                    self.mods[name] = kept
                else:
                    del self.mods[name]
        for name in list(self.dynamic):
            waiting = self.dynamic[name]
            if any(until == event for _, until in waiting):
                self.dynamic[name] = [(f, u) for f, u in waiting if u != event]

    def once(self, event: str, fn: Callable[..., bool], until: str | None) -> None:
        """Wait for an event; fn returns True once it has fired (then it is dropped)."""
        self.dynamic.setdefault(event, []).append((fn, until))
        self.heard.add(event)
        if until is not None:
            self.awaited.add(until)
            self.heard.add(until)

    def run(self, obj: Obj, timing: str, default: Any, *args: Any) -> Any:
        """Run a card's block for a timing, if it has one; return its result or the default."""
        defn = obj.defn
        fn = defn.timings.get(timing) if defn is not None else None
        if fn is None:
            return default
        result = fn(self, obj, *args)
        return default if result is None else result

    def has(self, obj: Obj, timing: str) -> bool:
        return obj.defn is not None and timing in obj.defn.timings
