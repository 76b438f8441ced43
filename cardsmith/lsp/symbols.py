"""Symbols: the outline of one file (its declarations, a procedure's steps, a card's blocks,
an addendum's items) and the game's declared names matching a query."""

from __future__ import annotations

import re
from collections.abc import Callable

from lsprotocol import types as lsp

from ..compiler import syntax as s
from ..compiler.span import Span
from .index import Index, code_only
from .positions import TextLines

K = lsp.SymbolKind
SIMPLE_KINDS = {"zone": K.Array, "counter": K.Number, "flag": K.Boolean, "field": K.Field,
                "character": K.Constant, "token": K.Constant, "kind": K.TypeParameter}
ENTITY_KINDS = {"card": K.Class, "scenario": K.Module, "game": K.Package}
# the kinds of the index's symbols offered as workspace symbols
WORKSPACE_KINDS = {"game": K.Package, "card": K.Class, "scenario": K.Module, "zone": K.Array, "counter": K.Number,
                   "field": K.Field, "word": K.EnumMember, "character": K.Constant, "token": K.Constant,
                   "kind": K.TypeParameter, "value": K.Constant, "event": K.Event, "timing": K.Event,
                   "keyword": K.Key, "procedure": K.Function, "step": K.Method, "addendum": K.Namespace}
MAX_WORKSPACE_SYMBOLS = 500


def document_symbols(items: tuple[s.Decl, ...], lines: TextLines) -> list[lsp.DocumentSymbol]:
    """A file's outline, declaration by declaration."""
    found = [_symbol(item, lines) for item in items]
    return [sym for sym in found if sym is not None]


def _symbol(item: s.Decl, lines: TextLines) -> lsp.DocumentSymbol | None:
    match item:
        case s.Entity():
            children = [_named(blk.name, K.Event, blk.span, lines, "timing") for blk in item.blocks]
            children += [_named(f"when {t.event}", K.Event, t.span, lines, "trigger") for t in item.triggers]
            return _named(item.name, ENTITY_KINDS.get(item.what, K.Object), item.span, lines,
                          _detail(item.what, item.labels), children, item.name_span)
        case s.Procedure():
            steps = [_named(st.ident, K.Method, st.span, lines, _detail("step", st.labels))
                     for st in item.steps if st.ident]
            return _named(item.name, K.Function, item.span, lines, _detail("procedure", item.labels), steps)
        case s.Addendum():
            return _named(item.name, K.Namespace, item.span, lines, _detail("addendum", item.labels),
                          document_symbols(item.items, lines))
        case s.Simple():
            return _named(item.name, SIMPLE_KINDS.get(item.what, K.Variable), item.span, lines,
                          _detail(item.what, item.labels), selection=item.name_span)
        case s.Value() | s.Event() | s.Timing() | s.Keyword():
            kind = {s.Value: K.Constant, s.Event: K.Event, s.Timing: K.Event, s.Keyword: K.Key}[type(item)]
            return _named(item.name, kind, item.span, lines, _detail(type(item).__name__.lower(), item.labels))
        case s.Trigger():
            return _named(f"when {item.event}", K.Event, item.span, lines, "trigger")
        case s.Replace():
            word = "after" if item.after else "instead of"
            return _named(f"{word} {item.procedure} step {item.step}", K.Operator, item.span, lines, "replacement")
        case s.AddedOption():
            return _named(f"in {item.procedure} step {item.step} option", K.Operator, item.span, lines, "option")
        case s.Check() | s.Action():
            return _named(item.name, K.Function, item.span, lines, _detail(type(item).__name__.lower(), item.labels))
    return None


def _detail(what: str, labels: s.Labels) -> str:
    return f"{what} {labels.default}" if labels.default else what


def _named(name: str, kind: lsp.SymbolKind, span: Span, lines: TextLines, detail: str,
           children: list[lsp.DocumentSymbol] | None = None, selection: Span | None = None) -> lsp.DocumentSymbol:
    whole = lines.range(span)
    chosen = lines.range(selection) if selection is not None else _name_range(lines, span, name)
    if not _inside(chosen, whole):
        chosen = lsp.Range(whole.start, whole.start)
    return lsp.DocumentSymbol(name=name, kind=kind, range=whole, selection_range=chosen, detail=detail,
                              children=children or None)


def _name_range(lines: TextLines, span: Span, name: str) -> lsp.Range:
    """The range of a declaration's name on its first line (its start when it is not there)."""
    text = code_only(lines.line(span.line - 1))
    word = name.split()[-1]
    found = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text[span.col - 1:])
    if found is None:
        start = lines.position(span.line, span.col)
        return lsp.Range(start, start)
    col = span.col + found.start()
    return lines.range(Span(span.file, span.line, col, span.line, col + len(word)))


def _inside(inner: lsp.Range, outer: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return p.line, p.character
    return key(outer.start) <= key(inner.start) and key(inner.end) <= key(outer.end)


def matches(query: str, name: str) -> bool:
    """A workspace-symbol query matches a name when its characters appear in it in order
    (ignoring case), as editors filter."""
    at = 0
    lowered = name.lower()
    for ch in query.lower():
        at = lowered.find(ch, at) + 1
        if at == 0:
            return False
    return True


def workspace_symbols(index: Index, query: str, locate: Callable[[Span], lsp.Location | None],
                      game: str) -> list[lsp.WorkspaceSymbol]:
    """The declared names of a game matching a query (`locate`: a span's place for the client)."""
    found: list[lsp.WorkspaceSymbol] = []
    for symbol, occs in sorted(index.uses.items(), key=lambda item: (item[0].name, item[0].kind)):
        kind = WORKSPACE_KINDS.get(symbol.kind)
        if kind is None or not matches(query, symbol.name):
            continue
        decl = next((o for o in occs if o.declaration), None)
        where = locate(decl.span) if decl is not None else None
        if where is None:
            continue
        found.append(lsp.WorkspaceSymbol(name=symbol.name, kind=kind, location=where,
                                         container_name=f"{symbol.scope or game} ({symbol.kind})"))
        if len(found) >= MAX_WORKSPACE_SYMBOLS:
            break
    return found
