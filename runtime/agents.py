"""Agents: every decision of a player goes through `Agent.choose`.

Random (seeded by the game), scripted (tests), terminal (a person) and JSON lines
(an external program over stdin/stdout). Agents see only `request.view()`, which the
game filters to what that player may see.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .game import Game


class ChoiceRequest:
    """One decision: who decides, what kind, the prompt, how many options and their labels.

    Labels are made only when an agent asks for them (a random agent needs just `count`)."""

    def __init__(self, player: int, kind: str, prompt: str,
                 options: list[str] | Callable[[], list[str]], count: int, game: Game) -> None:
        self.player = player
        self.kind = kind
        self.prompt = prompt
        self.count = count
        self.game = game
        self._options = options

    @property
    def options(self) -> list[str]:
        if callable(self._options):
            self._options = self._options()
        return self._options

    def view(self) -> dict[str, Any]:
        return self.game.view(self.player)


class Agent(Protocol):
    def choose(self, request: ChoiceRequest) -> int: ...


class RandomAgent:
    """Picks uniformly with its own seeded generator.

    It never draws from the game's generator, so a game replays exactly from its seed and
    its recorded decisions, whoever made them."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, request: ChoiceRequest) -> int:
        return self.rng.randrange(request.count)


class ScriptedAgent:
    """Answers from a list: an int is an index, a string the start of an option label.

    When the script runs out, it falls back to the first option (or raises when strict)."""

    def __init__(self, answers: list[int | str] | None = None, strict: bool = False) -> None:
        self.answers = list(answers or [])
        self.strict = strict

    def choose(self, request: ChoiceRequest) -> int:
        if not self.answers:
            if self.strict:
                raise LookupError(f"script exhausted at {request.prompt!r}: {request.options}")
            return 0
        answer = self.answers.pop(0)
        if isinstance(answer, int):
            return answer
        for i, label in enumerate(request.options):
            if label.startswith(answer) or answer in label:
                return i
        raise LookupError(f"no option matching {answer!r} in {request.options}")


class TerminalAgent:
    """A person at the terminal: shows their view and the options, reads a number."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.seen_log = 0

    def choose(self, request: ChoiceRequest) -> int:
        out = self.stdout
        view = request.view()
        new = min(view["log_total"] - self.seen_log, len(view["log"]))
        for line in view["log"][len(view["log"]) - new:] if new > 0 else []:
            out.write(f"  | {line}\n")
        self.seen_log = view["log_total"]
        out.write(f"\n== {view['you']}: {request.prompt}\n")
        describe = request.game.describe
        shown = _counters(view["counters"], describe)
        if shown:
            out.write(f"  game: {shown}\n")
        for zone, content in view["shared"].items():
            out.write(f"  {zone}: {_summary(content)}\n")
        for player, info in view["players"].items():
            picks = "+".join(describe(c) for c in info["picks"])
            out.write(f"  {player} {picks} [{_counters(info['counters'], describe)}]\n")
            for zone, content in info["zones"].items():
                text = _summary(content)
                if text:
                    out.write(f"    {zone}: {text}\n")
        for i, label in enumerate(request.options, start=1):
            out.write(f"  {i}) {label}\n")
        while True:
            out.write("> ")
            out.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError("input closed")
            line = line.strip()
            if line.isdigit() and 1 <= int(line) <= len(request.options):
                return int(line) - 1
            out.write(f"type a number from 1 to {len(request.options)}\n")


def _summary(content: dict[str, Any]) -> str:
    parts = [f"{k}×{v}" for k, v in content.get("tokens", {}).items()]
    cards = content.get("cards") or []
    hidden = sum(1 for c in cards if c == "?")
    if hidden:
        parts.append(f"{hidden} hidden card(s)")
    shown = [c for c in cards if c != "?"]
    if shown:
        parts.append(" | ".join(shown))
    return ", ".join(parts)


def _counters(values: dict[str, Any], describe: Callable[[Any], str]) -> str:
    """Counters worth showing: set flags by name, other values that are not empty."""
    parts = []
    for name, value in values.items():
        if value is True:
            parts.append(name)
        elif value not in (None, False):
            parts.append(f"{name}={describe(value)}")
    return ", ".join(parts)


class JsonLinesAgent:
    """An external program: one JSON request per line out, one JSON answer per line in.

    Out: {"type": "choice", "player": 0, "kind": ..., "prompt": ..., "options": [...], "view": {...}}
    In:  {"choice": N} (0-based) or a bare integer.
    """

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def choose(self, request: ChoiceRequest) -> int:
        message = {"type": "choice", "player": request.player, "kind": request.kind,
                   "prompt": request.prompt, "options": request.options, "view": request.view()}
        self.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
        self.stdout.flush()
        while True:
            line = self.stdin.readline()
            if not line:
                raise EOFError("input closed")
            try:
                data = json.loads(line)
                answer = data["choice"] if isinstance(data, dict) else data
                if isinstance(answer, int) and 0 <= answer < len(request.options):
                    return answer
            except (ValueError, KeyError, TypeError):
                pass
            self.stdout.write(json.dumps({"type": "error", "message": "expected {\"choice\": N}"}) + "\n")
            self.stdout.flush()
