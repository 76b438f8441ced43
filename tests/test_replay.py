"""`cardsmith replay`: a saved game as one self-contained HTML page, opened in headless Chromium
(keys, buttons, slider, the step in the URL), and without a browser: its errors, hidden
information left out of the page, and the same page for the same save."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardsmith.cli import main
from cardsmith.compiler.load import build_target
from cardsmith.runtime.agents import Agent
from cardsmith.runtime.log import lines_for
from cardsmith.runtime.rules import RuleSet
from cardsmith.runtime.saves import ReplayAgents, read_save
from cardsmith.runtime.session import new_game, play
from tests.browser import Watched
from tests.test_runtime import GAME_WORDS

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "out" / "test-artifacts"
TEMPLATE = ROOT / "cardsmith" / "templates" / "replay.html.j2"
DATA = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)

GAMES = {  # a seeded game of each, with its table
    "sakura": ["--seed", "5", "--p1", "yurina,saine", "--p2", "himika,tokoyo"],
    "eatpaint": ["--seed", "4"],
}


@dataclass(frozen=True)
class Replay:
    game: str
    save: Path
    html: Path  # the public page

    @property
    def data(self) -> dict[str, Any]:
        return page_data(self.html.read_text("utf-8"))


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def page_data(html: str) -> dict[str, Any]:
    found = DATA.search(html)
    assert found, "the page holds its data in a script element"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def write_page(game: str, save: Path, out: Path, *extra: str) -> Path:
    result = run("replay", game, str(save), "--html", str(out), *extra)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Replay]:
    folder = tmp_path_factory.mktemp("replay")
    found = {}
    for game, table in GAMES.items():
        save = folder / f"{game}.json"
        result = run("play", game, *table, "--no-log", "--save", str(save))
        assert result.exit_code == 0, result.output
        found[game] = Replay(game, save, write_page(game, save, folder / f"{game}.html"))
    return found


# ---- without a browser ----

def test_the_command_writes_one_self_contained_page(replays: dict[str, Replay]) -> None:
    for replay in replays.values():
        html = replay.html.read_text("utf-8")
        data = replay.data
        assert data["steps"][0]["kind"] == "start" and data["steps"][-1]["kind"] == "end"
        assert len(data["steps"]) > 100 and data["viewer"] == ""
        # nothing is fetched: no external script, style, image or link, and a policy that forbids it
        assert not re.search(r"""(src|href)\s*=\s*["'](?!data:)""", html), "no external resources"
        assert "http://" not in html and "https://" not in html
        assert "default-src 'none'" in html
        assert "</" not in DATA.search(html).group(1)  # type: ignore[union-attr]


def test_the_same_save_gives_the_same_page_byte_for_byte(replays: dict[str, Replay], tmp_path: Path) -> None:
    replay = replays["sakura"]
    again = write_page("sakura", replay.save, tmp_path / "again.html")
    assert again.read_bytes() == replay.html.read_bytes()
    seat = write_page("sakura", replay.save, tmp_path / "p1.html", "--seat", "1")
    assert seat.read_bytes() == write_page("sakura", replay.save, tmp_path / "p1b.html", "--seat", "1").read_bytes()


def _rules(game: str) -> RuleSet:
    """The game as the command builds it (from the compiled-library cache it filled)."""
    rules = build_target(game, []).rules
    assert rules is not None
    return rules


def _never_seen(game: str, save: Path, owner: int, viewer: int) -> set[str]:
    """Names of cards of seat `owner` that seat `viewer` (-1: the public) never may see: at the
    end of the game in a place it cannot see, never named in a line it reads, and no name of
    a card it can see (another copy of a card of the same name)."""
    rules = _rules(game)
    saved = read_save(str(save), rules)
    replay = ReplayAgents(saved.answers)
    agents: list[Agent] = [replay.seat(i) for i in range(len(saved.picks))]
    outcome = play(new_game(rules, saved.picks, agents, seed=saved.seed))
    g = outcome.game
    cards = [c for copies in g.objects_by_card.values() for c in copies]
    seen = {c.name for c in cards if g.can_see(c, viewer)}
    read = "\n".join(lines_for(outcome.log, viewer))
    return {c.name for c in cards if c.owner is not None and c.owner.index == owner
            and not g.can_see(c, viewer) and c.name not in seen and c.name not in read}


@pytest.mark.parametrize(("seat", "owner"), [(None, 1), (None, 0), (1, 1), (2, 0)])
def test_hidden_cards_of_another_seat_are_nowhere_in_the_page(replays: dict[str, Replay], tmp_path: Path,
                                                              seat: int | None, owner: int) -> None:
    replay = replays["sakura"]
    viewer = -1 if seat is None else seat - 1
    hidden = _never_seen("sakura", replay.save, owner, viewer)
    assert len(hidden) >= 3, "the test needs cards that viewer never may see"
    page = replay.html if seat is None else write_page("sakura", replay.save, tmp_path / "seat.html",
                                                       "--seat", str(seat))
    html = page.read_text("utf-8")
    assert not sorted(name for name in hidden if name in html)
    # and the owner's own page does show them: the check above looks for what is really there
    own = write_page("sakura", replay.save, tmp_path / "owner.html", "--seat", str(owner + 1)).read_text("utf-8")
    assert any(name in own for name in hidden)


