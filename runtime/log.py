"""The game log: each line carries who may read it."""

from __future__ import annotations

import msgspec

from .events import Event


class LogLine(msgspec.Struct, frozen=True):
    """One line of the log.

    `audience`: the seats the line is for (None: everyone). Among them, `seen_by` read
    `text` (None: all of them); the others read `masked`, the same line with the cards they
    cannot see replaced by the game's word for a hidden card. `event` (and `masked_event`)
    hold the same as a record for tools."""

    text: str
    audience: frozenset[int] | None = None
    seen_by: frozenset[int] | None = None
    masked: str = ""
    event: Event | None = None  # the same, as a record for tools
    masked_event: Event | None = None

    def for_seat(self, seat: int | None) -> str | None:
        """The line as `seat` reads it (None: the whole truth), or None if it is not theirs."""
        if seat is None:
            return self.text
        if self.audience is not None and seat not in self.audience:
            return None
        if self.seen_by is None or seat in self.seen_by:
            return self.text
        return self.masked


def events_for(log: list[LogLine], seat: int | None) -> list[Event]:
    """Every record of a log that `seat` may read, as they read it (None: all, unmasked)."""
    found: list[Event] = []
    for line in log:
        if line.event is None or seat is not None and line.audience is not None and seat not in line.audience:
            continue
        masked = seat is not None and line.seen_by is not None and seat not in line.seen_by
        event = line.masked_event if masked else line.event
        if event is not None:
            found.append(event)
    return found


def lines_for(log: list[LogLine], seat: int | None) -> list[str]:
    """Every line of a log that `seat` may read, as they read it (None: all, unmasked)."""
    shown = (line.for_seat(seat) for line in log)
    return [text for text in shown if text is not None]
