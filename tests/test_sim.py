"""`cardsmith sim`, the balance lab, as a designer runs it: every pairing of EAT/PAINT, chosen
and sampled tables of Sakura Arms with a designer's goddess joining it, the tables adding up
and agreeing with the games replayed, the same CSV bytes on one worker, two workers and Ray,
every bad input refused with a message, and the report in headless Chromium."""

from __future__ import annotations

import csv
import math
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from cardsmith.cli import main
from cardsmith.common import computer_agents
from cardsmith.compiler.load import build_target
from cardsmith.lab.stats import nearest_rank, wilson
from cardsmith.runtime.rules import RuleSet
from cardsmith.runtime.session import new_game, play
from cardsmith.runtime.state import Obj, Player
from cardsmith.runtime.table import count_tables, table_problems
from tests.browser import Watched

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "out" / "test-artifacts"
TABLES = ["pairings", "characters", "turn_order", "lengths", "games", "cards", "outliers"]
HOSTILE = '<script>alert("萤")</script><b>萤</b>'  # a designer's label, shown as text and never run
HOSTILE_CARD = "流萤 & <i>x</i>"


@dataclass(frozen=True)
class Run:
    """One `cardsmith sim` run: its result and the folder it wrote."""

    result: Result
    folder: Path

    def rows(self, table: str) -> list[dict[str, str]]:
        with (self.folder / f"{table}.csv").open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))

    def csv_bytes(self) -> dict[str, bytes]:
        return {t: (self.folder / f"{t}.csv").read_bytes() for t in TABLES}


def sim(folder: Path, *args: str) -> Run:
    result = CliRunner().invoke(main, ["sim", *args, "--out", str(folder)])
    return Run(result, folder)


def ok(run: Run) -> Run:
    assert run.result.exit_code == 0, run.result.output
    return run


