"""The JSON documents `cardsmith check` writes for tools, as types whose JSON Schemas
`cardsmith schema check|watch|printed` prints: `check --format json`, each line of
`check --watch --format json`, and `check --printed FILE --format json`.

`check --watch` encodes its lines from these types; `check` and `check --printed` write theirs
with the standard `json` module (a warm check starts faster without msgspec), and the tests hold
what they write against these schemas."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

REPORTS_VERSION = 1

Count = Annotated[int, Meta(ge=0)]
Line = Annotated[int, Meta(ge=1, description="1-based")]


class DiagnosticReport(Struct, forbid_unknown_fields=True):
    """One diagnostic: where it is (end exclusive; columns count characters), what it says,
    and what would fix it."""

    code: Annotated[str, Meta(pattern="^[EW][0-9]{3}$", description="`cardsmith explain CODE` says more")]
    severity: Literal["error", "warning"]
    message: str
    file: str
    line: Line
    col: Line
    end_line: Line
    end_col: Line
    hint: str | None
    suggestion: str | None


class CheckReport(Struct, forbid_unknown_fields=True):
    """What `cardsmith check --format json` writes: every diagnostic, in order."""

    diagnostics: list[DiagnosticReport]


class GameSummary(Struct, forbid_unknown_fields=True):
    """What one check of one game counted, and how long it took."""

    game: str
    files: Count
    cards: Count
    procedures: Count
    scenarios: Count
    seconds: Annotated[float, Meta(ge=0)]


class WatchReport(Struct, forbid_unknown_fields=True):
    """One line of `cardsmith check --watch --format json`: the files whose change led to this
    check (none for the first), every diagnostic, and each game checked."""

    changed: list[str]
    diagnostics: list[DiagnosticReport]
    games: list[GameSummary]


class PrintedCard(Struct, forbid_unknown_fields=True):
    """One record of the printed file against the card it names (`card` null: no such card)."""

    row: Line
    number: str
    card: str | None
    agrees: bool
    problems: list[str]


class PrintedTally(Struct, forbid_unknown_fields=True):
    agree: Count
    cards: Count


class PrintedReport(Struct, forbid_unknown_fields=True):
    """What `cardsmith check GAME --printed FILE --format json` writes: the counts, every record,
    and the counts by the value of the `--printed-by` field (empty without it)."""

    records: Count
    agree: Count
    not_found: Count
    cards: list[PrintedCard]
    by: dict[str, PrintedTally]


DOCUMENTS: dict[str, tuple[type[Struct], str]] = {
    "check": (CheckReport, "cardsmith check --format json"),
    "watch": (WatchReport, "one line of cardsmith check --watch --format json"),
    "printed": (PrintedReport, "cardsmith check --printed FILE --format json"),
}


def schema(which: str) -> dict[str, Any]:
    """The JSON Schema of one of the documents of `DOCUMENTS`."""
    kind, what = DOCUMENTS[which]
    (root,), components = msgspec.json.schema_components([kind], ref_template="#/$defs/{name}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://cardsmith.invalid/{which}/{REPORTS_VERSION}",
            "title": f"{what} (version {REPORTS_VERSION})",
            "$defs": components, **root}
