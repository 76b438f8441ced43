"""Printed card text checked against the definitions: a designer's export (CSV, or JSON — a list
of objects, or an object holding one) read for a card number, a text and optional columns of
printed numbers, and each record compared with the card it names (`check GAME --printed FILE`).

A record names a card by its identifier or by a text field's value that no other card shares
(a card number). Its text is read like a card's `text` (see `text_scan.py`); a printed number
column (`--printed-field range=range`) is compared with that field of the card."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..runtime.values import Pair
from .card_facts import card_facts
from .checked import Checked
from .limits import MAX_FILE_BYTES
from .text_check import Finding, compare
from .text_lint import text_language
from .text_scan import Scanner, canonical_pair, canonical_range
from .vocabulary import Vocabulary, vocabulary


class PrintedError(Exception):
    """A printed-text file that cannot be used, with the reason in words."""


@dataclass(frozen=True)
class Printed:
    """One record of the file: where it is, the number it names the card by, its text and its
    printed numbers by field."""

    row: int
    number: str
    text: str
    numbers: dict[str, str] = field(default_factory=dict)


@dataclass
class Verdict:
    """What was found for one record."""

    record: Printed
    card: str | None
    findings: list[Finding] = field(default_factory=list)
    field_problems: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return self.card is not None and not self.findings and not self.field_problems

    def problems(self, vocab: Vocabulary) -> list[str]:
        if self.card is None:
            return [f"no card of the game has the number {self.record.number!r}"]
        language = text_language(self.record.text, vocab)
        return [f.describe(vocab, language).replace("the text", "the printed text")
                for f in self.findings] + self.field_problems


def read_printed(path: Path, number_column: str, text_column: str, fields: dict[str, str]) -> list[Printed]:
    """The records of a CSV or JSON file (by its suffix, else by its first character)."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PrintedError(f"cannot read {path}: {err.strerror or err}") from None
    if len(data) > MAX_FILE_BYTES * 8:
        raise PrintedError(f"{path} is larger than {MAX_FILE_BYTES * 8} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise PrintedError(f"{path} is not UTF-8 ({err.reason} at byte {err.start})") from None
    as_json = path.suffix.lower() == ".json" or (path.suffix.lower() != ".csv" and text.lstrip()[:1] in "[{")
    rows = _json_rows(path, text) if as_json else _csv_rows(path, text)
    wanted = [number_column, text_column, *fields.values()]
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise PrintedError(f"{path}: record {i} is not an object")
    if rows and not any(number_column in r for r in rows):
        columns = sorted({k for r in rows for k in r})
        raise PrintedError(f"{path}: no record has the column {number_column!r} (columns: {', '.join(columns[:20])}); "
                           "name it with --printed-number")
    records = []
    for i, row in enumerate(rows, start=1):
        number = _cell(row.get(number_column))
        if not number:
            continue
        records.append(Printed(i, number, _cell(row.get(text_column)),
                               {f: _cell(row.get(col)) for f, col in fields.items() if _cell(row.get(col))}))
    if not records:
        raise PrintedError(f"{path}: no record has a value in the column {number_column!r} "
                           f"(looked for: {', '.join(dict.fromkeys(wanted))})")
    return records


def _cell(value: Any) -> str:
    return "" if value is None else str(value).strip() if not isinstance(value, (dict, list)) else ""


def _json_rows(path: Path, text: str) -> list[Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise PrintedError(f"{path}:{err.lineno}:{err.colno}: not valid JSON: {err.msg}") from None
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        lists = [v for v in doc.values() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
        if len(lists) == 1:
            return lists[0]
        raise PrintedError(f"{path}: the JSON object holds {len(lists)} lists of records; it should hold one")
    raise PrintedError(f"{path}: JSON must be a list of objects, or an object holding one")


def _csv_rows(path: Path, text: str) -> list[Any]:
    try:
        return list(csv.DictReader(io.StringIO(text)))
    except csv.Error as err:
        raise PrintedError(f"{path}: not valid CSV: {err}") from None


class PrintedCheck:
    """Compares printed records with one checked game."""

    def __init__(self, checked: Checked) -> None:
        self.checked = checked
        self.vocab = vocabulary(checked)
        self.scanner = Scanner(self.vocab)

    def card_of(self, number: str) -> str | None:
        if number in self.checked.symbols.cards:
            return number
        return self.vocab.card_keys.get(number)

    def verdict(self, record: Printed) -> Verdict:
        card = self.card_of(record.number)
        if card is None:
            return Verdict(record, None)
        facts = card_facts(self.checked, self.scanner, card)
        verdict = Verdict(record, card, compare(self.scanner.scan(record.text), facts))
        props = self.checked.card_props.get(card, {})
        for name, printed in record.numbers.items():
            ours = _canonical(props.get(name, self.checked.symbols.fields[name].default))
            theirs = _printed_canonical(printed)
            if theirs is not None and ours != theirs:
                verdict.field_problems.append(f"{name} is {ours or 'unset'} in the definition, {printed} printed")
        return verdict

    def all(self, records: list[Printed]) -> list[Verdict]:
        return [self.verdict(r) for r in records]


def _canonical(value: Any) -> str:
    """A field's value as printed numbers are compared: 3-4, 3, 1,3,5, 3/1, -/1, 2."""
    if isinstance(value, Pair):
        return canonical_pair(value.left, value.right)
    if isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):
        if list(value) == list(range(min(value), max(value) + 1)):
            return canonical_range(min(value), max(value))
        return ",".join(str(v) for v in value)
    if isinstance(value, bool) or value is None:
        return ""
    return str(value)


def _printed_canonical(text: str) -> str | None:
    """A printed number cell in the same form (None for what cannot be compared, such as X)."""
    flat = unicodedata.normalize("NFKC", text).replace(" ", "")
    if flat.startswith("{") and flat.endswith("}"):  # a braced number ({2}) is still that number
        flat = flat[1:-1]
    if not flat or "X" in flat.upper():
        return None
    if "/" in flat:
        left, _, right = flat.partition("/")
        if not all(side == "-" or side.isdigit() for side in (left, right)):
            return None
        return canonical_pair(None if left == "-" else int(left), None if right == "-" else int(right))
    if "," in flat:
        parts = flat.split(",")
        return ",".join(parts) if all(p.isdigit() for p in parts) else None
    if "-" in flat:
        low, _, high = flat.partition("-")
        return canonical_range(int(low), int(high)) if low.isdigit() and high.isdigit() else None
    return str(int(flat)) if flat.isdigit() else None


def field_columns(specs: tuple[str, ...], checked: Checked) -> dict[str, str]:
    """`FIELD=COLUMN` options as a mapping, each field a declared one."""
    fields: dict[str, str] = {}
    for spec in specs:
        name, sep, column = spec.partition("=")
        if not sep or not name or not column:
            raise PrintedError(f"--printed-field takes FIELD=COLUMN, not {spec!r}")
        if name not in checked.symbols.fields:
            raise PrintedError(f"--printed-field: the game has no field {name!r}")
        fields[name] = column
    return fields

