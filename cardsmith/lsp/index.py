"""Where each name of a game is declared and used: an `Index` of `Occurrence`s, built from a
checked model (`Checked.resolution` says what each name-bearing node means) and from the names
the syntax model keeps as plain strings (an event after `emit`, a step after `instead of`, a
timing block's name, option words, a `let`'s variable), which are found in the node's source
line. A text that names one card (its number, say) counts as a use of that card.

What the syntax of each file yields is remembered by the file's syntax object, which stays the
same object while the file's text is unchanged; only the resolution is read again per build."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from ..compiler import syntax as s
from ..compiler.checked import Checked
from ..compiler.props import CARD_BUILTIN_PROPS, GAME_PROPS, SCENARIO_PROPS
from ..compiler.refs import (
    AttrRef,
    BuiltinRef,
    CallRef,
    CounterRef,
    FieldRef,
    LocalRef,
    Ref,
    SelfRef,
    ThisRef,
    WordRef,
    ZoneRef,
)
from ..compiler.span import Span
from ..compiler.symbols import Symbols
from ..compiler.vocabulary import vocabulary

NAME = r"((?!\d)\w+)"
# the kind a word used as a value names, in the order the checker looks them up
WORD_KINDS = ("word", "character", "token", "kind", "timing", "event", "addendum", "card")
# the kind an option's word names when the option does not say (`holds TOKEN`, `base CHARACTER`)
OPTION_KINDS = ("character", "card", "token", "timing", "event", "procedure", "value", "keyword", "field",
                "zone", "counter", "kind", "word", "addendum")
HEADERS = {s.Value: "value", s.Event: "event", s.Timing: "timing", s.Keyword: "keyword",
           s.Procedure: "procedure", s.Addendum: "addendum"}


class Symbol(NamedTuple):
    """Something a name means. `scope` tells apart names that are not unique in a game: a
    local's declaration (`file:line`), a step's procedure, an attribute's type. (A named tuple:
    an index hashes tens of thousands of them per build.)"""

    kind: str
    name: str
    scope: str = ""


@dataclass(frozen=True)
class Occurrence:
    """A name written in a source: where, what it means, and whether it declares it."""

    span: Span
    symbol: Symbol
    declaration: bool = False
    node: s.Node | None = None  # the expression written there, for its type


@dataclass
class Container:
    """A top-level declaration (or an addendum's item): the scope of the locals in it."""

    key: str
    node: s.Decl
    line: int
    end_line: int


@dataclass
class _Raw:
    """What one file's syntax yields before the game's symbols are known."""

    containers: list[Container] = field(default_factory=list)
    fixed: list[Occurrence] = field(default_factory=list)  # kind known from the syntax alone
    named: list[tuple[Span, str, tuple[str, ...]]] = field(default_factory=list)  # a word and the kinds it may be
    props: list[tuple[Span, str, str, str]] = field(default_factory=list)  # card property atom: span, word, field, card
    texts: list[tuple[Span, str, str | None]] = field(default_factory=list)  # strings that may name a card
    simple: list[s.Simple] = field(default_factory=list)  # one-line declarations (some only add to another)


def code_only(line: str) -> str:
    """A line with its strings and comment blanked out (the same length, so columns hold)."""
    out = []
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted:
            if ch == "\\" and i + 1 < len(line):
                out.append("  ")
                i += 2
                continue
            quoted = ch != '"'
            out.append(" " if quoted else '"')
        elif ch == '"':
            quoted = True
            out.append('"')
        elif ch == "#":
            out.append(" " * (len(line) - i))
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out)


