"""Operations generated code performs that are not plain Python: arithmetic on two-sided
values and changes, bounds on numbers, lists and loops, scenario expectations."""

from __future__ import annotations

from typing import Any

from .errors import check_number
from .game import ExpectationFailed, Game, Obj, Player, RuleViolation
from .limits import LOOP_LIMIT, MAX_ITEMS
from .values import Delta, Pair, RangeChange, apply_change


def add(a: Any, b: Any) -> Any:
    """`+` on numbers, two-sided values and changes, or lists."""
    if isinstance(a, Pair) or isinstance(b, (Delta, RangeChange)):
        return apply_change(a, b)
    if a is None:
        return list(b) if type(b) is list else b  # a list of its own (a join may be given a zone's)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) + len(b) > MAX_ITEMS:
            raise RuleViolation(f"a list grew beyond {MAX_ITEMS:,} items")
        return list(a) + list(b)
    return a + b


def concat(a: Any, b: Any) -> Any:
    """`+` of two values the compiler knows are lists: joined without asking what they are
    (anything else, which the checker should not let through, takes the general `add`)."""
    if type(a) is list and type(b) is list:
        if len(a) + len(b) > MAX_ITEMS:
            raise RuleViolation(f"a list grew beyond {MAX_ITEMS:,} items")
        return a + b
    return add(a, b)


num = check_number  # a computed value, refused when it is a number beyond the language's bound


def sub(a: Any, b: Any) -> Any:
    if isinstance(b, Delta):
        return apply_change(a, Delta(-b.left, -b.right))
    return a - b


def same(a: Any, b: Any) -> bool:
    """Equality in which a list and a range with the same members are equal."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return bool(a == b)


def expect(cond: Any, message: str, where: str) -> None:
    if not cond:
        raise ExpectationFailed(f"{where}: {message}")


def expect_offered(g: Game, p: Player, label: str, offered: bool, where: str) -> None:
    """Check, at p's next decision, that an option with this label is (or is not) offered."""
    g.offer_checks.append((p.index, label, offered, where))


def expect_winner(g: Game, p: Player | None, where: str) -> None:
    """The game has ended, won by p (None: drawn)."""
    g.winner_checked = True
    if not g.result:
        raise ExpectationFailed(f"{where}: the game has not ended")
    wanted = None if p is None else p.index
    if g.winner != wanted:
        name = "a draw" if wanted is None else f"P{wanted + 1} to win"
        raise ExpectationFailed(f"{where}: expected {name}, but the game ended: {g.result}")


def tick(g: Game) -> None:
    """Count loop iterations so a rule that never ends becomes an error, not a hang."""
    g.loops += 1
    if g.loops > LOOP_LIMIT:
        raise RuleViolation("a loop in the rules did not finish")


def hosts(p: Player, characters: tuple[str, ...]) -> bool:
    return any(c in p.picks for c in characters)


def card_of(obj: Obj) -> str | None:
    return obj.defn.ident if obj.defn is not None else None


def at(seq: Any, index: int) -> Any:
    try:
        return seq[index]
    except (IndexError, TypeError):
        return None
