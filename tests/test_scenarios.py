"""Scenario files written in the language (rulings and rule tests), one pytest case per scenario."""

from __future__ import annotations

import pytest

from cardsmith.compiler.load import build_game, bundled_games
from cardsmith.runtime.rules import RuleSet
from cardsmith.runtime.session import run_scenario

_RULES: dict[str, RuleSet] = {}
for _game in bundled_games():
    _built = build_game(_game, use_cache=False).rules
    if _built is not None:
        _RULES[_game] = _built
_CASES = sorted((game, name) for game, rules in _RULES.items() for name in rules.scenarios)


def test_every_bundled_game_builds() -> None:
    assert sorted(_RULES) == bundled_games()


def test_sakura_has_the_rulings() -> None:
    names = set(_RULES["sakura"].scenarios)
    for number in range(1, 36, 2):
        assert any(n.startswith(f"r{number}_") for n in names), f"ruling R{number} has no scenario"


@pytest.mark.parametrize(("game", "name"), _CASES)
def test_scenario(game: str, name: str) -> None:
    problem = run_scenario(_RULES[game], name)
    assert problem is None, problem
