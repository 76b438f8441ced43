"""Check stage: files → the checked model (`Checked`) and every diagnostic.

Collecting declarations (`collect.py`), reading properties (`props.py`), then checking every
body: values, keywords, procedures step by step, triggers, replacements, state checks,
standing actions, cards and scenarios (`check_stmt.py`, `check_expr.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from . import syntax as s
from .check_expr import ExprChecker
from .check_memo import MEMO, Found, environment, record, remembered, rules_remembered
from .check_stmt import StmtChecker
from .checked import Checked, Context
from .collect import Collector
from .decisions import check_decisions
from .diagnostics import Diagnostic, did_you_mean
from .props import Props
from .refs import BuiltinRef, CallRef, CounterRef, FieldRef, Type, WordRef
from .scope import Scope
from .symbols import Symbols
from .text_lint import check_card_texts

TIMING_OPTIONS = {
    "default": "`default VALUE`: what calling the timing gives for a card without a block for it",
    "anchored": "what the block registers (modify, forbid) lasts while the card stays where it is",
    "mark": "`mark TIMING` or `mark none`: card texts print this timing's effects under another timing's "
            "marker, or with none (the default: under its own name)",
    "covers": "`covers NAME …`: a card's `when` trigger whose condition reads one of these (a field, value, "
              "procedure or keyword) is printed under this timing",
}


class Checker:
    """Checks every declaration of a collected game."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.sym = ctx.sym
        self.exprs = ExprChecker(ctx)
        self.stmts = StmtChecker(ctx, self.exprs)
        self.props = Props(ctx)
        self.before_step: dict[tuple[str, str], dict[str, Type]] = {}  # names visible before a step
        self.after_step: dict[tuple[str, str], dict[str, Type]] = {}  # and after it

    def all(self) -> None:
        found = [record(self.ctx, None, self.declared), rules_remembered(self.ctx, partial(self.each, self.rules()))]
        found += [remembered(self.ctx, decl, partial(self.guarded, decl, check)) for decl, check in self.entities()]
        self.unused(found)
        check_decisions(self.ctx)
        check_card_texts(self.ctx)

    def declared(self) -> None:
        """What the declarations say of each other: names that clash, the game's properties,
        timing and field options."""
        sym = self.sym
        assert sym.game is not None
        self.clashes()
        self.props.game(sym.game)
        for t in sym.timings.values():
            for o in t.opts:
                if o.name not in TIMING_OPTIONS:
                    self.ctx.error("E103", f"unknown timing option {o.name!r}", o.span,
                                   hint="allowed: " + ", ".join(TIMING_OPTIONS))
                else:
                    self.timing_option(o)
        for f in sym.fields.values():
            general = next((o for o in f.decl.opts if o.name == "form_of"), None)
            if general is not None and not (f.keyword and general.atoms[0].text in sym.fields
                                            and sym.fields[general.atoms[0].text].keyword):
                self.ctx.error("E104", "`form_of` names another keyword field, on a keyword field", general.span)
            under = next((o for o in f.decl.opts if o.name == "under"), None)
            if under is not None and under.atoms[0].text not in sym.timings:
                self.ctx.error("E101", f"unknown timing {under.atoms[0].text!r}", under.atoms[0].span,
                               suggestion=did_you_mean(under.atoms[0].text, sym.timings))

    def timing_option(self, o: s.Opt) -> None:
        """`mark` names a timing (or none); `covers` names fields, values, procedures or keywords."""
        sym = self.sym
        if o.name == "mark":
            if len(o.atoms) != 1:
                self.ctx.error("E104", "`mark` names one timing, or none", o.span)
            elif o.atoms[0].text != "none" and o.atoms[0].text not in sym.timings:
                self.ctx.error("E101", f"unknown timing {o.atoms[0].text!r}", o.atoms[0].span,
                               suggestion=did_you_mean(o.atoms[0].text, sym.timings))
        elif o.name == "covers":
            known = {**sym.fields, **sym.values, **sym.procedures, **sym.keywords}
            if not o.atoms:
                self.ctx.error("E104", "`covers` names at least one field, value, procedure or keyword", o.span)
            for a in o.atoms:
                if a.text not in known:
                    self.ctx.error("E101", f"unknown name {a.text!r}", a.span, suggestion=did_you_mean(a.text, known))

    def unused(self, found: list[Found]) -> None:
        """W202 for a procedure, value, counter or field nothing uses, and a timing no card fills."""
        sym = self.sym
        used = set().union(*(self.uses(f) for f in found))
        used |= {("field", p.name) for card in sym.cards.values() for p in card.props}
        start = sym.game.prop("start") if sym.game is not None else None
        used |= {("procedure", w) for w in (start.words() if start else [])}
        filled = {blk.name for card in sym.cards.values() for blk in card.blocks}
        unused = [("procedure", n, p.span) for n, p in sym.procedures.items() if ("procedure", n) not in used]
        unused += [("value", n, v.span) for n, v in sym.values.items() if ("value", n) not in used]
        unused += [("counter", n, c.decl.name_span) for n, c in sym.counters.items() if ("counter", n) not in used]
        unused += [("field", n, f.decl.name_span) for n, f in sym.fields.items()
                   if ("field", n) not in used and not f.shown]
        for what, name, span in unused:
            self.ctx.warn("W202", f"{what} {name!r} is never used", span, hint=f"remove the {what}, or use it")
        for name, timing in sym.timings.items():
            if name not in filled:
                self.ctx.warn("W202", f"no card fills the timing {name!r}", timing.span,
                              hint="cards fill a timing with a block `NAME:`; remove the timing if none will")

    def uses(self, found: Found) -> frozenset[tuple[str, str]]:
        """What one check's resolutions use (worked out once for a remembered check)."""
        if found.uses is not None:
            return found.uses
        sym = self.sym
        used: set[tuple[str, str]] = set()
        for node, ref in found.resolution.values():
            match ref:
                case CallRef(callee, name, _):
                    used.add((callee.value, name))
                case CounterRef(counter, _):
                    used.add(("counter", counter))
                case FieldRef(name):
                    used.add(("field", name))
                case WordRef(word) if word in sym.enum_words:  # one of the field's words
                    used.add(("field", sym.enum_words[word]))
                case BuiltinRef("card_prop") if isinstance(node, s.Call) and len(node.args) == 2 \
                        and isinstance(node.args[1], s.StrLit):
                    used.add(("field", node.args[1].value))
        found.uses = frozenset(used)
        return found.uses

    def each(self, declarations: Iterable[tuple[s.Node, Callable[[], object]]]) -> None:
        for decl, check in declarations:
            self.guarded(decl, check)

    def guarded(self, decl: s.Node, check: Callable[[], object]) -> None:
        """Check a declaration; one nested too deeply is reported, not checked."""
        try:
            check()
        except RecursionError:
            self.ctx.error("E004", "this declaration is nested too deeply to check", decl.span,
                           hint="split it into smaller procedures or `let` steps")

    def rules(self) -> Iterator[tuple[s.Node, Callable[[], object]]]:
        """Every declaration with a body but the cards and scenarios, and how to check it, in order."""
        sym = self.sym
        for v in sym.values.values():
            yield v, partial(self.exprs.check, v.expr, Scope.of(v.params, has_self=False, types=v.types))
        for k in sym.keywords.values():
            if k.expr is not None:
                yield k, partial(self.exprs.check, k.expr, Scope.of((), has_self=True))
        for p in sym.procedures.values():
            yield p, partial(self.procedure, p)
        for trig, _ in sym.triggers:
            yield trig, partial(self.trigger, trig, False)
        for rep, _ in sym.replacements:
            yield rep, partial(self.replacement, rep)
        for added, _ in sym.added_options:
            yield added, partial(self.added_option, added)
        for chk, _ in sym.checks:
            yield chk, partial(self.stmts.block, chk.body, Scope.of((), has_self=False))
        for act, _ in sym.actions:
            yield act, partial(self.action, act)

    def entities(self) -> Iterator[tuple[s.Entity, Callable[[], object]]]:
        """The cards, then the scenarios, and how to check each."""
        sym = self.sym
        for card in sym.cards.values():
            yield card, partial(self.card, card)
        for scen in sym.scenarios.values():
            yield scen, partial(self.scenario, scen)

    def action(self, act: s.Action) -> None:
        sc = Scope({act.player: Type.PLAYER}, has_self=False)
        if act.cond is not None:
            self.exprs.check(act.cond, sc)
        self.stmts.block(act.body, sc)

    def scenario(self, scen: s.Entity) -> None:
        self.props.scenario(scen)
        sc = Scope({f"p{i}": Type.PLAYER for i in range(1, 11)}, False)  # blocks run in order in one scope
        for blk in scen.blocks:
            self.stmts.block(blk.body, sc)

    def procedure(self, p: s.Procedure) -> None:
        """Steps share one scope, in order; each records the names it defines."""
        sc = Scope.of(p.params, has_self=False, types=p.types)
        seen: set[str] = set()
        for st in p.steps:
            if st.ident and st.ident in seen:
                self.ctx.error("E102", f"step {st.ident} appears twice in {p.name}", st.span)
            seen.add(st.ident)
            self.before_step[(p.name, st.ident)] = dict(sc.names)
            before = set(sc.names)
            self.stmts.block(st.body, sc)
            self.ctx.checked.step_names[(p.name, st.ident)] = frozenset(set(sc.names) - before)
            self.after_step[(p.name, st.ident)] = dict(sc.names)

    def trigger(self, trig: s.Trigger, has_self: bool) -> None:
        ev = self.sym.events.get(trig.event)
        if ev is None:
            self.ctx.error("E101", f"unknown event {trig.event!r}", trig.event_span,
                           suggestion=did_you_mean(trig.event, self.sym.events))
        elif len(ev.params) != len(trig.params):
            self.ctx.error("E106", f"event {ev.name} has {len(ev.params)} parameter(s), "
                           f"the trigger names {len(trig.params)}", trig.event_span)
        sc = Scope.of(trig.params, has_self=has_self, has_this=has_self, types=ev.types if ev is not None else ())
        if trig.cond is not None:
            self.exprs.check(trig.cond, sc)
        self.stmts.block(trig.body, sc)

    def replacement(self, rep: s.Replace) -> None:
        """A replacement sees what its step saw, and must define what its step defined and
        later steps use (E116); an addition after a step sees what the step left."""
        proc, steps = self._target(rep.procedure, rep.step, rep.procedure_span, rep.step_span)
        if proc is None:
            return
        sc = Scope.of(proc.params, has_self=False, types=proc.types)
        sc.names.update((self.after_step if rep.after else self.before_step).get((proc.name, rep.step), {}))
        if rep.cond is not None:
            self.exprs.check(rep.cond, sc)
        before = set(sc.names)
        self.stmts.block(rep.body, sc)
        if rep.step not in steps or rep.after:
            return
        missing = self.ctx.checked.step_names.get((proc.name, rep.step), frozenset()) - (set(sc.names) - before)
        later = proc.steps[steps.index(rep.step) + 1:]
        for name in sorted(missing):
            user = next((st for st in later if _uses(st.body, name)), None)
            if user is not None:
                self.ctx.error("E116", f"this replacement does not define {name!r}, which step {user.ident} "
                               f"of {proc.name} uses", rep.step_span,
                               hint=f"step {rep.step} defines it with `let {name} = …`: do the same")

    def _target(self, procedure: str, step: str, procedure_span: s.Span,
                step_span: s.Span) -> tuple[s.Procedure | None, list[str]]:
        """The procedure a replacement, addition or added option names, and its steps; an
        unknown procedure (E101) or step (E105) is reported."""
        proc = self.sym.procedures.get(procedure)
        if proc is None:
            self.ctx.error("E101", f"unknown procedure {procedure!r}", procedure_span,
                           suggestion=did_you_mean(procedure, self.sym.procedures))
            return None, []
        steps = [st.ident for st in proc.steps]
        if step not in steps:
            self.ctx.error("E105", f"procedure {proc.name} has no step {step!r}", step_span,
                           hint="its steps: " + ", ".join(steps), suggestion=did_you_mean(step, steps))
        return proc, steps

    def added_option(self, added: s.AddedOption) -> None:
        """An option added to a step's menu: the step must hold exactly one `choose`; the option
        sees what the menu's own options see (checked after the procedures)."""
        proc, steps = self._target(added.procedure, added.step, added.procedure_span, added.step_span)
        if proc is None or added.step not in steps:
            return
        menus = self.sym.step_menus(proc.name, added.step)
        if len(menus) != 1:
            self.ctx.error("E105", f"step {added.step} of {proc.name} holds {len(menus)} `choose` menus: "
                           "an option can join a step that holds exactly one", added.step_span)
            return
        sc = self.stmts.menu_scopes.get(id(menus[0]))
        if sc is not None:
            self.stmts.options((added.option,), sc.child())

    def card(self, card: s.Entity) -> None:
        self.props.card(card)
        for blk in card.blocks:
            timing = self.sym.timings.get(blk.name)
            if timing is None:
                self.ctx.error("E114", f"unknown timing {blk.name!r}", blk.span,
                               hint="timings are declared with `timing`",
                               suggestion=did_you_mean(blk.name, self.sym.timings))
            if blk.under is not None and blk.under != "none" and blk.under not in self.sym.timings:
                self.ctx.error("E101", f"unknown timing {blk.under!r}", blk.span,
                               hint="`NAME under TIMING:` prints the block under another timing's marker",
                               suggestion=did_you_mean(blk.under, self.sym.timings))
            params, types = (timing.params, timing.types) if timing is not None else ((), ())
            self.stmts.block(blk.body, Scope.of(params, has_self=True, has_this=True, types=types))
        for trig in card.triggers:
            self.trigger(trig, has_self=True)

    def clashes(self) -> None:
        """E102 when one name means two things in expressions (a zone and an enum word, …)."""
        sym = self.sym
        tables: list[tuple[str, dict[str, Any]]] = [
            ("zone", sym.zones), ("counter", sym.counters), ("keyword", sym.keywords),
            ("value", sym.values), ("procedure", sym.procedures), ("character", sym.characters),
            ("token", sym.tokens), ("kind", sym.kinds), ("event", sym.events), ("card", sym.cards),
            ("word", sym.enum_words)]
        seen: dict[str, str] = {}
        for what, table in tables:
            for name in table:
                if name in seen and seen[name] != what:
                    self.ctx.error("E102", f"{name!r} is both a {seen[name]} and a {what}", self._decl_span(what, name),
                                   hint="names of zones, counters, values, procedures, characters, cards "
                                        "and enum words share one namespace: rename one")
                seen.setdefault(name, what)
        per_player = {n for n, z in sym.zones.items() if z.per_player}
        per_player |= {n for n, c in sym.counters.items() if c.per_player}
        for name, info in sym.fields.items():
            if name in per_player:
                self.ctx.error("E102", f"field {name!r} has the name of a player's zone or counter",
                               info.decl.name_span, hint="`x." + name + "` would be ambiguous: rename the field")
        for name, timing in sym.timings.items():
            other = "counter" if name in sym.counters else "field" if name in sym.fields else None
            if other is not None:
                self.ctx.error("E102", f"timing {name!r} has the name of a {other}", timing.span,
                               hint=f"`x.{name}` and `x.{name}()` would read alike: rename one")

    def _decl_span(self, what: str, name: str) -> s.Span:
        sym = self.sym
        decl: Any = {"zone": lambda: sym.zones[name].decl, "counter": lambda: sym.counters[name].decl,
                     "word": lambda: sym.fields[sym.enum_words[name]].decl}.get(what, lambda: None)()
        if decl is None:
            table: Any = {"keyword": sym.keywords, "value": sym.values, "procedure": sym.procedures,
                          "character": sym.characters, "token": sym.tokens, "kind": sym.kinds,
                          "event": sym.events, "card": sym.cards}[what]
            decl = table[name]
        return getattr(decl, "name_span", None) or decl.span


def _uses(body: tuple[s.Stmt, ...], name: str) -> bool:
    """Does a block mention the name anywhere (as a name expression)?"""
    return any(isinstance(node, s.Name) and node.ident == name for node in s.walk(body))


def check(files: list[s.SourceFile]) -> tuple[Checked, list[Diagnostic]]:
    """Check a game's files; returns the checked model and all diagnostics."""
    ctx = Context(Symbols())
    Collector(ctx).files(files)
    MEMO.enter(*environment(files), ctx.sym)
    if ctx.sym.game is None:
        first = files[0].path if files else "<input>"
        ctx.error("E108", "no game is declared", s.Span(first, 1, 1, 1, 2),
                  hint="declare `game NAME:` or start the file with `use GAME`")
        return ctx.checked, ctx.diags
    Checker(ctx).all()
    return ctx.checked, ctx.diags
