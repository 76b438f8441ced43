"""A designer's own files go through every command: the example goddess 萤 (examples/hotaru,
files of a designer's that start with `use sakura`) is checked, played, soaked, tested with
scenarios, built and written into the reference; a new game made by `cardsmith new` plays at
once; the language reference is current."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from cardsmith.cli import main
from cardsmith.compiler.langref import language_reference
from cardsmith.compiler.load import _cache_key, _used_game, build_target, game_files, resolve_game
from cardsmith.runtime.table import legal_picks

ROOT = Path(__file__).resolve().parent.parent
HOTARU = str(ROOT / "examples" / "hotaru")


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_check_takes_the_designers_folder() -> None:
    result = cli("check", HOTARU)
    assert result.exit_code == 0, result.output
    assert re.search(rf"sakura: {len(game_files('sakura')) + 2} file\(s\), \d+ card\(s\)", result.output)
    assert "warning" not in result.output


def test_a_library_file_named_again_is_read_once() -> None:
    result = cli("check", "sakura", str(ROOT / "cards" / "sakura" / "yurina.csm"))
    assert result.exit_code == 0 and "E102" not in result.output, result.output
    again = cli("play", "sakura", str(ROOT / "cards" / "sakura" / "yurina.csm"), "--seed", "2", "--no-log")
    assert again.exit_code == 0 and "declared twice" not in again.output, again.output


def test_play_with_the_designers_goddess() -> None:
    result = cli("play", "sakura", HOTARU, "--p1", "hotaru,yurina", "--p2", "saine,tokoyo", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "seed 4: hotaru+yurina vs saine+tokoyo:" in result.output
    assert "萤火" in result.output  # her addendum's logged counter shows in the log


def test_soak_with_the_designers_goddess_reports_her() -> None:
    result = cli("soak", "sakura", HOTARU, "--games", "40", "--p1", "hotaru,yurina")
    assert result.exit_code == 0, result.output
    assert "40 games in" in result.output and "0 with rule errors" in result.output
    row = next(line for line in result.output.splitlines() if line.strip().startswith("hotaru"))
    assert int(row.split()[1]) >= 40


def _per_character(output: str) -> dict[str, int]:
    return {line.split()[0]: int(line.split()[1]) for line in output.splitlines() if line.startswith("    ")}


def test_soak_all_pairings_plays_every_table_and_each_character() -> None:
    result = cli("soak", "ccs", "--all-pairings", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "420 games in" in result.output  # 21 characters, no character at two seats
    games = _per_character(result.output)
    assert len(games) == 21 and set(games.values()) == {40}  # each against every other, at both seats


def test_soak_all_pairings_takes_the_designers_characters_in_turn() -> None:
    rules = build_target("sakura", [HOTARU]).rules
    assert rules is not None
    seats = legal_picks(rules)
    assert ["hotaru", "yurina"] in seats and ["hotaru", "saine"] in seats
    result = cli("soak", "sakura", HOTARU, "--all-pairings", "--games", str(len(seats)))
    assert result.exit_code == 0, result.output
    # the first seat keeps its first legal pick while the second takes every legal pick in turn
    expected = Counter(seats[0] * len(seats)) + Counter(c for seat in seats for c in seat)
    assert _per_character(result.output) == dict(expected)


BROKEN = """use sakura
character glitch "故障": number 91
card glitch_n1 "坏牌":
    goddess glitch
    number "NA-91-glitch-O-N-1"
    type action
    invented
    text "Breaks when used."
    on_use:
        let n = count(this)
