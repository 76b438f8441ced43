"""What each state check reads: the zones and counters it depends on, found in the checked model.

The runtime runs a check only after a change to one of them, so checks stay cheap however
often the game moves tokens. Only what a check reads to decide counts: conditions, loop
ranges, computed values and returned values. What it does once it has decided (moves, calls
made as statements, assignments) does not. Reads are followed through procedures, values,
keywords, the addendum steps that replace steps of those procedures, and every card block
of a timing it calls. What is read only through an addendum's steps counts in games where the
addendum is active; what is read only through one card's block counts once that card is in
the game (a large library then costs a game nothing for the cards it does not hold).

A zone read only to find the cards that carry a field no statement writes (`writes.py`), as in
`for c in cards(z): if c.flag …` (or the same inside `for z in [zones]`), is *marked* with that
field: a change to it matters only when a card carrying the field comes or goes, so a check
that looks through a player's zones for a handful of special cards runs when one of those
moves, not after every draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import assert_never

from . import syntax as s
from .builtins import BUILTINS
from .checked import Checked
from .refs import (
    AttrRef,
    BuiltinRef,
    Callee,
    CallRef,
    CounterRef,
    FieldRef,
    LocalRef,
    SelfRef,
    ThisRef,
    Type,
    WordRef,
    ZoneRef,
)
from .visit import Visitor
from .writes import Writes


@dataclass(frozen=True)
class CheckReads:
    """The zones and counters a check reads, and whether it reads tokens on objects; and
    what it reads only through an addendum's replacements (`through`, by addendum), which
    matters only in games where that addendum is active, or only through one card's block
    (`by_card`, by card), which matters only once that card is in the game."""

    zones: frozenset[str]
    counters: frozenset[str]
    objects: bool
    through: dict[str, CheckReads] = field(default_factory=dict)
    by_card: dict[str, CheckReads] = field(default_factory=dict)
    marked: dict[str, frozenset[str]] = field(default_factory=dict)  # zone -> fields of the cards that matter


CARD = "card "  # walkers of a card's blocks are keyed by this and the card (no addendum has a space)


class _Reads(Visitor[None]):
    """Walks statements; each kind says which of its parts are read to decide. What an
    addendum's replacement reads is walked by that addendum's own walker (`within`)."""

    def __init__(self, checked: Checked, writes: Writes, addendum: str | None = None,
                 walkers: dict[str, _Reads] | None = None,
                 added: dict[int, list[tuple[s.Option, str | None]]] | None = None) -> None:
        self.c = checked
        self.sym = checked.symbols
        self.writes = writes
        self.addendum = addendum
        self.walkers = walkers if walkers is not None else {}
        self.zones: set[str] = set()
        self.counters: set[str] = set()
        self.objects = False
        self.marked: dict[str, set[str]] = {}
        self.done: set[tuple[Callee, str]] = set()
        self.added = checked.symbols.added_options_by_menu() if added is None else added  # shared

    def within(self, addendum: str | None) -> _Reads:
        """The walker for what is read through an addendum's rules (or, keyed `CARD + card`,
        through a card's blocks)."""
        if addendum is None or addendum == self.addendum:
            return self
        if addendum not in self.walkers:
            self.walkers[addendum] = _Reads(self.c, self.writes, addendum, self.walkers, self.added)
        return self.walkers[addendum]

    def result(self) -> CheckReads:
        marked = {z: frozenset(fields) for z, fields in self.marked.items() if z not in self.zones}
        return CheckReads(frozenset(self.zones), frozenset(self.counters), self.objects, marked=marked)

    def body(self, stmts: tuple[s.Stmt, ...]) -> None:
        for st in stmts:
            self.visit(st)

    def expr(self, root: object) -> None:
        for node in s.walk(root):
            ref = self.c.resolution.get(node)
            if ref is not None:
                self.ref(ref, node)

    def ref(self, ref: object, node: s.Node) -> None:
        match ref:
            case ZoneRef(zone, _):
                self.zones.add(zone)
            case CounterRef(counter, _):
                self.counters.add(counter)
            case CallRef(callee, name, _):
                self.declaration(callee, name)
            case BuiltinRef(name):
                args = getattr(node, "args", ())
                if BUILTINS[name].reads_tokens and args and self.c.type_of(args[0]) is not Type.ZONE:
                    self.objects = True  # tokens on a card (or a zone held in a variable)
            case LocalRef() | SelfRef() | ThisRef() | FieldRef() | AttrRef() | WordRef():
                pass
            case _:
                raise AssertionError(f"unknown resolution {ref!r}")

    def declaration(self, callee: Callee, name: str) -> None:
        if (callee, name) in self.done:
            return
        self.done.add((callee, name))
        sym = self.sym
        match callee:
            case Callee.PROCEDURE:
                for step in sym.procedures[name].steps:
                    self.body(step.body)
                for rep, addendum in sym.replacements:
                    if rep.procedure == name:
                        walker = self.within(addendum)
                        walker.expr(rep.cond)
                        walker.body(rep.body)
            case Callee.VALUE:
                self.expr(sym.values[name].expr)
            case Callee.KEYWORD:
                self.expr(sym.keywords[name].expr)
            case Callee.TIMING:
                for ident, card in sym.cards.items():
                    for block in card.blocks:
                        if block.name == name:
                            self.within(CARD + ident).body(block.body)
            case _:
                assert_never(callee)

    # ---- statements whose parts are read to decide ----

    def visit_If(self, st: s.If) -> None:
        for cond, branch in st.branches:
            self.expr(cond)
            self.body(branch)
        self.body(st.orelse)

    def visit_While(self, st: s.While) -> None:
        self.expr(st.cond)
        self.body(st.body)

    def visit_Repeat(self, st: s.Repeat) -> None:
        self.expr(st.count)
        self.body(st.body)

    def visit_For(self, st: s.For) -> None:
        mark = self.mark_of(st)
        if mark is None:
            self.expr(st.iterable)
        else:
            for node in s.walk(st.iterable):
                ref = self.c.resolution.get(node)
                if isinstance(ref, ZoneRef):
                    self.marked.setdefault(ref.zone, set()).add(mark)
        self.body(st.body)

    def mark_of(self, st: s.For) -> str | None:
        """The steady field that marks the only cards a loop acts on, when its list is zones or
        their cards and nothing else is read from it: `for c in cards(Z): if c.F [and …]:`
        (one branch, nothing else in the body), or `for z in [Z…]:` around such a loop over
        `cards(z)` that uses `z` nowhere else (`count(z)` in it would read the whole zone)."""
        if not self.only_zones(st.iterable):
            return None
        match st.body:
            case (s.For(iterable=s.Call(args=(s.Name(var),))) as inner,) \
                    if var == st.var and self.is_builtin(inner.iterable, "cards") \
                    and not any(isinstance(n, s.Name) and n.ident == var for n in s.walk(inner.body)):
                return self.mark_of(inner)
            case (s.If(branches=((cond, _),), orelse=()),) if self.is_builtin(st.iterable, "cards"):
                first = cond.values[0] if isinstance(cond, s.BoolOp) and cond.op == "and" else cond
                if (isinstance(first, s.Attr) and isinstance(first.obj, s.Name) and first.obj.ident == st.var
                        and isinstance(self.c.resolution.get(first), FieldRef) and self.writes.steady(first.name)):
                    return first.name
        return None

    def is_builtin(self, expr: s.Expr, name: str) -> bool:
        return isinstance(expr, s.Call) and self.c.resolution.get(expr) == BuiltinRef(name)

    def only_zones(self, expr: s.Expr) -> bool:
        """Whether an expression reads zones and nothing else (no counter, call or tokens)."""
        for node in s.walk(expr):
            ref = self.c.resolution.get(node)
            if isinstance(ref, (CounterRef, CallRef)) or (isinstance(ref, BuiltinRef) and BUILTINS[ref.name].reads_tokens):
                return False
        return True

    def visit_Menu(self, st: s.Menu) -> None:
        for opt, addendum in [(opt, None) for opt in st.options] + self.added.get(id(st), []):
            walker = self.within(addendum)
            walker.expr((opt.iterable, opt.cond))
            walker.body(opt.body)

    def visit_Let(self, st: s.Let) -> None:
        if not isinstance(st.value, s.Move):
            self.expr(st.value)

    def visit_Assign(self, st: s.Assign) -> None:
        self.expr(st.value)

    def visit_AugAssign(self, st: s.AugAssign) -> None:
        self.expr(st.value)

    def visit_Return(self, st: s.Return) -> None:
        self.expr(st.value)

    # ---- statements that act once decided: nothing read ----

    def _acts(self, st: s.Stmt) -> None:
        pass

    visit_Move = visit_Put = visit_Emit = visit_Modify = visit_Forbid = visit_Reveal = _acts
    visit_Shuffle = visit_Log = visit_Expect = visit_End = visit_CallStmt = visit_Pass = _acts
    visit_Break = visit_Once = visit_ExpectOffered = visit_ExpectWinner = _acts


def check_reads(checked: Checked, check: s.Check, writes: Writes | None = None) -> CheckReads:
    """Everything one check can read, directly or through what it calls. `writes`: what the
    game's statements write, shared by the checks of one game (made here when not given)."""
    walker = _Reads(checked, Writes(checked) if writes is None else writes)
    walker.body(check.body)
    core = walker.result()
    through: dict[str, CheckReads] = {}
    by_card: dict[str, CheckReads] = {}
    for name, w in walker.walkers.items():  # zones marked there are counted in full: rare, and safe
        more = CheckReads(frozenset(w.zones | w.marked.keys()) - core.zones, frozenset(w.counters) - core.counters,
                          w.objects and not core.objects)
        if more.zones or more.counters or more.objects:
            if name.startswith(CARD):
                by_card[name.removeprefix(CARD)] = more
            else:
                through[name] = more
    return CheckReads(core.zones, core.counters, core.objects, through, by_card, core.marked)