@pytest.fixture(scope="module")
def eatpaint(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Every legal pairing of EAT/PAINT, two games each, on one worker."""
    return ok(sim(tmp_path_factory.mktemp("sim") / "eatpaint", "eatpaint", "--games", "2", "--workers", "1"))


@pytest.fixture(scope="module")
def designer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example goddess 萤 joining Sakura Arms, her label and a card's name made hostile."""
    text = (ROOT / "examples" / "hotaru" / "hotaru.csm").read_text("utf-8")
    for old, new in (('character hotaru "萤"', f"character hotaru {_quoted(HOSTILE)}"),
                     ('card hotaru_n1 "流萤"', f"card hotaru_n1 {_quoted(HOSTILE_CARD)}")):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path_factory.mktemp("designer") / "hotaru.csm"
    path.write_text(text, encoding="utf-8")
    return path


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture(scope="module")
def sakura_tables(tmp_path_factory: pytest.TempPathFactory, designer: Path) -> Run:
    """Two chosen tables of Sakura Arms (one with the designer's goddess), three games each."""
    return ok(sim(tmp_path_factory.mktemp("sim") / "tables", "sakura", str(designer), "--games", "3",
                  "--table", "hotaru,yurina/saine,tokoyo", "--table", "himika,oboro/yurina,saine"))


def _rules(game: str, *paths: Path) -> RuleSet:
    rules = build_target(game, [str(p) for p in paths]).rules
    assert rules is not None
    return rules


# ---- the tables ----

def test_every_pairing_is_played_and_the_tables_add_up(eatpaint: Run) -> None:
    for table in TABLES:
        assert (eatpaint.folder / f"{table}.csv").is_file() and (eatpaint.folder / f"{table}.parquet").is_file()
    assert (eatpaint.folder / "report.html").is_file()
    rules = _rules("eatpaint")
    pairings = eatpaint.rows("pairings")
    assert len(pairings) == count_tables(rules, 2) == 16
    assert len({(p["p1_characters"], p["p2_characters"]) for p in pairings}) == 16
    for p in pairings:
        games = int(p["games"])
        assert games == 2
        assert int(p["p1_wins"]) + int(p["p2_wins"]) + int(p["draws"]) + int(p["errors"]) == games
        assert float(p["p1_win_rate"]) == pytest.approx(int(p["p1_wins"]) / games, abs=1e-6)
        assert float(p["p1_ci_low"]) <= float(p["p1_win_rate"]) <= float(p["p1_ci_high"])
    games = eatpaint.rows("games")
    assert len(games) == 32 and len({g["seed"] for g in games}) == 32
    # each character's games and wins are those of the seats that held it
    for c in eatpaint.rows("characters"):
        seats = [(g, s) for g in games for s in (1, 2) if g[f"p{s}_characters"] == c["character"]]
        assert int(c["games"]) == len(seats) == 16
        assert int(c["wins"]) == sum(g["winner"] == str(s) for g, s in seats)
        assert float(c["win_rate"]) == pytest.approx(int(c["wins"]) / int(c["games"]), abs=1e-6)
    order = eatpaint.rows("turn_order")
    draws = sum(g["winner"] == "" for g in games)
    assert [int(t["games"]) for t in order] == [32, 32]
    assert sum(int(t["wins"]) for t in order) + draws == 32
    assert int(order[0]["wins"]) == sum(g["winner"] == g["first"] for g in games)
    assert "first_player (its `first_mover`)" in order[0]["known_from"]
    lengths = {row["measure"]: row for row in eatpaint.rows("lengths")}
    assert int(lengths["steps"]["maximum"]) == max(int(g["steps"]) for g in games)
    assert int(lengths["decisions"]["minimum"]) == min(int(g["decisions"]) for g in games)
    # the Parquet files hold the same tables
    for table in ("pairings", "cards"):
        parquet = pq.read_table(eatpaint.folder / f"{table}.parquet").to_pylist()
        assert [str(r[k]) for r in parquet for k in ("games", "used") if k in r] == \
               [r[k] for r in eatpaint.rows(table) for k in ("games", "used") if k in r]
    assert "outliers:" in eatpaint.result.stdout and "games/s" in eatpaint.result.stdout


def test_card_uses_are_those_of_the_games_played_again(eatpaint: Run) -> None:
    """Every game of games.csv played again with its seed, its card-use event counted here."""
    rules = _rules("eatpaint")
    assert rules.use_event is not None
    used: dict[str, int] = {}
    won: dict[str, int] = {}
    times: dict[str, int] = {}
    for g in eatpaint.rows("games"):
        seed = int(g["seed"])
        picks = [g["p1_characters"].split("+"), g["p2_characters"].split("+")]
        game = new_game(rules, picks, computer_agents("random", seed, 2), seed=seed, log=False)
        seen: set[tuple[int, str]] = set()

        def count(p: Player, c: Obj, seen: set[tuple[int, str]] = seen) -> None:
            assert c.defn is not None
            times[c.defn.ident] = times.get(c.defn.ident, 0) + 1
            seen.add((p.index, c.defn.ident))

        game.listen(rules.use_event, count)
        outcome = play(game)
        assert outcome.steps == int(g["steps"]) and outcome.decisions == int(g["decisions"])
        for seat, card in seen:
            used[card] = used.get(card, 0) + 1
            won[card] = won.get(card, 0) + (outcome.winner == seat)
    cards = {c["card"]: c for c in eatpaint.rows("cards")}
    assert len(cards) > 20 and set(cards) == set(used)
    for ident, row in cards.items():
        assert (int(row["used"]), int(row["won"]), int(row["times"])) == (used[ident], won[ident], times[ident])
        assert row["name"] == rules.cards[ident].name


def test_a_game_of_the_run_is_replayed_by_play(eatpaint: Run) -> None:
    g = eatpaint.rows("games")[5]
    result = CliRunner().invoke(main, ["play", "eatpaint", "--seed", g["seed"], "--pick", g["p1_characters"],
                                       "--pick", g["p2_characters"], "--no-log"])
    assert result.exit_code == 0, result.output
    assert f"after {g['steps']} steps and {g['decisions']} decisions" in result.output


def test_two_workers_write_the_same_bytes_as_one(eatpaint: Run, tmp_path: Path) -> None:
    again = ok(sim(tmp_path / "two", "eatpaint", "--games", "2", "--workers", "2"))
    assert again.csv_bytes() == eatpaint.csv_bytes()
    assert "2 worker(s), local" in again.result.stdout


def test_chosen_tables_of_sakura_with_a_designers_goddess(sakura_tables: Run, designer: Path) -> None:
    pairings = sakura_tables.rows("pairings")
    assert [(p["p1_characters"], p["p2_characters"]) for p in pairings] == \
           [("hotaru+yurina", "saine+tokoyo"), ("himika+oboro", "yurina+saine")]
    assert pairings[0]["p1_names"].startswith(HOSTILE)
    for p in pairings:
        assert int(p["p1_wins"]) + int(p["p2_wins"]) + int(p["draws"]) + int(p["errors"]) == int(p["games"]) == 3
    characters = {c["character"]: int(c["games"]) for c in sakura_tables.rows("characters")}
    assert characters == {"hotaru": 3, "yurina": 6, "saine": 6, "tokoyo": 3, "himika": 3, "oboro": 3}
    # who moved first: Sakura decides it at random and logs it; the lab reads it from the turn counter
    rules = _rules("sakura", designer)
    for g in sakura_tables.rows("games"):
        seed = int(g["seed"])
        picks = [g["p1_characters"].split("+"), g["p2_characters"].split("+")]
        outcome = play(new_game(rules, picks, computer_agents("random", seed, 2), seed=seed))
        first = next(line.text for line in outcome.log if "先手" in line.text)
        assert first.endswith(f"P{g['first']}")
    assert "turn_player (its `first_mover`)" in sakura_tables.rows("turn_order")[0]["known_from"]
    assert any(c["card"].startswith("hotaru_") for c in sakura_tables.rows("cards"))


def test_a_sample_is_drawn_with_the_seed(tmp_path: Path, designer: Path) -> None:
    first = ok(sim(tmp_path / "a", "sakura", str(designer), "--sample", "3", "--games", "3", "--workers", "1"))
    rules = _rules("sakura", designer)
    pairings = first.rows("pairings")
    assert len(pairings) == 3 and sum(int(p["games"]) for p in pairings) == 9
    for p in pairings:
        assert not table_problems(rules, [p["p1_characters"].split("+"), p["p2_characters"].split("+")])
    again = ok(sim(tmp_path / "b", "sakura", str(designer), "--sample", "3", "--games", "3", "--workers", "2"))
    assert again.csv_bytes() == first.csv_bytes()
    other = ok(sim(tmp_path / "c", "sakura", str(designer), "--sample", "3", "--games", "3", "--seed", "2"))
    assert other.rows("pairings") != pairings


def test_without_the_games_table_every_other_table_is_the_same(eatpaint: Run, tmp_path: Path) -> None:
    """--no-games-table keeps no record per game; the tables added up as games finish are the
    same bytes, and the report is still drawn."""
    lean = ok(sim(tmp_path / "lean", "eatpaint", "--games", "2", "--workers", "2", "--no-games-table"))
    assert not (lean.folder / "games.csv").exists() and not (lean.folder / "games.parquet").exists()
    kept = {t: b for t, b in eatpaint.csv_bytes().items() if t != "games"}
    assert {t: (lean.folder / f"{t}.csv").read_bytes() for t in kept} == kept
    report = (lean.folder / "report.html").read_text("utf-8")
    assert report.count("<svg") == (eatpaint.folder / "report.html").read_text("utf-8").count("<svg") >= 3
    assert "games.csv" not in lean.result.stdout and "lengths.csv" in lean.result.stdout


@given(st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=60),
       st.sampled_from([0.1, 0.25, 0.5, 0.75, 0.9]))
