"""Completion: what may be written at a place, read from the text before the cursor (which is
often unfinished) and from the last build of the game.

- after `.`: the built-in attributes of cards, zones and players, and the game's fields;
- the first word of a line in a card's body: the game's fields (as properties), its timings
  (as blocks) and `when`;
- after a property's name in a card: that field's values (`one of` / `set of`), or the
  game's characters for a character field;
- a line that starts a declaration: the language's keywords;
- anywhere else: the locals in scope, every declared name, the built-ins (with their
  signatures) and the language's keywords."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from lsprotocol import types as lsp

from ..compiler.builtins import BUILTINS
from ..compiler.check_expr import OBJ_ATTRS, PLAYER_ATTRS, ZONE_ATTRS
from ..compiler.parse import parser
from .hover import Describer
from .index import Symbol
from .positions import TextLines

KINDS = {
    "card": lsp.CompletionItemKind.Class, "scenario": lsp.CompletionItemKind.Module,
    "character": lsp.CompletionItemKind.Constant, "token": lsp.CompletionItemKind.Constant,
    "zone": lsp.CompletionItemKind.Variable, "counter": lsp.CompletionItemKind.Variable,
    "field": lsp.CompletionItemKind.Field, "word": lsp.CompletionItemKind.EnumMember,
    "kind": lsp.CompletionItemKind.TypeParameter, "value": lsp.CompletionItemKind.Constant,
    "event": lsp.CompletionItemKind.Event, "timing": lsp.CompletionItemKind.Event,
    "keyword": lsp.CompletionItemKind.Constant, "procedure": lsp.CompletionItemKind.Function,
    "builtin": lsp.CompletionItemKind.Function, "local": lsp.CompletionItemKind.Variable,
    "attribute": lsp.CompletionItemKind.Property, "addendum": lsp.CompletionItemKind.Module,
}
# the declared names offered in an expression, in the order they are listed
EXPRESSION_KINDS = ("value", "keyword", "procedure", "zone", "counter", "word", "character", "token", "kind",
                    "event", "timing", "card")
_WORD = re.compile(r"\w*$")


@lru_cache(maxsize=1)
def language_words() -> tuple[str, ...]:
    """The language's reserved words (every word the grammar spells out)."""
    words = {t.pattern.value for t in parser().terminals
             if t.pattern.type == "str" and re.fullmatch(r"[a-z_]+", t.pattern.value)}
    return tuple(sorted(words))


@dataclass(frozen=True)
class Place:
    """Where the cursor is, as the text before it tells: the partial word typed, the text
    before that word on the line, and the unindented line that heads the declaration."""

    word: str
    before: str
    header: str

    @property
    def in_card(self) -> bool:
        return self.header.startswith("card ")

    @property
    def property_level(self) -> bool:
        """At the start of a line one level into a card (where properties and blocks go)."""
        indent = len(self.before) - len(self.before.lstrip())
        return self.in_card and self.before.strip() == "" and 0 < indent <= 4


def place_at(lines: TextLines, position: lsp.Position) -> Place:
    line, col = lines.line_col(position)
    prefix = lines.line(line - 1)[:col - 1]
    word = _WORD.search(prefix)
    typed = word.group() if word is not None else ""
    header = ""
    for index in range(line - 2, -1, -1):
        text = lines.line(index)
        if text.strip() and not text[0].isspace() and not text.startswith("#"):
            header = text
            break
    return Place(typed, prefix[:len(prefix) - len(typed)], header)


class Completer:
    """Completion items for one build of a game."""

    def __init__(self, describer: Describer) -> None:
        self.describer = describer
        self.sym = describer.sym

    def items(self, lines: TextLines, position: lsp.Position, path: str) -> list[lsp.CompletionItem]:
        place = place_at(lines, position)
        if place.before.endswith("."):
            return self._attributes()
        if place.before == "":
            return self._keywords()
        if place.property_level:
            return self._card_lines()
        words = place.before.split()
        if place.in_card and len(words) == 1 and place.before[:1].isspace() and words[0] in self.sym.fields:
            return self._field_values(words[0])
        line, _ = lines.line_col(position)
        return self._locals(path, line) + self._declared(EXPRESSION_KINDS) + self._builtins() + self._keywords()

    # ---- groups ----

    def _item(self, symbol: Symbol, sort: str, insert: str | None = None) -> lsp.CompletionItem:
        detail, doc = self.describer.summary(symbol)
        return lsp.CompletionItem(
            label=symbol.name, kind=KINDS.get(symbol.kind, lsp.CompletionItemKind.Text), detail=detail,
            documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, doc) if doc else None,
            sort_text=f"{sort}{symbol.name}", insert_text=insert)

    def _declared(self, kinds: Iterable[str], sort: str = "2") -> list[lsp.CompletionItem]:
        tables = {"value": self.sym.values, "keyword": self.sym.keywords, "procedure": self.sym.procedures,
                  "zone": self.sym.zones, "counter": self.sym.counters, "word": self.sym.enum_words,
                  "character": self.sym.characters, "token": self.sym.tokens, "kind": self.sym.kinds,
                  "event": self.sym.events, "timing": self.sym.timings, "card": self.sym.cards,
                  "field": self.sym.fields}
        return [self._item(Symbol(kind, name), sort) for kind in kinds for name in tables[kind]]

    def _locals(self, path: str, line: int) -> list[lsp.CompletionItem]:
        index = self.describer.index
        box = index.container(path, line)
        if box is None:
            return []
        names = sorted({sym.name for sym in index.uses if sym.kind == "local" and sym.scope == box.key})
        return [lsp.CompletionItem(label=n, kind=KINDS["local"], detail="local", sort_text=f"0{n}") for n in names]

    def _builtins(self) -> list[lsp.CompletionItem]:
        return [lsp.CompletionItem(label=b.name, kind=KINDS["builtin"], detail=b.signature,
                                   documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, b.doc),
                                   sort_text=f"3{b.name}") for b in BUILTINS.values()]

    @staticmethod
    def _keywords() -> list[lsp.CompletionItem]:
        return [lsp.CompletionItem(label=w, kind=lsp.CompletionItemKind.Keyword, sort_text=f"4{w}")
                for w in language_words()]

    def _attributes(self) -> list[lsp.CompletionItem]:
        attrs: dict[str, str] = {}
        for what, table in (("a card", OBJ_ATTRS), ("a zone", ZONE_ATTRS), ("a player", PLAYER_ATTRS)):
            for name, t in table.items():
                attrs.setdefault(name, f"attribute of {what}: {t.article}")
        items = [lsp.CompletionItem(label=n, kind=KINDS["attribute"], detail=d, sort_text=f"1{n}")
                 for n, d in attrs.items()]
        return items + self._declared(("field",), sort="0")

    def _card_lines(self) -> list[lsp.CompletionItem]:
        """A card's properties and the blocks of the game's timings."""
        fields = self._declared(("field",), sort="0")
        timings = [self._item(Symbol("timing", name), "1", insert=f"{name}:") for name in self.sym.timings]
        return fields + timings + [lsp.CompletionItem(label="when", kind=lsp.CompletionItemKind.Keyword,
                                                      sort_text="2when")]

    def _field_values(self, field: str) -> list[lsp.CompletionItem]:
        info = self.sym.fields[field]
        if info.type in ("enum", "set"):
            return [self._item(Symbol("word", word), "0") for word in info.choices]
        if info.type == "character":
            return self._declared(("character",), sort="0")
        return []