class _Lines:
    """One file's lines with strings and comments blanked, read on demand."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.raw = text.split("\n")
        self._code: dict[int, str] = {}

    def code(self, line: int) -> str:
        if line not in self._code:
            self._code[line] = code_only(self.raw[line - 1].removesuffix("\r")) if 0 < line <= len(self.raw) else ""
        return self._code[line]

    def find(self, line: int, pattern: str, start_col: int = 1, group: int = 1) -> list[tuple[str, Span]]:
        """Each match of a pattern in a line (from a column on): the group's text and span."""
        text = self.code(line)
        found = []
        for m in re.finditer(pattern, text[start_col - 1:]):
            a, b = m.start(group) + start_col, m.end(group) + start_col
            found.append((m.group(group), Span(self.path, line, a, line, b)))
        return found

    def first(self, line: int, pattern: str, start_col: int = 1, group: int = 1) -> tuple[str, Span] | None:
        found = self.find(line, pattern, start_col, group)
        return found[0] if found else None


def name_span(node: s.Node) -> Span:
    """The span of the name itself in a name-bearing node (`x.name`: the name only)."""
    if isinstance(node, s.Call):
        return name_span(node.func)
    if isinstance(node, s.Attr):
        sp = node.span
        return Span(sp.file, sp.end_line, max(sp.end_col - len(node.name), 1), sp.end_line, sp.end_col)
    return node.span


def _word_kind(sym: Symbols, word: str) -> str | None:
    if word in sym.keywords:
        return "keyword"
    tables = {"word": sym.enum_words, "character": sym.characters, "token": sym.tokens, "kind": sym.kinds,
              "timing": sym.timings, "event": sym.events, "addendum": sym.addenda, "card": sym.cards}
    return next((k for k in WORD_KINDS if word in tables[k]), None)


def declared_tables(sym: Symbols) -> dict[str, Mapping[str, object]]:
    """The symbol table's names by kind (and the built-in properties of cards, games and
    scenarios, as kinds of their own)."""
    return {
        "character": sym.characters, "card": sym.cards, "token": sym.tokens, "timing": sym.timings,
        "event": sym.events, "procedure": sym.procedures, "value": sym.values, "keyword": sym.keywords,
        "field": sym.fields, "zone": sym.zones, "counter": sym.counters, "kind": sym.kinds,
        "word": sym.enum_words, "addendum": sym.addenda, "scenario": sym.scenarios,
        "card property": CARD_BUILTIN_PROPS, "game property": GAME_PROPS, "scenario property": SCENARIO_PROPS}


