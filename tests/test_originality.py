"""Original work: no run of 15 characters of a seed's sentence appears in our texts.

Our texts are every label, step description, card text, note and decision of a game. Skips
when the seeds are not beside the checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Bundled

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
GAME_SEEDS = {"sakura": ("000_", "001_"), "eatpaint": ("003_",), "ccs": ("004_",)}
RUN = 15  # long enough to skip shared terms like "active/rest狀態", short enough for any sentence


def _our_texts(game: str) -> list[str]:
    checked = Bundled(game).checked
    sym = checked.symbols
    texts: list[str] = []
    for table in (sym.procedures, sym.zones, sym.counters, sym.values, sym.events, sym.timings, sym.keywords):
        for decl in table.values():
            labels = getattr(decl, "labels", None) or decl.decl.labels
            texts.extend(labels.all_names())
    for proc in sym.procedures.values():
        texts.extend(st.labels.default or "" for st in proc.steps)
    for props in checked.card_props.values():
        texts.extend(str(props.get(k, "")) for k in ("text", "note"))
    decided = [*(sym.game.props if sym.game is not None else ()), *(o for a in sym.addenda.values() for o in a.props)]
    texts.extend(" ".join(o.words()) for o in decided if o.name == "decision")
    texts.extend(label for a in sym.addenda.values() for label in a.labels.all_names())
    for table in (sym.cards, sym.characters):
        texts.extend(label for decl in table.values() for label in decl.labels.all_names())
    return [t for t in texts if len(t) >= RUN]


@pytest.mark.parametrize("game", sorted(GAME_SEEDS))
def test_no_seed_sentence_is_copied(game: str) -> None:
    files = [p for p in SEEDS.glob("*.txt") if p.name.startswith(GAME_SEEDS[game])] if SEEDS.exists() else []
    if not files:
        pytest.skip("the seeds are not present")
    ours = _our_texts(game)
    copied = set()
    for path in files:
        for line in path.read_text("utf-8").splitlines():
            line = line.strip()
            for i in range(len(line) - RUN + 1):
                piece = line[i:i + RUN]
                if any(piece in text for text in ours):
                    copied.add(piece)
    assert sorted(copied) == []
