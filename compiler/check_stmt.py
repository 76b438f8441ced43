"""Check statements: one method per statement kind, in a scope that grows as `let` defines
names (a nested block sees them; what it defines stays inside it)."""

from __future__ import annotations

from . import syntax as s
from .check_expr import ExprChecker
from .checked import Context
from .diagnostics import did_you_mean
from .refs import CounterRef, FieldRef, LocalRef, Owner, Type
from .scope import Scope
from .unparse import unparse
from .visit import Visitor

PLAYERS = (Type.PLAYER, Type.LIST)
# What `modify X by C` may change a value of each type by: numbers add, a delta changes a
# two-sided value, a range change a range, and a value of the same type replaces it.
MODIFY_BY = {Type.INT: (Type.INT,), Type.BOOL: (Type.BOOL,), Type.PAIR: (Type.DELTA, Type.PAIR),
             Type.RANGE: (Type.RANGE_CHANGE, Type.RANGE)}


class StmtChecker(Visitor[None]):
    """Checks blocks of statements; `block(body, scope)` is the entry point."""

    def __init__(self, ctx: Context, exprs: ExprChecker) -> None:
        self.ctx = ctx
        self.sym = ctx.sym
        self.x = exprs
        self.sc = Scope({}, False)
        self.menu_scopes: dict[int, Scope] = {}  # id(menu) -> the scope its options are checked in

    def block(self, body: tuple[s.Stmt, ...], sc: Scope) -> None:
        outer, self.sc = self.sc, sc
        try:
            for st in body:
                try:
                    self.visit(st)
                except RecursionError:
                    self.ctx.error("E004", "this statement is nested too deeply to check", st.span,
                                   hint="split it with `let` steps")
        finally:
            self.sc = outer

    def expr(self, e: s.Expr) -> Type:
        return self.x.check(e, self.sc)

    def expect(self, e: s.Expr, types: tuple[Type, ...], what: str) -> Type:
        return self.x.expect(e, self.sc, types, what)

    def _event(self, name: str, count: int, span: s.Span, what: str) -> None:
        ev = self.sym.events.get(name)
        if ev is None:
            self.ctx.error("E101", f"unknown event {name!r}", span, suggestion=did_you_mean(name, self.sym.events))
        elif len(ev.params) != count:
            self.ctx.error("E106", f"event {ev.name} {what} {len(ev.params)} argument(s), got {count}"
                           if what == "takes" else f"event {ev.name} has {len(ev.params)} parameter(s)", span)

    def _until(self, until: str | None, span: s.Span) -> None:
        if until is not None and until not in self.sym.events:
            self.ctx.error("E101", f"unknown event {until!r}", span, suggestion=did_you_mean(until, self.sym.events))

    def outer_write(self, name: str, span: s.Span) -> None:
        """W203 when a `once` block assigns a variable of the block around it."""
        if self.sc.once_outer is not None and name in self.sc.once_outer:
            self.ctx.warn("W203", f"this `once` block changes {name!r}, a variable of the block around it",
                          span, hint="the change happens when the event does, after that block has run")

    # ---- values of `let` and `return` ----

    def let_value(self, value: s.Expr | s.Choice | s.Move) -> Type:
        match value:
            case s.Move():
                self.visit_Move(value)
                return Type.INT
            case s.Pick():
                self.expr(value.collection)
                self.expect(value.player, (Type.PLAYER,), "a player")
                for cond in (value.where, value.prefer):
                    if cond is not None:
                        inner = self.sc.child()
                        inner.names[value.var] = Type.ANY
                        self.x.check(cond, inner)
                return Type.ANY
            case s.NumberChoice():
                self.expect(value.low, (Type.INT,), "a number")
                self.expect(value.high, (Type.INT,), "a number")
                self.expect(value.player, (Type.PLAYER,), "a player")
                return Type.INT
            case s.Ask():
                self.expect(value.player, (Type.PLAYER,), "a player")
                return Type.BOOL
            case _:
                return self.expr(value)

    def target(self, target: s.Expr) -> Type:
        """The type of something assigned to; E111 unless it can be."""
        resolution = self.ctx.checked.resolution
        if isinstance(target, s.Name):
            if target.ident in self.sc.names:
                resolution[target] = LocalRef(target.ident)
                self.outer_write(target.ident, target.span)
                # the variable's type, as its reads have it: `n += 1` on a number is plain arithmetic
                t = self.ctx.checked.types[target] = self.sc.names[target.ident]
                return t
            info = self.sym.counters.get(target.ident)
            if info is not None and not info.per_player:
                resolution[target] = CounterRef(target.ident, Owner.SHARED)
                return self.expr(target)
            self.ctx.error("E111", f"cannot assign to {target.ident!r}", target.span,
                           hint="assign to counters, flags, fields (x.f) or variables made with `let`")
            return Type.ANY
        if isinstance(target, s.Attr):
            before = len(self.ctx.diags)
            t = self.expr(target)
            ref = resolution.get(target)
            assignable = isinstance(ref, FieldRef) or isinstance(ref, CounterRef)
            if not assignable and len(self.ctx.diags) == before:
                self.ctx.error("E111", f"cannot assign to {target.name!r}", target.span,
                               hint="only counters, flags and object fields can change")
            return t if assignable else Type.ANY
        self.ctx.error("E111", "cannot assign to this expression", target.span)
        return Type.ANY

    # ---- statements ----

    def visit_Let(self, st: s.Let) -> None:
        t = self.let_value(st.value)
        self.outer_write(st.name, st.span)
        self.sc.names[st.name] = t

    def visit_Assign(self, st: s.Assign) -> None:
        t = self.target(st.target)
        vt = self.expr(st.value)
        if Type.ANY not in (t, vt) and t is not vt:
            self.ctx.error("E110", f"{unparse(st.target)} holds {t.article}: it cannot be set to {vt.article}",
                           st.value.span)

    def visit_AugAssign(self, st: s.AugAssign) -> None:
        t = self.target(st.target)
        vt = self.expr(st.value)
        if t is Type.INT and vt not in (Type.INT, Type.ANY):
            self.ctx.error("E110", f"cannot add a {vt.value} to a number", st.value.span)

    def visit_Move(self, st: s.Move) -> None:
        self.expect(st.amount, (Type.INT,), "a number of tokens")
        tokens = self.sym.tokens
        if st.token is not None and st.token not in tokens:
            self.ctx.error("E101", f"unknown token {st.token!r}", st.token_span or st.span,
                           suggestion=did_you_mean(st.token, tokens))
        if st.token is None and len(tokens) != 1:
            self.ctx.error("E104", "say which token moves: `move N TOKEN from … to …`", st.span,
                           hint="tokens: " + ", ".join(tokens))
        if st.owner is not None:
            self.expect(st.owner, (Type.PLAYER,), "a player")
            if st.token is not None and not self.sym.token_owned.get(st.token, False):
                self.ctx.error("E104", f"token {st.token} has no owner", st.owner.span,
                               hint="declare it with `token NAME: owned`")
        self.expect(st.source, (Type.ZONE, Type.OBJ), "a zone or an object")
        self.expect(st.dest, (Type.ZONE, Type.OBJ), "a zone or an object")

    def visit_Put(self, st: s.Put) -> None:
        self.expect(st.obj, (Type.OBJ,), "a card or object")
        self.expect(st.dest, (Type.ZONE,), "a zone")

    def visit_Emit(self, st: s.Emit) -> None:
        self._event(st.event, len(st.args), st.span, "takes")
        for a in st.args:
            self.expr(a)
        ev = self.sym.events.get(st.event)
        if ev is not None:
            self.x.declared_arguments(st.args, ev.params, ev.types, f"event {ev.name}")

    def visit_Modify(self, st: s.Modify) -> None:
        t = Type.ANY
        if not isinstance(st.target, (s.Attr, s.Name)):
            self.ctx.error("E111", "`modify` needs a field or counter like x.power", st.span)
        else:
            t = self.target(st.target)
        by = self.expr(st.delta)
        allowed = MODIFY_BY.get(t, (by,))
        if by is not Type.ANY and by not in allowed:
            self.ctx.error("E110", f"{unparse(st.target)} holds {t.article}: it changes by "
                           f"{' or '.join(a.article for a in allowed)}, not {by.article}", st.delta.span)
        if st.while_ is not None:
            self.expr(st.while_)
        self._until(st.until, st.span)

    def visit_Forbid(self, st: s.Forbid) -> None:
        if st.token not in self.sym.tokens:
            self.ctx.error("E101", f"unknown token {st.token!r}", st.span,
                           suggestion=did_you_mean(st.token, self.sym.tokens))
        self.expect(st.zone, (Type.ZONE, Type.OBJ), "a zone or a card")
        if st.while_ is not None:
            self.expr(st.while_)

    def visit_Reveal(self, st: s.Reveal) -> None:
        self.expect(st.what, (Type.ZONE, Type.OBJ, Type.LIST), "a card, a list of cards or a zone")
        self.expect(st.to, PLAYERS, "a player or a list of players")

    def visit_Shuffle(self, st: s.Shuffle) -> None:
        self.expect(st.zone, (Type.ZONE,), "a zone")

    def visit_Log(self, st: s.Log) -> None:
        for a in st.args:
            self.expr(a)
        if st.to is not None:
            self.expect(st.to, PLAYERS, "a player or a list of players")

    def visit_Expect(self, st: s.Expect) -> None:
        self.expr(st.cond)

    def visit_ExpectOffered(self, st: s.ExpectOffered) -> None:
        self.expect(st.player, (Type.PLAYER,), "a player")

    def visit_ExpectWinner(self, st: s.ExpectWinner) -> None:
        self.expect(st.player, (Type.PLAYER,), "a player (or none for a draw)")

    def visit_Return(self, st: s.Return) -> None:
        if st.value is None:
            return
        if self.sc.once_outer is not None:
            self.ctx.error("E112", "a `once` block cannot return a value", st.span,
                           hint="`return` alone ends the block")
        self.let_value(st.value)

    def visit_End(self, st: s.End) -> None:
        if st.kind == "win":
            self.expect(st.player, PLAYERS, "a player or a list of players")
        elif st.kind == "lose":
            self.expect(st.player, (Type.PLAYER,), "a player")
        else:
            self.expr(st.player)

    def visit_CallStmt(self, st: s.CallStmt) -> None:
        if not isinstance(st.call, s.Call):
            self.ctx.error("E001", "this line does nothing: a statement must call, assign or act", st.span)
        self.expr(st.call)

    def visit_Pass(self, st: s.Pass) -> None:
        pass

    def visit_Break(self, st: s.Break) -> None:
        if self.sc.loops == 0:
            self.ctx.error("E112", "`break` outside a loop", st.span)

    def visit_If(self, st: s.If) -> None:
        for cond, body in st.branches:
            self.expr(cond)
            self.block(body, self.sc.child())
        self.block(st.orelse, self.sc.child())

    def visit_For(self, st: s.For) -> None:
        self.expr(st.iterable)
        self.outer_write(st.var, st.span)
        inner = self.sc.loop_body()
        inner.names[st.var] = Type.ANY
        self.block(st.body, inner)

    def visit_While(self, st: s.While) -> None:
        self.expr(st.cond)
        self.block(st.body, self.sc.loop_body())

    def visit_Repeat(self, st: s.Repeat) -> None:
        self.expr(st.count)
        self.block(st.body, self.sc.loop_body())

    def visit_Menu(self, st: s.Menu) -> None:
        self.expect(st.player, (Type.PLAYER,), "a player")
        self.menu_scopes[id(st)] = self.sc.child()
        self.options(st.options, self.sc)

    def options(self, options: tuple[s.Option, ...], sc: Scope) -> None:
        """Each option in its own scope under `sc`: its variable, its condition, its body."""
        outer, self.sc = self.sc, sc
        try:
            for opt in options:
                inner = self.sc.child()
                if opt.var is not None and opt.iterable is not None:
                    self.expr(opt.iterable)
                    inner.names[opt.var] = Type.ANY
                if opt.cond is not None:
                    self.x.check(opt.cond, inner)
                self.block(opt.body, inner)
        finally:
            self.sc = outer

    def visit_Once(self, st: s.Once) -> None:
        self._event(st.event, len(st.params), st.span, "has")
        self._until(st.until, st.span)
        ev = self.sym.events.get(st.event)
        inner = self.sc.once_body(st.params, ev.types if ev is not None else ())
        if st.cond is not None:
            self.x.check(st.cond, inner)
        self.block(st.body, inner)