class Index:
    """Every occurrence of every name of a game, by file and line and by symbol."""

    def __init__(self) -> None:
        self.by_line: defaultdict[tuple[str, int], list[Occurrence]] = defaultdict(list)
        self.uses: defaultdict[Symbol, list[Occurrence]] = defaultdict(list)
        self.containers: dict[str, list[Container]] = {}
        self._starts: dict[str, list[int]] = {}  # each file's containers' first lines

    def add(self, occ: Occurrence) -> None:
        self.by_line[occ.span.file, occ.span.line].append(occ)
        self.uses[occ.symbol].append(occ)

    def at(self, file: str, line: int, col: int) -> Occurrence | None:
        """The occurrence under a 1-based column (or just after its last character)."""
        hits = [o for o in self.by_line.get((file, line), ()) if o.span.col <= col <= o.span.end_col]
        if not hits:
            return None
        inside = [o for o in hits if col < o.span.end_col]  # under the cursor wins over just before it
        return min(inside or hits, key=lambda o: o.span.end_col - o.span.col)

    def occurrences(self, symbol: Symbol) -> list[Occurrence]:
        return sorted(self.uses.get(symbol, ()), key=lambda o: (o.span.file, o.span.line, o.span.col))

    def declarations(self, symbol: Symbol) -> list[Occurrence]:
        return [o for o in self.occurrences(symbol) if o.declaration]

    def definition(self, occ: Occurrence) -> Occurrence | None:
        """Where what an occurrence names is declared: a local's nearest binding before it."""
        found = self.declarations(occ.symbol)
        if occ.symbol.kind != "local":
            return found[0] if found else None
        before = [o for o in found if (o.span.line, o.span.col) <= (occ.span.line, occ.span.col)]
        if before or found:
            return (before or found)[-1]
        return self._outer_local(occ)

    def _outer_local(self, occ: Occurrence) -> Occurrence | None:
        """A name a block sees from elsewhere: a card block's timing parameter, or a name of
        the procedure whose step a replacement or an added option joins."""
        container = self.container(occ.span.file, occ.span.line)
        if container is None:
            return None
        targets: list[Symbol] = []
        if isinstance(container.node, s.Entity):
            for blk in container.node.blocks:
                if blk.span.line <= occ.span.line <= blk.span.end_line:
                    targets.append(Symbol("timing", blk.name))
        elif isinstance(container.node, (s.Replace, s.AddedOption)):
            targets.append(Symbol("procedure", container.node.procedure))
        for target in targets:
            decl = next(iter(self.declarations(target)), None)
            outer = self.container(decl.span.file, decl.span.line) if decl is not None else None
            if outer is not None:
                bound = self.declarations(Symbol("local", occ.symbol.name, outer.key))
                if bound:
                    return bound[0]
        return None

    def container(self, file: str, line: int) -> Container | None:
        """The innermost declaration holding a line of a file."""
        boxes = self.containers.get(file, [])
        starts = self._starts.get(file)
        if starts is None or len(starts) != len(boxes):
            starts = self._starts[file] = [c.line for c in boxes]
        i = bisect.bisect_right(starts, line)
        while i > 0:
            i -= 1
            if boxes[i].line <= line <= boxes[i].end_line:
                return boxes[i]
        return None

    def named(self, name: str) -> list[Symbol]:
        """The declared symbols written with a name (any kind)."""
        return [sym for sym, occs in self.uses.items() if sym.name == name and any(o.declaration for o in occs)
                and sym.kind != "local"]


