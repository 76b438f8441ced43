"""Files parsed declaration by declaration, for an editor that changes one declaration at a time.

The parser reads each top-level declaration on its own (`compiler.parse.split_items`), so a file
is the concatenation of its declarations' results. An open document is parsed that way: each
declaration's result is remembered by its text, so an edit parses again only the declarations it
touched, and a declaration that merely moved (lines were added above it) has its result moved
to its new lines. Other files are parsed whole through `compiler.parse_cache.parse_file` (which
also remembers them between processes). Every file's last result is kept by its text, so an
unchanged file gives the very same syntax objects build after build.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from ..compiler import syntax as s
from ..compiler.cache import Cache
from ..compiler.diagnostics import Diagnostic
from ..compiler.limits import MAX_FILE_BYTES
from ..compiler.parse import parse_source, split_items
from ..compiler.parse_cache import parse_file

Parsed = tuple[s.SourceFile, list[Diagnostic]]
Chunk = tuple[tuple[s.Decl, ...], tuple[Diagnostic, ...]]


class IncrementalParser:
    """Parses and remembers files (thread-safe: the server parses in its build thread and in
    requests)."""

    def __init__(self, cache: Cache | None) -> None:
        self.cache = cache
        self._files: dict[str, tuple[str, Parsed]] = {}  # path -> (text, result) of its last parse
        self._chunks: dict[str, dict[str, tuple[int, Chunk]]] = {}  # path -> chunk text -> (first line, result)
        self._lock = threading.Lock()
        self.parsed_declarations = 0  # declarations parsed (not remembered) by the last `parse`

    def parse(self, path: str, text: str, by_declaration: bool = False) -> Parsed:
        """A file's syntax model and syntax diagnostics (the same objects while its text is
        unchanged). `by_declaration`: parse it declaration by declaration (an open document)."""
        with self._lock:
            self.parsed_declarations = 0
            known = self._files.get(path)
            if known is not None and known[0] == text:
                return known[1]
            whole = not by_declaration or text.startswith("\ufeff") or \
                len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES
            if whole:
                parsed = parse_file(path, text, self.cache)
                self.parsed_declarations = -1
            else:
                parsed = self._by_declaration(path, text)
            self._files[path] = (text, parsed)
            return parsed

    def forget(self, path: str) -> None:
        """Drop what is remembered of a file's declarations (its document was closed)."""
        with self._lock:
            self._chunks.pop(path, None)

    def _by_declaration(self, path: str, text: str) -> Parsed:
        known = self._chunks.get(path, {})
        current: dict[str, tuple[int, Chunk]] = {}
        items: list[s.Decl] = []
        diags: list[Diagnostic] = []
        for start, chunk in split_items(text):
            before = known.get(chunk) or current.get(chunk)
            if before is None:
                # a declaration parsed on its own at its own lines (the lines above it left
                # empty), not cached on disk: it is one keystroke's state
                parsed, found = parse_source(path, "\n" * (start - 1) + chunk)
                result: Chunk = (parsed.items, tuple(found))
                self.parsed_declarations += 1
            elif before[0] != start:
                result = shift(before[1], start - before[0], path)
            else:
                result = before[1]
            current[chunk] = (start, result)
            items.extend(result[0])
            diags.extend(result[1])
        self._chunks[path] = current
        diags.sort(key=lambda d: (d.span.line, d.span.col))
        return s.SourceFile(path, text, tuple(items)), diags


_FIELDS: dict[type, tuple[str, ...]] = {}


def shift(chunk: Chunk, lines: int, path: str) -> Chunk:
    """A declaration's result moved down (or up) by a number of lines."""
    items = tuple(_moved(item, lines, path) for item in chunk[0])
    return items, tuple(_moved(d, lines, path) for d in chunk[1])


def _moved(value: Any, lines: int, path: str) -> Any:
    """A copy of a syntax value with every span of the file moved by `lines`."""
    if isinstance(value, s.Span):
        if value.file != path:
            return value  # NO_SPAN and the like
        return s.Span(path, value.line + lines, value.col, value.end_line + lines, value.end_col)
    if isinstance(value, (tuple, list)):
        return type(value)(_moved(v, lines, path) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        names = _FIELDS.get(cls)
        if names is None:
            names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
        if cls is s.Labels:
            return value
        return cls(*(_moved(getattr(value, n), lines, path) for n in names))
    return value
