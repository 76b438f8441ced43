"""Runaway rules stop with a located rule error in bounded time and memory."""

from __future__ import annotations

import re

import pytest

from cardsmith.compiler.diagnostics import render_all
from cardsmith.compiler.load import build_sources
from cardsmith.runtime.session import new_game, play
from tests.helpers import tiny_game


def _error(body: str, extra: str = "") -> str:
    text = tiny_game(body) + extra
    result = build_sources({"runaway.csm": text}, use_cache=False, need_model=True)
    assert result.ok, render_all(result.diagnostics, result.sources)
    assert result.rules is not None
    outcome = play(new_game(result.rules, [[], []], seed=1, log=False))
    return outcome.error or ""


def _line_of(body: str, needle: str) -> int:
    return next(i for i, ln in enumerate(tiny_game(body).split("\n"), 1) if needle in ln)


def test_nested_for_loops_stop_at_the_loop_limit_and_name_the_line() -> None:
    body = "for a in span(0, 1000):\n    for b in span(0, 1000):\n        for c in span(0, 1000):\n            pass"
    error = _error(body)
    assert "a loop in the rules did not finish" in error
    assert f"runaway.csm:{_line_of(body, 'for c in')}" in error


def test_a_while_loop_names_its_line() -> None:
    body = "while true:\n    seat(0).score += 0"
    error = _error(body)
    assert "did not finish" in error and f"runaway.csm:{_line_of(body, 'while true')}" in error


@pytest.mark.parametrize("body", [
    "let x = 2\nwhile true:\n    x = x * x",
    "let x = 1\nwhile true:\n    x = x + x",
    "let x = 1\nrepeat 100:\n    x = x * 10\nseat(0).score = x",
    "let x = 3\nrepeat 100:\n    seat(0).score = seat(0).score * x + 1",
])
def test_numbers_that_grow_without_bound_are_stopped(body: str) -> None:
    error = _error(body)
    assert "a number grew beyond" in error and "runaway.csm:" in error


def test_a_value_that_grows_is_stopped() -> None:
    body = "let x = 2\nwhile true:\n    x = square(x)"
    error = _error(body, "\nvalue square(n) = n * n\n")
    assert "a number grew beyond" in error


@pytest.mark.parametrize("grow", ["l = l + l", "l += l", "l = [] + l + l"])
def test_lists_that_double_are_stopped(grow: str) -> None:
    """Lists joined with `+` (generated as `rt.concat`, since both sides are known lists) are
    bounded like any list."""
    error = _error(f"let l = [1]\nwhile true:\n    {grow}")
    assert "a list grew beyond" in error and "runaway.csm:" in error


def test_a_huge_number_choice_is_cheap_for_a_random_agent() -> None:
    assert _error("let n = number from 0 to 100000000 for seat(0)\nseat(0).score = n") == ""


def test_a_huge_count_repeat_stops() -> None:
    assert "did not finish" in _error("repeat 1000000000:\n    pass")


def test_a_rule_error_names_its_declaration_and_the_calls_that_led_there() -> None:
    body = "deeper(seat(0))"
    extra = "\nprocedure deeper(p):\n    inner(p)\n\nprocedure inner(p):\n    while true:\n        pass\n"
    error = _error(body, extra)
    text = tiny_game(body) + extra
    lines = text.split("\n")
    at = lambda needle: next(i for i, ln in enumerate(lines, 1) if needle in ln)  # noqa: E731
    assert f"(at runaway.csm:{at('while true')}) in procedure inner" in error
    assert (f"called from runaway.csm:{at('    inner(p)')} in procedure deeper ← "
            f"runaway.csm:{at('deeper(seat(0))')} in procedure main") in error


def test_a_procedure_that_keeps_calling_itself_is_a_rule_error_with_a_short_chain() -> None:
    body = "again(seat(0))"
    extra = "\nprocedure again(p):\n    again(p)\n"
    error = _error(body, extra)
    line = (tiny_game(body) + extra).split("\n").index("    again(p)") + 1
    assert error.startswith("RuleViolation: calls nested too deeply")
    assert "RecursionError" not in error and "maximum recursion" not in error
    first, *rest = error.split(" ← ")
    assert re.search(rf"called from runaway\.csm:{line} in procedure again ×\d+$", first), first
    assert rest and "runaway.csm" in rest[0] and "procedure main" in rest[0]
