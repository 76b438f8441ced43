"""The events file (`play --events`): every line valid against the published schema, in
the order things happened, as the chosen reader saw them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from cardsmith.cli import main
from cardsmith.runtime.events import schema

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "events.schema.json"


def test_the_published_events_schema_is_current() -> None:
    assert json.loads(SCHEMA_FILE.read_text("utf-8")) == schema(), \
        "docs/events.schema.json is stale: run `cardsmith schema events > docs/events.schema.json`"


def _events(tmp_path: Path, *args: str) -> list[dict[str, object]]:
    out = tmp_path / "events.jsonl"
    result = CliRunner().invoke(main, ["play", *args, "--no-log", "--events", str(out)])
    assert result.exit_code == 0, result.output
    validator = jsonschema.Draft202012Validator(schema())
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    for record in records:
        validator.validate(record)
    return records


def test_a_game_writes_every_kind_of_event_in_order(tmp_path: Path) -> None:
    records = _events(tmp_path, "sakura", "--seed", "4")
    kinds = {r["type"] for r in records}
    assert kinds == {"log", "tokens", "card", "choice", "counter", "end"}  # vigor is a logged counter
    assert records[-1]["type"] == "end" and records[-1]["result"]
    numbers = [r["n"] for r in records]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)


def test_a_seats_events_hide_the_other_hand(tmp_path: Path) -> None:
    mine = _events(tmp_path, "sakura", "--seed", "4", "--log-as", "1")
    everything = _events(tmp_path, "sakura", "--seed", "4", "--log-as", "all")
    drawn_by_p2 = [r for r in everything if r["type"] == "card" and r["dest"] == {"zone": "hand", "owner": "P2"}
                   and r["source"] == {"zone": "deck", "owner": "P2"}]
    seen_by_p1 = [r for r in mine if r["type"] == "card" and r["dest"] == {"zone": "hand", "owner": "P2"}
                  and r["source"] == {"zone": "deck", "owner": "P2"}]
    assert drawn_by_p2 and len(seen_by_p1) == len(drawn_by_p2)
    assert all(r["card"] != "（暗牌）" for r in drawn_by_p2) and all(r["card"] == "（暗牌）" for r in seen_by_p1)
