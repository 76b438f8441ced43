"""The checked model one game's check produces, and the context the checking passes share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime.rules import TableSpec
from . import syntax as s
from .diagnostics import Diagnostic
from .refs import NodeTable, Ref, Type
from .symbols import Symbols


@dataclass
class Checked:
    """What later passes read: the symbol table, what each name-bearing node resolved to,
    the type of each expression, the value of each card's properties and the table."""

    symbols: Symbols
    resolution: NodeTable[Ref] = field(default_factory=NodeTable)
    types: NodeTable[Type] = field(default_factory=NodeTable)
    card_props: dict[str, dict[str, Any]] = field(default_factory=dict)
    table: TableSpec = TableSpec(2, 2, 1)
    step_names: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)  # names a step defines

    def ref(self, node: s.Node) -> Ref:
        """The resolution of a node the checker resolved (an error in a later pass otherwise)."""
        found = self.resolution.get(node)
        if found is None:
            raise LookupError(f"{type(node).__name__} at {node.span} was not resolved")
        return found

    def type_of(self, node: s.Node) -> Type:
        return self.types.get(node) or Type.ANY


class Context:
    """The symbols, the model being filled and the diagnostics of one check."""

    def __init__(self, symbols: Symbols) -> None:
        self.sym = symbols
        self.checked = Checked(symbols)
        self.diags: list[Diagnostic] = []

    def error(self, code: str, message: str, span: s.Span, hint: str | None = None,
              suggestion: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint, suggestion))

    def warn(self, code: str, message: str, span: s.Span, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint, severity="warning"))
