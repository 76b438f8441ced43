"""What `cardsmith check` found, remembered by content: the diagnostics and the summary of a set
of sources, kept in the verified per-user cache (`cache.py`) under a key made of the sources, the
compiler and the card-text templates (they write the suggestions of W201). An unchanged game is
checked again without parsing anything; a changed file, compiler or template is a new key.

Entries are JSON read back into typed records (msgspec), never code."""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec

from .cache import open_cache
from .diagnostics import Diagnostic
from .library import library_root
from .span import Span


class _Diag(msgspec.Struct, forbid_unknown_fields=True):
    code: str
    message: str
    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    severity: str
    hint: str | None = None
    suggestion: str | None = None


class CheckOutcome(msgspec.Struct, forbid_unknown_fields=True):
    """The diagnostics of a check and, when the sources hold a game, its counts."""

    diagnostics: list[_Diag]
    game: str | None = None
    cards: int = 0
    procedures: int = 0
    scenarios: int = 0

    def found(self) -> list[Diagnostic]:
        return [Diagnostic(d.code, d.message, Span(d.file, d.line, d.col, d.end_line, d.end_col), d.hint,
                           d.suggestion, d.severity) for d in self.diagnostics]


def _record(d: Diagnostic) -> _Diag:
    sp = d.span
    return _Diag(d.code, d.message, sp.file, sp.line, sp.col, sp.end_line, sp.end_col, d.severity, d.hint,
                 d.suggestion)


def _templates(sources: dict[str, str]) -> list[Path]:
    """The card-text templates a check of these sources may read: the library's, and each
    source folder's `text/` (a game's or a designer's own phrasing)."""
    folders = {library_root() / "text"} | {Path(p).parent / "text" for p in sources}
    return sorted(f for folder in folders if folder.is_dir() for f in folder.glob("*.j2"))


def _entry(sources: dict[str, str]) -> str:
    from .load import _cache_key  # the build's key: sources, compiler, interpreter and Lark
    h = hashlib.sha256(_cache_key(sources).encode())
    for path in _templates(sources):
        for part in (str(path).encode(), path.read_bytes()):
            h.update(len(part).to_bytes(8, "big") + part)
    return f"{h.hexdigest()}.check.json"


def check_outcome(sources: dict[str, str], use_cache: bool = True) -> tuple[CheckOutcome, bool]:
    """The outcome of checking these sources, and whether it came from the cache."""
    cache = open_cache() if use_cache else None
    entry = _entry(sources) if cache is not None else ""
    if cache is not None:
        payload = cache.read(entry)
        if payload is not None:
            try:
                return msgspec.json.decode(payload, type=CheckOutcome), True
            except msgspec.DecodeError:
                pass  # an entry of an older layout: checked again and rewritten
    from .load import build_sources
    result = build_sources(sources, use_cache=use_cache, need_model=True)
    sym = result.checked.symbols if result.checked is not None else None
    outcome = CheckOutcome([_record(d) for d in result.diagnostics])
    if sym is not None and sym.game is not None:
        outcome.game, outcome.cards, outcome.procedures, outcome.scenarios = (
            sym.game.name, len(sym.cards), len(sym.procedures), len(sym.scenarios))
    if cache is not None:
        cache.write(entry, msgspec.json.encode(outcome))
    return outcome, False
