"""Generate expressions: one method per expression kind, each returning Python source.

Names become what they resolved to (`refs.py`); literals become constants; the only calls
are to the runtime contract (`rt.…`), the game (`g.…`) and the module's own functions."""

from __future__ import annotations

import re
from typing import assert_never

from ..runtime.values import Delta, Pair
from . import syntax as s
from .builtins import BUILTINS
from .checked import Checked
from .emit import Emitter
from .purity import Purity
from .refs import (
    AttrRef,
    BuiltinRef,
    Callee,
    CallRef,
    CounterRef,
    FieldRef,
    LocalRef,
    Owner,
    Ref,
    SelfRef,
    ThisRef,
    Type,
    WordRef,
    ZoneRef,
)
from .visit import Visitor
from .writes import Writes

SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")  # an expression that is just a variable
INERT = re.compile(r"^(?:[A-Za-z_][A-Za-z_0-9]*|-?[0-9]+)$")  # a variable, a constant or a number
INLINE_NODES = 16  # the largest value written out in place of a call
INLINE_KINDS = (s.IntLit, s.StrLit, s.BoolLit, s.NoneLit, s.Name, s.Attr, s.BinOp, s.BoolOp, s.Not, s.Neg, s.Call)
PREFIX = {Callee.PROCEDURE: "proc", Callee.VALUE: "val", Callee.KEYWORD: "kw"}


# built-ins whose implementation is Python's own function of the same name (checked by a test)
# (`max` and `min` of two numbers are quicker written out in the runtime than Python's own)
PYTHON_SAME = frozenset({"abs"})
# built-ins that return a new list at every call
FRESH_LISTS = frozenset(BuiltinRef(name) for name in ("cards", "players", "others", "characters", "card_ids"))


