"""Agents: every decision of a player goes through `Agent.choose`.

Random and active (seeded), scripted (tests) and JSON lines (an external program over
stdin/stdout); the terminal agent for a person lives with the command line
(`cardsmith/terminal.py`). Agents see only `request.view()`, which the
game filters to what that player may see.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, Protocol

import msgspec

from . import protocol
from .limits import MAX_LISTED_OPTIONS
from .protocol import View
from .record import cards_in

if TYPE_CHECKING:
    from .game import Game


class ChoiceRequest:
    """One decision: who decides, what kind, the prompt, how many options and their labels.

    Labels, passive options and bound values are worked out only when an agent asks for them
    (a random agent needs just `count`): each may be given as a function that makes it.
    A `number` choice also has `low`: option i means the number low + i. `passive` holds the
    options that decline to act; `values` what each option binds (a card, a player, …), where
    options bind something."""

    __slots__ = ("player", "_values", "_passive", "_preferred", "kind", "prompt", "count", "game", "low",
                 "_options")

    def __init__(self, player: int, kind: str, prompt: str,
                 options: list[str] | Callable[[], list[str]], count: int, game: Game,
                 low: int | None = None, passive: frozenset[int] | Callable[[], frozenset[int]] = frozenset(),
                 preferred: Callable[[], frozenset[int]] | None = None,
                 values: Sequence[Any] | Callable[[], Sequence[Any]] = ()) -> None:
        self.player = player
        self._values = values
        self._passive = passive
        self._preferred = preferred
        self.kind = kind
        self.prompt = prompt
        self.count = count
        self.game = game
        self.low = low
        self._options = options

    @property
    def options(self) -> list[str]:
        if callable(self._options):
            self._options = self._options()
        return self._options

    @property
    def passive(self) -> frozenset[int]:
        """The options that decline to act (end a phase, not react, choose none)."""
        if callable(self._passive):
            self._passive = self._passive()
        return self._passive

    @property
    def values(self) -> Sequence[Any]:
        if callable(self._values):
            self._values = self._values()
        return self._values

    @property
    def preferred(self) -> frozenset[int]:
        """The options the rules prefer (`pick … prefer COND`), worked out when asked."""
        return self._preferred() if self._preferred is not None else frozenset()

    @property
    def listed(self) -> bool:
        """Whether the options are few enough to be shown one by one."""
        return self.count <= MAX_LISTED_OPTIONS

    def view(self) -> View:
        return self.game.view(self.player)

    def options_for(self, seat: int) -> list[str] | None:
        """The options as `seat` may read them: the deciding seat reads them all, another seat
        (or the public) only when no option binds a card it may not see; None otherwise."""
        if seat != self.player and not all(self.game.can_see(c, seat) for c in cards_in(self.values)):
            return None
        return self.options


class Agent(Protocol):
    def choose(self, request: ChoiceRequest) -> int: ...


class RandomAgent:
    """Picks uniformly with its own seeded generator.

    It never draws from the game's generator, so a game replays exactly from its seed and
    its recorded decisions, whoever made them."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def choose(self, request: ChoiceRequest) -> int:
        return self.below(request.count)

    def below(self, n: int) -> int:
        """A number from 0 to n - 1, each as likely: n.bit_length() random bits, drawn again
        until they are below n. The draws `rng.randrange(n)` makes, without its two calls in
        Python on each of the game's many decisions."""
        if n < 1:
            raise ValueError(f"no number below {n} to choose")
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return r


class ActiveAgent(RandomAgent):
    """Random, but it plays to act: nine times in ten it takes one of the options the rules
    prefer (`pick … prefer`) when some are, and otherwise one that is not passive (ending a
    phase, not reacting, choosing nothing, a passive standing action) when one is open.
    Games among such agents reach real endings sooner."""

    ACT = 0.9

    def choose(self, request: ChoiceRequest) -> int:
        for wanted in (sorted(request.preferred),
                       [i for i in range(request.count) if i not in request.passive] if request.passive else []):
            if wanted and len(wanted) < request.count and self.rng.random() < self.ACT:
                return wanted[self.below(len(wanted))]
        return self.below(request.count)


class ScriptedAgent:
    """Answers from a list (scenarios and tests).

    A number answers a number choice by its value, any other choice by the option's index;
    a text picks the one option whose label is it, starts with it or holds it (an answer
    that fits several is an error). When the script runs out it takes the first option, or
    raises when strict."""

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
            return answer - request.low if request.kind == "number" and request.low is not None else answer
        return self._by_label(answer, request)

    @staticmethod
    def _by_label(answer: str, request: ChoiceRequest) -> int:
        options = request.options
        for test in (lambda label: label == answer, lambda label: label.startswith(answer),
                     lambda label: answer in label):
            found = [i for i, label in enumerate(options) if test(label)]
            if len(found) == 1:
                return found[0]
            if found:
                raise LookupError(f"the answer {answer!r} fits several options of {request.prompt!r}: "
                                  f"{[options[i] for i in found]}")
        raise LookupError(f"no option matching {answer!r} in {options}")


class AgentError(Exception):
    """A seat's agent cannot go on (not a fault of the rules): the game is abandoned."""


class AgentGaveUp(AgentError):
    """A program playing a seat kept sending answers that could not be used."""


class JsonLinesAgent:
    """A program playing one seat over JSON lines (the protocol of `protocol.py`)."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.asked = 0

    def _send(self, message: protocol.Message) -> None:
        self.stdout.write(protocol.encode(message) + "\n")
        self.stdout.flush()

    def start(self, game: str, seat: int, players: int, hidden_card: str) -> None:
        """Say hello: the protocol version, the game, the seat, the table size and the word
        for a card this seat may not see."""
        self._send(protocol.Hello(protocol.PROTOCOL, protocol.VERSION, game, seat, players, hidden_card))

    def finish(self, winner: int | None, result: str, steps: int, decisions: int,
               error: str | None, cause: str | None) -> None:
        self._send(protocol.GameOver(winner, result, steps, decisions, error, cause))

    def choose(self, request: ChoiceRequest) -> int:
        self.asked += 1
        kind = request.kind if request.kind in ("pick", "menu", "number", "ask") else "menu"
        self._send(protocol.Choice(
            id=self.asked, player=request.player, kind=kind,  # type: ignore[arg-type]
            prompt=request.prompt, count=request.count, view=request.view(),
            options=request.options if request.listed else None,
            low=request.low, high=None if request.low is None else request.low + request.count - 1))
        for _ in range(protocol.MAX_BAD_ANSWERS):
            line = self.stdin.readline()
            if not line:
                raise EOFError("input closed")
            problem = self._problem(line, request.count)
            if problem is None:
                return protocol.decode_answer(line).choice
            self._send(protocol.Error(problem, 0, request.count - 1))
        raise AgentGaveUp(f"{protocol.MAX_BAD_ANSWERS} answers in a row could not be used")

    def _problem(self, line: str, count: int) -> str | None:
        try:
            answer = protocol.decode_answer(line)
        except (msgspec.ValidationError, msgspec.DecodeError) as err:
            return f"expected {{\"choice\": N}} with an integer N: {err}"
        if answer.id is not None and answer.id != self.asked:
            return f"this answer is for choice {answer.id}; the open choice is {self.asked}"
        if not 0 <= answer.choice < count:
            return f"choice {answer.choice} is out of range"
        return None
