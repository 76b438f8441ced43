"""Parsed files remembered by content, so that a build parses only the files that changed: in
this process (a dict, for the language server and for commands that build a game twice; within
a changed file, each declaration that kept its place and text is taken as it was), and in the
verified per-user cache (`cache.py`) between processes.

A file's entry is keyed by the compiler's fingerprint (grammar, compiler and runtime code,
interpreter, Lark), its path and its text; it holds the syntax model and the file's syntax
diagnostics. The cache folder is private to the user and every entry carries the user's HMAC
tag, so what is unpickled here was written by this user's cardsmith and nobody else (the same
trust as the cached compiled code beside it)."""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import replace

from . import syntax as s
from .cache import Cache, warn
from .diagnostics import Diagnostic
from .parse import Chunks, parse_source

Parsed = tuple[s.SourceFile, list[Diagnostic]]
_MEMORY: dict[str, Parsed] = {}  # key -> parsed file, for this process
_MEMORY_FILES = 512  # files kept in memory at most (the oldest go first)
_CHUNKS: Chunks = {}  # each declaration parsed in this process, by place and text (see parse_source)
_MEMORY_CHUNKS = 50_000
_LAST: dict[str, s.SourceFile] = {}  # the version of each path handed out last (see _stable)


def _key(path: str, text: str) -> str:
    from .load import _compiler_fingerprint  # what parsing depends on besides the file
    h = hashlib.sha256(_compiler_fingerprint())
    for part in (path.encode(), text.encode("utf-8", "surrogatepass")):
        h.update(len(part).to_bytes(8, "big") + part)
    return h.hexdigest()


def parse_file(path: str, text: str, cache: Cache | None) -> Parsed:
    """A file's syntax model and syntax diagnostics: remembered, else parsed (and remembered)."""
    key = _key(path, text)
    known = _MEMORY.get(key)
    if known is not None:
        return _stable(known[0]), list(known[1])
    entry = f"syntax-{key}.pkl"
    parsed = _read(cache, entry) if cache is not None else None
    if parsed is None:
        if len(_CHUNKS) > _MEMORY_CHUNKS:
            _CHUNKS.clear()
        parsed = parse_source(path, text, _CHUNKS)
        if cache is not None:
            cache.write(entry, pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL))
    if len(_MEMORY) >= _MEMORY_FILES:
        del _MEMORY[next(iter(_MEMORY))]
    _MEMORY[key] = parsed = _stable(parsed[0]), parsed[1]
    return parsed[0], list(parsed[1])


def _stable(parsed: s.SourceFile) -> s.SourceFile:
    """The file with each declaration that equals one at the same line in the last version of
    this path handed out taken as that same object. Whichever cache a version came from (an
    undo brings back a text remembered whole, with objects of its own), an unchanged
    declaration keeps its identity, and so what `check_memo` remembers of it."""
    before = _LAST.get(parsed.path)
    if before is not None and before is not parsed:
        at_line = {item.span.line: item for item in before.items}
        items = tuple(old if (old := at_line.get(item.span.line)) is not None and old == item else item
                      for item in parsed.items)
        if any(new is not item for new, item in zip(items, parsed.items, strict=True)):
            parsed = replace(parsed, items=items)
    if len(_LAST) >= _MEMORY_FILES and parsed.path not in _LAST:
        del _LAST[next(iter(_LAST))]
    _LAST[parsed.path] = parsed
    return parsed


def _read(cache: Cache, entry: str) -> Parsed | None:
    payload = cache.read(entry)
    if payload is None:
        return None
    try:
        parsed = pickle.loads(payload)  # noqa: S301 - verified: written by this user's cardsmith
        if not (isinstance(parsed, tuple) and len(parsed) == 2 and isinstance(parsed[0], s.SourceFile)
                and isinstance(parsed[1], list)):
            raise TypeError("unexpected entry layout")
        return parsed
    except Exception as err:  # noqa: BLE001 - a bad entry of any kind is parsed again, never fatal
        warn("cache entry %s skipped and rebuilt: %s: %s", entry, type(err).__name__, err)
        return None