def test_a_seat_reads_the_options_of_its_own_decisions_only(replays: dict[str, Replay], tmp_path: Path) -> None:
    replay = replays["sakura"]
    data = page_data(write_page("sakura", replay.save, tmp_path / "p1.html", "--seat", "1").read_text("utf-8"))
    decisions = [s["decision"] for s in data["steps"] if "decision" in s]
    assert decisions and all(s["kind"] == "choice" for s in data["steps"] if "decision" in s)
    mine = [d for d in decisions if d["seat"] == "P1" and not d["forced"]]
    assert mine and all(d["options"] and 0 <= d["option"] < len(d["options"]) for d in mine)
    theirs = [d for d in decisions if d["seat"] == "P2" and not d["forced"]]
    assert any(d["options"] is None for d in theirs), "the options of a pick among P2's own hidden cards"
    public = [s["decision"] for s in replay.data["steps"] if "decision" in s and not s["decision"]["forced"]]
    assert any(d["options"] for d in public) and any(d["options"] is None for d in public)


def test_the_page_speaks_the_games_labels(replays: dict[str, Replay]) -> None:
    rules = _rules("eatpaint")
    data = replays["eatpaint"].data
    assert data["zones"] == {z.name: z.label for z in rules.zones}
    assert data["game"] == rules.label and data["words"]["over"] == "遊戲結束"
    assert set(data["layout"]["zones"]) <= set(data["zones"])


@pytest.mark.parametrize(("make_args", "message", "code"), [
    (lambda d: ["sakura", str(d / "missing.json")], "cannot read", 2),
    (lambda d: ["sakura", str(d / "junk.json")], "is not a saved game", 2),
    (lambda d: ["sakura", str(d / "eatpaint.json")], "is a game of 'eatpaint', not 'sakura'", 2),
    (lambda d: ["sakura", str(d / "sakura.json"), "--seat", "3"], "--seat must be between 1 and 2", 2),
    (lambda d: ["sakura", str(d / "sakura.json"), "--seat", "0"], "--seat must be between 1 and 2", 2),
    (lambda d: ["sakura", str(d / "short.json")], "is incomplete", 2),
    (lambda d: ["sakura", str(d / "edited.json")], "does not match", 1),
    (lambda d: ["chess", str(d / "sakura.json")], "no bundled game", 2),
])
def test_bad_input_gets_a_clear_error(replays: dict[str, Replay], tmp_path: Path, make_args: Any,
                                      message: str, code: int) -> None:
    for replay in replays.values():
        (tmp_path / replay.save.name).write_bytes(replay.save.read_bytes())
    (tmp_path / "junk.json").write_text("{not json", "utf-8")
    saved = json.loads(replays["sakura"].save.read_text("utf-8"))
    (tmp_path / "short.json").write_text(json.dumps(dict(saved, answers=saved["answers"][:5])), "utf-8")
    (tmp_path / "edited.json").write_text(json.dumps(dict(saved, final_state="0" * 24)), "utf-8")
    out = tmp_path / "page.html"
    result = run("replay", *make_args(tmp_path), "--html", str(out))
    assert result.exit_code == code, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize("where", ["no-folder/page.html", "."])
def test_an_unwritable_page_is_refused_before_the_replay(replays: dict[str, Replay], tmp_path: Path,
                                                        where: str) -> None:
    result = run("replay", "sakura", str(replays["sakura"].save), "--html", str(tmp_path / where))
    assert result.exit_code == 2 and "error:" in result.output and "Traceback" not in result.output


def test_help_and_a_missing_html_option() -> None:
    assert "SAVE" in run("replay", "--help").output
    result = run("replay", "sakura", "x.json")
    assert result.exit_code == 2 and "--html" in result.output


def test_the_template_knows_no_game() -> None:
    text = TEMPLATE.read_text("utf-8")
    for word in GAME_WORDS:
        assert not re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text, re.IGNORECASE), word


# ---- in headless Chromium ----

