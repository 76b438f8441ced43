"""Check stage: collect declarations into a symbol table, resolve every name, check types.

The result (`Checked`) is the checked model: the symbol table plus a resolution for every
name-bearing expression, which the generator and the reference writer read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime.rules import TableSpec
from . import syntax as s
from .diagnostics import Diagnostic, did_you_mean
from .symbols import CounterInfo, FieldInfo, Symbols, ZoneInfo

BUILTINS: dict[str, tuple[int, int, str]] = {
    # name: (min args, max args, result type)
    "count": (1, 3, "int"), "space": (1, 2, "int"), "cards": (1, 1, "list"),
    "top": (1, 1, "obj"), "bottom": (1, 1, "obj"), "size": (1, 1, "int"),
    "opponent": (1, 1, "player"), "players": (0, 0, "list"), "min": (2, 2, "int"),
    "max": (2, 2, "int"), "abs": (1, 1, "int"), "has": (2, 2, "bool"),
    "new_object": (3, 3, "obj"), "remove": (1, 1, "none"), "picked": (2, 2, "bool"),
    "any_picked": (1, 1, "bool"), "addendum_active": (1, 1, "bool"),
    "left": (1, 1, "int"), "right": (1, 1, "int"), "pair": (2, 3, "pair"),
    "low": (1, 1, "int"), "high": (1, 1, "int"), "span": (2, 2, "range"),
    "contains": (2, 2, "bool"), "is_none": (1, 1, "bool"), "braced": (1, 1, "bool"),
    "index_of": (1, 1, "int"), "owned": (3, 3, "int"), "first": (1, 1, "any"),
    "player_count": (0, 0, "int"), "seat": (1, 1, "player"), "roll": (1, 1, "int"),
    "card_ids": (0, 0, "list"), "card_prop": (2, 2, "any"), "new_card": (3, 3, "obj"),
    "others": (1, 1, "list"), "change": (2, 2, "delta"), "expand": (2, 2, "delta"),
    "shift": (1, 1, "delta"), "character_prop": (2, 2, "any"), "characters": (0, 0, "list"),
    "stop_effects": (1, 1, "none"),
}
OBJ_ATTRS = {"owner": "player", "zone": "zone", "name": "str", "card": "str", "kind": "str",
             "uid": "int"}
ZONE_ATTRS = {"owner": "player", "cards": "list", "size": "int"}
PLAYER_ATTRS = {"picks": "list", "index": "int"}
MAX_RANGE = 1000  # the largest value a written range may hold
MAX_PLAYERS = 64
MAX_PICKS = 16
FIELD_TYPES = {"int", "pair", "range", "text", "bool", "enum", "set", "character", "any"}
CARD_BUILTIN_PROPS = {"text", "invented", "note", "copies"}


@dataclass
class Checked:
    """The checked model of one game."""

    symbols: Symbols
    resolution: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    types: dict[int, str] = field(default_factory=dict)
    card_props: dict[str, dict[str, Any]] = field(default_factory=dict)
    table: TableSpec = TableSpec(2, 2, 1)


class _Scope:
    """The names visible in a body (with their types), and what `self`/`this`/`break` mean there."""

    def __init__(self, names: dict[str, str], has_self: bool, has_this: bool) -> None:
        self.names = dict(names)  # name -> type
        self.has_self = has_self
        self.has_this = has_this
        self.loops = 0
        self.once_outer: frozenset[str] | None = None  # inside a `once`: the names from outside it

    def child(self) -> _Scope:
        sc = _Scope(self.names, self.has_self, self.has_this)
        sc.loops = self.loops
        sc.once_outer = self.once_outer
        return sc

    def once_body(self, params: tuple[str, ...]) -> _Scope:
        """The scope of a `once` block: it runs later, on its own, outside any loop."""
        sc = self.child()
        sc.loops = 0
        sc.once_outer = frozenset(self.names) - frozenset(params)
        return sc


def _counter_type(info: CounterInfo) -> str:
    """bool for flags, int for counters that start at a number, otherwise any value."""
    if info.flag:
        return "bool"
    return "int" if isinstance(info.start, int) else "any"


def _int(atom: s.Atom) -> int | None:
    try:
        return int(atom.text)
    except ValueError:
        return None


class Checker:
    """Builds the symbol table and checks every body; collects all diagnostics."""

    def __init__(self) -> None:
        self.sym = Symbols()
        self.diags: list[Diagnostic] = []
        self.checked = Checked(self.sym)
        self.step_scopes: dict[tuple[str, str], dict[str, str]] = {}  # names visible before a step

    def error(self, code: str, message: str, span: s.Span, hint: str | None = None,
              suggestion: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint, suggestion))

    def warn(self, code: str, message: str, span: s.Span, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, hint, severity="warning"))

    # ================= collection =================

    def collect(self, files: list[s.SourceFile]) -> None:
        for f in files:
            self.sym.sources[f.path] = f.text
            for item in f.items:
                self._collect(item, None)

    def _dup(self, table: dict[str, Any], name: str, span: s.Span, what: str) -> bool:
        if name in table:
            self.error("E102", f"{what} {name!r} is declared twice", span,
                       hint="rename one of them")
            return True
        return False

    def _collect(self, item: s.Decl, addendum: str | None) -> None:
        sym = self.sym
        if addendum is not None:
            sym.decl_addendum[id(item)] = addendum
        if isinstance(item, s.Use):
            return
        if isinstance(item, s.Entity):
            if item.what == "game":
                if sym.game is not None:
                    self.error("E102", f"game {item.name!r} is declared twice", item.span)
                sym.game = item
            elif item.what == "card":
                if not self._dup(sym.cards, item.name, item.name_span, "card"):
                    sym.cards[item.name] = item
            else:
                if not self._dup(sym.scenarios, item.name, item.name_span, "scenario"):
                    sym.scenarios[item.name] = item
        elif isinstance(item, s.Simple):
            self._collect_simple(item, addendum)
        elif isinstance(item, s.Value):
            if not self._dup(sym.values, item.name, item.span, "value"):
                sym.values[item.name] = item
        elif isinstance(item, s.Event):
            if not self._dup(sym.events, item.name, item.span, "event"):
                sym.events[item.name] = item
        elif isinstance(item, s.Timing):
            if not self._dup(sym.timings, item.name, item.span, "timing"):
                sym.timings[item.name] = item
        elif isinstance(item, s.Keyword):
            if not self._dup(sym.keywords, item.name, item.span, "keyword"):
                sym.keywords[item.name] = item
        elif isinstance(item, s.Procedure):
            if not self._dup(sym.procedures, item.name, item.span, "procedure"):
                sym.procedures[item.name] = item
        elif isinstance(item, s.Trigger):
            sym.triggers.append((item, addendum))
        elif isinstance(item, s.Replace):
            sym.replacements.append((item, addendum))
        elif isinstance(item, s.Check):
            sym.checks.append((item, addendum))
        elif isinstance(item, s.Action):
            sym.actions.append((item, addendum))
        elif isinstance(item, s.Addendum):
            if not self._dup(sym.addenda, item.name, item.span, "addendum"):
                sym.addenda[item.name] = item
            for sub in item.items:
                self._collect(sub, item.name)

    def _collect_simple(self, d: s.Simple, addendum: str | None) -> None:
        sym = self.sym
        opts = {o.name: o for o in d.opts}
        if d.what == "character":
            if not self._dup(sym.characters, d.name, d.name_span, "character"):
                sym.characters[d.name] = d
            for o in d.opts:  # any option: read with character_prop(c, "name")
                if len(o.atoms) > 1:
                    self.error("E104", f"character option {o.name!r} takes one value", o.span)
        elif d.what == "token":
            if not self._dup(sym.tokens, d.name, d.name_span, "token"):
                sym.tokens[d.name] = d
                sym.token_owned[d.name] = "owned" in opts
            self._allow(d, {"owned"})
        elif d.what == "kind":
            if not self._dup(sym.kinds, d.name, d.name_span, "kind"):
                sym.kinds[d.name] = d
        elif d.what == "zone":
            self._collect_zone(d, opts, addendum)
        elif d.what in ("counter", "flag"):
            self._collect_counter(d, opts, addendum)
        elif d.what == "field":
            self._collect_field(d)

    def _allow(self, d: s.Simple, allowed: set[str]) -> None:
        for o in d.opts:
            if o.name not in allowed:
                self.error("E103", f"unknown option {o.name!r} for a {d.what}", o.span,
                           hint="allowed: " + ", ".join(sorted(allowed)),
                           suggestion=did_you_mean(o.name, allowed))

    def _collect_zone(self, d: s.Simple, opts: dict[str, s.Opt], addendum: str | None) -> None:
        sym = self.sym
        if d.name in sym.zones:
            # `zone aura: also holds laceration` in an addendum extends an existing zone
            if "also" in opts:
                extra = [a.text for a in opts["also"].atoms if a.text != "holds"]
                sym.zones[d.name].tokens.extend(extra)
                return
            self._dup(sym.zones, d.name, d.name_span, "zone")
            return
        self._allow(d, {"per", "shared", "holds", "max", "public", "owner", "hidden", "ordered",
                        "supply", "also", "reveal"})
        holds = [a.text for a in opts["holds"].atoms] if "holds" in opts else []
        capacity = None
        if "max" in opts:
            atoms = opts["max"].atoms
            capacity = _int(atoms[0]) if atoms else None
            if capacity is None:
                self.error("E104", "`max` needs a number", opts["max"].span)
        visibility = "public"
        for v in ("owner", "hidden"):
            if v in opts:
                visibility = v
        reveal = opts["reveal"].atoms[0].text if "reveal" in opts and opts["reveal"].atoms else None
        info = ZoneInfo(len(sym.zones), d, "per" in opts, "cards" in holds,
                        [h for h in holds if h != "cards"], capacity, visibility, reveal,
                        "supply" in opts, addendum)
        sym.zones[d.name] = info
        for label in d.labels.all_names():
            sym.zone_labels[label] = d.name

    def _collect_counter(self, d: s.Simple, opts: dict[str, s.Opt], addendum: str | None) -> None:
        sym = self.sym
        if self._dup(sym.counters, d.name, d.name_span, d.what):
            return
        self._allow(d, {"per", "global", "range", "starts", "absent", "public", "hidden", "owner", "logged"})
        low = high = absent = None
        start: Any = False if d.what == "flag" else 0
        if "range" in opts:
            atoms = opts["range"].atoms
            if len(atoms) == 1 and atoms[0].kind == "dotrange":
                lo, hi = atoms[0].text.split("..")
                low, high = int(lo), int(hi)
            else:
                self.error("E104", "`range` needs LOW..HIGH", opts["range"].span)
        if "starts" in opts:
            atoms = opts["starts"].atoms
            if atoms and atoms[0].kind == "int":
                start = int(atoms[0].text)
            elif atoms and atoms[0].text in ("true", "false"):
                start = atoms[0].text == "true"
            elif atoms and atoms[0].text == "none":
                start = None
            else:
                self.error("E104", "`starts` needs a number, true, false or none", opts["starts"].span)
        if "absent" in opts:
            atoms = opts["absent"].atoms
            absent = _int(atoms[0]) if atoms else None
        shown = [v for v in ("public", "owner", "hidden") if v in opts]
        if len(shown) > 1:
            self.error("E104", f"a {d.what} is either public, owner or hidden", opts[shown[1]].span)
        if "owner" in opts and "per" not in opts:
            self.error("E104", f"only a {d.what} kept per player has an owner to show it to",
                       opts["owner"].span, hint="use `hidden` for a value no player sees")
        sym.counters[d.name] = CounterInfo(len(sym.counters), d, "per" in opts, low, high, start,
                                           d.what == "flag", absent, addendum,
                                           shown[0] if shown else "public", "logged" in opts)

    def _collect_field(self, d: s.Simple) -> None:
        sym = self.sym
        if self._dup(sym.fields, d.name, d.name_span, "field"):
            return
        first = d.opts[0]
        ftype = first.name
        choices: list[str] = []
        default: Any = None
        keyword = False
        has_default = False
        shown = False
        if ftype in ("one", "set"):
            words = first.words()
            if words and words[0] == "of":
                words = words[1:]
            choices = words
            ftype = "enum" if first.name == "one" else "set"
            for w in words:
                sym.enum_words.setdefault(w, d.name)
        elif ftype not in FIELD_TYPES:
            self.error("E104", f"unknown field type {ftype!r}", first.span,
                       hint="types: " + ", ".join(sorted(FIELD_TYPES | {"one of …", "set of …"})),
                       suggestion=did_you_mean(ftype, FIELD_TYPES))
        for o in d.opts[1:]:
            if o.name == "default" and o.atoms:
                a = o.atoms[0]
                default = a.literal()
                has_default = True
            elif o.name == "keyword" and ftype == "bool":
                keyword = True
            elif o.name == "shown":
                shown = True
            else:
                self.error("E103", f"unknown field option {o.name!r}", o.span,
                           hint="allowed: default, shown, keyword (for bool fields)")
        if ftype == "bool" and default is None:
            default = False
        if ftype == "set" and default is None:
            default = ()
        sym.fields[d.name] = FieldInfo(d, ftype, choices, default, keyword, has_default, shown)

    # ================= checking =================

    def check_all(self) -> Checked:
        sym = self.sym
        if sym.game is None:
            return self.checked
        self._check_clashes()
        self._check_game(sym.game)
        for v in sym.values.values():
            sc = self._scope(v.params, has_self=False)
            self.expr(v.expr, sc)
        for k in sym.keywords.values():
            if k.expr is not None:
                self.expr(k.expr, self._scope((), has_self=True))
        for t in sym.timings.values():
            for o in t.opts:
                if o.name not in ("default", "anchored"):
                    self.error("E103", f"unknown timing option {o.name!r}", o.span,
                               hint="allowed: default, anchored")
        for p in sym.procedures.values():
            sc = self._scope(p.params, has_self=False)
            seen: set[str] = set()
            for st in p.steps:
                if st.ident and st.ident in seen:
                    self.error("E102", f"step {st.ident} appears twice in {p.name}", st.span)
                seen.add(st.ident)
                self.step_scopes[(p.name, st.ident)] = dict(sc.names)
                self.block(st.body, sc)
        for trig, _ in sym.triggers:
            self._check_trigger(trig, has_self=False, has_this=False)
        for rep, _ in sym.replacements:
            proc = sym.procedures.get(rep.procedure)
            if proc is None:
                self.error("E101", f"unknown procedure {rep.procedure!r}", rep.procedure_span,
                           suggestion=did_you_mean(rep.procedure, sym.procedures))
                continue
            steps = [st.ident for st in proc.steps]
            if rep.step not in steps:
                self.error("E105", f"procedure {proc.name} has no step {rep.step!r}", rep.step_span,
                           hint="its steps: " + ", ".join(steps), suggestion=did_you_mean(rep.step, steps))
            sc = self._scope(proc.params, has_self=False)
            sc.names.update(self.step_scopes.get((proc.name, rep.step), {}))
            if rep.cond is not None:
                self.expr(rep.cond, sc)
            self.block(rep.body, sc)
        for chk, _ in sym.checks:
            self.block(chk.body, self._scope((), has_self=False))
        for act, _ in sym.actions:
            sc = self._scope((act.player,), has_self=False)
            sc.names[act.player] = "player"
            if act.cond is not None:
                self.expr(act.cond, sc)
            self.block(act.body, sc)
        for card in sym.cards.values():
            self._check_card(card)
        for scen in sym.scenarios.values():
            self._check_scenario(scen)
        return self.checked

    def _check_clashes(self) -> None:
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
                    span = self._decl_span(what, name)
                    self.error("E102", f"{name!r} is both a {seen[name]} and a {what}", span,
                               hint="names of zones, counters, values, procedures, characters, cards "
                                    "and enum words share one namespace: rename one")
                seen.setdefault(name, what)
        per_player = {n for n, z in sym.zones.items() if z.per_player}
        per_player |= {n for n, c in sym.counters.items() if c.per_player}
        for name, info in sym.fields.items():
            if name in per_player:
                self.error("E102", f"field {name!r} has the name of a player's zone or counter", info.decl.name_span,
                           hint="`x." + name + "` would be ambiguous: rename the field")

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

    def _scope(self, params: tuple[str, ...], has_self: bool, has_this: bool = False) -> _Scope:
        return _Scope({p: "any" for p in params}, has_self, has_this)

    def _check_game(self, game: s.Entity) -> None:
        allowed = {"players", "picks", "start", "decision", "hidden_card"}
        for p in game.props:
            if p.name not in allowed:
                self.error("E113", f"unknown game property {p.name!r}", p.span,
                           hint="allowed: " + ", ".join(sorted(allowed)), suggestion=did_you_mean(p.name, allowed))
        self.checked.table = self._table(game)
        start = game.prop("start")
        if start is None or not start.atoms:
            self.error("E115", "the game needs `start PROCEDURE`, the procedure that plays a game",
                       game.name_span)
        elif start.atoms[0].text not in self.sym.procedures:
            self.error("E101", f"unknown procedure {start.atoms[0].text!r}", start.atoms[0].span,
                       suggestion=did_you_mean(start.atoms[0].text, self.sym.procedures))
        for blk in game.blocks:
            self.error("E114", "a game has no timing blocks", blk.span)

    def _table(self, game: s.Entity) -> TableSpec:
        """`players N` or `players N..M`; `picks N [different [by OPTION]] [unique]`."""
        low = high = 2
        players = game.prop("players")
        if players is not None:
            words = players.words()
            bounds = words[0].split("..") if len(words) == 1 else []
            if bounds and all(b.isascii() and b.isdecimal() for b in bounds) and len(bounds) <= 2:
                low, high = int(bounds[0]), int(bounds[-1])
            if not bounds or not 1 <= low <= high <= MAX_PLAYERS or not all(
                    b.isascii() and b.isdecimal() for b in bounds):
                self.error("E104", f"`players` needs a number or a range like 2..10 within 1..{MAX_PLAYERS}",
                           players.span)
                low = high = 2
        picks = game.prop("picks")
        if picks is None:
            return TableSpec(low, high, 1)
        words = picks.words()
        count = words[0] if words else ""
        rest = words[1:]
        different = unique = False
        by = None
        if rest[:1] == ["different"]:
            different, rest = True, rest[1:]
            if rest[:1] == ["by"] and len(rest) >= 2:
                by, rest = rest[1], rest[2:]
        if rest[:1] == ["unique"]:
            unique, rest = True, rest[1:]
        if not (count.isascii() and count.isdecimal() and 1 <= int(count) <= MAX_PICKS) or rest:
            self.error("E104", f"`picks` needs a number 1..{MAX_PICKS}, then optionally "
                       "`different`, `different by OPTION` and `unique`", picks.span,
                       hint="e.g. `picks 2 different by number`")
            return TableSpec(low, high, 1)
        if by is not None and not any(o.name == by for c in self.sym.characters.values() for o in c.opts):
            self.error("E101", f"no character has the option {by!r}", picks.span)
        return TableSpec(low, high, int(count), different, by, unique)

    def _check_trigger(self, trig: s.Trigger, has_self: bool, has_this: bool) -> None:
        ev = self.sym.events.get(trig.event)
        if ev is None:
            self.error("E101", f"unknown event {trig.event!r}", trig.event_span,
                       suggestion=did_you_mean(trig.event, self.sym.events))
        elif len(ev.params) != len(trig.params):
            self.error("E106", f"event {ev.name} has {len(ev.params)} parameter(s), "
                       f"the trigger names {len(trig.params)}", trig.event_span)
        sc = self._scope(trig.params, has_self=has_self, has_this=has_this)
        if trig.cond is not None:
            self.expr(trig.cond, sc)
        self.block(trig.body, sc)

    def _check_card(self, card: s.Entity) -> None:
        sym = self.sym
        props: dict[str, Any] = {}
        for p in card.props:
            if p.name in CARD_BUILTIN_PROPS:
                props[p.name] = " ".join(p.words()) if p.name != "invented" else True
                if p.name == "copies":
                    props[p.name] = _int(p.atoms[0]) if p.atoms else 1
                continue
            info = sym.fields.get(p.name)
            if info is None:
                self.error("E113", f"unknown card property {p.name!r}", p.span,
                           hint="declare it with `field` or use a built-in: " + ", ".join(sorted(CARD_BUILTIN_PROPS)),
                           suggestion=did_you_mean(p.name, list(sym.fields) + list(CARD_BUILTIN_PROPS)))
                continue
            props[p.name] = self._prop_value(info, p)
        for name, info in sym.fields.items():
            if name not in props and not info.has_default and info.type in ("enum", "character"):
                self.error("E115", f"card {card.name} has no {name!r}", card.name_span,
                           hint=f"add a line `{name} …`")
        self.checked.card_props[card.name] = props
        self._lint_text(card, props)
        for blk in card.blocks:
            timing = sym.timings.get(blk.name)
            if timing is None:
                self.error("E114", f"unknown timing {blk.name!r}", blk.span,
                           hint="timings are declared with `timing`",
                           suggestion=did_you_mean(blk.name, sym.timings))
                params: tuple[str, ...] = ()
            else:
                params = timing.params
            sc = self._scope(params, has_self=True, has_this=True)
            self.block(blk.body, sc)
        for trig in card.triggers:
            self._check_trigger(trig, has_self=True, has_this=True)

    def _lint_text(self, card: s.Entity, props: dict[str, Any]) -> None:
        """W201: the card text names each keyword the card has, and does not open with one it lacks.

        Printed cards list their own keywords first; a keyword further on may describe
        something else (an attack the card makes), so only the opening is held against it."""
        text = str(props.get("text", ""))
        text_prop = card.prop("text")
        if not text or text_prop is None:
            return
        lowered = text.lower()
        for name, info in self.sym.fields.items():
            if not info.keyword:
                continue
            names = [n for n in info.decl.labels.all_names() if n]
            said = any(n.lower() in lowered for n in names)
            opens = any(lowered.startswith(n.lower()) for n in names)
            has = bool(props.get(name))
            if has and not said:
                self.warn("W201", f"card {card.name} is {name} but its text does not say "
                          f"{' / '.join(names)}", text_prop.span, hint="name the keyword in the text")
            elif opens and not has:
                self.warn("W201", f"the text of {card.name} names {' / '.join(names)} but the card "
                          f"is not {name}", text_prop.span, hint=f"add the property line `{name}`")

    def _prop_value(self, info: FieldInfo, p: s.Opt) -> Any:
        atoms = p.atoms
        bad = None
        if info.type == "int":
            if len(atoms) == 1 and atoms[0].kind == "int":
                return int(atoms[0].text)
            if len(atoms) == 1 and atoms[0].kind == "pair" and atoms[0].text.startswith("{"):
                return None
            bad = "a number"
        elif info.type == "pair":
            if len(atoms) == 1 and atoms[0].kind == "pair":
                from ..runtime.values import Pair
                left, right = atoms[0].text.strip("{}").split("/")
                return Pair(None if left == "-" else int(left), None if right == "-" else int(right),
                            atoms[0].text.startswith("{"))
            bad = "a two-sided value like 3/1"
        elif info.type == "range":
            values: list[int] = []
            for a in atoms:
                if a.kind == "int":
                    values.append(int(a.text))
                elif a.kind == "path" and a.text.count("-") == 1:
                    lo, hi = (int(x) for x in a.text.split("-"))
                    if not 0 <= lo <= hi <= MAX_RANGE:
                        self.error("E104", f"range {a.text} must run upwards within 0-{MAX_RANGE}", a.span)
                        return None
                    values.extend(range(lo, hi + 1))
                else:
                    bad = "a range like 3-4 or 2"
                    break
            if bad is None and values:
                return tuple(sorted(set(values)))
            bad = bad or "a range like 3-4 or 2"
        elif info.type == "text":
            return " ".join(p.words())
        elif info.type == "bool":
            if not atoms:
                return True
            if len(atoms) == 1 and atoms[0].text in ("true", "false"):
                return atoms[0].text == "true"
            bad = "true or false (or nothing)"
        elif info.type == "enum":
            if len(atoms) == 1 and atoms[0].text in info.choices:
                return atoms[0].text
            word = atoms[0].text if atoms else ""
            self.error("E104", f"{p.name} must be one of {', '.join(info.choices)}", p.span,
                       suggestion=did_you_mean(word, info.choices))
            return None
        elif info.type == "set":
            words = p.words()
            for w, a in zip(words, atoms, strict=True):
                if w not in info.choices:
                    self.error("E104", f"{w!r} is not one of {', '.join(info.choices)}", a.span,
                               suggestion=did_you_mean(w, info.choices))
            return tuple(words)
        elif info.type == "character":
            if len(atoms) == 1 and atoms[0].text in self.sym.characters:
                return atoms[0].text
            word = atoms[0].text if atoms else ""
            self.error("E101", f"unknown character {word!r}", p.span,
                       suggestion=did_you_mean(word, self.sym.characters))
            return None
        else:
            return " ".join(p.words())
        self.error("E104", f"{p.name} needs {bad}", p.span)
        return None

    def _check_scenario(self, scen: s.Entity) -> None:
        allowed = {"players", "seed", "script", "start"}
        for p in scen.props:
            if p.name not in allowed:
                self.error("E113", f"unknown scenario property {p.name!r}", p.span,
                           hint="allowed: " + ", ".join(sorted(allowed)), suggestion=did_you_mean(p.name, allowed))
            if p.name == "players":
                for a in p.atoms:
                    for name in a.text.split("/"):
                        if a.text != "vs" and name not in self.sym.characters:
                            self.error("E101", f"unknown character {name!r}", a.span,
                                       suggestion=did_you_mean(name, self.sym.characters))
        names = {f"p{i}": "player" for i in range(1, 11)}
        sc = _Scope(names, False, False)  # blocks run in order in one scope
        for blk in scen.blocks:
            self.block(blk.body, sc)

    # ---- statements ----

    def block(self, body: tuple[s.Stmt, ...], sc: _Scope) -> None:
        for st in body:
            self.stmt(st, sc)

    def stmt(self, st: s.Stmt, sc: _Scope) -> None:
        sym = self.sym
        if isinstance(st, s.Let):
            t = self._let_value(st.value, sc)
            self._outer_write(st.name, st.span, sc)
            sc.names[st.name] = t
        elif isinstance(st, s.Assign):
            self._target(st.target, sc)
            self.expr(st.value, sc)
        elif isinstance(st, s.AugAssign):
            t = self._target(st.target, sc)
            vt = self.expr(st.value, sc)
            if t == "int" and vt not in ("int", "any"):
                self.error("E110", f"cannot add a {vt} to a number", st.value.span)
        elif isinstance(st, s.Move):
            self._move(st, sc)
        elif isinstance(st, s.Put):
            self.expect_type(st.obj, sc, ("obj",), "a card or object")
            self.expect_type(st.dest, sc, ("zone",), "a zone")
        elif isinstance(st, s.Emit):
            ev = sym.events.get(st.event)
            if ev is None:
                self.error("E101", f"unknown event {st.event!r}", st.span, suggestion=did_you_mean(st.event, sym.events))
            elif len(ev.params) != len(st.args):
                self.error("E106", f"event {ev.name} takes {len(ev.params)} argument(s), got {len(st.args)}", st.span)
            for a in st.args:
                self.expr(a, sc)
        elif isinstance(st, s.Modify):
            if not isinstance(st.target, (s.Attr, s.Name)):
                self.error("E111", "`modify` needs a field or counter like x.damage", st.span)
            else:
                self._target(st.target, sc)
            self.expr(st.delta, sc)
            if st.while_ is not None:
                self.expr(st.while_, sc)
            if st.until is not None and st.until not in sym.events:
                self.error("E101", f"unknown event {st.until!r}", st.span, suggestion=did_you_mean(st.until, sym.events))
        elif isinstance(st, s.Forbid):
            if st.token not in sym.tokens:
                self.error("E101", f"unknown token {st.token!r}", st.span, suggestion=did_you_mean(st.token, sym.tokens))
            self.expect_type(st.zone, sc, ("zone", "obj"), "a zone or a card")
            if st.while_ is not None:
                self.expr(st.while_, sc)
        elif isinstance(st, s.Reveal):
            self.expect_type(st.what, sc, ("zone", "obj", "list"), "a card, a list of cards or a zone")
            self.expect_type(st.to, sc, ("player", "list"), "a player or a list of players")
        elif isinstance(st, s.Shuffle):
            self.expect_type(st.zone, sc, ("zone",), "a zone")

        elif isinstance(st, s.Log):
            for a in st.args:
                self.expr(a, sc)
            if st.to is not None:
                self.expect_type(st.to, sc, ("player", "list"), "a player or a list of players")
        elif isinstance(st, s.Expect):
            self.expr(st.cond, sc)
        elif isinstance(st, s.Return):
            if st.value is not None:
                if sc.once_outer is not None:
                    self.error("E112", "a `once` block cannot return a value", st.span,
                               hint="`return` alone ends the block")
                self._let_value(st.value, sc)
        elif isinstance(st, s.End):
            if st.kind == "win":
                self.expect_type(st.player, sc, ("player", "list"), "a player or a list of players")
            elif st.kind != "draw_game":
                self.expect_type(st.player, sc, ("player",), "a player")
            else:
                self.expr(st.player, sc)
        elif isinstance(st, s.CallStmt):
            if not isinstance(st.call, s.Call):
                self.error("E001", "this line does nothing: a statement must call, assign or act", st.span)
            self.expr(st.call, sc)
        elif isinstance(st, s.Break):
            if sc.loops == 0:
                self.error("E112", "`break` outside a loop", st.span)
        elif isinstance(st, s.If):
            for cond, body in st.branches:
                self.expr(cond, sc)
                self.block(body, sc.child())
            self.block(st.orelse, sc.child())
        elif isinstance(st, s.For):
            self.expr(st.iterable, sc)
            self._outer_write(st.var, st.span, sc)
            inner = sc.child()
            inner.names[st.var] = "any"
            inner.loops += 1
            self.block(st.body, inner)
        elif isinstance(st, (s.While, s.Repeat)):
            self.expr(st.cond if isinstance(st, s.While) else st.count, sc)
            inner = sc.child()
            inner.loops += 1
            self.block(st.body, inner)
        elif isinstance(st, s.Menu):
            self.expect_type(st.player, sc, ("player",), "a player")
            for opt in st.options:
                inner = sc.child()
                if opt.var is not None and opt.iterable is not None:
                    self.expr(opt.iterable, sc)
                    inner.names[opt.var] = "any"
                if opt.cond is not None:
                    self.expr(opt.cond, inner)
                self.block(opt.body, inner)
        elif isinstance(st, s.Once):
            ev = sym.events.get(st.event)
            if ev is None:
                self.error("E101", f"unknown event {st.event!r}", st.span, suggestion=did_you_mean(st.event, sym.events))
            elif len(ev.params) != len(st.params):
                self.error("E106", f"event {ev.name} has {len(ev.params)} parameter(s)", st.span)
            if st.until is not None and st.until not in sym.events:
                self.error("E101", f"unknown event {st.until!r}", st.span, suggestion=did_you_mean(st.until, sym.events))
            inner = sc.once_body(st.params)
            for p in st.params:
                inner.names[p] = "any"
            if st.cond is not None:
                self.expr(st.cond, inner)
            self.block(st.body, inner)

    def _let_value(self, value: Any, sc: _Scope) -> str:
        if isinstance(value, s.Move):
            self._move(value, sc)
            return "int"
        if isinstance(value, s.Pick):
            self.expr(value.collection, sc)
            self.expect_type(value.player, sc, ("player",), "a player")
            if value.where is not None:
                inner = sc.child()
                inner.names[value.var] = "any"
                self.expr(value.where, inner)
            return "any"
        if isinstance(value, s.NumberChoice):
            self.expect_type(value.low, sc, ("int",), "a number")
            self.expect_type(value.high, sc, ("int",), "a number")
            self.expect_type(value.player, sc, ("player",), "a player")
            return "int"
        if isinstance(value, s.Ask):
            self.expect_type(value.player, sc, ("player",), "a player")
            return "bool"
        return self.expr(value, sc)

    def _move(self, st: s.Move, sc: _Scope) -> None:
        self.expect_type(st.amount, sc, ("int",), "a number of tokens")
        if st.token is not None and st.token not in self.sym.tokens:
            self.error("E101", f"unknown token {st.token!r}", st.token_span or st.span,
                       suggestion=did_you_mean(st.token, self.sym.tokens))
        if st.token is None and len(self.sym.tokens) != 1:
            self.error("E104", "say which token moves: `move N TOKEN from … to …`", st.span,
                       hint="tokens: " + ", ".join(self.sym.tokens))
        if st.owner is not None:
            self.expect_type(st.owner, sc, ("player",), "a player")
            if st.token is not None and not self.sym.token_owned.get(st.token, False):
                self.error("E104", f"token {st.token} has no owner", st.owner.span,
                           hint="declare it with `token NAME: owned`")
        self.expect_type(st.source, sc, ("zone", "obj"), "a zone or an object")
        self.expect_type(st.dest, sc, ("zone", "obj"), "a zone or an object")

    def _outer_write(self, name: str, span: s.Span, sc: _Scope) -> None:
        """W203 when a `once` block assigns a variable of the block around it."""
        if sc.once_outer is not None and name in sc.once_outer:
            self.warn("W203", f"this `once` block changes {name!r}, a variable of the block around it",
                      span, hint="the change happens when the event does, after that block has run")

    def _target(self, target: s.Expr, sc: _Scope) -> str:
        if isinstance(target, s.Name):
            if target.ident in sc.names:
                self.checked.resolution[id(target)] = ("local", target.ident)
                self._outer_write(target.ident, target.span, sc)
                return sc.names[target.ident]
            info = self.sym.counters.get(target.ident)
            if info is not None and not info.per_player:
                self.checked.resolution[id(target)] = ("counter", target.ident)
                return _counter_type(info)
            self.error("E111", f"cannot assign to {target.ident!r}", target.span,
                       hint="assign to counters, flags, fields (x.f) or variables made with `let`")
            return "any"
        if isinstance(target, s.Attr):
            before = len(self.diags)
            t = self.expr(target, sc)
            kind = self.checked.resolution.get(id(target), ("?",))[0]
            if kind not in ("pcounter", "field", "counter") and len(self.diags) == before:
                self.error("E111", f"cannot assign to {target.name!r}", target.span,
                           hint="only counters, flags and object fields can change")
            return t
        self.error("E111", "cannot assign to this expression", target.span)
        return "any"

    def expect_type(self, e: s.Expr, sc: _Scope, types: tuple[str, ...], what: str) -> str:
        t = self.expr(e, sc)
        if t not in types and t != "any":
            self.error("E110", f"expected {what}, found a {t}", e.span)
        return t

    # ---- expressions ----

    def expr(self, e: s.Expr, sc: _Scope) -> str:
        t = self._expr(e, sc)
        self.checked.types[id(e)] = t
        return t

    def _expr(self, e: s.Expr, sc: _Scope) -> str:
        sym = self.sym
        if isinstance(e, s.IntLit):
            return "int"
        if isinstance(e, s.StrLit):
            return "str"
        if isinstance(e, s.BoolLit):
            return "bool"
        if isinstance(e, s.NoneLit):
            return "any"
        if isinstance(e, s.PairLit):
            return "pair"
        if isinstance(e, s.DeltaLit):
            return "delta"
        if isinstance(e, s.RangeLit):
            if not 0 <= e.low <= e.high <= MAX_RANGE:
                self.error("E104", f"range {e.low}-{e.high} must run upwards within 0-{MAX_RANGE}", e.span)
            return "range"
        if isinstance(e, s.ListLit):
            for item in e.items:
                self.expr(item, sc)
            return "list"
        if isinstance(e, s.ZoneLabel):
            name = sym.zone_by_label(e.label)
            if name is None:
                self.error("E101", f"no zone is labelled <{e.label}>", e.span,
                           suggestion=did_you_mean(e.label, sym.zone_labels))
                return "any"
            return self._zone_name(e, name, sc)
        if isinstance(e, s.Name):
            return self._name(e, sc)
        if isinstance(e, s.Attr):
            return self._attr(e, sc)
        if isinstance(e, s.Call):
            return self._call(e, sc)
        if isinstance(e, s.Index):
            self.expr(e.obj, sc)
            self.expect_type(e.index, sc, ("int",), "a number")
            return "any"
        if isinstance(e, s.BinOp):
            lt = self.expr(e.left, sc)
            rt = self.expr(e.right, sc)
            if e.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in"):
                if e.op in ("<", "<=", ">", ">=") and (lt not in ("int", "any") or rt not in ("int", "any")):
                    bad = e.left if lt not in ("int", "any") else e.right
                    self.error("E110", f"cannot compare a {lt if bad is e.left else rt} by size", bad.span)
                return "bool"
            numeric = ("int", "any")
            if e.op == "+" and (lt in ("pair", "delta") or rt in ("pair", "delta")):
                return "pair"
            if e.op == "+" and lt in ("list", "any") and rt in ("list", "any") and "list" in (lt, rt):
                return "list"
            if lt not in numeric or rt not in numeric:
                bad = e.left if lt not in numeric else e.right
                self.error("E110", f"arithmetic needs numbers, found a {lt if bad is e.left else rt}", bad.span)
            return "int"
        if isinstance(e, s.BoolOp):
            for v in e.values:
                self.expr(v, sc)
            return "bool"
        if isinstance(e, s.Not):
            self.expr(e.operand, sc)
            return "bool"
        if isinstance(e, s.Neg):
            self.expect_type(e.operand, sc, ("int",), "a number")
            return "int"
        return "any"

    def _zone_name(self, e: s.Expr, name: str, sc: _Scope) -> str:
        info = self.sym.zones[name]
        if info.per_player:
            if not sc.has_self:
                self.error("E110", f"zone {name} belongs to each player: write p.{name}", e.span)
                return "zone"
            self.checked.resolution[id(e)] = ("selfzone", name)
            return "zone"
        self.checked.resolution[id(e)] = ("zone", name)
        return "zone"

    def _name(self, e: s.Name, sc: _Scope) -> str:
        sym = self.sym
        res = self.checked.resolution
        ident = e.ident
        if ident in sc.names:
            res[id(e)] = ("local", ident)
            return sc.names[ident]
        if ident == "self":
            if not sc.has_self:
                self.error("E101", "`self` is only known in cards and keywords", e.span,
                           hint="procedures receive players as parameters")
                return "player"
            res[id(e)] = ("self",)
            return "player"
        if ident == "this":
            if not sc.has_this:
                self.error("E101", "`this` is only known in cards", e.span)
                return "obj"
            res[id(e)] = ("this",)
            return "obj"
        if ident in sym.zones:
            return self._zone_name(e, ident, sc)
        if ident in sym.counters:
            info = sym.counters[ident]
            if info.per_player:
                if sc.has_self:
                    res[id(e)] = ("selfcounter", ident)
                    return _counter_type(info)
                self.error("E110", f"{ident} belongs to each player: write p.{ident}", e.span)
                return "int"
            res[id(e)] = ("counter", ident)
            return _counter_type(info)
        if ident in sym.keywords:
            kw = sym.keywords[ident]
            if kw.expr is None:
                res[id(e)] = ("const", ident)
                return "str"
            if not sc.has_self:
                self.error("E110", f"keyword {ident} needs a player: use it inside a card", e.span)
            res[id(e)] = ("keyword", ident)
            return "bool"
        if ident in sym.values:
            v = sym.values[ident]
            if v.params:
                if len(v.params) == 1 and sc.has_self:
                    res[id(e)] = ("selfvalue", ident)
                    return "any"
                self.error("E106", f"{ident} takes {len(v.params)} argument(s)", e.span)
                return "any"
            res[id(e)] = ("value0", ident)
            return "any"
        for table in (sym.enum_words, sym.characters, sym.tokens, sym.kinds, sym.timings,
                      sym.events, sym.addenda):
            if ident in table:
                res[id(e)] = ("const", ident)
                return "str"
        if ident in sym.cards:
            res[id(e)] = ("const", ident)
            return "str"
        candidates = list(sc.names) + sym.all_names() + ["self", "this"]
        self.error("E101", f"unknown name {ident!r}", e.span, suggestion=did_you_mean(ident, candidates))
        return "any"

    def _attr(self, e: s.Attr, sc: _Scope) -> str:
        sym = self.sym
        res = self.checked.resolution
        t = self.expr(e.obj, sc)
        name = e.name
        if t in ("player", "any") and name in sym.zones and sym.zones[name].per_player:
            res[id(e)] = ("pzone", name)
            return "zone"
        if t in ("player", "any") and name in sym.counters and sym.counters[name].per_player:
            res[id(e)] = ("pcounter", name)
            return _counter_type(sym.counters[name])
        if t in ("player", "any") and name in sym.values and len(sym.values[name].params) == 1:
            res[id(e)] = ("pvalue", name)
            return "any"
        if t in ("player", "any") and name in PLAYER_ATTRS:
            res[id(e)] = ("playerattr", name)
            return PLAYER_ATTRS[name]
        if t in ("obj", "any") and name in sym.fields:
            res[id(e)] = ("field", name)
            ftype = sym.fields[name].type
            return {"int": "int", "pair": "pair", "range": "range", "bool": "bool"}.get(ftype, "any")
        if t in ("obj", "any") and name in OBJ_ATTRS:
            res[id(e)] = ("objattr", name)
            return OBJ_ATTRS[name]
        if t in ("zone", "any") and name in ZONE_ATTRS:
            res[id(e)] = ("zoneattr", name)
            return ZONE_ATTRS[name]
        if t in ("obj", "any") and name in sym.timings:
            self.error("E110", f"{name} is a timing: call it as x.{name}(…)", e.span)
            return "any"
        pool: list[str] = []
        if t in ("player", "any"):
            pool += [z for z, i in sym.zones.items() if i.per_player]
            pool += [c for c, i in sym.counters.items() if i.per_player] + list(PLAYER_ATTRS)
        if t in ("obj", "any"):
            pool += list(sym.fields) + list(OBJ_ATTRS)
        if t in ("zone", "any"):
            pool += list(ZONE_ATTRS)
        name_span = s.Span(e.span.file, e.span.end_line, max(e.span.end_col - len(name), 1),
                           e.span.end_line, e.span.end_col)
        self.error("E101", f"a {t} has no {name!r}", name_span, suggestion=did_you_mean(name, pool))
        return "any"

    def _call(self, e: s.Call, sc: _Scope) -> str:
        sym = self.sym
        res = self.checked.resolution
        for a in e.args:
            self.expr(a, sc)
        func = e.func
        if isinstance(func, s.Attr) and func.name in sym.timings:
            self.expect_type(func.obj, sc, ("obj",), "a card")
            timing = sym.timings[func.name]
            if len(timing.params) != len(e.args):
                self.error("E106", f"timing {func.name} takes {len(timing.params)} argument(s), got {len(e.args)}", e.span)
            res[id(e)] = ("timing", func.name)
            return "any"
        if not isinstance(func, s.Name):
            self.error("E110", "only procedures, values, builtins and timings can be called", e.span)
            return "any"
        name = func.ident
        if name in sym.procedures:
            proc = sym.procedures[name]
            if len(proc.params) != len(e.args):
                self.error("E106", f"{name} takes {len(proc.params)} argument(s), got {len(e.args)}", e.span,
                           hint=f"{name}({', '.join(proc.params)})")
            res[id(e)] = ("proc", name)
            return "any"
        if name in sym.values:
            v = sym.values[name]
            if len(v.params) != len(e.args):
                self.error("E106", f"{name} takes {len(v.params)} argument(s), got {len(e.args)}", e.span)
            res[id(e)] = ("value", name)
            return "any"
        if name in sym.keywords and sym.keywords[name].expr is not None:
            if len(e.args) != 1:
                self.error("E106", f"keyword {name}(p) takes one player", e.span)
            res[id(e)] = ("keywordcall", name)
            return "bool"
        if name in BUILTINS:
            lo, hi, rtype = BUILTINS[name]
            if not lo <= len(e.args) <= hi:
                count = str(lo) if lo == hi else f"{lo} to {hi}"
                self.error("E106", f"{name} takes {count} argument(s), got {len(e.args)}", e.span)
            res[id(e)] = ("builtin", name)
            if name in ("min", "max") and e.args:
                return self.checked.types.get(id(e.args[0]), rtype)
            return rtype
        self.error("E101", f"unknown procedure or function {name!r}", func.span,
                   suggestion=did_you_mean(name, list(sym.procedures) + list(sym.values) + list(BUILTINS)))
        return "any"


def check(files: list[s.SourceFile]) -> tuple[Checked, list[Diagnostic]]:
    """Check a game's files; returns the checked model and all diagnostics."""
    checker = Checker()
    checker.collect(files)
    if checker.sym.game is None:
        first = files[0].path if files else "<input>"
        checker.error("E108", "no game is declared", s.Span(first, 1, 1, 1, 2),
                      hint="declare `game NAME:` or start the file with `use GAME`")
        return checker.checked, checker.diags
    checked = checker.check_all()
    return checked, checker.diags
