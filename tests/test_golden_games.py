"""The guard of refactoring: seeds 1-200 of every game (库洛小樱对战 at 2, 4 and 10 players)
end in the recorded final state, after the recorded number of steps, with the recorded
outcome. A change that alters a game on purpose regenerates the file
(CARDSMITH_UPDATE_GOLDEN=1) and says why in its commit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cardsmith.runtime.session import new_game, play
from cardsmith.runtime.table import draw_picks
from tests.helpers import Bundled

GOLDEN = Path(__file__).parent / "data" / "golden_games.json"
TABLES = [("sakura", 2), ("eatpaint", 2), ("ccs", 2), ("ccs", 4), ("ccs", 10)]
SEEDS = range(1, 201)


def _games(game: str, players: int) -> list[list[object]]:
    rules = Bundled(game).rules
    rows: list[list[object]] = []
    for seed in SEEDS:
        outcome = play(new_game(rules, draw_picks(rules, players, seed), seed=seed, log=False))
        rows.append([seed, outcome.final_hash, outcome.steps, outcome.reason, outcome.error])
    return rows


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_games_end_as_recorded(game: str, players: int) -> None:
    key = f"{game}/{players}"
    rows = _games(game, players)
    recorded = json.loads(GOLDEN.read_text("utf-8")) if GOLDEN.exists() else {}
    if os.environ.get("CARDSMITH_UPDATE_GOLDEN"):
        recorded[key] = rows
        GOLDEN.write_text(json.dumps(recorded, indent=0, ensure_ascii=False) + "\n", "utf-8")
    assert key in recorded, f"no golden games for {key}: run with CARDSMITH_UPDATE_GOLDEN=1"
    changed = [(old, new) for old, new in zip(recorded[key], rows, strict=True) if old != new]
    assert not changed, f"{len(changed)} of {len(rows)} games changed; first: {changed[0]}"
