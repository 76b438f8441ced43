"""The writer of generated Python: lines, indentation, the line map, hoisted constants and
identifiers made by the compiler (never taken from user text)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..runtime.rules import SourceMap
from . import syntax as s

LOCAL_NAME = re.compile(r"\bl_\d+\b")


def bound_now(code: str, among: set[str] | None = None) -> str:
    """Keyword defaults (`l_1=l_1, …`) that bind the locals `code` reads (those `among`, if
    given) to their values now: a condition or handler that outlives the statement making
    it sees the values of that moment, not those a loop leaves behind."""
    names = sorted(n for n in set(LOCAL_NAME.findall(code)) if among is None or n in among)
    return ", ".join(f"{n}={n}" for n in names)


class Emitter:
    """Accumulates one module. Every literal goes through `const` (its `repr()` becomes a
    `K_n` constant); locals of the function being written are `l_n`, temporaries `t_n`."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.line_map: dict[int, tuple[str, int]] = {}
        self.indent = 0
        self.consts: dict[str, str] = {}
        self.locals: dict[str, str] = {}
        self.temp = 0
        self.current = s.NO_SPAN  # the declaration being written, for errors
        self.decls: list[tuple[int, str]] = []  # (line where a function starts, what it is)

    def emit(self, text: str, span: s.Span | None = None) -> None:
        self.lines.append("    " * self.indent + text)
        if span is not None:
            self.line_map[len(self.lines)] = (span.file, span.line)

    @contextmanager
    def block(self) -> Iterator[None]:
        """An indented block (a `pass` if nothing was written in it)."""
        self.indent += 1
        start = len(self.lines)
        yield
        if len(self.lines) == start:
            self.emit("pass")
        self.indent -= 1

    @contextmanager
    def function(self, name: str, params: tuple[str, ...], span: s.Span | None,
                 extra: str = "", what: str = "") -> Iterator[None]:
        """`def name(g, [extra,] params…):` with fresh locals; `what` says which declaration
        it is (for rule errors)."""
        if span is not None:
            self.current = span
        self.decls.append((len(self.lines) + 1, what or name))
        self.locals = {}
        self.temp = 0
        args = ", ".join(["g"] + ([extra] if extra else []) + [self.local(p) for p in params])
        self.emit(f"def {name}({args}):", span)
        with self.block():
            yield
        self.emit("")

    def new_temp(self) -> str:
        self.temp += 1
        return f"t_{self.temp}"

    def local(self, name: str) -> str:
        if name not in self.locals:
            self.locals[name] = f"l_{len(self.locals)}"
        return self.locals[name]

    def const(self, value: Any) -> str:
        text = repr(value)
        if text not in self.consts:
            self.consts[text] = f"K_{len(self.consts)}"
        return self.consts[text]

    def module(self, header: list[str]) -> tuple[str, SourceMap]:
        """The whole source: the header, the constants, then what was written; and the
        source map shifted to match."""
        top = header + [f"{k} = {v}" for v, k in self.consts.items()] + [""]
        shift = len(top)
        source_map = SourceMap.of({n + shift: src for n, src in self.line_map.items()},
                               [(n + shift, what) for n, what in self.decls])
        return "\n".join(top + self.lines) + "\n", source_map
