"""A person playing a seat at the terminal: the board as their seat sees it (every zone with
its count and the cards they may see, each player's counters), what happened since their
last decision, numbered options, help — all in the game's own words and language.

Drawn with rich. Every text from the game passes through `printable`, and rich markup is
off, so nothing a source says can style or control the terminal."""

from __future__ import annotations

import sys
from itertools import groupby
from typing import IO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .runtime.agents import AgentGaveUp, ChoiceRequest
from .runtime.display import printable
from .runtime.events import Ended
from .runtime.log import lines_for
from .runtime.phrases import Phrases, phrases
from .runtime.protocol import Value, View, ZoneView
from .runtime.rules import RuleSet
from .runtime.session import GameResult

Counts = dict[tuple[str, str], int]  # (player or "", zone) -> how many things it holds


class Board:
    """Draws one seat's view of a game in the game's labels."""

    def __init__(self, rules: RuleSet, words: Phrases) -> None:
        self.rules = rules
        self.words = words
        self.zone_labels = {z.name: z.label for z in rules.zones}
        self.counters = {c.name: c for c in rules.counters}

    def draw(self, view: View, before: Counts | None) -> RenderableType:
        """The table (shared zones and counters) and one panel per player."""
        parts: list[RenderableType] = []
        shared = self._zones("", view.shared, before)
        line = self._counter_line(view.counters)
        if shared.row_count or line:
            parts.append(Panel(Group(*([Text(line)] if line else []), shared), title=self.words.game,
                               title_align="left", box=box.ROUNDED))
        for name, player in view.players.items():
            title = printable(f"{name} {'+'.join(player.picks)}")
            if name == view.you:
                title += f" ({self.words.you})"
            line = self._counter_line(player.counters)
            zones = self._zones(name, player.zones, before)
            body = Group(*([Text(line)] if line else []), zones if zones.row_count else Text("—", style="dim"))
            parts.append(Panel(body, title=title, title_align="left",
                               box=box.HEAVY if name == view.you else box.ROUNDED))
        return Group(*parts)

    def counts(self, view: View) -> Counts:
        """How many things each zone holds, to show what changed at the next decision."""
        found = {("", z): _size(c) for z, c in view.shared.items()}
        for name, player in view.players.items():
            found.update({(name, z): _size(c) for z, c in player.zones.items()})
        return found

    def _zones(self, owner: str, zones: dict[str, ZoneView], before: Counts | None) -> Table:
        table = Table(box=None, show_header=False, pad_edge=False, expand=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(ratio=1, overflow="fold")
        for zone, content in zones.items():
            size = _size(content)
            was = before.get((owner, zone)) if before is not None else None
            if size == 0 and not was:
                continue
            count = Text(str(size))
            if was is not None and was != size:
                count.append(f" ({size - was:+d})", style="green" if size > was else "red")
            table.add_row(printable(self.zone_labels.get(zone, zone)), count, Text(self._contents(content)))
        return table

    def _contents(self, content: ZoneView) -> str:
        parts = [f"{self._token(kind)} ×{n}" for kind, n in content.tokens.items() if n]
        cards = content.cards or []
        hidden = sum(1 for c in cards if c == self.rules.hidden_card)
        shown = (c for c in cards if c != self.rules.hidden_card)
        parts += [name if n == 1 else f"{name} ×{n}" for name, n in
                  ((name, len(list(run))) for name, run in groupby(shown))]
        if hidden:
            parts.append(self.words.hidden.format(count=hidden))
        return printable(" · ".join(parts))

    def _token(self, key: str) -> str:
        kind, _, owner = key.partition("@")
        label = self.rules.token_labels.get(kind, kind)
        return f"{label}({owner})" if owner else label

    def _counter_line(self, values: dict[str, Value]) -> str:
        """Counters worth a glance: flags that are set, values that left their start."""
        parts = []
        for name, value in values.items():
            spec = self.counters.get(name)
            label = spec.label if spec is not None else name
            if value is True:
                parts.append(label)
            elif value in (None, False, []) or spec is not None and value == spec.start:
                continue
            else:
                shown = ", ".join(value) if isinstance(value, list) else str(value)
                parts.append(f"{label} {shown}")
        return printable(" · ".join(parts))


class TerminalAgent:
    """A person at the terminal: sees their board, what changed, the options; types a number
    (or `?` for help, `b` for the board, `l` for the whole log, `q` to leave)."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.console = Console(file=stdout or sys.stdout, markup=False, emoji=False, highlight=False)
        self.seen_log = 0
        self.before: Counts | None = None
        self.seat: int | None = None
        self.board: Board | None = None  # made at the first decision: the game's rules do not change

    def choose(self, request: ChoiceRequest) -> int:
        rules = request.game.rules
        if self.board is None:
            self.board = Board(rules, phrases(rules.language))
        board, words = self.board, self.board.words
        view = request.view()
        self.seat = view.seat
        self.console.print(Rule(printable(f"{rules.label} · {view.you}"), style="dim"))
        self._changes(view, words)
        self.console.print(board.draw(view, self.before))
        self.before = board.counts(view)
        self._show_options(request, view)
        return self._read(request, view, board, words)

    def finish(self, outcome: GameResult, rules: RuleSet) -> None:
        """The end of the game: what happened since the last decision, and how it ended."""
        words = phrases(rules.language)
        if self.seat is not None:
            self._print_changes(lines_for(outcome.log, self.seat)[self.seen_log:], 0, words)
        ended = next((line.text for line in reversed(outcome.log) if isinstance(line.event, Ended)), None)
        shown = ended or (outcome.error and f"rule error: {outcome.error}") or outcome.reason
        self.console.print(Panel(Text(printable(shown), style="bold"), title=words.over, title_align="left"))

    def _changes(self, view: View, words: Phrases) -> None:
        new = view.log_total - self.seen_log
        shown = view.log[max(len(view.log) - new, 0):] if new > 0 else []
        self.seen_log = view.log_total
        self._print_changes(shown, new - len(shown), words)

    def _print_changes(self, lines: list[str], earlier: int, words: Phrases) -> None:
        body = Text()
        if earlier > 0:
            body.append(words.earlier.format(count=earlier) + "\n", style="dim")
        body.append("\n".join(printable(line) for line in lines) if lines else words.nothing_new)
        self.console.print(Panel(body, title=words.changes, title_align="left", box=box.SIMPLE))

    def _show_options(self, request: ChoiceRequest, view: View) -> None:
        self.console.print(Text(printable(f"{view.you}: {request.prompt}"), style="bold"))
        if request.listed:
            for i, label in enumerate(request.options, start=1):
                self.console.print(Text(f"  {i:>2}) ") + Text(printable(label)))

    def _read(self, request: ChoiceRequest, view: View, board: Board, words: Phrases) -> int:
        low = 1 if request.listed or request.low is None else request.low
        high = low + request.count - 1
        while True:
            self.console.print(f"[{low}-{high}, ?] > ", end="")
            line = self.stdin.readline()
            if not line:
                self.console.print()
                raise EOFError("input closed")
            text = line.strip()
            if text.isascii() and text.isdecimal() and low <= int(text) <= high:
                return int(text) - low
            if text in ("?", "h", "help"):
                self.console.print(Text(words.help, style="cyan"))
            elif text == "b":
                self.console.print(board.draw(view, None))
                self._show_options(request, view)
            elif text == "l":
                self._whole_log(request, words)
            elif text == "q":
                raise AgentGaveUp("the player at the terminal left the game")
            else:
                self.console.print(Text(words.choose_number.format(low=low, high=high), style="yellow"))

    def _whole_log(self, request: ChoiceRequest, words: Phrases) -> None:
        lines = request.game.recorder.recent(request.player, request.game.recorder.readable(request.player))
        self.console.print(Panel(Text("\n".join(printable(line) for line in lines)), title=words.log_heading,
                                 title_align="left", box=box.SIMPLE))


def _size(content: ZoneView) -> int:
    return sum(content.tokens.values()) + len(content.cards or [])
