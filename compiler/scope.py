"""Scopes: the names visible in a body with their types, and what `self`, `this` and `break`
mean there."""

from __future__ import annotations

from .refs import TYPE_WORDS, Type


class Scope:
    """Names visible in one body. `once_outer` is set inside a `once` block: the names of
    the blocks around it (assigning one is allowed, and warned about)."""

    def __init__(self, names: dict[str, Type], has_self: bool, has_this: bool = False) -> None:
        self.names = dict(names)
        self.has_self = has_self
        self.has_this = has_this
        self.loops = 0
        self.once_outer: frozenset[str] | None = None

    @classmethod
    def of(cls, params: tuple[str, ...], has_self: bool, has_this: bool = False,
           types: tuple[str | None, ...] = ()) -> Scope:
        """A scope whose names are parameters, of their declared types (or of any type)."""
        return cls(dict(zip(params, param_types(params, types), strict=True)), has_self, has_this)

    def child(self) -> Scope:
        """A nested block: it sees these names; what it defines stays inside it."""
        sc = Scope(self.names, self.has_self, self.has_this)
        sc.loops = self.loops
        sc.once_outer = self.once_outer
        return sc

    def loop_body(self) -> Scope:
        sc = self.child()
        sc.loops += 1
        return sc

    def once_body(self, params: tuple[str, ...], types: tuple[str | None, ...] = ()) -> Scope:
        """The scope of a `once` block: it runs later, on its own, outside any loop."""
        sc = self.child()
        sc.loops = 0
        sc.once_outer = frozenset(self.names) - frozenset(params)
        sc.names.update(zip(params, param_types(params, types), strict=True))
        return sc


def param_types(params: tuple[str, ...], types: tuple[str | None, ...]) -> list[Type]:
    """The type of each parameter: its declared type word's, or any. `types` may be empty
    (nothing declared) or name fewer parameters (a trigger naming more than its event has)."""
    words = list(types[:len(params)]) + [None] * (len(params) - len(types))
    return [TYPE_WORDS[word] if word else Type.ANY for word in words]
