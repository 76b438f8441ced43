"""Card text generated from definitions: each card's rules text, in every language its game
declares labels for, written from the checked model through Jinja2 templates.

Every construct (a statement kind, an expression kind, a section under a timing) is one macro
of a language's template; a call of a procedure, value or built-in, and a local such as a
timing's parameter, first looks for a macro named after it (`call_attack_by`, `local_atk`,
`builtin_count`), so a game phrases its own procedures. The library's templates for each
language (`cards/text/LANG.j2`) hold the generic phrasing; a game's folder may hold its own
(`cards/GAME/text/LANG.j2`, or `text/LANG.j2` beside a designer's files), whose macros win, and
may split it over parts (`LANG.PART.j2`, read first, in name order).
Templates are data, not code: they run in Jinja2's sandbox.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, PrefixLoader, StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from . import syntax as s
from .card_facts import covering
from .checked import Checked
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
from .vocabulary import Term, Vocabulary, label_in

TEXT_FOLDER = "text"
_EXPLANATION = re.compile(r"\s*[（(][^（）()]*[）)]\s*$")  # beside a game's sources: its own templates, one file per language


class TextTemplateError(Exception):
    """A template that cannot be read or rendered: its file and the reason, and (`where`) the
    template file and line the reason points at, when that is known."""

    def __init__(self, message: str, where: tuple[str, int] | None = None) -> None:
        super().__init__(message)
        self.where = where


@dataclass
class Templates:
    """One language's macros: the game's own first, then the library's."""

    language: str
    modules: list[Any]
    names: list[str] = field(default_factory=list)  # the template files, for messages

    def has(self, name: str) -> bool:
        return any(hasattr(m, name) for m in self.modules)

    def __call__(self, name: str, *args: Any) -> str:
        for module in self.modules:
            macro = getattr(module, name, None)
            if macro is not None:
                try:
                    return " ".join(str(macro(*args)).split())
                except Exception as err:  # noqa: BLE001 - a template is the designer's: whatever it does wrong is theirs
                    raise TextTemplateError(f"{' / '.join(self.names)}: macro {name}: {type(err).__name__}: {err}",
                                            _template_line(err)) from None
        raise TextTemplateError(f"{' / '.join(self.names)}: no macro {name!r} for the language {self.language}")


def _template_line(err: BaseException) -> tuple[str, int] | None:
    """The template file and line an error was raised in: the innermost frame of a compiled
    template (Jinja keeps the template in its globals and maps its lines back), or None when
    the error was raised outside any (a macro called with the wrong number of values)."""
    where = None
    tb = err.__traceback__
    while tb is not None:
        template = tb.tb_frame.f_globals.get("__jinja_template__")
        if template is not None and template.filename:
            where = template.filename, template.get_corresponding_lineno(tb.tb_lineno)
        tb = tb.tb_next
    return where


def template_folders(checked: Checked, library: Path) -> list[Path]:
    """The folders whose templates phrase this game: beside its sources (the last-named files'
    first), then the library's."""
    folders = []
    for path in reversed(list(checked.symbols.sources)):
        folder = Path(path).parent / TEXT_FOLDER
        if folder not in folders and folder.is_dir():
            folders.append(folder)
    shared = library / TEXT_FOLDER
    if shared.is_dir() and shared not in folders:
        folders.append(shared)
    return folders


def load_templates(folders: Sequence[Path], language: str) -> Templates:
    """The templates of one language from these folders, the first folder's macros winning.
    Compiled once per process for the same files unchanged (their sizes and times)."""
    files: list[tuple[int, Path, int, int]] = []
    for i, folder in enumerate(folders):
        # a folder's phrasing may be split over parts (`ja.oboro.j2`), read before its `ja.j2`
        for path in sorted(folder.glob(f"{language}.*.j2")) + [folder / f"{language}.j2"]:
            if path.is_file():
                stat = path.stat()
                files.append((i, path, stat.st_mtime_ns, stat.st_size))
    if not files:
        raise TextTemplateError(f"no card-text template for the language {language} in "
                                + ", ".join(str(f) for f in folders))
    return _compiled(tuple(folders), language, tuple(files))


