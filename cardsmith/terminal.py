"""A person playing a seat at the terminal: their view, what changed, numbered options."""

from __future__ import annotations

import sys
from typing import IO

from .runtime.agents import ChoiceRequest
from .runtime.display import printable
from .runtime.protocol import Value, View, ZoneView


class TerminalAgent:
    """A person at the terminal: shows their view and the options, reads a number."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.seen_log = 0

    def choose(self, request: ChoiceRequest) -> int:
        view = request.view()
        lines = [f"  | {line}" for line in view.log[max(len(view.log) - (view.log_total - self.seen_log), 0):]]
        self.seen_log = view.log_total
        lines.append(f"\n== {view.you}: {request.prompt}")
        lines += _board(view, request.game.rules.hidden_card)
        low = request.low if request.low is not None else 1
        if request.listed:
            lines += [f"  {i}) {label}" for i, label in enumerate(request.options, start=1)]
            low = 1
        high = low + request.count - 1
        self._write("\n".join(lines) + "\n")
        while True:
            self._write(f"[{low}-{high}] > " if not request.listed else "> ")
            line = self.stdin.readline()
            if not line:
                raise EOFError("input closed")
            text = line.strip()
            if text.isascii() and text.isdecimal() and low <= int(text) <= high:
                return int(text) - low
            self._write(f"type a number from {low} to {high}\n")

    def _write(self, text: str) -> None:
        self.stdout.write("\n".join(printable(part) for part in text.split("\n")))
        self.stdout.flush()


def _board(view: View, hidden: str) -> list[str]:
    lines = []
    shown = _counters(view.counters)
    if shown:
        lines.append(f"  game: {shown}")
    for zone, content in view.shared.items():
        lines.append(f"  {zone}: {_summary(content, hidden)}")
    for player, info in view.players.items():
        lines.append(f"  {player} {'+'.join(info.picks)} [{_counters(info.counters)}]")
        lines += [f"    {zone}: {text}" for zone, content in info.zones.items()
                  if (text := _summary(content, hidden))]
    return lines


def _summary(content: ZoneView, hidden: str) -> str:
    parts = [f"{k}×{v}" for k, v in content.tokens.items()]
    cards = content.cards or []
    known = [c for c in cards if c != hidden]
    if len(known) != len(cards):
        parts.append(f"{len(cards) - len(known)} hidden card(s)")
    if known:
        parts.append(" | ".join(known))
    return ", ".join(parts)


def _counters(values: dict[str, Value]) -> str:
    """Counters worth showing: set flags by name, other values that are not empty."""
    parts = []
    for name, value in values.items():
        if value is True:
            parts.append(name)
        elif value not in (None, False, []):
            parts.append(f"{name}={', '.join(value) if isinstance(value, list) else value}")
    return ", ".join(parts)