class Opened(Watched):
    """A replay page opened at a step (`#step=N`), once its board is drawn."""

    def __init__(self, context: Any, path: Path, hash: str = "") -> None:
        super().__init__(context, path.resolve().as_uri() + hash)
        self.page.wait_for_selector("#board section")

    @property
    def step(self) -> int:
        return int(self.page.inner_text("#step-now"))

    @property
    def slider(self) -> int:
        return int(self.page.input_value("#slider"))

    def text(self, selector: str) -> str:
        return str(self.page.inner_text(selector))

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_page_steps_through_the_game(replays: dict[str, Replay], browser: Any, game: str) -> None:
    replay = replays[game]
    data = replay.data
    steps, last = data["steps"], len(data["steps"]) - 1
    opened = Opened(browser, replay.html)
    try:
        # the first step: the starting board, every player's panel
        assert opened.step == 0 == opened.slider and opened.text("#step-total") == str(last)
        assert opened.text("#event-text") == steps[0]["text"]
        panels = opened.page.locator("#board section[data-player]")
        assert [p for p in panels.evaluate_all("els => els.map(e => e.dataset.player)") if p] == \
            [p["name"] for p in data["players"]]
        assert opened.page.is_hidden("#result")
        # → advances, ← goes back: at a step where the board changes
        k = next(i for i in range(1, last) if steps[i]["board"] != steps[i - 1]["board"])
        opened.press("End")
        opened.press("Home")
        opened.press("ArrowRight", k - 1)
        assert opened.step == k - 1 == opened.slider
        before, event_before = opened.text("#board"), opened.text("#event-text")
        opened.press("ArrowRight")
        assert opened.step == k == opened.slider
        assert opened.text("#board") != before and opened.text("#event-text") == steps[k]["text"] != event_before
        assert opened.page.locator("#board tr.changed").count() >= 1
        opened.press("ArrowLeft")
        assert opened.step == k - 1 == opened.slider and opened.text("#board") == before
        assert opened.page.url.endswith(f"#step={k - 1}")
        # ten at a time, buttons too
        opened.press("PageDown")
        assert opened.step == min(k + 9, last) == opened.slider
        opened.press("PageUp")
        assert opened.step == k - 1
        opened.page.click("#forward")
        assert opened.step == k
        opened.page.click("#back")
        assert opened.step == k - 1
        # End: the final event, with the result
        opened.press("End")
        assert opened.step == last == opened.slider and steps[last]["kind"] == "end"
        assert opened.text("#event-text") == steps[last]["text"]
        assert opened.page.is_visible("#result") and data["result"] in opened.text("#result")
        assert opened.text("#log li.current") == steps[last]["text"]
        opened.press("ArrowRight")
        assert opened.step == last
        opened.press("Home")
        assert opened.step == 0 == opened.slider and opened.page.is_hidden("#result")
        # the slider moves the page too
        opened.page.fill("#slider", str(k))
        assert opened.step == k and opened.text("#event-text") == steps[k]["text"]
        assert not opened.errors, opened.errors
    finally:
        opened.page.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_step_in_the_url_opens_there(replays: dict[str, Replay], browser: Any, game: str) -> None:
    replay = replays[game]
    steps = replay.data["steps"]
    middle = len(steps) // 2
    opened = Opened(browser, replay.html, f"#step={middle}")
    try:
        assert opened.step == middle == opened.slider
        assert opened.text("#event-text") == steps[middle]["text"]
        shown = opened.text("#log li.current")
        assert shown == steps[middle]["text"]
        # the decision panel shows the latest decision so far
        assert opened.text("#decision")
        opened.page.evaluate("location.hash = '#step=3'")
        opened.page.wait_for_function("document.getElementById('step-now').textContent === '3'")
        opened.page.evaluate("location.hash = '#step=999999'")
        opened.page.wait_for_function(f"document.getElementById('step-now').textContent === '{len(steps) - 1}'")
        name = "replay.png" if game == "sakura" else f"replay-{game}.png"
        opened.page.evaluate(f"location.hash = '#step={middle}'")
        opened.page.wait_for_function(f"document.getElementById('step-now').textContent === '{middle}'")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        opened.page.screenshot(path=str(ARTIFACTS / name), full_page=True)
        assert (ARTIFACTS / name).stat().st_size > 10_000
        assert not opened.errors, opened.errors
    finally:
        opened.page.close()


def test_a_seats_page_in_the_browser(replays: dict[str, Replay], browser: Any, tmp_path: Path) -> None:
    replay = replays["sakura"]
    page = write_page("sakura", replay.save, tmp_path / "p2.html", "--seat", "2")
    data = page_data(page.read_text("utf-8"))
    mine = next(i for i, s in enumerate(data["steps"])
                if "decision" in s and s["decision"]["seat"] == "P2" and s["decision"]["options"]
                and len(s["decision"]["options"]) > 1)
    opened = Opened(browser, page, f"#step={mine}")
    try:
        assert opened.page.locator("#board section.you").get_attribute("data-player") == "P2"
        options = opened.page.locator("#decision li")
        assert options.count() == len(data["steps"][mine]["decision"]["options"])
        assert opened.text("#decision li.chosen") == data["steps"][mine]["decision"]["options"][
            data["steps"][mine]["decision"]["option"]]
        assert not opened.errors, opened.errors
    finally:
        opened.page.close()