class ExprGen(Visitor[str]):
    """Python source for expressions of one checked game."""

    def __init__(self, checked: Checked, out: Emitter, names: dict[tuple[str, str], str]) -> None:
        self.c = checked
        self.sym = checked.symbols
        self.out = out
        self.names = names  # (kind, declaration) -> generated function name
        self.writes = Writes(checked)  # what no modifier changes is read straight from its holder
        self.purity = Purity(checked, self.writes)  # what only reads: walked as it is, worked out once
        self.shared: dict[int, str] = {}  # calls worked out once ahead (by node identity) -> their variable
        self.addendum_chars = {name: tuple(w for o in a.props if o.name == "for" for w in o.words())
                               for name, a in self.sym.addenda.items()}
        self.inlined: dict[str, str] | None = None  # a value's parameters, while it is written in place
        self.walked = 0  # > 0 while writing items a loop or comprehension walks (see `listed`)
        self._inlinable: dict[str, bool] = {}

    def __call__(self, e: s.Expr) -> str:
        return self.visit(e)

    def grows(self, node: s.Node) -> bool:
        """Whether `node` does arithmetic that can grow (a sum or product) past the number
        bound; other values cannot grow past what they were built from."""
        return _grows(node) and self.c.type_of(node) is not Type.LIST

    def bounded(self, node: s.Node, code: str) -> str:
        """`code` checked against the number bound where `node` grows."""
        return f"rt.num({code})" if self.grows(node) else code

    # ---- literals ----

    def visit_IntLit(self, e: s.IntLit) -> str:
        return repr(e.value)

    def visit_StrLit(self, e: s.StrLit) -> str:
        return self.out.const(e.value)

    def visit_BoolLit(self, e: s.BoolLit) -> str:
        return repr(e.value)

    def visit_NoneLit(self, e: s.NoneLit) -> str:
        return "None"

    def visit_PairLit(self, e: s.PairLit) -> str:
        return self.out.const(Pair(e.left, e.right, e.braced))

    def visit_DeltaLit(self, e: s.DeltaLit) -> str:
        return self.out.const(Delta(e.left, e.right))

    def visit_RangeLit(self, e: s.RangeLit) -> str:
        return self.out.const(tuple(range(e.low, e.high + 1)))

    def visit_ListLit(self, e: s.ListLit) -> str:
        return "[" + ", ".join(self.visit(i) for i in e.items) + "]"

    def visit_ListWhere(self, e: s.ListWhere) -> str:
        var = self.out.local(e.var)
        items = self.walked_items(e.items, self.purity.only_reads(e.cond))
        return f"[{var} for {var} in {items} if ({self.visit(e.cond)})]"

    def walked_items(self, e: s.Expr, only_reads: bool) -> str:
        """The items a loop or filter walks: as they are (a zone's own list of cards included)
        where what it evaluates for each item `only_reads`, so cannot change them; else `listed`."""
        if not only_reads:
            return self.listed(e)
        self.walked += 1
        try:
            return self.joined(e)
        finally:
            self.walked -= 1

    def listed(self, e: s.Expr) -> str:
        """The items of `e` as a list of their own, which no change to the game alters while it
        is walked: a list the expression builds anew is used as it is, anything else copied.
        (Python forbids `:=` in what a comprehension walks, and these items may be that.)
        The players are walked in the game's own list, which no rule changes."""
        if self.is_players(e):
            return "g.players"
        self.walked += 1
        try:
            code = self.visit(e)
        finally:
            self.walked -= 1
        return code if self.walked_as_is(e) else f"list({code})"

    def walked_as_is(self, e: s.Expr) -> bool:
        """Whether `e`'s list needs no copy to be walked: a new one, or a list in a variable (the
        language changes no list in place: `+` makes a new one, and no expression gives a zone's
        own list of cards, which the game does change)."""
        return self.fresh_list(e) or (isinstance(self.c.resolution.get(e), LocalRef) and self.c.type_of(e) is Type.LIST)

    def fresh_list(self, e: s.Expr) -> bool:
        """Whether `e` builds a new list each time it is evaluated (so it is never none)."""
        if isinstance(e, (s.ListLit, s.ListWhere)):
            return True
        if isinstance(e, s.Call) and self.c.ref(e) in FRESH_LISTS:
            return True
        # two lists joined by `rt.concat`: a list of its own
        return isinstance(e, s.BinOp) and e.op == "+" and self.c.type_of(e.left) is self.c.type_of(e.right) is Type.LIST

    def is_players(self, e: s.Expr) -> bool:
        """Whether `e` is `players()`: every player in seat order, a list fixed for the game."""
        return isinstance(e, s.Call) and self.c.ref(e) == BuiltinRef("players")

    # ---- operators ----

    def visit_Index(self, e: s.Index) -> str:
        return f"rt.at({self.visit(e.obj)}, {self.visit(e.index)})"

    def visit_BinOp(self, e: s.BinOp) -> str:
        lt, rt = self.c.type_of(e.left), self.c.type_of(e.right)
        if e.op == "+" and lt is Type.LIST and rt is Type.LIST:  # the join is a new list: no copies before it
            return f"rt.concat({self.joined(e.left)}, {self.joined(e.right)})"
        left, right = self.visit(e.left), self.visit(e.right)
        if e.op in ("+", "-"):
            if lt is Type.INT and rt is Type.INT:
                return f"({left} {e.op} {right})"
            return f"rt.{'add' if e.op == '+' else 'sub'}({left}, {right})"
        if e.op in ("==", "!="):
            if "None" in (left, right):
                return f"({left} {'is' if e.op == '==' else 'is not'} {right})"
            if {lt, rt} & {Type.LIST, Type.RANGE}:  # lists and ranges compare by their members
                return f"({'' if e.op == '==' else 'not '}rt.same({left}, {right}))"
        return f"({left} {e.op} {right})"

    def visit_BoolOp(self, e: s.BoolOp) -> str:
        return "(" + f" {e.op} ".join(self.visit(v) for v in e.values) + ")"

    def visit_Not(self, e: s.Not) -> str:
        return f"(not {self.visit(e.operand)})"

    def visit_Neg(self, e: s.Neg) -> str:
        return f"(-{self.visit(e.operand)})"

    def joined(self, e: s.Expr) -> str:
        """A side of a join of two lists: a named zone's own list of cards where the side would
        copy it (`cards(zone)`, `zone.cards`), since the join copies it anyway; the game's own
        list of players likewise."""
        if self.is_players(e):
            return "g.players"
        own = self.zone_cards(e)
        return own if own is not None else self.visit(e)

    def zone_cards(self, e: s.Expr) -> str | None:
        """A named zone's own list of cards, where `e` is `cards(zone)` or `zone.cards`."""
        if isinstance(e, s.Call) and self.c.ref(e) == BuiltinRef("cards") \
                and isinstance(self.c.resolution.get(e.args[0]), ZoneRef):
            return f"{self.visit(e.args[0])}.cards"
        ref = self.c.resolution.get(e) if isinstance(e, s.Attr) else None
        if isinstance(e, s.Attr) and isinstance(ref, AttrRef) and ref.of is Type.ZONE and ref.name == "cards":
            return f"{self.visit(e.obj)}.cards"
        return None

    # ---- names and attributes ----

    def visit_Name(self, e: s.Name) -> str:
        return self.ref(self.c.ref(e), None)

    def visit_ZoneLabel(self, e: s.ZoneLabel) -> str:
        return self.ref(self.c.ref(e), None)

    def visit_Attr(self, e: s.Attr) -> str:
        return self.ref(self.c.ref(e), self.visit(e.obj))

    def ref(self, ref: Ref, obj: str | None) -> str:
        """The Python for a resolved name; `obj` is the attribute's object (`p` in `p.hand`)."""
        match ref:
            case LocalRef(name):
                return self.inlined[name] if self.inlined is not None else self.out.local(name)
            case SelfRef():
                return "self_"
            case ThisRef():
                return "this"
            case ZoneRef(zone, owner):
                index = self.sym.zones[zone].index
                return f"g.zones[{index}]" if owner is Owner.SHARED else f"{self._owner(owner, obj)}.zones[{index}]"
            case CounterRef(counter, owner):
                player = "None" if owner is Owner.SHARED else self._owner(owner, obj)
                return self.counter_read(player, counter)
            case CallRef(callee, name, implicit) if implicit is not None:
                args = [] if implicit is Owner.SHARED else [self._owner(implicit, obj)]
                return self.called(callee, name, args)
            case FieldRef(field):
                assert obj is not None
                key = self.out.const(field)
                if not SIMPLE.match(obj):
                    return f"g.read({obj}, {key})"
                if not self.writes.modified(field):  # no modifier can ever be in force
                    return f"{obj}.fields[{key}]"
                return f"({obj}.fields[{key}] if {key} not in g.mods else g.read({obj}, {key}))"
            case AttrRef(of, name):
                assert obj is not None
                return self._attribute(of, name, obj)
            case WordRef(word):
                return self.out.const(word)
            case CallRef() | BuiltinRef():
                raise AssertionError(f"{ref} names a call, not a value")
            case _:
                assert_never(ref)

    @staticmethod
    def _owner(owner: Owner, obj: str | None) -> str:
        if owner is Owner.SELF:
            return "self_"
        assert obj is not None, "an attribute's owner needs its object"
        return obj

    @staticmethod
    def _attribute(of: Type, name: str, obj: str) -> str:
        if of is Type.OBJ and name == "card":
            return f"rt.card_of({obj})"
        if of is Type.ZONE and name == "cards":
            return f"list({obj}.cards)"
        if of is Type.ZONE and name == "size":
            return f"len({obj}.cards)"
        return f"{obj}.{name}"

    def counter_read(self, player: str, name: str) -> str:
        """A player's counter (`None`: a shared one); read directly while no modifier of it is in
        force (modifiers are kept by the name of what they change)."""
        info = self.sym.counters[name]
        read = f"g.get({player}, {info.index})"
        if player == "None" or SIMPLE.match(player):
            holder = "g" if player == "None" else player
            if not self.writes.modified(name):  # no modifier can be in force
                read = f"{holder}.counters[{info.index}]"
            else:
                unmodified = f"not g.mods or {self.out.const(name)} not in g.mods"
                read = f"({holder}.counters[{info.index}] if {unmodified} else {read})"
        if info.absent is not None and info.addendum is not None:
            chars = self.addendum_chars.get(info.addendum, ())
            return f"({read} if rt.hosts({player}, {self.out.const(chars)}) else {info.absent!r})"
        return read

    # ---- calls ----

    def visit_Call(self, e: s.Call) -> str:
        ahead = self.shared.get(id(e))
        if ahead is not None:  # worked out ahead (see `StmtGen.shared_calls`)
            return ahead
        ref = self.c.ref(e)
        args = [self.visit(a) for a in e.args]
        joined = "".join(", " + a for a in args)
        match ref:
            case CallRef(Callee.TIMING, name):
                assert isinstance(e.func, s.Attr)
                default = next((o.atoms[0].literal() for o in self.sym.timings[name].opts
                                if o.name == "default" and o.atoms), None)
                obj, key = self.visit(e.func.obj), self.out.const(name)
                call = f"g.run({obj}, {key}, {default!r}{joined})"
                if SIMPLE.match(obj) and all(inert(a) for a in args):  # most cards have no such block
                    return f"({call} if {key} in {obj}.timings else {default!r})"
                return call
            case CallRef(callee, name):
                return self.called(callee, name, args)
            case BuiltinRef(name):
                if name in PYTHON_SAME:  # the built-in is exactly Python's: call it directly
                    return f"{name}({', '.join(args)})"
                return self.builtin_inline(name, e, args) or f"rt.{BUILTINS[name].runtime_name}(g{joined})"
            case _:
                raise AssertionError(f"{ref} is not a call")

    def called(self, callee: Callee, name: str, args: list[str]) -> str:
        """A call of the module's own function, or a small value written out in place."""
        if callee is Callee.VALUE and self.inlined is None and all(inert(a) for a in args) \
                and self.inlinable(self.sym.values[name]):
            self.inlined = dict(zip(self.sym.values[name].params, args, strict=True))
            try:
                return self.bounded(self.sym.values[name].expr, self.visit(self.sym.values[name].expr))
            finally:
                self.inlined = None
        return f"{self.names[(PREFIX[callee], name)]}(g{''.join(', ' + a for a in args)})"

    def inlinable(self, v: s.Value) -> bool:
        """Whether a value is small and self-contained enough to write out where it is used: at
        most INLINE_NODES nodes, reading only its parameters and the game, calling built-ins
        only (no value or procedure, so nothing recurses), with no list filter (its variable)."""
        known = self._inlinable.get(v.name)
        if known is None:
            nodes = list(s.walk(v.expr))
            known = self._inlinable[v.name] = len(nodes) <= INLINE_NODES and all(
                isinstance(n, INLINE_KINDS) and not isinstance(self.c.resolution.get(n), CallRef)
                for n in nodes)
        return known

    def builtin_inline(self, name: str, e: s.Call, args: list[str]) -> str | None:
        """A built-in written out in place, with its runtime function's meaning (a missing value
        counts as empty), where that needs no call; None where the call is needed."""
        zone_named = bool(e.args) and isinstance(self.c.resolution.get(e.args[0]), ZoneRef)
        if name == "count":
            return self.count_inline(e, args)
        if name in ("max", "min") and not self.walked:
            return self.larger_or_smaller(name, args[0], args[1])
        if name == "cards" and zone_named:
            return f"list({args[0]}.cards)"  # a zone named here is never none: copied as `fn_cards` does
        if name == "space" and zone_named and (len(args) == 1 or inert(args[1])):
            zone = self.c.resolution.get(e.args[0])
            assert isinstance(zone, ZoneRef)
            capacity = self.sym.zones[zone.zone].capacity
            if capacity is None or self.walked:
                return f"g.space({args[0]})"
            room = self.out.new_temp()  # a zone's room: its fixed capacity less what it holds, not below 0
            return f"({room} if ({room} := {capacity} - {args[0]}.held) > 0 else 0)"
        if name == "size":
            return f"len({args[0]})" if self.fresh_list(e.args[0]) else f"len({args[0]} or ())"
        if name == "contains" and (self.reads_only(e.args[0]) or self.reads_only(e.args[1])):
            return f"({args[1]} in ({args[0]} or ()))"  # the item is evaluated first here
        if name == "seat":
            return "g.players[0]" if args[0] == "0" else f"g.players[{args[0]} % len(g.players)]"
        if name == "index_of" and SIMPLE.match(args[0]):
            return f"({args[0]}.index if {args[0]} is not None else None)"
        if name == "players":
            return "list(g.players)"
        if name == "player_count":
            return "len(g.players)"
        if name == "card_prop" and SIMPLE.match(args[0]) and isinstance(e.args[1], s.StrLit):
            field = self.sym.fields.get(e.args[1].value)  # its default where the card sets none
            default = self.out.const(field.default) if field is not None else "None"
            return f"(g.rules.cards[{args[0]}].props.get({args[1]}, {default}) if {args[0]} in g.rules.cards else None)"
        return None

    def reads_only(self, e: s.Expr) -> bool:
        """Whether `e` only reads: a literal, a variable, a word, or a zone, counter, field or
        attribute of such, read straight from its holder (no modifier can be in force, so no
        rule runs), and operators on such; evaluating it earlier or later than written changes
        nothing."""
        if isinstance(e, (s.IntLit, s.StrLit, s.BoolLit, s.NoneLit)):
            return True
        if isinstance(e, (s.Not, s.Neg)):
            return self.reads_only(e.operand)
        if isinstance(e, (s.BoolOp, s.BinOp)):
            return all(self.reads_only(v) for v in (e.values if isinstance(e, s.BoolOp) else (e.left, e.right)))
        if not isinstance(e, (s.Name, s.Attr)) or (isinstance(e, s.Attr) and not self.reads_only(e.obj)):
            return False
        match self.c.ref(e):
            case LocalRef() | SelfRef() | ThisRef() | WordRef() | ZoneRef() | AttrRef():
                return True
            case CounterRef(counter) | FieldRef(counter):
                return not self.writes.modified(counter)
            case _:
                return False

    def larger_or_smaller(self, name: str, a: str, b: str) -> str:
        """`max`/`min` of two, as `fn_max`/`fn_min` (`b` when it is strictly larger/smaller, else
        `a`), each side evaluated once and in order (a variable or constant needs no name)."""
        first = a if inert(a) else self.out.new_temp()
        second = self.out.new_temp()
        into = a if first == a else f"({first} := {a})"
        return f"({second} if {into} {'<' if name == 'max' else '>'} ({second} := {b}) else {first})"

    def count_inline(self, e: s.Call, args: list[str]) -> str | None:
        """`count` inlined where the zone or token kind is known here, with the meaning of
        `fn_count` (a missing holder counts 0); None where the general call is needed."""
        if len(e.args) == 2:
            token = self.c.resolution.get(e.args[1])
            if isinstance(token, WordRef) and token.word in self.sym.tokens \
                    and not self.sym.token_owned[token.word] and SIMPLE.match(args[0]):
                return f"({args[0]}.tokens.get({self.out.const(token.word)}, 0) if {args[0]} is not None else 0)"
            return None
        where = self.c.resolution.get(e.args[0]) if len(e.args) == 1 else None
        if not isinstance(where, ZoneRef):
            return None
        zone = self.sym.zones[where.zone]
        if zone.holds_cards and not zone.tokens:
            return f"len({args[0]}.cards)"
        if zone.tokens and not zone.holds_cards:
            return f"{args[0]}.tokens.get({self.out.const(zone.tokens[0])}, 0)"
        return None


def inert(code: str) -> bool:
    """Whether generated code only reads a variable or a constant (evaluating it does nothing)."""
    return INERT.match(code) is not None


def _grows(node: s.Node) -> bool:
    """Does an expression hold `+`, `-` or `*` (outside the calls it makes)?"""
    match node:
        case s.BinOp():
            return node.op in ("+", "-", "*") or _grows(node.left) or _grows(node.right)
        case s.Neg():
            return _grows(node.operand)
        case s.BoolOp():
            return any(_grows(v) for v in node.values)
        case _:
            return False