class IndexBuilder:
    """Builds indexes, remembering what each file's syntax yields (by the file object)."""

    def __init__(self) -> None:
        self._raw: dict[int, tuple[s.SourceFile, _Raw]] = {}
        # what each resolved node meant at the last build: the same node with the same Ref
        # object (a check replayed from the compiler's memo) means the same again
        self._meant: dict[int, tuple[s.Node, Ref, Occurrence | None]] = {}

    def build(self, checked: Checked, files: list[s.SourceFile]) -> Index:
        index = Index()
        sym = checked.symbols
        raws: dict[int, tuple[s.SourceFile, _Raw]] = {}
        for f in files:
            known = self._raw.get(id(f))
            raw = known[1] if known is not None and known[0] is f else _extract(f)
            raws[id(f)] = (f, raw)
            index.containers[f.path] = raw.containers
            for occ in raw.fixed:
                index.add(occ)
            self._resolve_raw(index, sym, raw)
        self._raw = raws
        self._declarations(index, sym)
        self._card_texts(index, checked, raws)
        self._resolved(index, checked)
        return index

    def _resolved(self, index: Index, checked: Checked) -> None:
        """Every name the checker resolved (what a node meant at the last build, if nothing changed)."""
        meant: dict[int, tuple[s.Node, Ref, Occurrence | None]] = {}
        for node, ref in checked.resolution.items():
            last = self._meant.get(id(node))
            if last is not None and last[0] is node and last[1] is ref:
                found = last[2]
            else:
                symbol = self._symbol(index, checked.symbols, node, ref)
                found = Occurrence(name_span(node), symbol, node=node) if symbol is not None else None
            meant[id(node)] = (node, ref, found)
            if found is not None:
                index.add(found)
        self._meant = meant

    @staticmethod
    def _symbol(index: Index, sym: Symbols, node: s.Node, ref: Ref) -> Symbol | None:
        match ref:
            case LocalRef(name):
                box = index.container(node.span.file, node.span.line)
                return Symbol("local", name, box.key if box is not None else "")
            case SelfRef():
                return Symbol("self", "self")
            case ThisRef():
                return Symbol("self", "this")
            case ZoneRef(zone, _):
                return Symbol("zone", zone)
            case CounterRef(counter, _):
                return Symbol("counter", counter)
            case FieldRef(name):
                return Symbol("field", name)
            case AttrRef(of, name):
                return Symbol("attribute", name, of.value)
            case WordRef(word):
                kind = _word_kind(sym, word)
                return Symbol(kind, word) if kind is not None else None
            case CallRef(callee, name, _):
                return Symbol(callee.value, name)
            case BuiltinRef(name):
                return Symbol("builtin", name)
        return None

    @staticmethod
    def _resolve_raw(index: Index, sym: Symbols, raw: _Raw) -> None:
        tables = declared_tables(sym)
        for decl in raw.simple:  # `zone NAME: also holds …` adds to the zone declared elsewhere
            kind = "counter" if decl.what == "flag" else decl.what
            registered = tables.get(kind, {}).get(decl.name)
            if registered is not None and getattr(registered, "decl", registered) is not decl:
                index.add(Occurrence(decl.name_span, Symbol(kind, decl.name)))
        for span, word, kinds in raw.named:
            kind = next((k for k in kinds if word in tables[k]), None)
            if kind is not None:
                index.add(Occurrence(span, Symbol(kind, word)))
        for span, word, prop, card in raw.props:
            info = sym.fields.get(prop)
            if info is None:
                continue
            if info.type in ("enum", "set") and word in info.choices:
                index.add(Occurrence(span, Symbol("word", word)))
            elif info.type == "character" and word in sym.characters:
                index.add(Occurrence(span, Symbol("character", word)))
            elif word in sym.cards and word != card:
                index.add(Occurrence(span, Symbol("card", word)))

    @staticmethod
    def _declarations(index: Index, sym: Symbols) -> None:
        """The declaration of every name the symbol table holds, at its name."""
        if sym.game is not None:
            index.add(Occurrence(sym.game.name_span, Symbol("game", sym.game.name), True))
        for kind, table in (("character", sym.characters), ("token", sym.tokens), ("kind", sym.kinds)):
            for name, decl in table.items():
                index.add(Occurrence(decl.name_span, Symbol(kind, name), True))
        for name, zone in sym.zones.items():
            index.add(Occurrence(zone.decl.name_span, Symbol("zone", name), True))
        for name, counter in sym.counters.items():
            index.add(Occurrence(counter.decl.name_span, Symbol("counter", name), True))
        for name, info in sym.fields.items():
            index.add(Occurrence(info.decl.name_span, Symbol("field", name), True))
            first = info.decl.opts[0] if info.decl.opts else None
            if first is not None and first.name in ("one", "set"):
                for atom in first.atoms:
                    if atom.text != "of" and sym.enum_words.get(atom.text) == name:
                        index.add(Occurrence(atom.span, Symbol("word", atom.text), True))
        for kind, entities in (("card", sym.cards), ("scenario", sym.scenarios)):
            for name, entity in entities.items():
                index.add(Occurrence(entity.name_span, Symbol(kind, name), True))

    @staticmethod
    def _card_texts(index: Index, checked: Checked, raws: dict[int, tuple[s.SourceFile, _Raw]]) -> None:
        """A string that names one card (its number, or its name) is a use of that card."""
        keys = vocabulary(checked).card_keys
        cards = checked.symbols.cards
        for _, raw in raws.values():
            for span, text, inside in raw.texts:
                card = keys.get(text) or (text if text in cards else None)
                if card is not None and card != inside:
                    index.add(Occurrence(span, Symbol("card", card)))


def _extract(f: s.SourceFile) -> _Raw:
    """What a file's syntax yields: its declarations' scopes and names, and every name kept as
    a string."""
    raw = _Raw()
    lines = _Lines(f.path, f.text)
    for item in f.items:
        _item(raw, lines, item)
    raw.containers.sort(key=lambda c: c.line)
    return raw


