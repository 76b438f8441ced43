"""Scenario files written in the language (rulings R1–R35 and more), one pytest case each."""

from __future__ import annotations

import pytest

from cardsmith.compiler.load import build_game
from cardsmith.runtime.session import run_scenario

_RULES = build_game("sakura", use_cache=False).rules
_NAMES = sorted(_RULES.scenarios) if _RULES is not None else []


def test_the_library_has_scenarios() -> None:
    assert len(_NAMES) >= 18


@pytest.mark.parametrize("name", _NAMES)
def test_scenario(name: str) -> None:
    assert _RULES is not None
    problem = run_scenario(_RULES, name)
    assert problem is None, problem
