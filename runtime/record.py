"""The log a judge can rule from: everything that happens, in the order it happens.

The rules' own `log` lines, every token and card move, every change of a counter declared
`logged`, every decision and the end of the game each become one `LogLine` holding the
text people read and the record tools read (`events.py`). A line that names a card some seat
may not see is kept twice: as it is, for the seats that may see every card in it, and
masked (the game's word for a hidden card instead of the card) for the others.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Any

from .events import (
    CardMoved,
    Chose,
    CounterChanged,
    Ended,
    Event,
    FieldChanged,
    Place,
    Said,
    TokensMoved,
)
from .log import LogLine
from .state import Obj

if TYPE_CHECKING:
    from .game import Game, Player, Zone

Hidden = Collection["Obj"]


class Recorder:
    """Appends to `game.lines`; the game calls it only while it keeps a log."""

    def __init__(self, game: Game) -> None:
        self.g = game
        self.public = 0  # lines every player may read so far
        self._limited = [0] * len(game.players)  # lines for some seats only that each seat may read
        self.watch: Callable[[LogLine], None] | None = None  # told of every line once it is added

    def add(self, build: Callable[[Hidden], Event], cards: Iterable[Obj],
            audience: frozenset[int] | None = None,
            sees: Callable[[Obj, int], bool] | None = None) -> None:
        """Record one event; `build(hidden)` makes it with the cards in `hidden` masked. `sees`
        widens `can_see` (a card in a public place, or in none, is seen by every seat)."""
        see = sees or self.g.can_see
        readers = range(len(self.g.players)) if audience is None else audience
        hidden = [c for c in cards if c.zone is not None and c.zone.spec.visibility != "public"  # (seen by all)
                  and not all(see(c, seat) for seat in readers)]
        full = build(())
        if audience is None:
            self.public += 1
        else:
            for seat in audience:
                self._limited[seat] += 1
        if not hidden:
            line = LogLine(full.text, audience, event=full)
        else:
            seen_by = frozenset(seat for seat in readers if all(see(c, seat) for c in hidden))
            masked = build(hidden)
            line = LogLine(full.text, audience, seen_by, masked.text, full, masked)
        self.g.lines.append(line)
        if self.watch is not None:
            self.watch(line)

    def readable(self, seat: int) -> int:
        """How many lines the seat may read so far."""
        return self.public + self._limited[seat]

    def recent(self, seat: int, count: int) -> list[str]:
        """The last `count` lines `seat` may read, oldest first (without reading the whole log)."""
        found: list[str] = []
        for line in reversed(self.g.lines):
            text = line.for_seat(seat)
            if text is not None:
                found.append(text)
                if len(found) == count:
                    break
        return found[::-1]

    @property
    def n(self) -> int:
        return len(self.g.lines) + 1

    def said(self, message: str, args: tuple[Any, ...], audience: frozenset[int] | None) -> None:
        self.add(lambda hidden: Said(self.n, self.g.format(message, args, hidden)), cards_in(args), audience)

    def tokens(self, count: int, kind: str, source: Zone | Obj, dest: Zone | Obj, by: Obj | None) -> None:
        token = self.g.rules.token_labels.get(kind, kind)

        def build(hidden: Hidden) -> Event:
            src, dst = self.place(source, hidden), self.place(dest, hidden)
            text = f"{count} {token}: {self.g.describe(source, hidden)} → {self.g.describe(dest, hidden)}"
            return TokensMoved(self.n, text, count, token, src, dst,
                               None if by is None else self.g.describe(by, hidden))
        cards = [h for h in (source, dest, by) if isinstance(h, Obj)]
        self.add(build, cards)

    def card(self, obj: Obj, source: Zone | None, dest: Zone, seen_before: frozenset[int]) -> None:
        """A card moved; seats that could see it before or can see it now read its name."""
        def build(hidden: Hidden) -> Event:
            name = self.g.describe(obj, hidden)
            where = self.g.describe(source) if source is not None else "—"
            return CardMoved(self.n, f"{name}: {where} → {self.g.describe(dest)}", name,
                             self.place(source, ()) if source is not None else None, self.place(dest, ()))
        self.add(build, [obj], sees=lambda c, seat: seat in seen_before or self.g.can_see(c, seat))

    def counter(self, label: str, p: Player | None, before: Any, after: Any, visibility: str) -> None:
        """A logged counter changed: read by every seat when it is public, by its player alone
        when it is `owner`, by no seat (only the whole log) when it is `hidden`."""
        who = f"({p.name})" if p is not None else ""
        text = f"{label}{who}: {self.g.describe(before)} → {self.g.describe(after)}"
        audience = (None if visibility == "public"
                    else frozenset((p.index,)) if visibility == "owner" and p is not None else frozenset())
        self.add(lambda hidden: CounterChanged(self.n, text, label, p.name if p else None,
                                               _plain(before), _plain(after)), (), audience)

    def field(self, card: Obj, label: str, before: Any, after: Any) -> None:
        """A card's logged field changed (the card masked for seats that may not see it)."""
        def build(hidden: Hidden) -> Event:
            name = self.g.describe(card, hidden)
            text = f"{name} {label}: {self.g.describe(before)} → {self.g.describe(after)}"
            return FieldChanged(self.n, text, name, label, _plain(before), _plain(after))
        self.add(build, [card])

    def choice(self, p: Player, kind: str, prompt: str, option: int, label: str, value: Any,
               forced: bool = False) -> None:
        """A decision: `label` names the chosen option, `value` is what it bound (masked when
        it is a card a seat may not see)."""
        def build(hidden: Hidden) -> Event:
            shown = label if value is None else f"{label}{': ' if label else ''}{self.g.describe(value, hidden)}"
            return Chose(self.n, f"{p.name} {prompt} → {shown}", p.index, kind, prompt, option, shown, forced)
        self.add(build, cards_in((value,)))

    def ended(self, winner: int | None, result: str, cause: str | None, text: str) -> None:
        """The end: `result` in the engine's fixed words (for tools), `text` in the game's."""
        self.add(lambda hidden: Ended(self.n, text, winner, result, cause), ())

    def place(self, holder: Zone | Obj, hidden: Hidden) -> Place:
        if isinstance(holder, Obj):
            return Place(card=self.g.describe(holder, hidden))
        return Place(zone=holder.spec.name, owner=holder.owner.name if holder.owner else None)


def cards_in(values: Iterable[Any]) -> list[Obj]:
    """The cards among some values (lists included)."""
    found: list[Obj] = []
    for value in values:
        if isinstance(value, Obj):
            found.append(value)
        elif isinstance(value, list):
            found.extend(v for v in value if isinstance(v, Obj))
    return found


def _plain(value: Any) -> Any:
    return value if value is None or isinstance(value, (bool, int, str)) else str(value)
