"""The things a game is made of: zones, objects (cards and others) and players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .rules import CardDef, ZoneSpec

if TYPE_CHECKING:
    from .agents import Agent

UNLIMITED = 1 << 30  # the room of a zone without a capacity
NO_TIMINGS: dict[str, Any] = {}  # the blocks of an object that is no card (never written)


class Zone:
    """A place that holds cards (ordered, top is the end of the list) and/or tokens by kind."""

    __slots__ = ("spec", "owner", "cards", "tokens", "capacity", "held")

    def __init__(self, spec: ZoneSpec, owner: Player | None) -> None:
        self.spec = spec
        self.owner = owner
        self.cards: list[Obj] = []
        self.tokens: dict[Any, int] = {}
        self.capacity = spec.capacity
        self.held = 0  # tokens that count toward the capacity: those of no player, all kinds

    def __contains__(self, obj: object) -> bool:
        return obj in self.cards

    def __repr__(self) -> str:
        who = f"{self.owner.name}." if self.owner else ""
        return f"<{who}{self.spec.name}>"


class Obj:
    """A card or another game object; it can hold tokens and carries fields.

    `fields` starts as the rules' shared dict of the card's starting values (read-only, the
    same for every copy of the card in every game) and becomes the object's own at its first
    write (`own_fields`): most objects are never written, and a library's many fields then
    need no copying and no memory per object. It holds every field the rules declare (their
    defaults under the card's values), so generated code reads a field by subscript."""

    __slots__ = ("uid", "kind", "defn", "owner", "zone", "fields", "shared", "tokens", "timings")

    def __init__(self, uid: int, kind: str, defn: CardDef | None, owner: Player | None,
                 shared_fields: dict[str, Any]) -> None:
        self.uid = uid
        self.kind = kind
        self.defn = defn
        self.owner = owner
        self.zone: Zone | None = None
        self.fields = shared_fields
        self.shared = True
        self.tokens: dict[Any, int] = {}
        self.timings = defn.timings if defn is not None else NO_TIMINGS  # its card's blocks, by timing

    def own_fields(self) -> dict[str, Any]:
        """The object's own fields to write, copied from the shared starting values at first."""
        if self.shared:
            self.fields = dict(self.fields)
            self.shared = False
        return self.fields

    @property
    def name(self) -> str:
        return self.defn.name if self.defn else self.kind

    def __repr__(self) -> str:
        return f"{self.name}#{self.uid}"


class Player:
    """A seat at the table with its own zones, counters, chosen characters and agent."""

    __slots__ = ("index", "name", "picks", "zones", "counters", "agent")

    def __init__(self, index: int, picks: Sequence[str], agent: Agent) -> None:
        self.index = index
        self.name = f"P{index + 1}"
        self.picks = list(picks)
        self.zones: list[Zone | None] = []
        self.counters: list[Any] = []
        self.agent = agent

    def __repr__(self) -> str:
        return self.name