def test_a_percentile_from_counts_is_that_of_the_games_in_order(lengths: list[int], q: float) -> None:
    counts: dict[int, int] = {}
    for n in lengths:
        counts[n] = counts.get(n, 0) + 1
    ordered = sorted(lengths)
    expected = ordered[max(0, math.ceil(q * len(ordered)) - 1)]  # the nearest rank, over every game
    assert nearest_rank(counts, sorted(counts), len(lengths), q) == expected


def test_wilson_intervals() -> None:
    assert wilson(50, 100).low == pytest.approx(0.4038, abs=1e-4)
    assert wilson(50, 100).high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(9, 10).low == pytest.approx(0.5958, abs=1e-4) and wilson(9, 10).high == pytest.approx(0.9821, abs=1e-4)
    assert (wilson(0, 3).low, wilson(3, 3).high) == (0.0, 1.0)  # exact at the ends


# ---- bad input ----

@pytest.mark.parametrize(("args", "code", "message"), [
    (["eatpaint", "--table", "sabier/nobody"], 2, "unknown character(s) 'nobody'"),
    (["eatpaint", "--table", "sabier,leo/aika"], 2, "P1 picks 2 character(s); each player picks 1"),
    (["eatpaint", "--table", "sabier/"], 2, "none empty"),
    (["eatpaint", "--sample", "17"], 2, "eatpaint has only 16 legal pairings"),
    (["eatpaint", "--games", "0"], 2, "Invalid value for '--games': 0 is not in the range x>=1"),
    (["eatpaint", "--sample", "2", "--table", "sabier/leo"], 2, "give --sample or --table, not both"),
    (["eatpaint", "--address", "127.0.0.1:1"], 2, "give it with --backend ray"),
    (["eatpaint", "--backend", "ray", "--address", "not an address"], 2, "give HOST:PORT"),
    (["nosuchgame"], 2, "no bundled game, folder or file 'nosuchgame'"),
])
def test_bad_input_is_refused_with_a_message(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    run = sim(tmp_path / "out", *args)
    assert run.result.exit_code == code, run.result.output
    assert message in run.result.output
    assert "Traceback" not in run.result.output and isinstance(run.result.exception, SystemExit)
    assert not (tmp_path / "out" / "pairings.csv").exists()


def test_too_many_pairings_for_one_machine_are_refused(tmp_path: Path, designer: Path) -> None:
    run = sim(tmp_path / "out", "sakura", str(designer))
    legal = count_tables(_rules("sakura", designer), 2)
    assert run.result.exit_code == 2 and legal > 500
    assert f"has {legal:,} legal pairings" in run.result.output
    assert "--sample" in run.result.output and "--backend ray" in run.result.output


def test_an_output_folder_that_cannot_be_made_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    run = sim(tmp_path / "file" / "out", "eatpaint", "--games", "1")
    assert run.result.exit_code == 2
    assert "cannot create the folder" in run.result.output and "Not a directory" in run.result.output
    assert "games" not in run.result.stdout  # refused before any game was played


def test_an_unreachable_ray_cluster_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[dev]' installs it")
    run = sim(tmp_path / "out", "eatpaint", "--games", "1", "--backend", "ray", "--address", "127.0.0.1:9")
    assert run.result.exit_code == 2, run.result.output
    assert "--address 127.0.0.1:9: no Ray cluster answers there" in run.result.output


def test_ray_missing_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if it were not installed
    run = sim(tmp_path / "out", "eatpaint", "--games", "1", "--backend", "ray")
    assert run.result.exit_code == 2
    assert "pip install 'cardsmith[ray]'" in run.result.output


# ---- the report ----

def test_the_report_is_one_page_that_fetches_nothing(eatpaint: Run, sakura_tables: Run) -> None:
    for run in (eatpaint, sakura_tables):
        html = (run.folder / "report.html").read_text("utf-8")
        assert not re.search(r"""\ssrc\s*=\s*["'](?!data:)""", html)
        assert "<script" not in html and "http://" not in html.replace("http://www.w3.org", "")
        assert "default-src 'none'" in html and html.count("<svg") == 4
    html = (sakura_tables.folder / "report.html").read_text("utf-8")
    assert "&lt;script&gt;alert(" in html and "&lt;b&gt;萤&lt;/b&gt;" in html and "<b>萤" not in html


def test_the_report_in_a_browser(browser: Any, eatpaint: Run, sakura_tables: Run) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, run in (("eatpaint", eatpaint), ("sakura", sakura_tables)):
        page = Watched(browser, (run.folder / "report.html").resolve().as_uri())
        try:
            sizes = page.page.eval_on_selector_all(
                "figure svg", "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
            assert len(sizes) == 4 and all(w > 200 and h > 80 for w, h in sizes), sizes
            text = page.page.inner_text("body")
            assert "Outliers" in text and "Turn order" in text and "Cards" in text
            rows = page.page.eval_on_selector_all("#pairings tr", "els => els.length")
            assert rows == len(run.rows("pairings")) + 1
            if name == "sakura":
                assert HOSTILE in text  # the designer's label reads as they wrote it, as text
                assert page.page.eval_on_selector_all("script, body b, body i", "els => els.length") == 0
            page.page.screenshot(path=str(ARTIFACTS / f"sim-{name}.png"), full_page=True)
            assert page.errors == []
        finally:
            page.page.close()


# ---- Ray ----

@pytest.fixture(scope="session")
def ray_instance() -> Iterator[Any]:
    """A local Ray instance for the session (the command joins it instead of starting its own)."""
    try:
        import ray
    except ImportError:
        pytest.skip("Ray is not installed: pip install -e '.[dev]' (or `make test`) installs it")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_writes_the_same_bytes_as_local_processes(ray_instance: Any, eatpaint: Run, tmp_path: Path) -> None:
    run = ok(sim(tmp_path / "ray", "eatpaint", "--games", "2", "--backend", "ray"))
    assert run.csv_bytes() == eatpaint.csv_bytes()
    assert "2 worker(s), ray" in run.result.stdout
    assert ray_instance.is_initialized()  # the instance the test started is left running for it


def test_a_cjk_font_installed_after_matplotlib_listed_the_fonts_is_found() -> None:
    """matplotlib's cached list of fonts may predate fonts-noto-cjk (the Makefile installs it with
    the browser tests' packages): the report looks for it on the system, so that Chinese labels
    are measured with a font that has their glyphs."""
    import copy

    from matplotlib import font_manager

    from cardsmith.lab.report import families
    if not any(Path(p).name.startswith("NotoSansCJK") for p in font_manager.findSystemFonts()):
        pytest.skip("no Noto Sans CJK on this machine (the Makefile installs fonts-noto-cjk with apt)")
    stale = copy.copy(font_manager.fontManager)
    stale.ttflist = [f for f in stale.ttflist if not f.name.startswith("Noto Sans CJK")]
    assert "Noto Sans CJK SC" not in {f.name for f in stale.ttflist}
    assert "Noto Sans CJK SC" in families(stale)
