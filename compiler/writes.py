"""What a game's statements write: the fields some statement assigns, and the fields and counters
some `modify` changes. Expressions write nothing, so only statements are walked; the walk is
made once per build, when first asked.

The generator reads a field or counter that no `modify` changes straight from its holder (no
modifier can be in force on it), and the state checks' dependencies treat a field that nothing
writes at all as fixed by the card's definition (`depends.py`)."""

from __future__ import annotations

from functools import cached_property

from . import syntax as s
from .checked import Checked
from .refs import CounterRef, FieldRef


class Writes:
    """The names a game's statements write, worked out on first need."""

    def __init__(self, checked: Checked) -> None:
        self.c = checked

    @cached_property
    def _found(self) -> tuple[frozenset[str], frozenset[str], tuple[s.Modify, ...]]:
        """(fields assigned, by name; fields and counters a modifier changes; the `modify`
        statements)."""
        sym = self.c.symbols
        decls: list[object] = [*sym.procedures.values(), *sym.scenarios.values(),
                               *[(card.blocks, card.triggers) for card in sym.cards.values()]]  # (not the properties)
        if sym.game is not None:
            decls.append(sym.game)
        for group in (sym.triggers, sym.replacements, sym.added_options, sym.checks, sym.actions):
            decls.extend(decl for decl, _ in group)
        assigned: set[str] = set()
        modified: set[str] = set()
        modifiers: list[s.Modify] = []
        for node in s.walk(decls, prune=(*s.EXPRESSIONS, s.Opt)):  # a property line holds no statement
            if isinstance(node, (s.Assign, s.AugAssign)) and isinstance(node.target, s.Attr):
                assigned.add(node.target.name)  # by name: whatever the object, that field is written
            elif isinstance(node, s.Modify):  # keyed as the generated `g.modify` keys it
                modifiers.append(node)
                ref = self.c.ref(node.target)
                modified.add(ref.counter if isinstance(ref, CounterRef) else ref.field if isinstance(ref, FieldRef) else "")
        return frozenset(assigned), frozenset(modified), tuple(modifiers)

    def modified(self, name: str) -> bool:
        """Whether some `modify` changes this field or counter."""
        return name in self._found[1]

    @property
    def modifiers(self) -> tuple[s.Modify, ...]:
        """Every `modify` statement of the game."""
        return self._found[2]

    def steady(self, field: str) -> bool:
        """Whether no statement assigns or modifies this field: a card's value of it is its
        definition's (or the default) for the whole game."""
        assigned, modified, _ = self._found
        return field in self.c.symbols.fields and field not in assigned and field not in modified
