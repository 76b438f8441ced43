"""Which characters a match of a regular expression can start with, read from Python's own
parse of the expression (`re._parser`, what `re.compile` reads it with).

Both answers err one way only: `may_start` says True wherever it cannot rule a character out
(an expression it cannot read, a back-reference, a match that may be empty), and `first_chars`
says None wherever it cannot list every character a match may start with.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

_parser: Any = importlib.import_module("re._parser")
_compiler: Any = importlib.import_module("re._compiler")
_c: Any = importlib.import_module("re._constants")

_CHARACTER = frozenset({_c.LITERAL, _c.NOT_LITERAL, _c.IN, _c.ANY})  # what reads one character
_REPEAT = frozenset({_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT})
_ZERO_WIDTH = frozenset({_c.AT, _c.ASSERT, _c.ASSERT_NOT})  # never the first character read
_SMALL_SET = 256  # a class listed as characters only up to this many


def may_start(pattern: str, chars: frozenset[str], flags: int = 0) -> bool:
    """Whether a match of `pattern` (compiled with `flags`) could start with one of `chars`, or
    be empty."""
    try:
        parsed = _parser.parse(pattern, flags)
        may, empty = _may(parsed.data, chars, parsed.state.flags)  # the flags as compiled (UNICODE added)
    except Exception:  # noqa: BLE001 - what cannot be read is not ruled out
        return True
    return may or empty


def first_chars(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Every character a match of `pattern` can start with, when it cannot be empty and its
    start is a plain character or a short list of them; else None."""
    try:
        parsed = _parser.parse(pattern, flags)
        items, flags = parsed.data, parsed.state.flags
        return _first(items, flags) if not _empty(items, flags) else None
    except Exception:  # noqa: BLE001 - what cannot be read has no list
        return None


def _empty(items: Any, flags: int) -> bool:
    """Whether `items` could match the empty string."""
    return _may(items, frozenset(), flags)[1]


def _may(items: Any, chars: frozenset[str], flags: int) -> tuple[bool, bool]:
    """(could the first character read be one of `chars`, could `items` match the empty string)"""
    for op, av in items:
        if op in _CHARACTER:
            one = _one(op, av, flags) if chars else None
            return one is not None and any(one.fullmatch(char) for char in chars), False
        if op in _ZERO_WIDTH:
            continue  # an anchor or a look-around reads nothing: leaving it out rules out less
        if op is _c.SUBPATTERN or op is _c.ATOMIC_GROUP:
            inner, inner_flags = (av[3], (flags | av[1]) & ~av[2]) if op is _c.SUBPATTERN else (av, flags)
            may, empty = _may(inner, chars, inner_flags)
        elif op is _c.BRANCH:
            each = [_may(branch, chars, flags) for branch in av[1]]
            may, empty = any(m for m, _ in each), any(e for _, e in each)
        elif op in _REPEAT:
            low, high, inner = av
            if high == 0:
                continue
            may, empty = _may(inner, chars, flags)
            empty = empty or low == 0
        else:  # a back-reference, a conditional group: anything
            return True, True
        if may:
            return True, empty
        if not empty:
            return False, False
    return False, True


def _one(op: Any, av: Any, flags: int) -> re.Pattern[str]:
    """One character-reading item of a parsed expression, compiled alone with its flags."""
    return _compiler.compile(_parser.SubPattern(_parser.State(), [(op, av)]), flags)  # type: ignore[no-any-return]


def _first(items: Any, flags: int) -> frozenset[str] | None:
    """The characters the first item of `items` (which cannot match empty) starts with."""
    if not items or flags & re.IGNORECASE:
        return None
    op, av = items[0]
    if op is _c.LITERAL:
        return frozenset({chr(av)})
    if op is _c.IN:
        chars: set[str] = set()
        for kind, value in av:
            if kind is _c.LITERAL:
                chars.add(chr(value))
            elif kind is _c.RANGE and value[1] - value[0] < _SMALL_SET:
                chars.update(map(chr, range(value[0], value[1] + 1)))
            else:  # a negated class, a category, a long range
                return None
        return frozenset(chars) if len(chars) <= _SMALL_SET else None
    if op is _c.SUBPATTERN and not av[1] and not av[2]:
        return _first(av[3], flags) if not _empty(av[3], flags) else None
    if op in _REPEAT and av[0] >= 1:
        return _first(av[2], flags) if not _empty(av[2], flags) else None
    return None
