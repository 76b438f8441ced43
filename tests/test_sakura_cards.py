"""Sakura cards against the official card list: numbers, types and keywords must match.

Reads ../shared/data/sakura/cards.json when it exists (skips cleanly otherwise). Only numbers
and mechanics are compared; printed texts are never copied into the project."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardsmith.compiler.checked import Checked
from cardsmith.compiler.load import BuildResult

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sakura" / "cards.json"


def character_of(card: dict[str, str]) -> str:
    """The character a card of the list belongs to: the goddess for her original cards
    (`05-oboro-o-n-1`), a version such as `oboro_a1` for that version's (`05-oboro-A1-n-2`,
    `transform-A1-01`)."""
    parts = card["id"].split("-")[1:]
    version = next((part for part in parts if re.fullmatch(r"[aA]+\d+", part)), None)
    return f"{card['megami']}_{version.lower()}" if version else card["megami"]


# Entries of the list that are not cards: the storm-power sheet is a table (raira's 10-5).
NOT_CARDS = {"storm"}


def card_number(card: dict[str, str]) -> str:
    """A card's number: its rule id, or its list id for cards printed without one (TransForm)."""
    return card.get("rule_id") or card["id"]


def _official(sakura: BuildResult) -> dict[str, dict[str, str]]:
    """Every listed card of every character the library declares, by number: a new goddess or
    version is checked as soon as she is declared."""
    if not DATA.exists():
        pytest.skip("shared card data not present")
    assert sakura.checked is not None
    declared = set(sakura.checked.symbols.characters)
    cards = json.loads(DATA.read_text("utf-8"))["cards"]
    return {card_number(c): c for c in cards if character_of(c) in declared and c.get("baseType") not in NOT_CARDS}


def _range(text: str) -> tuple[int, ...]:
    values: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        values.update(range(int(lo), int(hi or lo) + 1))
    return tuple(sorted(values))


def _damage(text: str) -> tuple[int | None, int | None, bool]:
    braced = text.startswith("{")
    left, right = text.strip("{}").split("/")
    return (None if left == "-" else int(left), None if right == "-" else int(right), braced)


def _is_prose(line: str) -> bool:
    """A sentence worth protecting: five or more words, or a long unspaced (CJK) line."""
    line = line.strip()
    return len(line.split()) >= 5 or (" " not in line and len(line) >= 15)


def missing_or_twice(checked: Checked, official: dict[str, dict[str, str]]) -> list[str]:
    """Numbers of listed cards the library lacks, or holds more than once."""
    numbers = [p.get("number") for p in checked.card_props.values() if not p.get("fixture")]
    present = [n for n in numbers if n in official]
    return sorted(set(official) - set(present)) + sorted({n for n in present if present.count(n) > 1})


def number_mismatches(checked: Checked, official: dict[str, dict[str, str]]) -> list[str]:
    """Every card whose goddess, type, sub-types, range, damage, capacity or cost differs from
    the card list (values the list gives as `X` are not compared)."""
    mismatches = []
    for ident, props in checked.card_props.items():
        data = official.get(str(props.get("number")))
        if data is None:
            continue
        expected: dict[str, object] = {
            "goddess": character_of(data),
            "type": data.get("type"),
            "special": data["baseType"] == "special",
            "fullpower": "fullpower" in data.get("subType", ""),
            "reaction": "reaction" in data.get("subType", ""),
        }
        actual: dict[str, object] = {
            "goddess": props.get("goddess"),
            "type": props.get("type") if "type" in data else None,
            "special": bool(props.get("special")),
            "fullpower": "fullpower" in props.get("sub", ()),
            "reaction": "reaction" in props.get("sub", ()),
        }
        if re.fullmatch(r"[\d,-]+", data.get("range", "")):
            expected["range"], actual["range"] = _range(data["range"]), props.get("range")
        if re.fullmatch(r"\{?(\d+|-)/(\d+|-)\}?", data.get("damage", "")):
            expected["damage"] = _damage(data["damage"])
            dmg = props.get("damage")
            actual["damage"] = (dmg.left, dmg.right, dmg.braced) if dmg is not None else None
        if data.get("capacity", "").isdigit():
            expected["capacity"], actual["capacity"] = int(data["capacity"]), props.get("capacity")
        cost = data.get("cost", "").strip("{}")
        if cost.isdigit():
            expected["cost"], actual["cost"] = int(cost), props.get("cost")
        mismatches += [f"{ident} {key}: {actual.get(key)!r} != {value!r}"
                       for key, value in expected.items() if actual.get(key) != value]
    return mismatches


def test_every_official_card_is_encoded_once(sakura: BuildResult) -> None:
    assert sakura.checked is not None
    assert missing_or_twice(sakura.checked, _official(sakura)) == []


def test_numbers_and_types_match_the_card_list(sakura: BuildResult) -> None:
    assert sakura.checked is not None
    assert number_mismatches(sakura.checked, _official(sakura)) == []


def test_printed_texts_are_not_copied(sakura: BuildResult) -> None:
    official = _official(sakura)
    assert sakura.checked is not None
    copied = []
    for ident, props in sakura.checked.card_props.items():
        data = official.get(str(props.get("number")))
        if data is None:
            continue
        ours = str(props.get("text", ""))
        for field in ("text", "textEn", "textZh"):
            theirs = data.get(field, "")
            for line in theirs.splitlines():
                if _is_prose(line) and line in ours:
                    copied.append(f"{ident}: {line}")
    assert copied == []
