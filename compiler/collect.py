"""Collect: every declaration of a game's files goes into the symbol table, with its options
read and checked (E102 for a name declared twice, E103/E104 for options)."""

from __future__ import annotations

from typing import Any

from . import syntax as s
from .checked import Context
from .diagnostics import did_you_mean
from .symbols import CounterInfo, FieldInfo, ZoneInfo

# What each option means: the language reference is written from these tables.
FIELD_TYPES = {
    "int": "a whole number", "pair": "a two-sided value like 3/1", "range": "a range like 3-4 or 2",
    "text": "words", "bool": "yes or no (the line alone means yes)", "enum": "`one of A B …`: one word",
    "set": "`set of A B …`: any of the words", "character": "a declared character", "any": "any value",
}
FIELD_OPTIONS = {
    "default": "the value a card has when it leaves the line out", "shown": "players see it on every card they can see",
    "logged": "every change the rules write goes to the log",
    "keyword": "(bool fields) a printed keyword: the card text must name it when it is set (W201)",
    "under": "`under TIMING`: a card that sets this field has an effect that its text prints under that "
             "timing's marker (the rules carry it out, not a block of the card)",
    "form_of": "`form_of KEYWORD`: (keyword fields) a form of another keyword, as `Guarded (Half)` may be of "
               "`Guarded`: a text that names the general keyword tells of this one too",
}
ZONE_OPTIONS = {
    "per": "`per player`: each player has one", "shared": "one for the whole game (the default)",
    "holds": "`holds cards TOKEN …`: what it holds", "max": "`max N`: how many tokens fit, all kinds together (tokens that belong to a player do not count)",
    "public": "everyone sees its cards (the default)", "owner": "only its player sees its cards",
    "hidden": "nobody sees its cards", "supply": "an unlimited source and sink of tokens",
    "also": "`also holds TOKEN`: in an addendum, adds a token kind to a zone declared elsewhere",
    "reveal": "`reveal FIELD`: a card in it is public while that field is true",
}
COUNTER_OPTIONS = {
    "per": "`per player`: each player has one", "global": "one for the whole game (the default)",
    "range": "`range LOW..HIGH`: values are kept within it", "starts": "`starts N` (or true, false, none)",
    "absent": "`absent N`: in an addendum, what it counts as for a player without the addendum",
    "public": "everyone sees it (the default)", "owner": "only its player sees it", "hidden": "nobody sees it",
    "logged": "every change goes to the log",
}
TOKEN_OPTIONS = {"owned": "each token belongs to a player (`move N TOKEN of P …`)"}


def literal_int(atom: s.Atom) -> int | None:
    return int(atom.text) if atom.kind == "int" else None


