"""What each state check reads: the zones and counters it depends on, found in the checked model.

The runtime runs a check only after a change to one of them, so checks stay cheap however
often the game moves tokens. Only what a check reads to decide counts: conditions, loop
ranges, computed values and returned values. What it does once it has decided (moves, calls
made as statements, assignments) does not. Reads are followed through procedures, values,
keywords, the addendum steps that replace steps of those procedures, and every card block
of a timing it calls.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from . import syntax as s
from .check import Checked


@dataclass(frozen=True)
class CheckReads:
    """The zones and counters a check reads, and whether it reads tokens on objects."""

    zones: frozenset[str]
    counters: frozenset[str]
    objects: bool


class _Walker:
    def __init__(self, checked: Checked) -> None:
        self.c = checked
        self.sym = checked.symbols
        self.zones: set[str] = set()
        self.counters: set[str] = set()
        self.objects = False
        self.done: set[tuple[str, str]] = set()

    def stmts(self, body: tuple[s.Stmt, ...]) -> None:
        for st in body:
            self.stmt(st)

    def stmt(self, st: s.Stmt) -> None:
        if isinstance(st, s.If):
            for cond, body in st.branches:
                self.expr(cond)
                self.stmts(body)
            self.stmts(st.orelse)
        elif isinstance(st, (s.While, s.Repeat, s.For)):
            self.expr(st.cond if isinstance(st, s.While) else st.count if isinstance(st, s.Repeat) else st.iterable)
            self.stmts(st.body)
        elif isinstance(st, s.Menu):
            for opt in st.options:
                self.expr((opt.iterable, opt.cond))
                self.stmts(opt.body)
        elif isinstance(st, s.Let) and not isinstance(st.value, s.Move):
            self.expr(st.value)
        elif isinstance(st, (s.Assign, s.AugAssign)):
            self.expr(st.value)
        elif isinstance(st, s.Return) and st.value is not None:
            self.expr(st.value)

    def expr(self, value: Any) -> None:
        if isinstance(value, (list, tuple)):
            for item in value:
                self.expr(item)
            return
        if not is_dataclass(value) or isinstance(value, (s.Span, s.Labels)):
            return
        self.resolved(value)
        for f in fields(value):
            self.expr(getattr(value, f.name))

    def resolved(self, node: Any) -> None:
        r = self.c.resolution.get(id(node))
        if r is None:
            return
        kind = r[0]
        if kind in ("zone", "selfzone", "pzone"):
            self.zones.add(r[1])
        elif kind in ("counter", "selfcounter", "pcounter"):
            self.counters.add(r[1])
        elif kind in ("proc", "value", "value0", "selfvalue", "pvalue", "keyword", "keywordcall", "timing"):
            self.declaration(kind, r[1])
        elif kind == "builtin" and r[1] in ("count", "owned", "space"):
            args = getattr(node, "args", ())
            if args and self.c.types.get(id(args[0])) != "zone":
                self.objects = True  # tokens on a card (or a zone held in a variable)

    def declaration(self, kind: str, name: str) -> None:
        key = ("timing" if kind == "timing" else "proc" if kind == "proc" else
               "keyword" if kind.startswith("keyword") else "value", name)
        if key in self.done:
            return
        self.done.add(key)
        sym = self.sym
        if key[0] == "proc" and name in sym.procedures:
            for step in sym.procedures[name].steps:
                self.stmts(step.body)
            for rep, _ in sym.replacements:
                if rep.procedure == name:
                    self.expr(rep.cond)
                    self.stmts(rep.body)
        elif key[0] == "value" and name in sym.values:
            self.expr(sym.values[name].expr)
        elif key[0] == "keyword" and name in sym.keywords:
            self.expr(sym.keywords[name].expr)
        elif key[0] == "timing":
            for card in sym.cards.values():
                for block in card.blocks:
                    if block.name == name:
                        self.stmts(block.body)


def check_reads(checked: Checked, check: s.Check) -> CheckReads:
    """Everything one check can read, directly or through what it calls."""
    walker = _Walker(checked)
    walker.stmts(check.body)
    return CheckReads(frozenset(walker.zones), frozenset(walker.counters), walker.objects)
