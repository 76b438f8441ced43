"""Saved games: the seed, the characters and every decision, and replaying them exactly.

A save file is JSON (`SavedGame`), validated strictly when read: a file that is not one
gives a `SaveError` that says what is wrong. A replay gives every saved decision back in
order and stops at the first one that no longer fits the game (another seat asked, an
answer out of range, decisions missing or left over).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from .agents import AgentError, ChoiceRequest
from .rules import RuleSet
from .table import table_problems

if TYPE_CHECKING:
    from .session import GameResult

SAVE_VERSION = 1
MAX_SAVE_BYTES = 64 * 1024 * 1024


class SavedGame(msgspec.Struct, forbid_unknown_fields=True):
    """What `play --save` writes."""

    game: str
    seed: int
    picks: list[list[str]]
    answers: list[tuple[int, int]]  # (seat, option) for every decision, in order
    final_state: str
    version: int = SAVE_VERSION


class SaveError(Exception):
    """A save file that cannot be replayed; the message says why."""


class Divergence(AgentError):
    """The replayed game stopped following the saved decisions. `short`: the save file ran
    out of decisions (the file is incomplete, rather than the game changed)."""

    def __init__(self, message: str, short: bool = False) -> None:
        super().__init__(message)
        self.short = short


def read_save(path: str, rules: RuleSet) -> SavedGame:
    """Read and check a save file against the game it claims to be of."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SAVE_BYTES + 1)
    except OSError as err:
        raise SaveError(f"cannot read {path}: {err.strerror or err}") from None
    if len(data) > MAX_SAVE_BYTES:
        raise SaveError(f"{path} is larger than {MAX_SAVE_BYTES} bytes")
    try:
        saved = msgspec.json.decode(data, type=SavedGame, strict=True)
    except (msgspec.ValidationError, msgspec.DecodeError) as err:
        raise SaveError(f"{path} is not a saved game: {err}") from None
    except RecursionError:
        raise SaveError(f"{path} is not a saved game: nested too deeply") from None
    if saved.version != SAVE_VERSION:
        raise SaveError(f"{path} is a version {saved.version} save; this cardsmith reads version {SAVE_VERSION}")
    if saved.game != rules.game:
        raise SaveError(f"{path} is a game of {saved.game!r}, not {rules.game!r}")
    problems = table_problems(rules, saved.picks)
    if problems:
        raise SaveError(f"{path} has an illegal table: " + "; ".join(problems))
    for number, (seat, option) in enumerate(saved.answers, start=1):
        if not 0 <= seat < len(saved.picks) or option < 0:
            raise SaveError(f"{path}: decision {number} ({seat}, {option}) names no seat or option of this game")
    return saved


def save_game(path: str | Path, saved: SavedGame) -> None:
    Path(path).write_bytes(msgspec.json.encode(saved))


class ReplayAgents:
    """One agent per seat that gives the saved decisions back in their saved order."""

    def __init__(self, answers: Sequence[tuple[int, int]]) -> None:
        self.answers = list(answers)
        self.used = 0

    def seat(self, index: int) -> _SeatReplay:
        return _SeatReplay(self, index)

    def next(self, request: ChoiceRequest) -> int:
        number = self.used + 1
        if self.used >= len(self.answers):
            raise Divergence(f"decision {number}: the game asks P{request.player + 1} "
                             f"({request.prompt!r}) but only {len(self.answers)} decisions were saved",
                             short=True)
        seat, option = self.answers[self.used]
        if seat != request.player:
            raise Divergence(f"decision {number}: saved for P{seat + 1}, but the game asks "
                             f"P{request.player + 1} ({request.prompt!r})")
        if option >= request.count:
            raise Divergence(f"decision {number}: saved answer {option}, but {request.prompt!r} "
                             f"has {request.count} options")
        self.used += 1
        return option

    def mismatch(self, outcome: GameResult, saved: SavedGame) -> str | None:
        """What keeps a replayed game that used its decisions from being the saved one (None:
        it is): saved decisions never asked, or another final state."""
        problem = self.left_over()
        if problem is None and saved.final_state != outcome.final_hash:
            problem = (f"every decision was used, but the final state is {outcome.final_hash}, "
                       f"not the saved {saved.final_state}")
        return problem

    def left_over(self) -> str | None:
        """What is wrong when the game ended before using every saved decision."""
        if self.used < len(self.answers):
            return (f"the game ended after decision {self.used}, but {len(self.answers)} "
                    f"decisions were saved (decision {self.used + 1} onward was never asked)")
        return None


class _SeatReplay:
    def __init__(self, replay: ReplayAgents, index: int) -> None:
        self.replay = replay
        self.index = index

    def choose(self, request: ChoiceRequest) -> int:
        return self.replay.next(request)
