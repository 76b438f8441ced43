"""A game as one viewer lived it, event by event (`cardsmith replay`).

`Timeline.watch(game, viewer)` hooks a game before it is played: the recorder tells it of
every log line, and each line the viewer may read becomes a `Moment` holding the line as
that viewer reads it and the viewer's `View` of the board right after it. A decision also
keeps who chose what and, when the viewer may read them, the options offered (the agents of
the game are wrapped to see each request). The viewer is a seat or `PUBLIC`; nothing a
moment holds is more than that viewer's view and log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .agents import Agent, ChoiceRequest
from .events import Chose, Event
from .log import LogLine
from .protocol import View

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Decision:
    """A decision as the viewer reads it: `chosen` is the logged label (cards the viewer may
    not see masked); `options` is None when the viewer may not read them."""

    seat: int
    kind: str
    prompt: str
    option: int
    chosen: str
    forced: bool
    options: list[str] | None


@dataclass(frozen=True)
class Moment:
    """One event the viewer may read and the board as it sees it right after."""

    number: int  # the event's position in the whole log (1-based)
    kind: str  # the event's record type (`log`, `card`, `tokens`, `choice`, `end`, …)
    text: str
    view: View
    decision: Decision | None = None


class Timeline:
    """Everything one viewer saw of a game: the board at the start, then one moment per
    event it may read."""

    def __init__(self, game: Game, viewer: int) -> None:
        self.game = game
        self.viewer = viewer
        self.start = game.view(viewer)
        self.moments: list[Moment] = []
        self._asked: tuple[int, list[str] | None] | None = None  # the open request: seat, options

    @classmethod
    def watch(cls, game: Game, viewer: int) -> Timeline:
        """Hook a game that has not started: its recorder and its seats' agents."""
        timeline = cls(game, viewer)
        game.recorder.watch = timeline._saw
        for p in game.players:
            p.agent = _Watching(p.agent, timeline)
        return timeline

    def _asking(self, request: ChoiceRequest) -> None:
        self._asked = (request.player, request.options_for(self.viewer))

    def _saw(self, line: LogLine) -> None:
        text = line.for_seat(self.viewer)
        event = _as_read(line, self.viewer)
        if text is None or event is None:
            return
        decision = None
        if isinstance(event, Chose):
            asked, self._asked = self._asked, None
            options = [event.label] if event.forced else (
                asked[1] if asked is not None and asked[0] == event.seat else None)
            decision = Decision(event.seat, event.kind, event.prompt, event.option, event.label,
                                event.forced, options)
        kind = str(type(event).__struct_config__.tag)
        self.moments.append(Moment(event.n, kind, text, self.game.view(self.viewer), decision))


def _as_read(line: LogLine, seat: int) -> Event | None:
    """A line's record as `seat` reads it (masked when it may not see a card in it)."""
    if line.seen_by is not None and seat not in line.seen_by:
        return line.masked_event
    return line.event


class _Watching:
    """A seat's agent, unchanged, that first shows each request to the timeline."""

    def __init__(self, inner: Agent, timeline: Timeline) -> None:
        self.inner = inner
        self.timeline = timeline

    def choose(self, request: ChoiceRequest) -> int:
        self.timeline._asking(request)
        return self.inner.choose(request)