def _container(raw: _Raw, item: s.Decl) -> Container:
    box = Container(f"{item.span.file}:{item.span.line}", item, item.span.line, item.span.end_line)
    raw.containers.append(box)
    return box


def _item(raw: _Raw, lines: _Lines, item: s.Decl) -> None:
    box = _container(raw, item)
    line = item.span.line
    kind = HEADERS.get(type(item))
    found = lines.first(line, rf"^\s*{kind}\s+{NAME}") if kind is not None else None
    if kind is not None and found is not None:
        raw.fixed.append(Occurrence(found[1], Symbol(kind, found[0]), True))
    match item:
        case s.Value() | s.Event() | s.Timing() | s.Procedure():
            _params(raw, lines, line, item.name, item.params, box)
            if isinstance(item, s.Procedure):
                for st in item.steps:
                    if st.ident:
                        step = lines.first(st.span.line, r"^\s*step\s+(\w+)")
                        if step is not None:
                            raw.fixed.append(Occurrence(step[1], Symbol("step", st.ident, item.name), True))
        case s.Simple():
            raw.simple.append(item)
            for o in item.opts:
                if item.what == "field" and o is item.opts[0] and o.name in ("one", "set"):
                    continue  # the field's own words: declared (see `_declarations`)
                _atoms(raw, o, OPTION_KINDS)
        case s.Trigger():
            _event_header(raw, lines, item, box)
        case s.Replace() | s.AddedOption():
            raw.fixed.append(Occurrence(item.procedure_span, Symbol("procedure", item.procedure)))
            raw.fixed.append(Occurrence(item.step_span, Symbol("step", item.step, item.procedure)))
        case s.Action():
            player = lines.first(line, rf"\bfor\s+{NAME}")
            if player is not None:
                raw.fixed.append(Occurrence(player[1], Symbol("local", item.player, box.key), True))
        case s.Entity():
            _entity(raw, lines, item, box)
        case s.Addendum():
            for o in item.props:
                _atoms(raw, o, ("character",))
            for sub in item.items:
                _item(raw, lines, sub)
    if not isinstance(item, s.Addendum):
        for node in s.walk(item):
            _node(raw, lines, node, box, item)


def _params(raw: _Raw, lines: _Lines, line: int, name: str, params: tuple[str, ...], box: Container) -> None:
    """A header's parameters `NAME(a, b: type)` as declarations of locals."""
    if not params:
        return
    head = lines.first(line, rf"\b{re.escape(name)}\s*\(", group=0)
    if head is None:
        return
    text = lines.code(line)
    close = text.find(")", head[1].end_col - 1)
    inside = text[head[1].end_col - 1: close if close >= 0 else len(text)]
    col = head[1].end_col
    for m in re.finditer(rf"{NAME}(\s*:\s*\w+)?", inside):
        if m.group(1) in params:
            span = Span(lines.path, line, col + m.start(1), line, col + m.end(1))
            raw.fixed.append(Occurrence(span, Symbol("local", m.group(1), box.key), True))


def _event_header(raw: _Raw, lines: _Lines, trig: s.Trigger, box: Container) -> None:
    if trig.event_span.file == lines.path:
        raw.fixed.append(Occurrence(trig.event_span, Symbol("event", trig.event)))
    _params(raw, lines, trig.event_span.line or trig.span.line, trig.event, trig.params, box)


def _atoms(raw: _Raw, o: s.Opt, kinds: tuple[str, ...]) -> None:
    for atom in o.atoms:
        if atom.kind == "name":
            raw.named.append((atom.span, atom.text, kinds))
        elif atom.kind == "str":
            raw.texts.append((atom.span, atom.text, None))


