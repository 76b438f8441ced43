"""`cardsmith check GAME --printed FILE`: a designer's printed texts (CSV or JSON) checked against
the definitions — per card not found, numbers that differ, keywords or timings in one and not the
other — with a summary, and every malformed file or option a clear error (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cardsmith.cli import main
from tests.helpers import TEXT_GAME, assert_report

CARDS = '''card burst "爆发" en "Burst":
    code "W-2"
    power 3/1
    swift
    after_hit:
        modify atk.power by +1/+0
card calm "平静" en "Calm":
    code "W-3"
    power 1/1
'''


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "words"
    folder.mkdir()
    (folder / "game.csm").write_text(TEXT_GAME + CARDS, "utf-8")
    return folder


def check(game: Path, printed: Path, *options: str) -> Result:
    return CliRunner().invoke(main, ["check", str(game), "--printed", str(printed), *options])


ROWS = [
    {"id": "W-2", "body": "迅速。【命中後】+1/+0。", "dmg": "3/1"},   # agrees
    {"id": "W-3", "body": "速攻を持つ。", "dmg": "2/1"},                # a keyword it lacks, damage differs
    {"id": "W-9", "body": "何か。", "dmg": "1/1"},                   # no such card
    {"id": "W-1", "body": "迅速", "dmg": "２/１"},                    # agrees (full-width digits)
]


def test_a_csv_export_is_checked_card_by_card_with_a_summary(game: Path, tmp_path: Path) -> None:
    printed = tmp_path / "printed.csv"
    printed.write_text("id,body,dmg\n" + "".join(f"{r['id']},{r['body']},{r['dmg']}\n" for r in ROWS), "utf-8")
    result = check(game, printed, "--printed-number", "id", "--printed-text", "body", "--printed-field", "power=dmg")
    assert result.exit_code == 1, result.output
    out = result.output
    assert "record 2 (W-3, calm):" in out
    assert "the printed text names the keyword 迅速 (swift), which the definition does not have" in out
    assert "power is 1/1 in the definition, 2/1 printed" in out
    assert "record 3 (W-9):" in out and "no card of the game has the number 'W-9'" in out
    assert "record 1" not in out and "record 4" not in out
    assert out.strip().endswith("2 of 4 printed cards agree fully with their definitions (66.7% of those found); 1 not found")


@pytest.mark.parametrize("shape", ["list", "object"])
def test_json_is_a_list_of_objects_or_an_object_holding_one(game: Path, tmp_path: Path, shape: str) -> None:
    printed = tmp_path / "printed.json"
    rows = [{"no": r["id"], "text": r["body"]} for r in ROWS]
    printed.write_text(json.dumps(rows if shape == "list" else {"source": "x", "cards": rows}, ensure_ascii=False), "utf-8")
    result = check(game, printed, "--printed-number", "no", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert_report("printed", report)
    assert (report["records"], report["agree"], report["not_found"]) == (4, 2, 1)
    assert [c["agrees"] for c in report["cards"]] == [True, False, False, True]


def test_the_summary_per_field_value(game: Path, tmp_path: Path) -> None:
    printed = tmp_path / "printed.json"
    printed.write_text(json.dumps([{"number": "W-2", "text": "迅速。【命中後】+1/+0。"}, {"number": "W-3", "text": "x"}]), "utf-8")
    result = check(game, printed, "--printed-by", "code", "--quiet")
    lines = result.output.splitlines()
    assert lines[0].split() == ["code", "agree", "cards", "share"]
    assert lines[2].split() == ["W-2", "1", "1", "100%"] and lines[3].split() == ["W-3", "1", "1", "100%"]
    report = json.loads(check(game, printed, "--printed-by", "code", "--format", "json").output)
    assert_report("printed", report)
    assert report["by"] == {"W-2": {"agree": 1, "cards": 1}, "W-3": {"agree": 1, "cards": 1}}


@pytest.mark.parametrize(("content", "options", "message"), [
    ("[1, 2]", (), "record 1 is not an object"),
    ('{"a": [{"x": 1}], "b": [{"y": 2}]}', (), "holds 2 lists of records"),
    ('[{"number": "W-2", "text": "x"', (), "not valid JSON"),
    ('[{"id": "W-2"}]', (), "no record has the column 'number'"),
    ('[{"number": "W-2"}]', ("--printed-field", "power"), "FIELD=COLUMN"),
    ('[{"number": "W-2"}]', ("--printed-field", "weight=w"), "no field 'weight'"),
    ('[{"number": "W-2"}]', ("--printed-by", "weight"), "no field 'weight'"),
])
def test_a_file_or_option_that_cannot_be_used_is_a_clear_error(game: Path, tmp_path: Path, content: str,
                                                                  options: tuple[str, ...], message: str) -> None:
    printed = tmp_path / "bad.json"
    printed.write_text(content, "utf-8")
    result = check(game, printed, *options)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output, result.output


def test_a_missing_or_binary_file_is_a_clear_error(game: Path, tmp_path: Path) -> None:
    missing = check(game, tmp_path / "nope.csv")
    assert missing.exit_code == 2 and "cannot read" in missing.output
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = check(game, binary)
    assert result.exit_code == 2 and "not UTF-8" in result.output
    assert CliRunner().invoke(main, ["check", "--printed", str(binary)]).exit_code == 2
