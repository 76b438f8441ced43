"""The exceptions of play: the end of a game, a rule that asks for the impossible, a
scenario's failed expectation."""

from __future__ import annotations

from typing import Any

from .limits import MAX_NUMBER


class GameOver(Exception):
    """Raised to stop play at once when a game ends."""

    def __init__(self, winner: int | None, reason: str) -> None:
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


class RuleViolation(Exception):
    """A compiled rule asked for something impossible; carries the source location."""


class ExpectationFailed(AssertionError):
    """A scenario's `expect` did not hold."""


def check_number(value: Any) -> Any:
    """A value, refused when it is a number beyond the language's bound."""
    if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise RuleViolation(f"a number grew beyond ±{MAX_NUMBER:,}")
    return value
