"""Value types shared by the compiler and the runtime: two-sided values and their changes."""

from __future__ import annotations

from typing import Any, NamedTuple


class Pair(NamedTuple):
    """A two-sided value such as `3/1`; a side of None is written `-`. `braced` marks `{X/Y}`."""

    left: int | None
    right: int | None
    braced: bool = False

    def __str__(self) -> str:
        text = f"{_side(self.left)}/{_side(self.right)}"
        return "{" + text + "}" if self.braced else text


class Delta(NamedTuple):
    """A change to a two-sided value such as `+1/-1`."""

    left: int
    right: int

    def __str__(self) -> str:
        return f"{self.left:+d}/{self.right:+d}"


class RangeChange(NamedTuple):
    """A change to an integer range: move every value by `shift`, then add `near` values
    below its low end and `far` values above its high end, or, where they are negative, take
    the values nearer than low + |near| or farther than high - |far| away (an empty range
    stays empty)."""

    shift: int = 0
    near: int = 0
    far: int = 0

    def __add__(self, other: object) -> RangeChange:  # type: ignore[override]
        if isinstance(other, RangeChange):
            return RangeChange(self.shift + other.shift, self.near + other.near, self.far + other.far)
        return NotImplemented

    def __str__(self) -> str:
        parts = [f"shift {self.shift:+d}"] if self.shift else []
        parts += [f"near +{self.near}"] if self.near else []
        parts += [f"far +{self.far}"] if self.far else []
        return ", ".join(parts) or "no change"


def change_range(values: tuple[int, ...], change: RangeChange) -> tuple[int, ...]:
    """Apply a range change; values below 0 drop out."""
    moved = sorted({v + change.shift for v in values if v + change.shift >= 0})
    if not moved:
        return ()
    low, high = moved[0], moved[-1]
    first, last = low - min(change.near, 0), high + min(change.far, 0)  # (a negative change narrows)
    kept = {v for v in moved if first <= v <= last}
    kept |= {low - k for k in range(1, change.near + 1) if low - k >= 0}
    kept |= {high + k for k in range(1, change.far + 1)}
    return tuple(sorted(kept))


def _at_least_0(side: int | None, change: int) -> int | None:
    """One side of a two-sided value changed, not below 0 (`-` stays `-`)."""
    if side is None:
        return None
    side += change
    return side if side > 0 else 0


def _side(value: int | None) -> str:
    return "-" if value is None else str(value)


def apply_change(value: Any, change: Any) -> Any:
    """Apply a modifier's change to a value: numbers add, deltas add per side, others replace."""
    if isinstance(change, RangeChange):
        if isinstance(value, RangeChange):
            return value + change
        if isinstance(value, tuple):
            return change_range(value, change)
        return change if value is None else value
    if isinstance(change, Delta):
        if isinstance(value, Pair):
            return Pair(_at_least_0(value.left, change.left), _at_least_0(value.right, change.right), value.braced)
        return value
    if isinstance(change, bool) or change is None or isinstance(change, (str, Pair, tuple)):
        return change
    if isinstance(change, int) and isinstance(value, int) and not isinstance(value, bool):
        return value + change
    return change

