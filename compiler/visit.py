"""Visitors: a pass over the syntax tree has one method per node class it handles.

`visit(node)` calls `visit_<ClassName>`; a pass that meets a class it has no method for
raises `Unhandled` at once instead of silently skipping it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from .syntax import Node

R = TypeVar("R")


class Unhandled(TypeError):
    """A pass met a kind of node it does not know."""


class Visitor(Generic[R]):
    """Dispatch on the node's class."""

    _methods: ClassVar[dict[type, Callable[..., Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def visit(self, node: Node) -> R:
        kind = type(node)
        method = self._methods.get(kind)
        if method is None:
            method = getattr(type(self), f"visit_{kind.__name__}", None)
            if method is None:
                raise Unhandled(f"{type(self).__name__} does not handle {kind.__name__}")
            self._methods[kind] = method
        result: R = method(self, node)
        return result

    @classmethod
    def handles(cls, kind: type) -> bool:
        return hasattr(cls, f"visit_{kind.__name__}")