@lru_cache(maxsize=32)
def _compiled(folders: tuple[Path, ...], language: str, files: tuple[tuple[int, Path, int, int], ...]) -> Templates:
    env = ImmutableSandboxedEnvironment(
        loader=PrefixLoader({str(i): FileSystemLoader(str(f)) for i, f in enumerate(folders)}),
        undefined=StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True)
    modules = []
    for i, path, _, _ in files:
        try:
            modules.append(env.get_template(f"{i}/{path.name}").module)
        except TemplateError as err:
            raise TextTemplateError(f"{path}: {err}", (str(path), getattr(err, "lineno", None) or 1)) from None
        except Exception as err:  # noqa: BLE001 - what a template's own lines do wrong as they run is the designer's
            raise TextTemplateError(f"{path}: {type(err).__name__}: {err}", _template_line(err) or (str(path), 1)) from None
    return Templates(language, modules, [str(path) for _, path, _, _ in files])


MAKERS = frozenset({"new_object", "new_card"})  # built-ins whose value is something they make
_ACTIONS = (s.Move, s.Put, s.Emit, s.Modify, s.Forbid, s.Reveal, s.Shuffle, s.Pick, s.NumberChoice, s.Ask,
            s.Menu, s.End)  # statements and choices that change or ask something


class CardWriter:
    """Writes the text of a game's cards in one language."""

    def __init__(self, checked: Checked, vocab: Vocabulary, templates: Templates) -> None:
        self.c = checked
        self.sym = checked.symbols
        self.vocab = vocab
        self.t = templates
        self.lang = templates.language
        self.locals: list[dict[str, str]] = [{}]
        self.reassigned: set[str] = set()  # locals given a new value in the body being written
        self.announced: set[str] = set()  # locals later steps read: said once, by a name
        self.letters: dict[str, str] = {}  # locals named by a letter (X, Y…) in the text being written
        self._acting: dict[str, bool] = {}  # procedure -> whether calling it does something
        self.timing = ""  # the timing of the block being written
        self.rules = False  # writing a rulebook's prose (menus say every option in full), not a card's text
        self.called: set[str] = set()  # the procedures the text written so far calls (for cross-references)

    # ---- a card ----

    def card(self, name: str) -> str:
        """The card's text: its keywords, then each block and trigger under its timing."""
        card = self.sym.cards[name]
        props = self.c.card_props.get(name, {})
        self.letters = {}
        keywords = [self.vocab.label(Term.KEYWORD, n, self.lang) for n, f in self.sym.fields.items()
                    if f.keyword and props.get(n) is True]
        parts = []
        for blk in card.blocks:
            self.timing = blk.name
            mark = None if blk.under == "none" else self.vocab.mark(blk.under or blk.name)
            body = self.scoped(self.stmts, blk.body)
            if body:
                parts.append(self.t("section", self._mark(mark), body))
        self.timing = ""
        for trig in card.triggers:
            parts.append(self.t("section", self._mark(self._trigger_mark(trig)), self.scoped(self.trigger, trig)))
        for prop, info in self.sym.fields.items():  # what the rules do for a card with this field
            if info.under is not None and props.get(prop) not in (None, False, 0, "", ()):
                parts.append(self.t("section", self._mark(self.vocab.mark(info.under)), self._label(info.decl.labels, prop)))
        return self.t("card", keywords, parts)

    def _mark(self, timing: str | None) -> str | None:
        return None if timing is None else self.vocab.label(Term.TIMING, timing, self.lang)

    def _trigger_mark(self, trig: s.Trigger) -> str | None:
        timing = covering(self.c, self.vocab, trig)
        return None if timing is None else self.vocab.mark(timing)

    def trigger(self, trig: s.Trigger) -> str:
        label = self._event(trig.event, trig.params)
        return self.t("trigger", label, self.cond(trig.cond), self.stmts(trig.body))

    def _event(self, name: str, params: Sequence[str]) -> str:
        """An event's label; the names a trigger gives its parameters stand for the event's own
        (`when attack_made(a)`: `a` reads as the event's `atk`, phrased by `local_atk`)."""
        event = self.sym.events.get(name)
        if event is None:
            return name
        for mine, theirs in zip(params, event.params, strict=False):
            self.locals[-1][mine] = self.local(theirs)
        return self._label(event.labels, name)

    def scoped(self, fn: Callable[..., str], *args: Any) -> str:
        """`fn(*args)` with a scope of its own for the names it defines."""
        self.locals.append({})
        try:
            return fn(*args)
        finally:
            self.locals.pop()

    # ---- statements ----

    def stmts(self, body: Iterable[s.Stmt]) -> str:
        body = tuple(body)
        outer = self.reassigned
        self.reassigned = outer | {st.target.ident for st in s.walk(body)
                                   if isinstance(st, (s.Assign, s.AugAssign)) and isinstance(st.target, s.Name)}
        try:
            return self.t("sequence", [text for text in (self.stmt(st) for st in body) if text])
        finally:
            self.reassigned = outer

    def stmt(self, st: s.Stmt) -> str:
        method: Callable[[Any], str] = getattr(self, f"st_{type(st).__name__}")
        return method(st)

    def st_Let(self, st: s.Let) -> str:
        value = st.value
        if isinstance(value, (s.Pick, s.NumberChoice, s.Ask)):
            self.locals[-1][st.name] = self.t("chosen", self.choice_subject(value))
            return self.choice(value)
        if isinstance(value, s.Move):
            return self.st_Move(value)
        # a counted-up local, one later steps read, or (in a rule's prose) one whose value is made by
        # doing something, is named where it is read and its value said once; a card's templates
        # fold the rest
        if st.name in self.reassigned or st.name in self.announced or not self.timing and self._acts(value):
            named = self.locals[-1][st.name] = self.variable(st.name)
            empty = isinstance(value, s.NoneLit) or isinstance(value, s.ListLit) and not value.items
            return "" if empty else self.t("named", named, self.expr(value))
        self.locals[-1][st.name] = self.expr(value)
        return ""

    def variable(self, name: str) -> str:
        """A local said by a name: the game's `local_NAME` phrase, else the next letter (X, Y…)
        of the text being written."""
        specific = f"local_{name}"
        if self.t.has(specific):
            return self.t(specific)
        if name not in self.letters:
            self.letters[name] = self.t("variable", len(self.letters))
        return self.letters[name]

    def _acts(self, value: object) -> bool:
        """Whether working a value out does something (makes an object, moves, asks, emits, or
        calls a procedure that does): said in place of each use, it would read as done again."""
        if not (isinstance(value, s.Call) and isinstance(value.func, s.Name)):
            return False
        name = value.func.ident
        if name in MAKERS:
            return True
        proc = self.sym.procedures.get(name)
        if proc is None:
            return False
        if name not in self._acting:
            self._acting[name] = False  # a procedure calling itself is judged by the rest of its body
            self._acting[name] = any(
                isinstance(n, _ACTIONS) or isinstance(n, (s.Assign, s.AugAssign)) and not isinstance(n.target, s.Name)
                or self._acts(n) for n in s.walk(proc.steps))
        return self._acting[name]

    def st_Assign(self, st: s.Assign) -> str:
        return self.t("assign", self.expr(st.target), self.expr(st.value))

    def st_AugAssign(self, st: s.AugAssign) -> str:
        return self.t("augment", self.expr(st.target), st.op, self.expr(st.value))

    def st_Move(self, st: s.Move) -> str:
        token = self._label(self.sym.tokens[st.token].labels, st.token) if st.token in self.sym.tokens else ""
        return self.t("move", self.expr(st.amount), token, self.expr(st.source), self.expr(st.dest))

    def st_Put(self, st: s.Put) -> str:
        return self.t("put", self.expr(st.obj), self.expr(st.dest), st.place or "")

    def st_Emit(self, st: s.Emit) -> str:
        event = self.sym.events.get(st.event)
        return self.t("emit", self._label(event.labels, st.event) if event else st.event,
                      [self.expr(a) for a in st.args])

    def st_Modify(self, st: s.Modify) -> str:
        until = self.sym.events.get(st.until) if st.until else None
        return self.t("modify", self.expr(st.target), self.expr(st.delta), self.cond(st.while_),
                      self._label(until.labels, st.until) if until is not None and st.until else "")

    def st_Forbid(self, st: s.Forbid) -> str:
        token = self._label(self.sym.tokens[st.token].labels, st.token) if st.token in self.sym.tokens else st.token
        return self.t("forbid", token, self.expr(st.zone), self.cond(st.while_))

    def st_Reveal(self, st: s.Reveal) -> str:
        return self.t("reveal", self.expr(st.what), self.expr(st.to))

    def st_Shuffle(self, st: s.Shuffle) -> str:
        return self.t("shuffle", self.expr(st.zone))

    def st_Log(self, st: s.Log) -> str:
        return ""  # what the log says is not what the card does

    def st_Expect(self, st: s.Expect) -> str:
        return ""

    st_ExpectOffered = st_ExpectWinner = st_Pass = st_Expect

    def st_Return(self, st: s.Return) -> str:
        if st.value is None:
            return self.t("stop")
        if isinstance(st.value, (s.Pick, s.NumberChoice, s.Ask)):
            return self.choice(st.value)
        if not self.timing:  # a rule's procedure: what it works out
            return self.t("answer", self.expr(st.value))
        specific = f"result_{self.timing}"
        return self.t(specific if self.t.has(specific) else "result", self.expr(st.value))

    def st_End(self, st: s.End) -> str:
        return self.t("end", st.kind, self.expr(st.player))

    def st_CallStmt(self, st: s.CallStmt) -> str:
        return self.expr(st.call)

    def st_Break(self, st: s.Break) -> str:
        return self.t("stop")

    def st_If(self, st: s.If) -> str:
        branches = [(self.cond(c), self.scoped(self.stmts, body)) for c, body in st.branches]
        orelse = self.scoped(self.stmts, st.orelse) if st.orelse else ""
        if not orelse and not any(text for _, text in branches):
            return ""  # nothing a reader sees happens (only a log line, say)
        return self.t("branches", branches, orelse)

    def st_For(self, st: s.For) -> str:
        items = self.expr(st.iterable)
        return self.scoped(self._each, st, items)

    def _each(self, st: s.For, items: str) -> str:
        self.locals[-1][st.var] = self._item(st.iterable, items)
        body = self.stmts(st.body)
        return self.t("each", items, body) if body else ""

    def _item(self, iterable: s.Expr, items: str) -> str:
        """How the text names the item a loop or choice is at: one of a written list of zones by
        `each_zone` (their names may hold the word for cards), anything else by what the
        listing says (`each_item`)."""
        if isinstance(iterable, s.ListLit) and iterable.items and self.t.has("each_zone") \
                and all(self.c.type_of(i) is Type.ZONE for i in iterable.items):
            return self.t("each_zone")
        return self.t("each_item", items)

    def st_While(self, st: s.While) -> str:
        body = self.scoped(self.stmts, st.body)
        if not body:
            return ""
        if isinstance(st.cond, s.BoolLit) and st.cond.value:  # until a step of the body stops it
            return self.t("forever", body)
        return self.t("loop", self.cond(st.cond), body)

    def st_Repeat(self, st: s.Repeat) -> str:
        body = self.scoped(self.stmts, st.body)
        return self.t("repeat", self.expr(st.count), body) if body else ""

    def st_Menu(self, st: s.Menu) -> str:
        if self.rules and self.t.has("rule_menu"):  # a rulebook says each option, when it is offered and what it does
            return self.t("rule_menu", self.expr(st.player), [self._rule_option(o) for o in st.options])
        options = []
        for o in st.options:
            if o.passive and not o.body:
                continue
            options.append((self._label(o.labels, ""), self.scoped(self._option, o)))
        return self.t("menu", self.expr(st.player), options)

    def _rule_option(self, o: s.Option) -> tuple[str, str, str, str]:
        """(label, what it is offered for, when, what it does) of a menu option in a rule."""
        items = self.expr(o.iterable) if o.iterable is not None else ""
        self.locals.append({})
        try:
            if o.var is not None and o.iterable is not None:
                self.locals[-1][o.var] = self._item(o.iterable, items)
            return self._label(o.labels, ""), items, self.cond(o.cond), self.stmts(o.body)
        finally:
            self.locals.pop()

    def _option(self, o: s.Option) -> str:
        if o.var is not None and o.iterable is not None:
            self.locals[-1][o.var] = self._item(o.iterable, self.expr(o.iterable))
        return self.stmts(o.body)

    def st_Once(self, st: s.Once) -> str:
        return self.scoped(self._once, st)

    def _once(self, st: s.Once) -> str:
        until = self.sym.events.get(st.until) if st.until else None
        label = self._event(st.event, st.params)
        return self.t("once", label, self.cond(st.cond), self.stmts(st.body),
                      self._label(until.labels, st.until) if until is not None and st.until else "")

    # ---- choices ----

    def choice(self, c: s.Pick | s.NumberChoice | s.Ask) -> str:
        match c:
            case s.Pick():
                return self.t("pick", self.expr(c.player), self.expr(c.collection), self.cond(c.where), c.optional)
            case s.NumberChoice():
                return self.t("choose_number", self.expr(c.player), self.expr(c.low), self.expr(c.high))
            case s.Ask():
                return self.t("ask", self.expr(c.player), self._label(c.labels, ""))

    def choice_subject(self, c: s.Pick | s.NumberChoice | s.Ask) -> str:
        match c:
            case s.Pick():
                return self.expr(c.collection)
            case s.NumberChoice():
                return self.t("a_number")
            case s.Ask():
                return self._label(c.labels, "")

    # ---- expressions ----

    def cond(self, e: s.Expr | None) -> str:
        return "" if e is None else self.expr(e)

    def expr(self, e: s.Expr) -> str:
        method: Callable[[Any], str] = getattr(self, f"ex_{type(e).__name__}")
        return method(e)

    def ex_IntLit(self, e: s.IntLit) -> str:
        return str(e.value)

    def ex_StrLit(self, e: s.StrLit) -> str:
        card = self.vocab.card_keys.get(e.value)
        if card is not None:
            return self.t("card_name", self.vocab.label(Term.CARD, card, self.lang))
        field = self.sym.fields.get(e.value)  # `card_prop(c, "range")` names a field
        if field is not None:
            return self._label(field.decl.labels, e.value)
        timing = self.sym.timings.get(e.value)  # `has(c, "after_hit")` names a timing
        if timing is not None:
            return self._label(timing.labels, e.value)
        if not e.value:
            return self.t("empty_text")
        for specific in (f"word_{e.value}", f"prop_{e.value}"):  # a text value a game names like its
            if e.value.isidentifier() and self.t.has(specific):  # words; a built-in card property
                return self.t(specific)
        return self.t("quoted", e.value)

    def ex_BoolLit(self, e: s.BoolLit) -> str:
        return self.t("yes" if e.value else "no")

    def ex_NoneLit(self, e: s.NoneLit) -> str:
        return self.t("nothing")

    def ex_PairLit(self, e: s.PairLit) -> str:
        return f"{'-' if e.left is None else e.left}/{'-' if e.right is None else e.right}"

    def ex_DeltaLit(self, e: s.DeltaLit) -> str:
        return f"{e.left:+d}/{e.right:+d}"

    def ex_RangeLit(self, e: s.RangeLit) -> str:
        return str(e.low) if e.low == e.high else f"{e.low}-{e.high}"

    def ex_ZoneLabel(self, e: s.ZoneLabel) -> str:
        return self.named(e)

    def ex_Name(self, e: s.Name) -> str:
        return self.named(e)

    def ex_Attr(self, e: s.Attr) -> str:
        return self.named(e)

    def named(self, e: s.Name | s.Attr | s.ZoneLabel) -> str:
        """A name by what it resolved to: a zone or counter (with whose), a field of a card, a
        value, a keyword, a word, or a local."""
        ref = self.c.resolution.get(e)
        owner = self.expr(e.obj) if isinstance(e, s.Attr) else None
        match ref:
            case ZoneRef(zone, who):
                return self.t("zone", self._whose(who, owner), self._label(self.sym.zones[zone].decl.labels, zone))
            case CounterRef(counter, who):
                return self.t("counter", self._whose(who, owner),
                              self._label(self.sym.counters[counter].decl.labels, counter))
            case FieldRef(name) if name in self.vocab.names[Term.KEYWORD]:
                return self.t("field", owner or "", self.vocab.label(Term.KEYWORD, name, self.lang))
            case FieldRef(name):
                return self.t("field", owner or "", self._label(self.sym.fields[name].decl.labels, name))
            case AttrRef(_, name):  # a built-in attribute (`picks`, `owner`, `zone`…): `attr_NAME(owner)`
                specific = f"attr_{name}"
                return self.t(specific, owner or "") if self.t.has(specific) else self.t("attribute", owner or "", name)
            case CallRef(callee, name, implicit):
                return self._called(callee, name, [owner] if implicit is Owner.OF and owner is not None else [])
            case WordRef(word):
                return self.word(word)
            case SelfRef():
                return self.t("me")
            case ThisRef():
                return self.t("this_card")
            case LocalRef(name):
                return self.local(name)
        return e.ident if isinstance(e, s.Name) else e.label if isinstance(e, s.ZoneLabel) else e.name

    def _whose(self, who: Owner, owner: str | None) -> str:
        return self.t("me") if who is Owner.SELF else owner or "" if who is Owner.OF else ""

    def local(self, name: str) -> str:
        for scope in reversed(self.locals):
            if name in scope:
                return scope[name]
        return self.local_by_name(name)

    def local_by_name(self, name: str) -> str:
        """A local by its name: the game's `local_NAME` phrase, else the generic one."""
        specific = f"local_{name}"
        return self.t(specific) if self.t.has(specific) else self.t("local", name)

    def word(self, word: str) -> str:
        sym = self.sym
        specific = f"word_{word}"  # a game names its words (an enum field's values) with macros
        if self.t.has(specific):
            return self.t(specific)
        if word in sym.cards:
            return self.t("card_name", self.vocab.label(Term.CARD, word, self.lang))
        if word in sym.keywords:
            return self.t("keyword", self.vocab.label(Term.KEYWORD, word, self.lang))
        tables: tuple[dict[str, Any], ...] = (sym.characters, sym.tokens, sym.kinds, sym.timings, sym.events,
                                              sym.addenda)
        for table in tables:
            decl = table.get(word)
            if decl is not None:
                return self._label(decl.labels, word)
        return word

    def ex_Call(self, e: s.Call) -> str:
        args = [self.argument(a) for a in e.args]
        ref = self.c.resolution.get(e) or self.c.resolution.get(e.func)
        match ref:
            case BuiltinRef(name):
                specific = f"builtin_{name}"
                return self.t(specific, args) if self.t.has(specific) else self.t("builtin", name, args)
            case CallRef(Callee.TIMING, name, _):
                owner = self.expr(e.func.obj) if isinstance(e.func, s.Attr) else ""
                return self.t("timing_of", owner, self._label(self.sym.timings[name].labels, name), args)
            case CallRef(callee, name, _):
                if isinstance(e.func, s.Attr) and callee is not Callee.PROCEDURE:
                    args = [self.expr(e.func.obj), *args]
                return self._called(callee, name, args)
        return self.t("builtin", "?", args)

    def _called(self, callee: Callee, name: str, args: list[str]) -> str:
        if callee is Callee.PROCEDURE:
            self.called.add(name)
        specific = f"{'call' if callee is Callee.PROCEDURE else callee.value}_{name}"
        if self.t.has(specific):
            return self.t(specific, args)
        sym = self.sym
        match callee:
            case Callee.KEYWORD:
                return self.t("keyword", self.vocab.label(Term.KEYWORD, name, self.lang))
            case Callee.VALUE:
                return self.t("value", self._label(sym.values[name].labels, name), args)
            case Callee.PROCEDURE:
                return self.t("call", self._label(sym.procedures[name].labels, name), args)
            case Callee.TIMING:
                return self.t("timing_of", "", self._label(sym.timings[name].labels, name), args)

    def argument(self, e: s.Expr) -> str:
        """An argument, bracketed when it is a compound expression (so `change(x + 1, 0)` does
        not read as a number `1, 0`)."""
        text = self.expr(e)
        return self.t("bracketed", text) if isinstance(e, (s.BinOp, s.BoolOp, s.Not, s.Neg)) else text

    def ex_Index(self, e: s.Index) -> str:
        return self.t("item", self.expr(e.obj), self.expr(e.index))

    def ex_BinOp(self, e: s.BinOp) -> str:
        return self.t("binary", self.expr(e.left), e.op, self.expr(e.right))

    def ex_BoolOp(self, e: s.BoolOp) -> str:
        return self.t("all_of" if e.op == "and" else "any_of", [self.expr(v) for v in e.values])

    def ex_Not(self, e: s.Not) -> str:
        return self.t("negate", self.expr(e.operand))

    def ex_Neg(self, e: s.Neg) -> str:
        return f"-{self.expr(e.operand)}"

    def ex_ListLit(self, e: s.ListLit) -> str:
        return self.t("listing", [self.expr(i) for i in e.items])

    def ex_ListWhere(self, e: s.ListWhere) -> str:
        items = self.expr(e.items)
        return self.scoped(self._where, e, items)

    def _where(self, e: s.ListWhere, items: str) -> str:
        self.locals[-1][e.var] = self._item(e.items, items)
        return self.t("where", items, self.expr(e.cond))

    def _label(self, labels: s.Labels, fallback: str) -> str:
        """A declaration's name in this language, without the explanation a label may carry in
        brackets at its end ("range (counted after changes)" names "range")."""
        label = label_in(labels, self.lang, self.vocab.language) or labels.default or fallback
        return _EXPLANATION.sub("", label) or label


class TextBook:
    """The generated texts of a game's cards, in every language of the game (templates are
    read once, on first use; each text is written once, however many editions show it)."""

    def __init__(self, checked: Checked, vocab: Vocabulary, folders: Sequence[Path]) -> None:
        self.checked, self.vocab, self.folders = checked, vocab, list(folders)
        self._writers: dict[str, CardWriter] = {}
        self._texts: dict[tuple[str, str], str] = {}

    def writer(self, language: str) -> CardWriter:
        if language not in self._writers:
            self._writers[language] = CardWriter(self.checked, self.vocab, load_templates(self.folders, language))
        return self._writers[language]

    def text(self, card: str, language: str) -> str:
        text = self._texts.get((card, language))
        if text is None:
            text = self._texts[card, language] = self.writer(language).card(card)
        return text

    def texts(self, card: str) -> dict[str, str]:
        """The card's text in each language of the game."""
        return {lang: self.text(card, lang) for lang in self.vocab.languages}