class Collector:
    """Fills `ctx.sym` from the files' declarations."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.sym = ctx.sym

    def files(self, files: list[s.SourceFile]) -> None:
        for f in files:
            self.sym.sources[f.path] = f.text
            for item in f.items:
                self.item(item, None)

    def _new(self, table: dict[str, Any], name: str, span: s.Span, what: str) -> bool:
        """True when `name` is new in `table`; E102 (saying where the first one is) otherwise."""
        if name not in table:
            return True
        first = table[name]
        where = getattr(first, "decl", first)
        at = getattr(where, "name_span", None) or getattr(where, "span", None)
        self.ctx.error("E102", f"{what} {name!r} is declared twice", span,
                       hint=f"the first one is at {at}; rename one of them" if at else "rename one of them")
        return False

    def item(self, item: s.Decl, addendum: str | None) -> None:
        sym = self.sym
        if addendum is not None:
            sym.decl_addendum[id(item)] = addendum
        match item:
            case s.Use():
                pass
            case s.Entity(what="game"):
                if sym.game is not None:
                    self.ctx.error("E102", f"game {item.name!r} is declared twice", item.span,
                                   hint=f"the first one is at {sym.game.span}")
                sym.game = item
            case s.Entity(what="card"):
                if self._new(sym.cards, item.name, item.name_span, "card"):
                    sym.cards[item.name] = item
            case s.Entity():
                if self._new(sym.scenarios, item.name, item.name_span, "scenario"):
                    sym.scenarios[item.name] = item
            case s.Simple():
                self.simple(item, addendum)
            case s.Value():
                if self._new(sym.values, item.name, item.span, "value"):
                    sym.values[item.name] = item
            case s.Event():
                if self._new(sym.events, item.name, item.span, "event"):
                    sym.events[item.name] = item
            case s.Timing():
                if self._new(sym.timings, item.name, item.span, "timing"):
                    sym.timings[item.name] = item
            case s.Keyword():
                if self._new(sym.keywords, item.name, item.span, "keyword"):
                    sym.keywords[item.name] = item
            case s.Procedure():
                if self._new(sym.procedures, item.name, item.span, "procedure"):
                    sym.procedures[item.name] = item
            case s.Trigger():
                sym.triggers.append((item, addendum))
            case s.Replace():
                sym.replacements.append((item, addendum))
            case s.AddedOption():
                sym.added_options.append((item, addendum))
            case s.Check():
                sym.checks.append((item, addendum))
            case s.Action():
                sym.actions.append((item, addendum))
            case s.Addendum():
                if self._new(sym.addenda, item.name, item.span, "addendum"):
                    sym.addenda[item.name] = item
                for sub in item.items:
                    self.item(sub, item.name)

    def simple(self, d: s.Simple, addendum: str | None) -> None:
        sym = self.sym
        opts = {o.name: o for o in d.opts}
        if d.what == "character":
            if self._new(sym.characters, d.name, d.name_span, "character"):
                sym.characters[d.name] = d
            for o in d.opts:  # any option: read with character_prop(c, "name")
                if len(o.atoms) > 1:
                    self.ctx.error("E104", f"character option {o.name!r} takes one value", o.span)
        elif d.what == "token":
            if self._new(sym.tokens, d.name, d.name_span, "token"):
                sym.tokens[d.name] = d
                sym.token_owned[d.name] = "owned" in opts
            self.allow(d, set(TOKEN_OPTIONS))
        elif d.what == "kind":
            if self._new(sym.kinds, d.name, d.name_span, "kind"):
                sym.kinds[d.name] = d
        elif d.what == "zone":
            self.zone(d, opts, addendum)
        elif d.what in ("counter", "flag"):
            self.counter(d, opts, addendum)
        elif d.what == "field":
            self.field(d)

    def allow(self, d: s.Simple, allowed: set[str]) -> None:
        for o in d.opts:
            if o.name not in allowed:
                hint = "allowed: " + ", ".join(sorted(allowed))
                if o.name == "ordered":
                    hint = "every zone keeps its cards in order: leave `ordered` out"
                self.ctx.error("E103", f"unknown option {o.name!r} for a {d.what}", o.span,
                               hint=hint, suggestion=did_you_mean(o.name, allowed))

    def zone(self, d: s.Simple, opts: dict[str, s.Opt], addendum: str | None) -> None:
        sym = self.sym
        if d.name in sym.zones:
            # `zone pile: also holds marker` in an addendum extends an existing zone
            if "also" in opts:
                sym.zones[d.name].tokens.extend(a.text for a in opts["also"].atoms if a.text != "holds")
                return
            self._new(sym.zones, d.name, d.name_span, "zone")
            return
        self.allow(d, set(ZONE_OPTIONS))
        holds = [a.text for a in opts["holds"].atoms] if "holds" in opts else []
        capacity = None
        if "max" in opts:
            atoms = opts["max"].atoms
            capacity = literal_int(atoms[0]) if atoms else None
            if capacity is None:
                self.ctx.error("E104", "`max` needs a number", opts["max"].span)
        visibility = next((v for v in ("hidden", "owner") if v in opts), "public")
        reveal = opts["reveal"].atoms[0].text if "reveal" in opts and opts["reveal"].atoms else None
        sym.zones[d.name] = ZoneInfo(len(sym.zones), d, "per" in opts, "cards" in holds,
                                     [h for h in holds if h != "cards"], capacity, visibility, reveal,
                                     "supply" in opts, addendum)
        for label in d.labels.all_names():
            sym.zone_labels[label] = d.name

    def counter(self, d: s.Simple, opts: dict[str, s.Opt], addendum: str | None) -> None:
        sym = self.sym
        if not self._new(sym.counters, d.name, d.name_span, d.what):
            return
        self.allow(d, set(COUNTER_OPTIONS))
        low = high = None
        absent: int | bool | None = None
        if "range" in opts:
            atoms = opts["range"].atoms
            if len(atoms) == 1 and atoms[0].kind == "dotrange":
                lo, hi = atoms[0].text.split("..")
                low, high = int(lo), int(hi)
            else:
                self.ctx.error("E104", "`range` needs LOW..HIGH", opts["range"].span)
        start = self._start(d, opts)
        if "absent" in opts:
            atoms = opts["absent"].atoms
            if atoms and atoms[0].kind == "int":
                absent = int(atoms[0].text)
            elif atoms and atoms[0].text in ("true", "false"):
                absent = atoms[0].text == "true"
            else:
                self.ctx.error("E104", "`absent` needs a number, true or false", opts["absent"].span)
        shown = [v for v in ("public", "owner", "hidden") if v in opts]
        if len(shown) > 1:
            self.ctx.error("E104", f"a {d.what} is either public, owner or hidden", opts[shown[1]].span)
        if absent is not None and "per" not in opts:
            self.ctx.error("E104", f"only a {d.what} kept per player can be absent for a player",
                           opts["absent"].span, hint="drop `absent` or add `per player`")
        if "owner" in opts and "per" not in opts:
            self.ctx.error("E104", f"only a {d.what} kept per player has an owner to show it to",
                           opts["owner"].span, hint="use `hidden` for a value no player sees")
        sym.counters[d.name] = CounterInfo(len(sym.counters), d, "per" in opts, low, high, start,
                                           d.what == "flag", absent, addendum,
                                           shown[0] if shown else "public", "logged" in opts)

    def _start(self, d: s.Simple, opts: dict[str, s.Opt]) -> Any:
        if "starts" not in opts:
            return False if d.what == "flag" else 0
        atoms = opts["starts"].atoms
        if atoms and atoms[0].kind == "int":
            return int(atoms[0].text)
        if atoms and atoms[0].text in ("true", "false", "none"):
            return atoms[0].literal()
        self.ctx.error("E104", "`starts` needs a number, true, false or none", opts["starts"].span)
        return False if d.what == "flag" else 0

    def field(self, d: s.Simple) -> None:
        sym = self.sym
        if not self._new(sym.fields, d.name, d.name_span, "field"):
            return
        first = d.opts[0]
        ftype = first.name
        choices: list[str] = []
        if ftype in ("one", "set"):
            words = first.words()
            choices = words[1:] if words and words[0] == "of" else words
            ftype = "enum" if first.name == "one" else "set"
            for w in choices:
                sym.enum_words.setdefault(w, d.name)
        elif ftype not in FIELD_TYPES:
            self.ctx.error("E104", f"unknown field type {ftype!r}", first.span,
                           hint="types: " + ", ".join(sorted(set(FIELD_TYPES) | {"one of …", "set of …"})),
                           suggestion=did_you_mean(ftype, FIELD_TYPES))
        default: Any = None
        keyword = has_default = shown = logged = False
        under = form_of = None
        for o in d.opts[1:]:
            if o.name == "default" and o.atoms:
                default = o.atoms[0].literal()
                has_default = True
            elif o.name == "keyword" and ftype == "bool":
                keyword = True
            elif o.name == "shown":
                shown = True
            elif o.name == "logged":
                logged = True
            elif o.name == "under" and len(o.atoms) == 1:
                under = o.atoms[0].text
            elif o.name == "form_of" and len(o.atoms) == 1 and ftype == "bool":
                form_of = o.atoms[0].text
            else:
                self.ctx.error("E103", f"unknown field option {o.name!r}", o.span,
                               hint="allowed: " + ", ".join(FIELD_OPTIONS))
        if ftype == "bool" and default is None:
            default = False
        if ftype == "set" and default is None:
            default = ()
        sym.fields[d.name] = FieldInfo(d, ftype, choices, default, keyword, has_default, shown, logged, under, form_of)
