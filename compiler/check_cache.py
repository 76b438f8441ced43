"""What `cardsmith check` found, remembered by content: the diagnostics and the summary of a set
of sources, kept in the verified per-user cache (`cache.py`) under a key made of the sources, the
compiler and the card-text templates (they write the suggestions of W201). An unchanged game is
checked again without parsing anything; a changed file, compiler or template is a new key.

Entries are JSON read back into typed records, never code. They are read with the standard
`json` module and checked field by field here rather than with msgspec: importing msgspec alone
took a tenth of a warm `check`'s whole process (BENCHMARKS.md), and an entry is one small,
fixed shape. An entry of any other shape is a miss: the sources are checked again."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .cache import open_cache
from .diagnostics import Diagnostic
from .library import library_root
from .span import Span

_TEXTS = ("code", "message", "file", "severity")  # a diagnostic's text fields, never none
_PLACES = ("line", "col", "end_line", "end_col")  # its span's numbers, in Span's order
_NOTES = ("hint", "suggestion")  # text or none
_COUNTS = ("cards", "procedures", "scenarios")


class EntryError(ValueError):
    """A cache entry that is not an outcome this version writes."""


@dataclass
class CheckOutcome:
    """The diagnostics of a check and, when the sources hold a game, its counts."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    game: str | None = None
    cards: int = 0
    procedures: int = 0
    scenarios: int = 0

    def encode(self) -> bytes:
        return json.dumps({"diagnostics": [d.to_json() for d in self.diagnostics], "game": self.game,
                           **{name: getattr(self, name) for name in _COUNTS}},
                          ensure_ascii=False).encode("utf-8")

    @classmethod
    def decode(cls, payload: bytes) -> CheckOutcome:
        """The outcome an entry holds; EntryError for anything but the exact shape `encode` writes."""
        try:
            document = json.loads(payload)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
            raise EntryError(str(err)) from None
        record = _fields(document, {"diagnostics", "game", *_COUNTS})
        found = record["diagnostics"]
        if not isinstance(found, list):
            raise EntryError("diagnostics is not a list")
        return cls([_diagnostic(d) for d in found], _note(record, "game"),
                   *(_whole(record, name) for name in _COUNTS))


def _fields(value: object, wanted: set[str]) -> dict[str, object]:
    """A JSON object with exactly these keys."""
    if not isinstance(value, dict) or set(value) != wanted:
        raise EntryError("not a record of the expected fields")
    return value


def _text(record: dict[str, object], key: str) -> str:
    value = record[key]
    if not isinstance(value, str):
        raise EntryError(f"{key} is not text")
    return value


def _note(record: dict[str, object], key: str) -> str | None:
    return None if record[key] is None else _text(record, key)


def _whole(record: dict[str, object], key: str) -> int:
    value = record[key]
    if type(value) is not int or value < 0:
        raise EntryError(f"{key} is not a whole number")
    return value


def _diagnostic(value: object) -> Diagnostic:
    record = _fields(value, {*_TEXTS, *_PLACES, *_NOTES})
    span = Span(_text(record, "file"), *(_whole(record, k) for k in _PLACES))
    return Diagnostic(_text(record, "code"), _text(record, "message"), span, _note(record, "hint"),
                      _note(record, "suggestion"), _text(record, "severity"))


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
                return CheckOutcome.decode(payload), True
            except EntryError:
                pass  # an entry of another layout: checked again and rewritten
    from .load import build_sources
    result = build_sources(sources, use_cache=use_cache, need_model=True)
    sym = result.checked.symbols if result.checked is not None else None
    outcome = CheckOutcome(list(result.diagnostics))
    if sym is not None and sym.game is not None:
        outcome.game, outcome.cards, outcome.procedures, outcome.scenarios = (
            sym.game.name, len(sym.cards), len(sym.procedures), len(sym.scenarios))
    if cache is not None:
        cache.write(entry, outcome.encode())
    return outcome, False
