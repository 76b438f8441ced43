"""Generate statements: one method per statement kind, each writing lines to the emitter."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import groupby

from . import syntax as s
from .checked import Checked
from .emit import Emitter, bound_now
from .gen_expr import SIMPLE, ExprGen, inert
from .refs import CallRef, CounterRef, FieldRef, LocalRef, Owner, Ref, Type
from .visit import Visitor


@dataclass
class Where:
    """What the statements being written belong to: inside a card block (`this` and `self_`
    exist; its moves are card-effect moves), an anchored one, or a `once` block."""

    in_card: bool = False
    anchored: bool = False
    once_depth: int = 0


class StmtGen(Visitor[None]):
    """Writes the statements of one body at a time."""

    def __init__(self, checked: Checked, out: Emitter, expr: ExprGen) -> None:
        self.c = checked
        self.sym = checked.symbols
        self.out = out
        self.expr = expr
        self.where = Where()
        self.added = self.sym.added_options_by_menu()  # options addenda add to menus, by menu

    def body(self, stmts: tuple[s.Stmt, ...]) -> None:
        for st in stmts:
            self.visit(st)

    def guarded(self, cond: s.Expr | None, stmts: tuple[s.Stmt, ...]) -> None:
        """The body, run only when `cond` holds (a trigger's `if`)."""
        if cond is not None:
            self.out.emit(f"if not ({self.expr(cond)}):")
            with self.out.block():
                self.out.emit("return")
        self.body(stmts)

    @property
    def anchor(self) -> str:
        return "this" if self.where.anchored else "None"

    # ---- assignments ----

    def visit_Let(self, st: s.Let) -> None:
        value = self.let_value(st.value)
        self.out.emit(f"{self.out.local(st.name)} = {self.expr.bounded(st.value, value)}", st.span)

    def visit_Assign(self, st: s.Assign) -> None:
        self.assign(st.target, self.expr(st.value), st.span, self.expr.grows(st.value))

    def visit_AugAssign(self, st: s.AugAssign) -> None:
        current, value = self.expr(st.target), self.expr(st.value)
        if self.c.type_of(st.target) is Type.INT and self.c.type_of(st.value) is Type.INT:  # plain arithmetic
            self.assign(st.target, f"({current} {st.op[0]} {value})", st.span, True)
            return
        if st.op == "+=" and self.c.type_of(st.target) is Type.LIST and self.c.type_of(st.value) is Type.LIST:
            self.assign(st.target, f"rt.concat({current}, {value})", st.span, False)  # a list: no number to bound
            return
        fn = "rt.add" if st.op == "+=" else "rt.sub"
        self.assign(st.target, f"{fn}({current}, {value})", st.span, True)

    def assign(self, target: s.Expr, value: str, span: s.Span, grows: bool) -> None:
        """Store a value; one that may have grown is checked against the number bound here, or
        by the game where it stores it: `g.write` checks every number it stores, and `g.set`
        every number for a counter without bounds (one with bounds holds the value to them
        first, so a number past the language's bound is refused here)."""
        ref: Ref = self.c.ref(target)
        if grows and not (isinstance(ref, FieldRef) or isinstance(ref, CounterRef) and self.unbounded(ref.counter)):
            value = f"rt.num({value})"
        match ref:
            case LocalRef(name):
                self.out.emit(f"{self.out.local(name)} = {value}", span)
            case CounterRef(counter, owner):
                index = self.sym.counters[counter].index
                player = {Owner.SHARED: "None", Owner.SELF: "self_"}.get(owner)
                if player is None:
                    assert isinstance(target, s.Attr)
                    player = self.expr(target.obj)
                # most such writes find the value already there
                self.emit_if(self.counter_changes(counter, player, value), f"g.set({player}, {index}, {value})", span)
            case FieldRef(field):
                assert isinstance(target, s.Attr)
                self.field_write(self.expr(target.obj), self.out.const(field), value, self.c.type_of(target), span)
            case _:
                raise AssertionError(f"{ref} cannot be assigned (the checker lets only these through)")

    def unbounded(self, counter: str) -> bool:
        info = self.sym.counters[counter]
        return info.low is None and info.high is None

    def counter_changes(self, counter: str, player: str, value: str) -> str | None:
        """A test that the counter does not hold `value` yet, false exactly when `g.set` would
        change nothing (no bound applies: none, an empty list, or true/false to a flag); None
        where no such test is cheap."""
        info = self.sym.counters[counter]
        holder = "g" if player == "None" else player
        if not SIMPLE.match(holder):
            return None
        held = f"{holder}.counters[{info.index}]"
        if value == "None" or (info.flag and value in ("True", "False")):
            return f"{held} is not {value}"
        if value == "[]":
            return f"{held} != []"
        number = _number(value)
        if number is not None and not info.flag and (info.low is None or info.low <= number) \
                and (info.high is None or number <= info.high):  # a number the bounds leave as it is
            return f"{held} != {value}"
        return None

    def field_write(self, obj: str, key: str, value: str, kind: Type | None, span: s.Span) -> None:
        """`g.write`, skipped where the field already holds the value: the game's own first test
        (the very same value), or for a number field an equal number (most field writes put back
        what a card already shows)."""
        held = f"{obj}.fields[{key}]"
        test: str | None = None
        if not SIMPLE.match(obj):
            pass
        elif kind is Type.INT and _number(value) is not None:
            test = f"{held} != {value}"
        elif _number(value) is None and inert(value):
            test = f"{held} is not {value}"
        else:  # computed once, before the test
            computed, value = value, self.out.new_temp()
            self.out.emit(f"{value} = {computed}", span)
            test = f"{held} is not {value}"
        self.emit_if(test, f"g.write({obj}, {key}, {value})", span)

    def emit_if(self, test: str | None, line: str, span: s.Span) -> None:
        """`line`, under `if test:` where there is a test."""
        if test is None:
            self.out.emit(line, span)
            return
        self.out.emit(f"if {test}:", span)
        with self.out.block():
            self.out.emit(line, span)

    def let_value(self, value: s.Expr | s.Choice | s.Move) -> str:
        match value:
            case s.Move():
                return self.move(value)
            case s.Pick():
                var = self.out.local(value.var)
                # `g.pick` copies what it is given before anything runs: only a filter that
                # acts needs the items copied ahead of it
                items = self.expr.walked_items(
                    value.collection, value.where is None or self.expr.purity.only_reads(value.where))
                if value.where is not None:
                    items = f"[{var} for {var} in {items} if {self.expr(value.where)}]"
                prompt = self.out.const(value.labels.default or value.var)
                prefer = f", lambda {var}: ({self.expr(value.prefer)})" if value.prefer is not None else ""
                return f"g.pick({self.expr(value.player)}, {items}, {prompt}, {value.optional!r}{prefer})"
            case s.NumberChoice():
                prompt = self.out.const(value.labels.default or "?")
                return (f"g.choose_number({self.expr(value.player)}, {self.expr(value.low)}, "
                        f"{self.expr(value.high)}, {prompt})")
            case s.Ask():
                return f"g.confirm({self.expr(value.player)}, {self.out.const(value.labels.default or '?')})"
            case _:
                return self.expr(value)

    # ---- actions on the game ----

    def move(self, st: s.Move) -> str:
        token = st.token or next(iter(self.sym.tokens))
        owner = self.expr(st.owner) if st.owner is not None else "None"
        tail = f", {owner}, this" if self.where.in_card else f", {owner}" if st.owner is not None else ""
        return f"g.move({self.expr(st.amount)}, {self.out.const(token)}, {self.expr(st.source)}, {self.expr(st.dest)}{tail})"

    def visit_Move(self, st: s.Move) -> None:
        self.out.emit(self.move(st), st.span)

    def visit_Put(self, st: s.Put) -> None:
        self.out.emit(f"g.put({self.expr(st.obj)}, {self.expr(st.dest)}, {st.place!r})", st.span)

    def visit_Emit(self, st: s.Emit) -> None:
        """An event whose arguments are all variables or constants is emitted only when something
        may hear it (`g.heard`: what answers, awaits or listens); computed arguments may act."""
        codes = [self.expr(a) for a in st.args]
        event = self.out.const(st.event)
        heard = f"{event} in g.heard" if all(inert(code) for code in codes) else None
        self.emit_if(heard, f"g.emit({event}{''.join(', ' + code for code in codes)})", st.span)

    def visit_Modify(self, st: s.Modify) -> None:
        ref = self.c.ref(st.target)
        if isinstance(st.target, s.Attr):
            obj = self.expr(st.target.obj)
        else:
            obj = "self_" if isinstance(ref, CounterRef) and ref.owner is Owner.SELF else "None"
        name = ref.counter if isinstance(ref, CounterRef) else ref.field if isinstance(ref, FieldRef) else ""
        cond = _later(self.expr(st.while_)) if st.while_ is not None else "None"
        until = self.out.const(st.until) if st.until else "None"
        delta = _later(self.expr(st.delta)) if st.live else self.expr(st.delta)
        live = ", live=True" if st.live else ""
        self.out.emit(f"g.modify({obj}, {self.out.const(name)}, {delta}, {cond}, {until}, "
                      f"{self.anchor}{live})", st.span)

    def visit_Forbid(self, st: s.Forbid) -> None:
        guard = _later(self.expr(st.while_)) if st.while_ is not None else "None"
        self.out.emit(f"g.forbid({self.out.const(st.token)}, {self.expr(st.zone)}, {guard}, {self.anchor})", st.span)

    def visit_Reveal(self, st: s.Reveal) -> None:
        self.out.emit(f"g.reveal({self.expr(st.what)}, {self.expr(st.to)})", st.span)

    def visit_Shuffle(self, st: s.Shuffle) -> None:
        self.out.emit(f"g.shuffle({self.expr(st.zone)})", st.span)

    def visit_Log(self, st: s.Log) -> None:
        """A line whose arguments are all variables or constants is not even asked for in a game
        that keeps no log (computed arguments are evaluated either way: they may act or fail)."""
        args = [self.expr(a) for a in st.args]
        to = self.expr(st.to) if st.to is not None else None
        plain = all(inert(code) for code in args) and (to is None or inert(to))
        call = f"g.log({self.out.const(st.message)}{''.join(', ' + code for code in args)}"
        self.emit_if("g.logging" if plain else None, call + (f", to={to})" if to is not None else ")"), st.span)

    def visit_Expect(self, st: s.Expect) -> None:
        where = f"{st.span.file}:{st.span.line}"
        self.out.emit(f"rt.expect({self.expr(st.cond)}, {self.out.const(st.message or 'expectation')}, "
                      f"{self.out.const(where)})", st.span)

    def visit_ExpectOffered(self, st: s.ExpectOffered) -> None:
        where = self.out.const(f"{st.span.file}:{st.span.line}")
        self.out.emit(f"rt.expect_offered(g, {self.expr(st.player)}, {self.out.const(st.label)}, "
                      f"{st.offered!r}, {where})", st.span)

    def visit_ExpectWinner(self, st: s.ExpectWinner) -> None:
        where = self.out.const(f"{st.span.file}:{st.span.line}")
        self.out.emit(f"rt.expect_winner(g, {self.expr(st.player)}, {where})", st.span)

    def visit_End(self, st: s.End) -> None:
        reason = f", {self.out.const(st.reason)}" if st.reason is not None else ""
        self.out.emit(f"g.end({st.kind!r}, {self.expr(st.player)}{reason})", st.span)

    def visit_CallStmt(self, st: s.CallStmt) -> None:
        self.out.emit(self.expr(st.call), st.span)

    # ---- control ----

    def visit_Return(self, st: s.Return) -> None:
        if self.where.once_depth:
            self.out.emit("return True", st.span)  # a `once` block that returns has fired
        elif st.value is None:
            self.out.emit("return", st.span)
        else:
            self.out.emit(f"return {self.expr.bounded(st.value, self.let_value(st.value))}", st.span)

    def visit_Pass(self, st: s.Pass) -> None:
        self.out.emit("pass", st.span)

    def visit_Break(self, st: s.Break) -> None:
        self.out.emit("break", st.span)

    def visit_If(self, st: s.If) -> None:
        for k, (cond, branch) in enumerate(st.branches):
            self.out.emit(f"{'if' if k == 0 else 'elif'} {self.expr(cond)}:", cond.span)
            with self.out.block():
                self.body(branch)
        if st.orelse:
            self.out.emit("else:")
            with self.out.block():
                self.body(st.orelse)

    def visit_For(self, st: s.For) -> None:
        """The items count toward the game's loop limit before the walk (no items, nothing to
        count: many loops walk empty zones). A zone a body that acts walks is copied only when
        it holds cards."""
        items = self.out.new_temp()
        reads = self.expr.purity.only_reads(st.body)
        own = None if reads else self.expr.zone_cards(st.iterable)
        self.out.emit(f"{items} = {own or self.expr.walked_items(st.iterable, reads)}", st.span)
        self.out.emit(f"if {items}:")
        with self.out.block():
            if own is not None:
                self.out.emit(f"{items} = list({items})")
            self.count_loops(f"len({items})")
        self.out.emit(f"for {self.out.local(st.var)} in {items}:")
        with self.out.block():
            self.body(st.body)

    def visit_While(self, st: s.While) -> None:
        self.out.emit(f"while {self.expr(st.cond)}:", st.span)
        with self.out.block():
            self.count_loops("1")
            self.body(st.body)

    def visit_Repeat(self, st: s.Repeat) -> None:
        """Like a `for`, the rounds count toward the loop limit before the first."""
        rounds = self.out.new_temp()
        self.out.emit(f"{rounds} = range({self.expr(st.count)})", st.span)
        self.count_loops(f"len({rounds})")
        self.out.emit(f"for _ in {rounds}:")
        with self.out.block():
            self.body(st.body)

    def count_loops(self, amount: str) -> None:
        """Count loop rounds toward the game's loop limit (written out, not called: loops are on
        the hottest paths); `rt.tick` stops the game past the limit."""
        self.out.emit(f"g.loops += {amount}")
        self.out.emit("if g.loops > LOOP_LIMIT:")
        with self.out.block():
            self.out.emit("rt.tick(g)  # over the limit: stops the game")

    def visit_Menu(self, st: s.Menu) -> None:
        """Entries are built, offered with `g.menu`, and the chosen option's body runs. While
        the game has standing actions, they are offered too and the menu is asked again."""
        out = self.out
        entries, choice, value = out.new_temp(), out.new_temp(), out.new_temp()
        prompt = out.const(st.labels.default or "choose")
        options = [(opt, None) for opt in st.options] + self.added.get(id(st), [])
        passive = tuple(k for k, (opt, _) in enumerate(options) if opt.passive)
        quiet = f", {out.const(passive)}" if passive else ""
        if not self.sym.actions:
            self.menu_entries(st, options, entries)
            out.emit(f"{choice}, {value} = g.menu({self.expr(st.player)}, {prompt}, {entries}{quiet})")
        else:
            player = out.new_temp()
            out.emit(f"{player} = {self.expr(st.player)}", st.span)
            out.emit("while True:")
            with out.block():
                self.menu_entries(st, options, entries)
                out.emit(f"if g.live_actions and len({entries}) > 1:")
                with out.block():
                    same = self.labels_shared(options)
                    out.emit(f"{entries} += g.standing_actions({player}, {entries if same else '()'})")
                out.emit(f"{choice}, {value} = g.menu({player}, {prompt}, {entries}{quiet})")
                out.emit(f"if {choice} >= 0:")
                with out.block():
                    out.emit("break")
                out.emit(f"g.take_action({player}, {value})")
        for k, (opt, _) in enumerate(options):
            out.emit(f"{'if' if k == 0 else 'elif'} {choice} == {k}:", opt.span)
            with out.block():
                if opt.var is not None:
                    out.emit(f"{out.local(opt.var)} = {value}")
                self.body(opt.body)

    def labels_shared(self, options: list[tuple[s.Option, str | None]]) -> bool:
        """Whether an option of a menu has a standing action's label (the game then leaves that
        action out of the menu while the option is offered, so it is given the entries)."""
        actions = {act.labels.default or act.name for act, _ in self.sym.actions}
        return any(self.option_label(k, opt) in actions for k, (opt, _) in enumerate(options))

    @staticmethod
    def option_label(k: int, opt: s.Option) -> str:
        return opt.labels.default or f"option {k + 1}"

    def menu_entries(self, st: s.Menu, options: list[tuple[s.Option, str | None]], entries: str) -> None:
        """`entries = [(option number, value, label), …]` (menu entries, see the contract); an
        option an addendum adds is offered only where the addendum is active."""
        out = self.out
        out.emit(f"{entries} = []", st.span)
        self.shared_calls(options)
        numbered = list(enumerate(options))
        for added, run in groupby(numbered, key=lambda item: item[1][1] is not None):
            if not added:
                for k, (opt, _) in run:
                    self.menu_entry(k, opt, entries)
                continue
            with self.while_any_addendum(len(ran := list(run))):
                for k, (opt, addendum) in ran:
                    out.emit(f"if {out.const(addendum)} in g.active_addenda:", opt.span)
                    with out.block():
                        self.menu_entry(k, opt, entries)
        self.expr.shared = {}

    def shared_calls(self, options: list[tuple[s.Option, str | None]]) -> None:
        """A call the options' conditions make more than once is worked out once, ahead of
        them, where every condition only reads (so none changes what the call gives) and the
        first condition that makes it always does (its leading test: nothing skips it). A
        call with the option's item among its arguments is left alone (`menu_entries` forgets
        them after the entries)."""
        parts = [(opt.iterable, opt.cond) for opt, _ in options]
        if not all(self.expr.purity.only_reads(part) for part in parts):
            return
        found: dict[str, list[s.Call]] = {}
        for opt, _ in options:
            if opt.cond is None or opt.var is not None:
                continue
            for call in s.walk(opt.cond):
                if isinstance(call, s.Call) and isinstance(self.c.resolution.get(call), CallRef):
                    found.setdefault(self.expr(call), []).append(call)
        led = {id(call) for opt, addendum in options if addendum is None and opt.var is None and opt.cond is not None
               for call in [_leading(opt.cond)] if call is not None}
        for code, calls in found.items():
            if len(calls) > 1 and id(calls[0]) in led:
                temp = self.out.new_temp()
                self.out.emit(f"{temp} = {code}")
                self.expr.shared.update((id(call), temp) for call in calls)

    @contextmanager
    def while_any_addendum(self, tests: int) -> Iterator[None]:
        """Code that tests several addenda in a row, each only where it is active, is skipped as a
        whole in a game with no addendum active (one test instead of `tests`)."""
        if tests < 2:
            yield
            return
        self.out.emit("if g.active_addenda:")
        with self.out.block():
            yield

    def menu_entry(self, k: int, opt: s.Option, entries: str) -> None:
        """The entries of one option: one per value of its `for`, where its `if` holds."""
        out = self.out
        label = out.const(self.option_label(k, opt))
        if opt.var is not None and opt.iterable is not None:
            var = out.local(opt.var)
            items = self.expr.walked_items(opt.iterable, opt.cond is None or self.expr.purity.only_reads(opt.cond))
            out.emit(f"for {var} in {items}:", opt.span)
            with out.block():
                if opt.cond is not None:
                    out.emit(f"if {self.expr(opt.cond)}:")
                    with out.block():
                        out.emit(f"{entries}.append(({k}, {var}, {label}))")
                else:
                    out.emit(f"{entries}.append(({k}, {var}, {label}))")
        elif opt.cond is not None:
            out.emit(f"if {self.expr(opt.cond)}:", opt.span)
            with out.block():
                out.emit(f"{entries}.append(({k}, None, {label}))")
        else:
            out.emit(f"{entries}.append(({k}, None, {label}))", opt.span)

    def visit_Once(self, st: s.Once) -> None:
        """A nested function registered with `g.once` (a `once` handler: it returns True once
        it has fired). Variables of the enclosing blocks that it assigns are `nonlocal`."""
        out = self.out
        fn = out.new_temp()
        outer = set(out.locals) - set(st.params)
        params = ", ".join(out.local(p) for p in st.params)
        header = len(out.lines)
        out.emit(f"def {fn}({params}):", st.span)
        with out.block():
            shared = sorted(out.local(n) for n in _assigned(st.body) if n in outer)
            if shared:
                out.emit(f"nonlocal {', '.join(shared)}")
            if st.cond is not None:
                out.emit(f"if not ({self.expr(st.cond)}):")
                with out.block():
                    out.emit("return False")
            self.where.once_depth += 1
            self.body(st.body)
            self.where.once_depth -= 1
            out.emit("return True")
        # what the handler only reads of the enclosing blocks is bound as it is now
        binds = bound_now("\n".join(out.lines[header + 1:]), {out.locals[n] for n in outer} - set(shared))
        if binds:
            out.lines[header] = out.lines[header].replace(f"def {fn}({params}):",
                                                          f"def {fn}({params + ', ' if params else ''}*, {binds}):")
        until = out.const(st.until) if st.until else "None"
        out.emit(f"g.once({out.const(st.event)}, {fn}, {until})")


def _later(code: str) -> str:
    """A condition checked later (`while` of modify and forbid), with the locals it reads
    bound to their values now."""
    return f"lambda {bound_now(code)}: ({code})"


def _assigned(body: tuple[s.Stmt, ...]) -> set[str]:
    """Local names a block assigns (`let`, `=`, `+=`, loop and option variables), not counting
    nested `once` blocks, which are functions of their own."""
    names: set[str] = set()
    for st in body:
        match st:
            case s.Let():
                names.add(st.name)
            case s.Assign(target=s.Name()) | s.AugAssign(target=s.Name()):
                assert isinstance(st.target, s.Name)
                names.add(st.target.ident)
            case s.For():
                names.add(st.var)
                names |= _assigned(st.body)
            case s.While() | s.Repeat():
                names |= _assigned(st.body)
            case s.If():
                for _, branch in st.branches:
                    names |= _assigned(branch)
                names |= _assigned(st.orelse)
            case s.Menu():
                for opt in st.options:
                    if opt.var is not None:
                        names.add(opt.var)
                    names |= _assigned(opt.body)
            case _:
                pass
    return names


def _number(code: str) -> int | None:
    """The whole number that generated code is a literal of, or None."""
    return int(code) if code.lstrip("-").isdecimal() else None


def _leading(cond: s.Expr) -> s.Call | None:
    """The call a condition always evaluates first, if any: the condition itself, or what
    leads it under `not` and the first operand of `and`/`or`."""
    while True:
        if isinstance(cond, s.Call):
            return cond
        if isinstance(cond, s.Not):
            cond = cond.operand
        elif isinstance(cond, s.BoolOp):
            cond = cond.values[0]
        else:
            return None
