"""Check expressions: resolve every name, give every expression a type, report misuse."""

from __future__ import annotations

from collections.abc import Sequence

from . import syntax as s
from .builtins import BUILTINS
from .checked import Context
from .diagnostics import did_you_mean
from .limits import MAX_RANGE
from .refs import (
    AttrRef,
    BuiltinRef,
    Callee,
    CallRef,
    CounterRef,
    FieldRef,
    LocalRef,
    Owner,
    SelfRef,
    ThisRef,
    Type,
    WordRef,
    ZoneRef,
)
from .scope import Scope, param_types
from .symbols import CounterInfo
from .visit import Visitor

OBJ_ATTRS = {"owner": Type.PLAYER, "zone": Type.ZONE, "name": Type.STR, "card": Type.STR,
             "kind": Type.STR, "uid": Type.INT}
ZONE_ATTRS = {"owner": Type.PLAYER, "cards": Type.LIST, "size": Type.INT}
PLAYER_ATTRS = {"picks": Type.LIST, "index": Type.INT}
FIELD_TYPES = {"int": Type.INT, "pair": Type.PAIR, "range": Type.RANGE, "bool": Type.BOOL}
NUMERIC = (Type.INT, Type.ANY)
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
CHANGE_TYPES = frozenset({Type.DELTA, Type.RANGE_CHANGE})
# `value + change` (and `-`, but a range change is only ever added): what each sum gives.
CHANGES = {
    (Type.PAIR, Type.DELTA): Type.PAIR, (Type.PAIR, Type.ANY): Type.PAIR, (Type.ANY, Type.DELTA): Type.ANY,
    (Type.RANGE, Type.RANGE_CHANGE): Type.RANGE, (Type.RANGE, Type.ANY): Type.RANGE,
    (Type.ANY, Type.RANGE_CHANGE): Type.ANY,
    (Type.RANGE_CHANGE, Type.RANGE_CHANGE): Type.RANGE_CHANGE, (Type.RANGE_CHANGE, Type.ANY): Type.RANGE_CHANGE,
}


def counter_type(info: CounterInfo) -> Type:
    """bool for flags, int for counters that start at a number, otherwise any value."""
    if info.flag:
        return Type.BOOL
    return Type.INT if isinstance(info.start, int) else Type.ANY


