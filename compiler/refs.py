"""What the checker hands to the later passes about each expression: its type, and for every
name-bearing node what the name resolved to.

A resolution is one of a few frozen dataclasses (`Ref`); passes consume them with `match`,
ending in `assert_never`, so mypy proves every kind is handled. Side tables are keyed by
node identity through `NodeTable`, which keeps the node alive so that an identity can
never be reused by another node.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from .syntax import Node


class Type(Enum):
    """The light types of the language."""

    INT = "int"
    BOOL = "bool"
    STR = "str"
    PLAYER = "player"
    OBJ = "obj"
    ZONE = "zone"
    LIST = "list"
    PAIR = "pair"
    DELTA = "delta"
    RANGE = "range"
    RANGE_CHANGE = "range_change"
    NONE = "none"
    ANY = "any"

    @property
    def article(self) -> str:
        """How messages name the type: `a number`, `a zone`, …"""
        return {"int": "a number", "obj": "a card or object", "str": "a text", "bool": "a truth value",
                "any": "a value", "none": "nothing", "pair": "a two-sided value like 3/1",
                "delta": "a two-sided change like +1/-1", "range": "a range like 3-4",
                "range_change": "a change to a range like shift(1)"}.get(self.value, f"a {self.value}")


# The words a parameter's type is written with (`procedure hit(p: player, dmg: pair)`).
TYPE_WORDS: dict[str, Type] = {
    "number": Type.INT, "bool": Type.BOOL, "text": Type.STR, "player": Type.PLAYER, "card": Type.OBJ,
    "zone": Type.ZONE, "list": Type.LIST, "pair": Type.PAIR, "delta": Type.DELTA, "range": Type.RANGE,
    "range_change": Type.RANGE_CHANGE,
}


class Owner(Enum):
    """Whose zone or counter a name means."""

    SHARED = "shared"  # a game-wide one
    SELF = "self"  # the player of the card whose block this is (`self`)
    OF = "of"  # the player the attribute is read on (`p.hand`)


@dataclass(frozen=True)
class LocalRef:
    """A local variable or parameter."""

    name: str


@dataclass(frozen=True)
class SelfRef:
    """`self`: the player whose card or keyword this is."""


@dataclass(frozen=True)
class ThisRef:
    """`this`: the card whose block this is."""


@dataclass(frozen=True)
class ZoneRef:
    zone: str
    owner: Owner


@dataclass(frozen=True)
class CounterRef:
    counter: str
    owner: Owner


@dataclass(frozen=True)
class FieldRef:
    """A declared field of a card or object."""

    field: str


@dataclass(frozen=True)
class AttrRef:
    """A built-in attribute: of a player (`picks`, `index`), an object (`owner`, `zone`,
    `name`, `card`, `kind`, `uid`) or a zone (`owner`, `cards`, `size`)."""

    of: Type
    name: str


@dataclass(frozen=True)
class WordRef:
    """A declared word used as a value: a character, card, token, kind, timing, event,
    addendum, enum word, or a keyword without a condition."""

    word: str


class Callee(Enum):
    PROCEDURE = "procedure"
    VALUE = "value"
    KEYWORD = "keyword"
    TIMING = "timing"


@dataclass(frozen=True)
class CallRef:
    """A call of a declaration. `implicit` is set when a value or keyword is named without
    parentheses: its one argument is the player `self` (SELF), the attribute's object (OF),
    or there is none (SHARED)."""

    callee: Callee
    name: str
    implicit: Owner | None = None


@dataclass(frozen=True)
class BuiltinRef:
    name: str


Ref = LocalRef | SelfRef | ThisRef | ZoneRef | CounterRef | FieldRef | AttrRef | WordRef | CallRef | BuiltinRef

V = TypeVar("V")


class NodeTable(Generic[V]):
    """A table keyed by node identity that keeps its nodes alive, so an identity is never
    reused by another node while the table exists."""

    def __init__(self) -> None:
        self._items: dict[int, tuple[Node, V]] = {}
        self.journal: list[tuple[Node, V]] | None = None  # while a list: every entry written is noted in it

    def __setitem__(self, node: Node, value: V) -> None:
        self._items[id(node)] = (node, value)
        if self.journal is not None:
            self.journal.append((node, value))

    def merge(self, entries: dict[int, tuple[Node, V]]) -> None:
        """Write many entries at once, each keyed by its node's identity."""
        self._items.update(entries)
        if self.journal is not None:
            self.journal.extend(entries.values())

    def get(self, node: object) -> V | None:
        entry = self._items.get(id(node))
        return entry[1] if entry is not None and entry[0] is node else None

    def __contains__(self, node: object) -> bool:
        return self.get(node) is not None

    def __len__(self) -> int:
        return len(self._items)

    def items(self) -> list[tuple[Node, V]]:
        return list(self._items.values())
