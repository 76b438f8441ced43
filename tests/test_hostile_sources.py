"""Sources the parser accepts but that used to crash a later stage: each now gets a located
diagnostic or works, in `check` and in play. And sources that lie to the reader are flagged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardsmith.compiler.diagnostics import render_all
from cardsmith.compiler.load import build_sources
from cardsmith.runtime.session import new_game, play
from tests.helpers import build_text, problems
from tests.helpers import tiny_game as _game


def _extra(body: str) -> str:
    """The game (which does not call it) plus a procedure holding the body: a broken body
    cannot make other declarations fail."""
    return _game("pass") + "\nprocedure extra(p):\n" + "\n".join(
        "    " + line for line in body.strip("\n").split("\n")) + "\n"


def _build(text: str, path: str = "hostile.csm"):  # noqa: ANN202 - BuildResult
    return build_sources({path: text}, use_cache=False, need_model=True)


def _located(result, path: str = "hostile.csm") -> list[str]:  # noqa: ANN001
    """Codes of the errors, each asserted to point into the source at a real line."""
    errors = [d for d in result.diagnostics if d.severity == "error"]
    for d in errors:
        assert d.span.file == path and d.span.line >= 1 and d.span.col >= 1, d
    return [d.code for d in errors]


def _plays(text: str) -> str:
    """Build and play the game; returns the rule error (or '')."""
    result = _build(text)
    assert result.ok, render_all(result.diagnostics, result.sources)
    assert result.rules is not None
    outcome = play(new_game(result.rules, [[], []], seed=1))
    return outcome.error or ""


def test_a_5000_digit_number_is_a_located_error() -> None:
    result = _build(_extra("let x = 1" + "0" * 5000))
    assert _located(result) == ["E104"]
    assert "number larger than" in result.diagnostics[0].message


@pytest.mark.parametrize("digit", ["²", "٣", "３"])
def test_non_ascii_digits_are_not_numbers(digit: str) -> None:
    result = _build(_extra(f"let x = {digit}"))
    assert _located(result) and result.rules is None


def test_a_non_ascii_digit_as_a_game_property_is_an_error() -> None:
    result = _build(_game("pass").replace("players 2", "players ²"))
    assert _located(result) == ["E104"]


def test_break_inside_a_once_inside_a_loop_is_an_error() -> None:
    result = _build(_extra("repeat 2:\n    once when tick(p):\n        break"))
    assert _located(result) == ["E112"]


def test_a_once_block_may_assign_a_variable_of_its_block() -> None:
    body = ("let n = 0\n"
            "once when tick(q):\n"
            "    n += 1\n"
            "    move n chip from bank to q.purse\n"
            "emit tick(seat(0))\n"
            "emit tick(seat(0))")
    result = _build(_game(body))
    assert [d.code for d in problems(result.diagnostics)] == ["W203"]
    assert _plays(_game(body)) == ""


@pytest.mark.parametrize("terms", [210, 20_000])
def test_long_sums_are_a_located_error(terms: int) -> None:
    result = _build(_extra("let x = " + " + ".join(["1"] * terms)))
    assert _located(result) == ["E004"]


def test_a_sum_within_the_limit_compiles_and_runs() -> None:
    assert _plays(_game("let x = " + " + ".join(["1"] * 40) + "\nseat(0).score = x")) == ""


@pytest.mark.parametrize("indent", [" ", "\t", "  "])
def test_deeply_nested_blocks_are_a_located_error(indent: str) -> None:
    lines = ["procedure deep(p):"]
    for depth in range(1, 120):
        lines.append(indent * depth + "if true:")
    lines.append(indent * 120 + "pass")
    result = build_text("\n".join(lines) + "\n")
    assert _located(result, "test.csm") == ["E004"]


def test_nested_blocks_within_the_limit_compile_and_run() -> None:
    body = "\n".join("    " * d + "if true:" for d in range(20)) + "\n" + "    " * 20 + "seat(0).score = 3"
    assert _plays(_game(body)) == ""


def test_a_byte_order_mark_is_accepted() -> None:
    assert _build("\ufeff" + _game("pass")).ok


def test_brackets_inside_strings_and_comments_do_not_count() -> None:
    body = 'log "' + "(" * 200 + '"\n# ' + "[" * 200
    assert _plays(_game(body)) == ""


def test_line_separators_do_not_end_a_comment() -> None:
    # a "comment" with U+2028 in it is one line to the parser: what follows is not code,
    # and a valid string holding the character is accepted
    hidden = _game('# note\u2028seat(0).score = 5\nlog "a\u2028b\u0085c\x0cd"')
    result = _build(hidden)
    assert result.ok and result.python_source is not None
    assert "g.set(" not in result.python_source  # the score assignment stayed a comment


def test_line_numbers_count_newlines_only() -> None:
    text = _game('log "a\u2028b"\nnope()')
    result = _build(text)
    (d,) = problems(result.diagnostics)
    expected = text.split("\n").index("        nope()") + 1
    assert d.code == "E101" and d.span.line == expected


def test_bidirectional_controls_are_flagged_where_they_are() -> None:
    text = _game('log "abc\u202edef"')
    result = _build(text)
    (d,) = problems(result.diagnostics)
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if "\u202e" in ln)
    assert d.code == "W204" and d.severity == "warning" and d.span.line == line
    assert d.span.col == text.split("\n")[line - 1].index("\u202e") + 1


def test_control_sequences_never_reach_the_terminal(tmp_path: Path) -> None:
    source = tmp_path / "evil.csm"
    source.write_text(_game('log "\x1b]52;c;cHduZWQ=\x07\x1b[2J"\nnope("\x1b[31m")'), "utf-8")
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "check", str(source)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "E101" in proc.stdout
    assert "\x1b" not in proc.stdout + proc.stderr and "\\x1b" in proc.stdout


def test_code_too_complex_for_python_is_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits keep generated code within Python's; if one is raised, compiling still
    ends in a located diagnostic."""
    from cardsmith.compiler import build
    monkeypatch.setattr(build, "MAX_EXPR_DEPTH", 100_000)
    text = _extra("let x = " + " + ".join(["1"] * 300))
    result = _build(text)
    (d,) = problems(result.diagnostics)
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if ln.startswith("    let x"))
    assert d.code == "E004" and d.span.file == "hostile.csm" and d.span.line == line
