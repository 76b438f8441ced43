"""Scenario files written in the language (rulings and rule tests), one pytest case per scenario."""

from __future__ import annotations

import pytest

from cardsmith.compiler.load import bundled_games
from cardsmith.runtime.session import run_scenario
from tests.helpers import Bundled, built


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One case per scenario of every bundled game (each game is built once per session)."""
    if {"game", "name"} <= set(metafunc.fixturenames):
        cases = sorted((game, name) for game in bundled_games() for name in built(game).rules.scenarios)
        metafunc.parametrize(("game", "name"), cases)


def test_every_bundled_game_builds() -> None:
    assert all(built(game).ok for game in bundled_games())


def test_sakura_has_the_rulings() -> None:
    names = set(Bundled("sakura").rules.scenarios)
    for number in range(1, 36, 2):
        assert any(n.startswith(f"r{number}_") for n in names), f"ruling R{number} has no scenario"


def test_scenario(game: str, name: str) -> None:
    problem = run_scenario(Bundled(game).rules, name)
    assert problem is None, problem


def test_every_paragraph_of_a_seed_000_addendum_has_a_scenario_named_for_it() -> None:
    """Each numbered paragraph a goddess addendum of seed 000 (§3–20) encodes (the `section`
    of its procedures and rules) has a scenario whose name carries that number (`oboro_3_2_…`)."""
    sym = Bundled("sakura").checked.symbols
    names = ["_" + name + "_" for name in sym.scenarios]
    missing = []
    for addendum in sym.addenda.values():
        top = addendum.labels.section
        if top is None or not 3 <= int(str(top).split("-")[0]) <= 20:
            continue
        sections = {str(item.labels.section) for item in addendum.items
                    if getattr(item, "labels", None) is not None and item.labels.section}
        missing += [f"{addendum.name} {sec}" for sec in sorted(sections)
                    if not any(f"_{sec.replace('-', '_')}_" in n for n in names)]
    assert missing == []