"""


def test_a_failing_seed_gives_a_command_that_replays_it(tmp_path: Path) -> None:
    broken = tmp_path / "broken.csm"
    broken.write_text(BROKEN, "utf-8")
    soak = cli("soak", "sakura", str(broken), "--games", "60", "--p1", "glitch,yurina")
    assert soak.exit_code == 1, soak.output
    assert "count of an object needs a token kind (at " in soak.output and "in card glitch_n1" in soak.output
    command = next(line for line in soak.output.splitlines() if "cardsmith play" in line)
    assert "(glitch+yurina vs " in command
    again = cli(*command.split("cardsmith ", 1)[1].split(), "--no-log")
    assert again.exit_code == 1 and "rule error: RuleViolation: count of an object needs a token kind" in again.output


def test_play_seed_alone_plays_what_soak_played(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    cli("play", "sakura", "--seed", "17", "--no-log", "--save", str(saved))
    picks = json.loads(saved.read_text("utf-8"))["picks"]
    soak = cli("soak", "sakura", "--games", "1", "--seed", "17")
    assert soak.exit_code == 0
    games_per_character = {row.split()[0]: int(row.split()[1])
                           for row in soak.output.splitlines() if row.startswith("    ")}
    assert games_per_character == Counter(c for side in picks for c in side)


def test_scenarios_of_the_designers_files_only_with_filter_and_log() -> None:
    result = cli("scenarios", "sakura", HOTARU)
    assert result.exit_code == 0 and result.output.endswith("2 passed, 0 failed\n"), result.output
    one = cli("scenarios", "sakura", HOTARU, "-k", "glow", "--log")
    assert "ok   hotaru_glow_counts_attacks" in one.output and "light_the_way" not in one.output
    assert "    | " in one.output  # the scenario's log
    assert cli("scenarios", "sakura", "-k", "r1*").output.count("ok   r1") >= 5
    none = cli("scenarios", "sakura", "-k", "no_such_scenario")
    assert none.exit_code == 1


def test_ref_shows_the_designers_addendum_cards_and_decisions() -> None:
    result = cli("ref", "sakura", HOTARU, "--lang", "en")
    assert result.exit_code == 0
    assert "## §90 Addendum §90: 萤的追加规则" in result.output and "### Hotaru" in result.output
    assert "Glow (萤火) is a counter of our own invention" in result.output
    api = cli("ref", "sakura", HOTARU, "--api")
    assert "| `glow` |" in api.output and "| `attack_with(p: player, rng: range, dmg: pair)` |" in api.output


def test_build_writes_the_game_with_the_designers_files(tmp_path: Path) -> None:
    result = cli("build", "sakura", HOTARU, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "'[\"hotaru_n1\"," in (tmp_path / "sakura_rules.py").read_text("utf-8")  # its line of the card table


def test_a_file_for_another_game_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.csm"
    other.write_text("use eatpaint\n", "utf-8")
    result = cli("play", "sakura", str(other))
    assert result.exit_code == 1 and "E107" in result.output and "adds to 'eatpaint'" in result.output


def test_a_new_game_plays_at_once(tmp_path: Path) -> None:
    made = cli("new", "pebbles", "--out", str(tmp_path))
    assert made.exit_code == 0, made.output
    folder = str(tmp_path / "pebbles")
    assert cli("check", folder).exit_code == 0
    played = cli("play", folder, "--seed", "3")
    assert played.exit_code == 0 and "先得5分" in played.output, played.output
    assert cli("scenarios", folder).output.endswith("1 passed, 0 failed\n")
    assert cli("new", "pebbles", "--out", str(tmp_path)).exit_code == 2  # it exists already
    assert cli("new", "1bad", "--out", str(tmp_path)).exit_code == 2


def test_the_language_reference_is_current() -> None:
    committed = (ROOT / "docs" / "LANGUAGE.md").read_text("utf-8")
    assert committed == language_reference(), "docs/LANGUAGE.md is stale: run `cardsmith ref --language --out docs/LANGUAGE.md`"


@pytest.mark.parametrize("code", ["E101", "E116", "W202", "W204"])
def test_explain_lists_every_code(code: str) -> None:
    assert code in cli("explain", "--list").output


def test_the_same_game_whatever_way_the_files_are_named() -> None:
    """The game's own files come first, in the library's order, however the designer names
    the files: the order of the files is the order of the declarations (and so of the
    cards), and the cache key follows it, so no spelling is served another's build."""
    spellings = (("sakura", [HOTARU]), (HOTARU, []), (HOTARU + "/hotaru_scenarios.csm", [HOTARU + "/hotaru.csm"]),
                 (HOTARU, [str(ROOT / "cards" / "sakura" / "yurina.csm")]))
    orders = {tuple(Path(p).resolve() for p in resolve_game(target, extra)[0]) for target, extra in spellings}
    library = tuple(p.resolve() for p in game_files("sakura"))
    assert len(orders) == 1
    order = orders.pop()
    assert order[:len(library)] == library and {p.name for p in order[len(library):]} == {"hotaru.csm", "hotaru_scenarios.csm"}
    sources = resolve_game("sakura", [HOTARU])[0]
    assert _cache_key(sources) != _cache_key(dict(reversed(sources.items())))


def test_a_designers_attack_of_the_wrong_shape_is_a_located_error(tmp_path: Path) -> None:
    """What used to fail at run time inside core.csm is now an error at the designer's line."""
    card = tmp_path / "kagero.csm"
    card.write_text('use sakura\n\ncharacter kagero "阳炎": number 91\n\n'
                    'card kagero_n1 "试刀":\n    goddess kagero\n    number "NA-91-kagero-O-N-1"\n    type action\n'
                    '    invented\n    on_use:\n'
                    '        attack_by(this, 3-4, 2-2)\n        attack_by(this, 3/4, 2/2)\n'
                    '        attack_by(this, 3-4, 2)\n', "utf-8")
    result = cli("check", str(card))
    assert result.exit_code == 1
    located = re.findall(r"kagero\.csm:(\d+):(\d+): error\[E110\]: attack_by: (\w+) must be", result.output)
    assert located == [("11", "30", "dmg"), ("12", "25", "rng"), ("13", "30", "dmg")]


@given(st.lists(st.sampled_from(["use sakura", "use  ccs # a comment", "  use eatpaint", "use", "usesakura", "use \r",
                                 "# use sakura", "", "card a:", "use eatpaint\r", "x use sakura"]), max_size=6))
def test_the_used_game_is_the_first_unindented_use_line(lines: list[str]) -> None:
    """`_used_game` finds what a multi-line `^use (.*)` finds: the first line that starts `use `."""
    text = "\n".join(lines)
    found = re.search(r"^use ([^\n]*)", text, re.MULTILINE)
    assert _used_game(text) == (found.group(1).split("#")[0].strip() if found else None)
