"""The command line: every command answers --help; bad input gives diagnostics, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsmith.check_report import schema as report_schema
from cardsmith.cli import main
from cardsmith.compiler.parse import parse_source
from tests.helpers import assert_report

COMMANDS = ["check", "build", "play", "ref", "explain", "scenarios", "soak", "demo"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def _check(tmp_path: Path, text: str, *extra: str) -> subprocess.CompletedProcess[str]:
    card = tmp_path / "new_cards.csm"
    card.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "cardsmith", "check", str(card), *extra],
                          capture_output=True, text=True, timeout=120)


BROKEN = {
    "syntax": "use sakura\ncard x \"a\":\n    type attack\n    range 3 4 ) \n",
    "unknown name": "use sakura\ncard x \"a\":\n    goddess yurna\n    type attack\n    range 3\n    damage 1/1\n",
    "wrong type": "use sakura\ncard x \"a\":\n    goddess yurina\n    type attack\n    range near\n    damage 1/1\n",
    "full width": "use sakura\ncard x \"一閃\"：\n    goddess yurina\n",
    "python lookalike": "use sakura\ncard x \"__import__('os').system('ls')\":\n    goddess yurina\n    type action\n    on_use:\n        log \"\\\"); import os #\"\n        exec(self)\n",
    "binary junk": "use sakura\n\x00\x01\x02 card \xff\n",
    "unknown game": "use chess\ncard x:\n    type attack\n",
    "huge range": "use sakura\ncard x \"a\":\n    goddess yurina\n    type attack\n    range 0-99999999999\n    damage 1/1\n",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_sources_give_located_diagnostics(tmp_path: Path, case: str) -> None:
    proc = _check(tmp_path, BROKEN[case])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "new_cards.csm:" in proc.stdout
    assert "^" in proc.stdout and "error[E" in proc.stdout


def test_json_output_lists_every_problem(tmp_path: Path) -> None:
    text = ("use sakura\ncard x \"a\":\n    goddess yurna\n    type atack\n    range 3\n    damage 1/1\n"
            "card y \"b\":\n    goddess saine\n    type action\n    on_use:\n        mve 1\n")
    proc = _check(tmp_path, text, "--format", "json")
    data = json.loads(proc.stdout)
    assert_report("check", data)
    lines = sorted(d["line"] for d in data["diagnostics"])
    assert proc.returncode == 1 and len(lines) >= 3
    assert {d["code"] for d in data["diagnostics"]} >= {"E101", "E104"}
    assert any(d["suggestion"] == "yurina" for d in data["diagnostics"])


@pytest.mark.parametrize("which", ["check", "watch", "printed"])
def test_the_published_report_schemas_are_current(which: str) -> None:
    published = Path(__file__).resolve().parent.parent / "docs" / f"{which}-report.schema.json"
    assert json.loads(published.read_text("utf-8")) == report_schema(which), \
        f"{published.name} is stale: run `cardsmith schema {which} > docs/{published.name}`"


def test_a_report_that_does_not_fit_its_schema_is_refused() -> None:
    """The schemas hold something: a diagnostic without its place, or with a field of its own, fails."""
    diagnostic = {"code": "E101", "severity": "error", "message": "m", "file": "f.csm", "line": 1, "col": 1,
                  "end_line": 1, "end_col": 2, "hint": None, "suggestion": None}
    assert_report("check", {"diagnostics": [diagnostic]})
    for broken in ({k: v for k, v in diagnostic.items() if k != "line"}, {**diagnostic, "extra": 1},
                   {**diagnostic, "severity": "fatal"}, {**diagnostic, "col": 0}):
        with pytest.raises(jsonschema.ValidationError):
            assert_report("check", {"diagnostics": [broken]})


def test_caret_sits_under_cjk_text(tmp_path: Path) -> None:
    proc = _check(tmp_path, "use sakura\ncard x \"一閃一閃\"：\n    goddess yurina\n")
    lines = proc.stdout.splitlines()
    src = next(i for i, ln in enumerate(lines) if "一閃一閃" in ln)
    caret = lines[src + 1].index("^")
    prefix = lines[src][: lines[src].index("：")]
    width = sum(2 if ord(ch) > 0x2E80 else 1 for ch in prefix)
    assert caret == width


def test_missing_file_is_a_diagnostic(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "check", str(tmp_path / "nope.csm")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "E005" in proc.stdout and "Traceback" not in proc.stderr


def test_explain_known_and_unknown_codes() -> None:
    runner = CliRunner()
    assert "unknown name" in runner.invoke(main, ["explain", "E101"]).output
    bad = runner.invoke(main, ["explain", "Z999"])
    assert bad.exit_code == 2


def test_bundled_library_checks_clean() -> None:
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    assert "sakura:" in result.output


def test_play_is_seeded_and_reports_the_result() -> None:
    runner = CliRunner()
    args = ["play", "sakura", "--seed", "11", "--p1", "yurina,saine", "--p2", "himika,tokoyo", "--no-log"]
    first = runner.invoke(main, args)
    second = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output and "final state" in first.output


def test_play_rejects_unknown_characters() -> None:
    result = CliRunner().invoke(main, ["play", "sakura", "--p1", "yurina,nobody"])
    assert result.exit_code == 2 and "nobody" in result.output


def test_terminal_agent_plays_from_typed_input() -> None:
    answers = "\n".join(["1"] * 4000) + "\n"
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "play", "sakura", "--seed", "3", "--p1", "himika,yurina",
                           "--p2", "tokoyo,himika", "--agent", "terminal"],
                          input=answers, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "1) " in proc.stdout and "seed 3: himika+yurina vs tokoyo+himika: P1 loses" in proc.stdout


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_parser_never_raises_on_any_text(text: str) -> None:
    parse_source("fuzz.csm", text)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["card", "x", ":", "\n", "    ", "\"s\"", "move", "1", "from", "to",
                                 "(", ")", "if", "else", "procedure", "step", "i", "let", "=", "3/1",
                                 "+1/+0", "<装>", "：", "#c", "option", "choose", "for"]), max_size=60))
def test_parser_never_raises_on_token_soup(parts: list[str]) -> None:
    parse_source("fuzz.csm", " ".join(parts))


def test_soak_plays_many_games_and_reports() -> None:
    result = CliRunner().invoke(main, ["soak", "eatpaint", "--games", "30", "--seed", "100"])
    assert result.exit_code == 0, result.output
    assert "30 games in" in result.output and "0 with rule errors" in result.output


def test_soak_refuses_a_wrong_table_size() -> None:
    result = CliRunner().invoke(main, ["soak", "sakura", "--players", "5"])
    assert result.exit_code == 2 and "sakura is played by 2 players, not 5" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--p1", "yurina,yurina"], "must have different numbers"),
    (["--p1", ","], "none empty"),
    (["--p1", "yurina,saine,himika,tokoyo,akina,shisui"], "picks 6 character(s); each player picks 2"),
    (["--p1", "yurina"], "picks 1 character(s)"),
    (["--players", "3"], "played by 2 players, not 3"),
    (["--players", "0"], "0 is not in the range"),
    (["--seat", "3"], "--seat must be between 1 and 2"),
    (["--log-as", "P9"], "--log-as takes"),
])
def test_illegal_tables_are_refused_before_playing(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["play", "sakura", "--no-log", *args])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "final state" not in result.output


def test_ccs_seats_cannot_share_a_character() -> None:
    result = CliRunner().invoke(main, ["play", "ccs", "--pick", "sakura", "--pick", "sakura"])
    assert result.exit_code == 2 and "picked by P1 and P2" in result.output


def test_soak_refuses_a_negative_game_count() -> None:
    result = CliRunner().invoke(main, ["soak", "sakura", "--games", "-5"])
    assert result.exit_code == 2 and "-5 is not in the range" in result.output


def test_check_of_a_folder_without_sources_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1 and "no .csm source files in the folder" in result.output


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_fifos_and_devices_get_a_clear_message(tmp_path: Path, kind: str) -> None:
    target = "/dev/zero"
    if kind == "fifo":
        target = str(tmp_path / "pipe.csm")
        os.mkfifo(target)
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "check", target],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and f"not a regular file (a {'FIFO' if kind == 'fifo' else 'device'})" in proc.stdout


@pytest.mark.parametrize("command", [["build", "eatpaint", "--out"], ["ref", "eatpaint", "--out"], ["demo", "--out"]])
def test_unwritable_outputs_get_a_clear_message(tmp_path: Path, command: list[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(main, [*command, str(blocker / "inside")])
    assert result.exit_code == 2 and "cannot " in result.output and "internal error" not in result.output


def test_a_terminal_player_typing_a_non_ascii_digit_is_asked_again() -> None:
    answers = "²\n٣\n" + "1\n" * 4000
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "play", "eatpaint", "--seed", "3", "--agent", "terminal"],
                          input=answers, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr and proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.count("請輸入 1 到 ") == 2, "each of the two unusable answers is refused once, in the game's language"


def test_the_entry_point_spares_the_exit_a_walk_over_every_object() -> None:
    """`run()` freezes the collector when the command ends, so the interpreter's shutdown does
    not walk a loaded game's objects again."""
    code = ("import atexit, gc, sys\n"
            "from cardsmith.cli import run\n"
            "print('before', gc.get_freeze_count())\n"
            "atexit.register(lambda: print('at exit', gc.get_freeze_count() > 0))\n"
            "sys.argv = ['cardsmith', 'play', 'eatpaint', '--seed', '1', '--no-log']\n"
            "run()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "before 0" and lines[-1] == "at exit True"
