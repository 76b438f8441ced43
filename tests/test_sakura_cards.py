"""Sakura cards against the official card list: numbers, types and keywords must match.

Reads ../shared/data/sakura/cards.json when it exists (skips cleanly otherwise). Only numbers
and mechanics are compared; printed texts are never copied into the project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardsmith.compiler.load import BuildResult

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sakura" / "cards.json"
GODDESSES = ["yurina", "saine", "himika", "tokoyo", "akina", "shisui"]


def _official() -> dict[str, dict[str, str]]:
    if not DATA.exists():
        pytest.skip("shared card data not present")
    cards = json.loads(DATA.read_text("utf-8"))["cards"]
    return {c["rule_id"]: c for c in cards if c["megami"] in GODDESSES and "-o-" in c["id"]}


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


def test_every_official_card_is_encoded_once(sakura: BuildResult) -> None:
    official = _official()
    assert sakura.checked is not None
    numbers = [p.get("number") for p in sakura.checked.card_props.values() if not p.get("fixture")]
    present = [n for n in numbers if n in official]
    assert sorted(present) == sorted(official), sorted(set(official) - set(present))
    assert len(present) == len(set(present))


def test_numbers_and_types_match_the_card_list(sakura: BuildResult) -> None:
    official = _official()
    assert sakura.checked is not None
    mismatches = []
    for ident, props in sakura.checked.card_props.items():
        data = official.get(str(props.get("number")))
        if data is None:
            continue
        expected = {
            "goddess": data["megami"],
            "type": data["type"],
            "special": data["baseType"] == "special",
            "fullpower": "fullpower" in data.get("subType", ""),
            "reaction": "reaction" in data.get("subType", ""),
        }
        actual = {
            "goddess": props.get("goddess"),
            "type": props.get("type"),
            "special": bool(props.get("special")),
            "fullpower": "fullpower" in props.get("sub", ()),
            "reaction": "reaction" in props.get("sub", ()),
        }
        if "range" in data:
            expected["range"], actual["range"] = _range(data["range"]), props.get("range")
        if "damage" in data:
            expected["damage"] = _damage(data["damage"])
            dmg = props.get("damage")
            actual["damage"] = (dmg.left, dmg.right, dmg.braced) if dmg is not None else None
        if data.get("capacity", "").isdigit():
            expected["capacity"], actual["capacity"] = int(data["capacity"]), props.get("capacity")
        cost = data.get("cost", "").strip("{}")
        if cost.isdigit():
            expected["cost"], actual["cost"] = int(cost), props.get("cost")
        for key, value in expected.items():
            if actual.get(key) != value:
                mismatches.append(f"{ident} {key}: {actual.get(key)!r} != {value!r}")
    assert mismatches == []


def test_printed_texts_are_not_copied(sakura: BuildResult) -> None:
    official = _official()
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