class ExprChecker(Visitor[Type]):
    """Types one expression in a scope; the scope is set by `check`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.sym = ctx.sym
        self.sc = Scope({}, False)

    def check(self, e: s.Expr, sc: Scope) -> Type:
        outer, self.sc = self.sc, sc
        try:
            t = self.visit(e)
        finally:
            self.sc = outer
        self.ctx.checked.types[e] = t
        return t

    def expect(self, e: s.Expr, sc: Scope, types: tuple[Type, ...], what: str) -> Type:
        t = self.check(e, sc)
        if t not in types and t is not Type.ANY:
            self.ctx.error("E110", f"expected {what}, found a {t.value}", e.span)
        return t

    def _sub(self, e: s.Expr) -> Type:
        return self.check(e, self.sc)

    def _resolve(self, node: s.Node, ref: object) -> None:
        self.ctx.checked.resolution[node] = ref  # type: ignore[assignment]

    # ---- literals ----

    def visit_IntLit(self, e: s.IntLit) -> Type:
        return Type.INT

    def visit_StrLit(self, e: s.StrLit) -> Type:
        return Type.STR

    def visit_BoolLit(self, e: s.BoolLit) -> Type:
        return Type.BOOL

    def visit_NoneLit(self, e: s.NoneLit) -> Type:
        return Type.ANY

    def visit_PairLit(self, e: s.PairLit) -> Type:
        return Type.PAIR

    def visit_DeltaLit(self, e: s.DeltaLit) -> Type:
        return Type.DELTA

    def visit_RangeLit(self, e: s.RangeLit) -> Type:
        if not 0 <= e.low <= e.high <= MAX_RANGE:
            self.ctx.error("E104", f"range {e.low}-{e.high} must run upwards within 0-{MAX_RANGE}", e.span)
        return Type.RANGE

    def visit_ListLit(self, e: s.ListLit) -> Type:
        for item in e.items:
            self._sub(item)
        return Type.LIST

    def visit_ListWhere(self, e: s.ListWhere) -> Type:
        self._sub(e.items)
        inner = self.sc.child()
        inner.names[e.var] = Type.ANY
        self.check(e.cond, inner)
        return Type.LIST

    # ---- operators ----

    def visit_Index(self, e: s.Index) -> Type:
        self._sub(e.obj)
        self.expect(e.index, self.sc, (Type.INT,), "a number")
        return Type.ANY

    def visit_BinOp(self, e: s.BinOp) -> Type:
        lt, rt = self._sub(e.left), self._sub(e.right)
        if e.op in COMPARISONS:
            if e.op in ("<", "<=", ">", ">=") and (lt not in NUMERIC or rt not in NUMERIC):
                bad, t = (e.left, lt) if lt not in NUMERIC else (e.right, rt)
                self.ctx.error("E110", f"cannot compare {t.article} by size", bad.span)
            return Type.BOOL
        if e.op in ("+", "-"):
            changed = CHANGES.get((lt, rt))
            if changed is not None and (e.op == "+" or Type.RANGE_CHANGE not in (lt, rt)):
                return changed
            if e.op == "+" and lt in (Type.LIST, Type.ANY) and rt in (Type.LIST, Type.ANY) and Type.LIST in (lt, rt):
                return Type.LIST
        if lt in NUMERIC and rt in NUMERIC:
            return Type.INT
        bad, t = (e.left, lt) if lt not in NUMERIC else (e.right, rt)
        if e.op in ("+", "-") and lt in CHANGE_TYPES | {Type.PAIR, Type.RANGE} and rt is not Type.ANY:
            self.ctx.error("E110", f"cannot {'add' if e.op == '+' else 'take'} {rt.article} "
                           f"{'to' if e.op == '+' else 'from'} {lt.article}", e.right.span,
                           hint="a two-sided value changes by a delta like +1/-1; a range by shift(N) or expand(N, M)")
        else:
            self.ctx.error("E110", f"arithmetic needs numbers, found {t.article}", bad.span)
        return Type.INT

    def visit_BoolOp(self, e: s.BoolOp) -> Type:
        for v in e.values:
            self._sub(v)
        return Type.BOOL

    def visit_Not(self, e: s.Not) -> Type:
        self._sub(e.operand)
        return Type.BOOL

    def visit_Neg(self, e: s.Neg) -> Type:
        self.expect(e.operand, self.sc, (Type.INT,), "a number")
        return Type.INT

    # ---- names ----

    def visit_ZoneLabel(self, e: s.ZoneLabel) -> Type:
        name = self.sym.zone_by_label(e.label)
        if name is None:
            self.ctx.error("E101", f"no zone is labelled <{e.label}>", e.span,
                           suggestion=did_you_mean(e.label, self.sym.zone_labels))
            return Type.ANY
        return self._zone(e, name)

    def _zone(self, e: s.Expr, name: str) -> Type:
        if not self.sym.zones[name].per_player:
            self._resolve(e, ZoneRef(name, Owner.SHARED))
        elif self.sc.has_self:
            self._resolve(e, ZoneRef(name, Owner.SELF))
        else:
            self.ctx.error("E110", f"zone {name} belongs to each player: write p.{name}", e.span)
        return Type.ZONE

    def visit_Name(self, e: s.Name) -> Type:
        sym, ident = self.sym, e.ident
        if ident in self.sc.names:
            self._resolve(e, LocalRef(ident))
            return self.sc.names[ident]
        if ident in ("self", "this"):
            return self._self_or_this(e)
        if ident in sym.zones:
            return self._zone(e, ident)
        if ident in sym.counters:
            return self._counter_name(e, sym.counters[ident])
        if ident in sym.keywords:
            return self._keyword_name(e)
        if ident in sym.values:
            return self._value_name(e)
        for table in (sym.enum_words, sym.characters, sym.tokens, sym.kinds, sym.timings,
                      sym.events, sym.addenda, sym.cards):
            if ident in table:
                self._resolve(e, WordRef(ident))
                return Type.STR
        candidates = list(self.sc.names) + sym.all_names() + ["self", "this"]
        self.ctx.error("E101", f"unknown name {ident!r}", e.span, suggestion=did_you_mean(ident, candidates))
        return Type.ANY

    def _self_or_this(self, e: s.Name) -> Type:
        if e.ident == "self":
            if not self.sc.has_self:
                self.ctx.error("E101", "`self` is only known in cards and keywords", e.span,
                               hint="procedures receive players as parameters")
            else:
                self._resolve(e, SelfRef())
            return Type.PLAYER
        if not self.sc.has_this:
            self.ctx.error("E101", "`this` is only known in cards", e.span)
        else:
            self._resolve(e, ThisRef())
        return Type.OBJ

    def _counter_name(self, e: s.Name, info: CounterInfo) -> Type:
        if not info.per_player:
            self._resolve(e, CounterRef(e.ident, Owner.SHARED))
        elif self.sc.has_self:
            self._resolve(e, CounterRef(e.ident, Owner.SELF))
        else:
            self.ctx.error("E110", f"{e.ident} belongs to each player: write p.{e.ident}", e.span)
            return Type.INT
        return counter_type(info)

    def _keyword_name(self, e: s.Name) -> Type:
        if self.sym.keywords[e.ident].expr is None:
            self._resolve(e, WordRef(e.ident))
            return Type.STR
        if not self.sc.has_self:
            self.ctx.error("E110", f"keyword {e.ident} needs a player: use it inside a card", e.span)
        self._resolve(e, CallRef(Callee.KEYWORD, e.ident, Owner.SELF))
        return Type.BOOL

    def _value_name(self, e: s.Name) -> Type:
        params = self.sym.values[e.ident].params
        if not params:
            self._resolve(e, CallRef(Callee.VALUE, e.ident, Owner.SHARED))
        elif len(params) == 1 and self.sc.has_self:
            self._resolve(e, CallRef(Callee.VALUE, e.ident, Owner.SELF))
        else:
            self.ctx.error("E106", f"{e.ident} takes {len(params)} argument(s)", e.span)
        return Type.ANY

    # ---- attributes ----

    def visit_Attr(self, e: s.Attr) -> Type:
        sym, name = self.sym, e.name
        t = self._sub(e.obj)
        player, obj, zone = t in (Type.PLAYER, Type.ANY), t in (Type.OBJ, Type.ANY), t in (Type.ZONE, Type.ANY)
        if player and name in sym.zones and sym.zones[name].per_player:
            self._resolve(e, ZoneRef(name, Owner.OF))
            return Type.ZONE
        if player and name in sym.counters and sym.counters[name].per_player:
            self._resolve(e, CounterRef(name, Owner.OF))
            return counter_type(sym.counters[name])
        if player and name in sym.values and len(sym.values[name].params) == 1:
            self._resolve(e, CallRef(Callee.VALUE, name, Owner.OF))
            return Type.ANY
        if player and name in PLAYER_ATTRS:
            self._resolve(e, AttrRef(Type.PLAYER, name))
            return PLAYER_ATTRS[name]
        if obj and name in sym.fields:
            self._resolve(e, FieldRef(name))
            return FIELD_TYPES.get(sym.fields[name].type, Type.ANY)
        if obj and name in OBJ_ATTRS:
            self._resolve(e, AttrRef(Type.OBJ, name))
            return OBJ_ATTRS[name]
        if zone and name in ZONE_ATTRS:
            self._resolve(e, AttrRef(Type.ZONE, name))
            return ZONE_ATTRS[name]
        if obj and name in sym.timings:
            self.ctx.error("E110", f"{name} is a timing: call it as x.{name}(…)", e.span)
            return Type.ANY
        pool: list[str] = []
        if player:
            pool += [z for z, i in sym.zones.items() if i.per_player]
            pool += [c for c, i in sym.counters.items() if i.per_player] + list(PLAYER_ATTRS)
        if obj:
            pool += list(sym.fields) + list(OBJ_ATTRS)
        if zone:
            pool += list(ZONE_ATTRS)
        name_span = s.Span(e.span.file, e.span.end_line, max(e.span.end_col - len(name), 1),
                           e.span.end_line, e.span.end_col)
        self.ctx.error("E101", f"a {t.value} has no {name!r}", name_span, suggestion=did_you_mean(name, pool))
        return Type.ANY

    # ---- calls ----

    def visit_Call(self, e: s.Call) -> Type:
        sym = self.sym
        for a in e.args:
            self._sub(a)
        func = e.func
        if isinstance(func, s.Attr) and func.name in sym.timings:
            self.expect(func.obj, self.sc, (Type.OBJ,), "a card")
            timing = sym.timings[func.name]
            if len(timing.params) != len(e.args):
                self.ctx.error("E106", f"timing {func.name} takes {len(timing.params)} argument(s), "
                               f"got {len(e.args)}", e.span)
            self.declared_arguments(e.args, timing.params, timing.types, f"timing {func.name}")
            self._resolve(e, CallRef(Callee.TIMING, func.name))
            return Type.ANY
        if not isinstance(func, s.Name):
            self.ctx.error("E110", "only procedures, values, builtins and timings can be called", e.span)
            return Type.ANY
        name = func.ident
        if name in sym.procedures:
            proc = sym.procedures[name]
            return self._declared(e, Callee.PROCEDURE, name, proc.params, proc.types)
        if name in sym.values:
            value = sym.values[name]
            return self._declared(e, Callee.VALUE, name, value.params, value.types)
        if name in sym.keywords and sym.keywords[name].expr is not None:
            if len(e.args) != 1:
                self.ctx.error("E106", f"keyword {name}(p) takes one player", e.span)
            self._resolve(e, CallRef(Callee.KEYWORD, name))
            return Type.BOOL
        if name in BUILTINS:
            return self._builtin(e, name)
        self.ctx.error("E101", f"unknown procedure or function {name!r}", func.span,
                       suggestion=did_you_mean(name, list(sym.procedures) + list(sym.values) + list(BUILTINS)))
        return Type.ANY

    def _declared(self, e: s.Call, callee: Callee, name: str, params: tuple[str, ...],
                  types: tuple[str | None, ...]) -> Type:
        if len(params) != len(e.args):
            hint = f"{name}({', '.join(params)})" if callee is Callee.PROCEDURE else None
            self.ctx.error("E106", f"{name} takes {len(params)} argument(s), got {len(e.args)}", e.span, hint=hint)
        self.declared_arguments(e.args, params, types, name)
        self._resolve(e, CallRef(callee, name))
        return Type.ANY

    def declared_arguments(self, args: tuple[s.Expr, ...], params: tuple[str, ...],
                           types: tuple[str | None, ...], callee: str) -> None:
        """Arguments of a procedure, value, event or timing against its parameters' types."""
        expected = [(t,) for t in param_types(params, types)]
        self.arguments(args, expected, params, callee)

    def arguments(self, args: tuple[s.Expr, ...], expected: Sequence[tuple[Type, ...]],
                  names: Sequence[str], callee: str) -> None:
        """E110 at each argument whose type is none of those its parameter takes."""
        for arg, types, name in zip(args, expected, names, strict=False):
            found = self.ctx.checked.type_of(arg)
            if found is Type.ANY or found in types or Type.ANY in types:
                continue
            wanted = " or ".join(t.article for t in types)
            self.ctx.error("E110", f"{callee}: {name} must be {wanted}, found {found.article}", arg.span)

    def _builtin(self, e: s.Call, name: str) -> Type:
        b = BUILTINS[name]
        if not b.min_args <= len(e.args) <= len(b.params):
            count = str(b.min_args) if b.min_args == len(b.params) else f"{b.min_args} to {len(b.params)}"
            self.ctx.error("E106", f"{name} takes {count} argument(s), got {len(e.args)}", e.span,
                           hint=b.signature)
        self.arguments(e.args, [p.types for p in b.params], [p.name for p in b.params], name)
        self._resolve(e, BuiltinRef(name))
        if b.result_of_first and e.args:
            return self.ctx.checked.type_of(e.args[0])
        return b.result
