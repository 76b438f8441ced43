"""What a name is, in Markdown: its declaration line, its labels in every language, its one-line
doc (a declaration's `doc`, else its label) and where it is declared; for a card also its
definition in short (properties, the timings it fills) and its text generated in each of the
game's languages; for a built-in its signature and description."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..compiler import syntax as s
from ..compiler.builtins import BUILTINS
from ..compiler.check_expr import OBJ_ATTRS, PLAYER_ATTRS, ZONE_ATTRS
from ..compiler.library import library_root
from ..compiler.props import CARD_BUILTIN_PROPS, GAME_PROPS, SCENARIO_PROPS
from ..compiler.refs import Type
from ..compiler.span import Span
from ..compiler.vocabulary import game_languages
from .index import Index, Occurrence, Symbol
from .workspace import Build

ATTRIBUTES = {Type.OBJ.value: ("a card or object", OBJ_ATTRS), Type.ZONE.value: ("a zone", ZONE_ATTRS),
              Type.PLAYER.value: ("a player", PLAYER_ATTRS)}
SELF = {"self": "the player whose card (or keyword) this is",
        "this": "the card whose block this is"}
PROPERTIES = {"card property": ("card property", CARD_BUILTIN_PROPS), "game property": ("game property", GAME_PROPS),
              "scenario property": ("scenario property", SCENARIO_PROPS)}
HIDDEN_PROPS = ("text", "note", "unchecked")  # shown on their own, or not at all


def labels_line(labels: s.Labels) -> str:
    """`default · ja … · en …`: every label of a declaration."""
    parts = [labels.default] if labels.default else []
    parts += [f"{lang} {text}" for lang, text in labels.langs]
    return " · ".join(parts)


def short_path(path: str) -> str:
    """A file as people read it: under the library, from the game's folder; else relative to
    the working folder when inside it."""
    library = os.path.realpath(library_root())
    for root in (library, os.getcwd()):
        if path.startswith(root + os.sep):
            return os.path.relpath(path, root)
    return path


def where(span: Span) -> str:
    """A Markdown link to a place in a file."""
    return f"[{short_path(span.file)}:{span.line}]({Path(span.file).as_uri()}#L{span.line})"


class Describer:
    """Describes the names of one build."""

    def __init__(self, build: Build, index: Index) -> None:
        self.build = build
        self.index = index
        self.sym = build.checked.symbols
        self.language = game_languages(self.sym)[0]

    # ---- pieces ----

    def declaration(self, symbol: Symbol) -> Any:
        """The syntax node that declares a symbol, if the game has one."""
        sym = self.sym
        name = symbol.name
        match symbol.kind:
            case "zone" | "counter" | "field":
                info: Any = {"zone": sym.zones, "counter": sym.counters, "field": sym.fields}[symbol.kind].get(name)
                return info.decl if info is not None else None
            case "word":
                field = sym.enum_words.get(name)
                return sym.fields[field].decl if field in sym.fields else None
            case "step":
                proc = sym.procedures.get(symbol.scope)
                return next((st for st in proc.steps if st.ident == name), None) if proc is not None else None
            case "game":
                return sym.game
        table: Any = {"character": sym.characters, "token": sym.tokens, "kind": sym.kinds, "value": sym.values,
                      "event": sym.events, "timing": sym.timings, "keyword": sym.keywords,
                      "procedure": sym.procedures, "card": sym.cards, "scenario": sym.scenarios,
                      "addendum": sym.addenda}.get(symbol.kind, {})
        return table.get(name)

    def source_line(self, span: Span) -> str:
        text = self.build.snapshot.sources.get(span.file, "")
        lines = text.split("\n")
        line = lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""
        return line if len(line) <= 240 else line[:239] + "…"

    def doc(self, labels: s.Labels) -> str | None:
        """The declaration's own sentence in the game's language, else its label."""
        return labels.doc(self.language, self.language) or labels.default

    def summary(self, symbol: Symbol) -> tuple[str, str | None]:
        """A one-line detail (kind and labels) and the doc, for completion items."""
        decl = self.declaration(symbol)
        labels = getattr(decl, "labels", None)
        detail = symbol.kind + (f" · {labels_line(labels)}" if isinstance(labels, s.Labels) and labels_line(labels) else "")
        if symbol.kind == "builtin" and symbol.name in BUILTINS:
            return BUILTINS[symbol.name].signature, BUILTINS[symbol.name].doc
        if symbol.kind == "word" and symbol.name in self.sym.enum_words:
            detail = f"value of {self.sym.enum_words[symbol.name]}"
        return detail, self.doc(labels) if isinstance(labels, s.Labels) else None

    # ---- hover ----

    def hover(self, symbol: Symbol, occ: Occurrence | None = None) -> str | None:
        kind, name = symbol.kind, symbol.name
        if kind == "builtin":
            b = BUILTINS.get(name)
            return f"```\n{b.signature}\n```\n\nbuilt-in · {b.doc}" if b is not None else None
        if kind == "attribute":
            what, table = ATTRIBUTES.get(symbol.scope, ("a value", {}))
            t = table.get(name)
            return f"`.{name}` — built-in attribute of {what}" + (f": {t.article}" if t is not None else "")
        if kind == "self":
            return f"`{name}` — {SELF.get(name, '')}"
        if kind in PROPERTIES:
            what, props = PROPERTIES[kind]
            return f"`{name}` — built-in {what}: {props.get(name, '')}"
        if kind == "local":
            return self._local(symbol, occ)
        decl = self.declaration(symbol)
        if decl is None:
            return None
        if kind == "card":
            return self._card(name, decl)
        return self._declared(symbol, decl)

    def _declared(self, symbol: Symbol, decl: Any) -> str:
        labels: s.Labels = getattr(decl, "labels", s.Labels())
        span: Span = decl.span
        out = [f"**{symbol.kind}** `{symbol.name}`" + (f" — {labels_line(labels)}" if labels_line(labels) else "")]
        if symbol.kind == "word":
            field = self.sym.enum_words.get(symbol.name, "")
            flabels = self.sym.fields[field].decl.labels if field in self.sym.fields else s.Labels()
            out = [f"**value** `{symbol.name}` of the field `{field}`"
                   + (f" ({flabels.default})" if flabels.default else "")]
        elif symbol.kind == "step":
            out = [f"**step** `{symbol.name}` of `{symbol.scope}`" + (f" — {labels_line(labels)}" if labels_line(labels) else "")]
        out.append(f"```\n{self.source_line(span)}\n```")
        doc = self.doc(labels)
        if doc and symbol.kind != "word":
            out.append(doc)
        if isinstance(decl, s.Procedure) and len(decl.steps) > 1:
            out.append("steps: " + " · ".join(f"{st.ident} {st.labels.default or ''}".strip() for st in decl.steps))
        out.append(f"declared at {where(span)}")
        return "\n\n".join(out)

    def _local(self, symbol: Symbol, occ: Occurrence | None) -> str:
        found = self.index.definition(occ) if occ is not None else None
        t = self.build.checked.types.get(occ.node) if occ is not None and occ.node is not None else None
        what = "parameter" if found is not None and self._is_parameter(found) else "variable"
        text = f"{what} `{symbol.name}`" + (f": {t.article}" if t is not None and t is not Type.ANY else "")
        if found is not None:
            text += f"\n\n```\n{self.source_line(found.span)}\n```\n\ndeclared at {where(found.span)}"
        return text

    def _is_parameter(self, occ: Occurrence) -> bool:
        box = self.index.container(occ.span.file, occ.span.line)
        return box is not None and occ.span.line == box.line and not isinstance(box.node, s.Entity)

    def _card(self, name: str, decl: s.Entity) -> str:
        props = self.build.checked.card_props.get(name, {})
        out = [f"**card** `{name}` — {labels_line(decl.labels)}"]
        shown = [f"{k} {_value(v)}" for k, v in props.items()
                 if k not in HIDDEN_PROPS and not (k == "copies" and v == 1) and v is not None]
        if shown:
            out.append(" · ".join(shown))
        fills = [f"`{blk.name}`" + (f" ({self.sym.timings[blk.name].labels.default})"
                                    if blk.name in self.sym.timings and self.sym.timings[blk.name].labels.default else "")
                 for blk in decl.blocks]
        fills += [f"`when {trig.event}`" for trig in decl.triggers]
        if fills:
            out.append("fills: " + ", ".join(fills))
        texts = self._texts(name)
        if texts:
            out.append("generated text:\n\n" + "\n".join(f"- **{lang}** {text}" for lang, text in texts.items()))
        if props.get("text"):
            out.append(f"designer's text: {props['text']}")
        out.append(f"declared at {where(decl.span)}")
        return "\n\n".join(out)

    def _texts(self, name: str) -> dict[str, str]:
        try:
            return {lang: text or "(no rules text)" for lang, text in self.build.book().texts(name).items()}
        except Exception as err:  # noqa: BLE001 - a broken template or model is said, never fatal
            return {"?": f"(not available: {type(err).__name__}: {err})"}


def _value(value: object) -> str:
    if value is True:
        return "✓"
    if isinstance(value, tuple):
        ints = [v for v in value if isinstance(v, int)]
        if ints and len(ints) == len(value) and ints == list(range(ints[0], ints[-1] + 1)) and len(ints) > 1:
            return f"{ints[0]}-{ints[-1]}"
        return " ".join(str(v) for v in value)
    return str(value)
