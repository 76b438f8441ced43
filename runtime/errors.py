"""The exceptions of play: the end of a game, a rule that asks for the impossible, a
scenario's failed expectation."""

from __future__ import annotations


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