def _entity(raw: _Raw, lines: _Lines, e: s.Entity, box: Container) -> None:
    for p in e.props:
        prop = Span(p.span.file, p.span.line, p.span.col, p.span.line, p.span.col + len(p.name))
        if e.what in ("game", "scenario"):
            raw.named.append((prop, p.name, (f"{e.what} property",)))
        if e.what == "card":
            raw.named.append((prop, p.name, ("field", "card property")))
            for atom in p.atoms:
                if atom.kind == "str":
                    raw.texts.append((atom.span, atom.text, e.name))
                else:
                    raw.props.append((atom.span, atom.text, p.name, e.name))
        elif e.what == "scenario" and p.name == "players":
            for atom in p.atoms:
                col = atom.span.col
                for part in atom.text.split("/"):
                    span = Span(atom.span.file, atom.span.line, col, atom.span.line, col + len(part))
                    raw.named.append((span, part, ("character",)))
                    col += len(part) + 1
        else:
            _atoms(raw, p, OPTION_KINDS)
    for blk in e.blocks:
        start = blk.span
        raw.fixed.append(Occurrence(Span(start.file, start.line, start.col, start.line, start.col + len(blk.name)),
                                    Symbol("timing", blk.name)))
        if blk.under is not None:
            found = lines.first(start.line, rf"\bunder\s+{NAME}")
            if found is not None:
                raw.named.append((found[1], found[0], ("timing",)))
    for trig in e.triggers:
        _event_header(raw, lines, trig, box)


def _node(raw: _Raw, lines: _Lines, node: s.Node, box: Container, item: s.Decl) -> None:
    """The names a statement or expression keeps as strings, and the locals it binds."""
    line = node.span.line

    def bind(pattern: str, where: int = line) -> None:
        found = lines.first(where, pattern)
        if found is not None:
            raw.fixed.append(Occurrence(found[1], Symbol("local", found[0], box.key), True))

    def name(pattern: str, kind: str, where: int = line) -> None:
        for word, span in lines.find(where, pattern)[:1]:
            raw.fixed.append(Occurrence(span, Symbol(kind, word)))

    match node:
        case s.Emit():
            name(rf"\bemit\s+{NAME}", "event")
        case s.Once():
            name(rf"\bonce\s+when\s+{NAME}", "event")
            _params(raw, lines, line, node.event, node.params, box)
            if node.until is not None:
                name(rf"\buntil\s+{NAME}", "event")
        case s.Modify():
            if node.until is not None:
                name(rf"\buntil\s+{NAME}\s*$", "event", node.span.end_line)
        case s.Forbid():
            name(rf"\bforbid\s+{NAME}", "token")
        case s.Move():
            if node.token is not None and node.token_span is not None:
                raw.fixed.append(Occurrence(node.token_span, Symbol("token", node.token)))
        case s.Let():
            bind(rf"\blet\s+{NAME}")
            if isinstance(node.value, s.Pick):
                bind(rf"\bpick\s+{NAME}\s+in\b", node.value.span.line)
        case s.Return():
            if isinstance(node.value, s.Pick):
                bind(rf"\bpick\s+{NAME}\s+in\b", node.value.span.line)
        case s.For():
            bind(rf"^\s*for\s+{NAME}\s+in\b")
        case s.Option():
            if node.var is not None:
                bind(rf"\bfor\s+{NAME}\s+in\b")
        case s.ListWhere():
            bind(rf"\[\s*{NAME}\s+in\b", line)
        case s.StrLit():
            raw.texts.append((node.span, node.value, item.name if isinstance(item, s.Entity) else None))
        case s.Replace() | s.AddedOption() | s.Trigger() | s.Entity():
            pass


def walk_items(items: tuple[s.Decl, ...]) -> Iterator[s.Decl]:
    """Every declaration of a file, an addendum's items after the addendum."""
    for item in items:
        yield item
        if isinstance(item, s.Addendum):
            yield from walk_items(item.items)
