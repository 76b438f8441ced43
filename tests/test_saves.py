"""Saved games: a replay uses every saved decision and the saved final state, names the first
decision that no longer fits, and every malformed save file gets a clear error (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardsmith.cli import main


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("save") / "game.json"
    result = CliRunner().invoke(main, ["play", "sakura", "--seed", "21", "--no-log", "--save", str(path)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    assert data["answers"] and data["final_state"] in result.output
    return data


def _replay(tmp_path: Path, data: Any, raw: str | None = None) -> Any:
    path = tmp_path / "edited.json"
    path.write_text(raw if raw is not None else json.dumps(data), "utf-8")
    return CliRunner().invoke(main, ["play", "sakura", "--replay", str(path), "--no-log"])


def test_a_saved_game_replays_exactly(tmp_path: Path, saved: dict[str, Any]) -> None:
    result = _replay(tmp_path, saved)
    assert result.exit_code == 0 and f"replay matches the saved game ({len(saved['answers'])} decisions)" in result.output


def test_appended_decisions_are_not_a_match(tmp_path: Path, saved: dict[str, Any]) -> None:
    data = dict(saved, answers=saved["answers"] + [[0, 0], [1, 0]])
    result = _replay(tmp_path, data)
    n = len(saved["answers"])
    assert result.exit_code == 1 and "replay matches" not in result.output
    assert f"the game ended after decision {n}, but {n + 2} decisions were saved" in result.output


def test_an_answer_out_of_range_names_its_decision(tmp_path: Path, saved: dict[str, Any]) -> None:
    data = json.loads(json.dumps(saved))
    data["answers"][0] = [0, 999]
    result = _replay(tmp_path, data)
    assert result.exit_code == 1 and "replay matches" not in result.output
    assert "at decision 1: saved answer 999, but" in result.output


def test_a_decision_of_another_seat_names_its_decision(tmp_path: Path, saved: dict[str, Any]) -> None:
    data = json.loads(json.dumps(saved))
    data["answers"][0] = [1, 0]
    result = _replay(tmp_path, data)
    assert result.exit_code == 1 and "at decision 1: saved for P2, but the game asks P1" in result.output


def test_too_few_decisions_name_where_they_ran_out(tmp_path: Path, saved: dict[str, Any]) -> None:
    data = dict(saved, answers=saved["answers"][:10])
    result = _replay(tmp_path, data)
    assert result.exit_code == 2 and "is incomplete: decision 11: the game asks" in result.output
    assert "only 10 decisions were saved" in result.output


def test_a_different_final_state_is_not_a_match(tmp_path: Path, saved: dict[str, Any]) -> None:
    result = _replay(tmp_path, dict(saved, final_state="0" * 24))
    assert result.exit_code == 1 and "not the saved 000000000000000000000000" in result.output


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: {k: v for k, v in d.items() if k != "final_state"}, "missing required field `final_state`"),
    (lambda d: dict(d, seed="21"), "Expected `int`, got `str` - at `$.seed`"),
    (lambda d: dict(d, seed=True), "Expected `int`, got `bool`"),
    (lambda d: dict(d, game="chess"), "is a game of 'chess', not 'sakura'"),
    (lambda d: dict(d, picks=[["yurina", "yurina"], ["saine", "himika"]]), "illegal table"),
    (lambda d: dict(d, picks=[["yurina", "nobody"], ["saine", "himika"]]), "unknown character"),
    (lambda d: dict(d, picks=[["yurina", "saine"]]), "played by 2 players, not 1"),
    (lambda d: dict(d, answers=[[7, 0]] + d["answers"]), "decision 1 (7, 0) names no seat"),
    (lambda d: dict(d, answers=[[0, -1]] + d["answers"]), "names no seat or option"),
    (lambda d: dict(d, answers=[[0]]), "Expected `array` of length 2"),
    (lambda d: dict(d, version=9), "version 9 save"),
    (lambda d: [d], "Expected `object`, got `array`"),
])
def test_malformed_save_files_get_clear_errors(tmp_path: Path, saved: dict[str, Any], edit: Any,
                                               message: str) -> None:
    result = _replay(tmp_path, edit(saved))
    assert result.exit_code == 2 and message in result.output, result.output
    assert "internal error" not in result.output


@pytest.mark.parametrize("raw", ["", "not json", "[" * 100_000 + "]" * 100_000, '{"seed": 1' * 3])
def test_save_files_that_are_not_json_get_clear_errors(tmp_path: Path, raw: str) -> None:
    result = _replay(tmp_path, None, raw)
    assert result.exit_code == 2 and "is not a saved game" in result.output


def test_a_missing_save_file_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "sakura", "--replay", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_save_into_a_missing_folder_is_refused_before_playing(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "sakura", "--save", str(tmp_path / "no" / "x.json")])
    assert result.exit_code == 2 and "does not exist" in result.output and "final state" not in result.output
