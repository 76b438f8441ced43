"""`cardsmith replay`: a saved game as one self-contained HTML page that steps through it, as
one seat or the public saw it.

The save is played again with its decisions (`runtime/saves.py`) while a `Timeline`
(`runtime/timeline.py`) keeps, for every event the viewer may read, the line as it reads it,
its view of the board right after and the decision taken there. The page is rendered from
`templates/replay.html.j2` (Jinja2, autoescaped); its data is one JSON document inside a
`<script type="application/json">` with `<`, `>` and `&` escaped, read by the page's own
script, which writes game text with `textContent` only. Nothing in the page is fetched.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import msgspec
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from .common import GAME_HELP, build_or_report, fail, writable_file, write
from .runtime.agents import Agent
from .runtime.phrases import Phrases, phrases
from .runtime.protocol import View, ZoneView
from .runtime.rules import RuleSet
from .runtime.saves import Divergence, ReplayAgents, SavedGame, SaveError, read_save
from .runtime.session import GameResult, new_game, play
from .runtime.timeline import Moment, Timeline
from .runtime.views import PUBLIC

Board = list[Any]  # see `_board`
_encode = msgspec.json.Encoder().encode


@click.command("replay", help="Write a saved game (`cardsmith play … --save SAVE`) as one HTML page "
               "that steps through it: the board after each event, the decisions and the log, as "
               "one seat or the public saw it. " + GAME_HELP + " SAVE is the last argument.")
@click.argument("game")
@click.argument("paths", nargs=-1)
@click.argument("save")
@click.option("--html", "html_file", required=True, type=click.Path(), metavar="OUT",
              help="The HTML page to write (self-contained: nothing is fetched).")
@click.option("--seat", type=int, default=None, metavar="K",
              help="Show what seat K may see (default: what every player may see).")
def replay_cmd(game: str, paths: tuple[str, ...], save: str, html_file: str, seat: int | None) -> None:
    writable_file(html_file)
    result = build_or_report(game, paths)
    rules = result.rules
    assert rules is not None
    try:
        saved = read_save(save, rules)
    except SaveError as err:
        fail(str(err))
    seats = len(saved.picks)
    if seat is not None and not 1 <= seat <= seats:
        fail(f"--seat must be between 1 and {seats} (the saved game has {seats} players)")
    viewer = PUBLIC if seat is None else seat - 1
    timeline, outcome = replayed(rules, saved, save, viewer)
    write(Path(html_file), page(rules, saved, timeline, outcome))
    whose = "every player" if viewer == PUBLIC else f"P{viewer + 1}"
    click.echo(f"wrote {html_file}: {len(timeline.moments)} events of {len(outcome.log)} as {whose} saw them")


def replayed(rules: RuleSet, saved: SavedGame, path: str, viewer: int) -> tuple[Timeline, GameResult]:
    """Play the saved game again with a timeline watching; exit unless it is the saved game."""
    replay = ReplayAgents(saved.answers)
    agents: list[Agent] = [replay.seat(i) for i in range(len(saved.picks))]
    game = new_game(rules, saved.picks, agents, seed=saved.seed)
    timeline = Timeline.watch(game, viewer)
    try:
        outcome = play(game)
    except Divergence as err:
        if err.short:
            fail(f"{path} is incomplete: {err}")
        fail(f"the replay left the saved game at {err} (did the rules or cards change?)", 1)
    problem = replay.mismatch(outcome, saved)
    if problem:
        fail(f"the replay does not match: {problem} (did the rules or cards change?)", 1)
    return timeline, outcome


def page(rules: RuleSet, saved: SavedGame, timeline: Timeline, outcome: GameResult) -> str:
    """The HTML page of a timeline."""
    words = phrases(rules.language)
    data = page_data(rules, saved, timeline, outcome, words)
    env = Environment(loader=PackageLoader("cardsmith", "templates"), autoescape=True,
                      undefined=StrictUndefined, keep_trailing_newline=True)
    return env.get_template("replay.html.j2").render(
        title=f"{rules.label} · seed {saved.seed}", language=rules.language, data=script_json(data))


def script_json(data: Any) -> Markup:
    """JSON to put inside a `<script>` element: nothing in it can close the element or open
    a comment (`<`, `>` and `&` are written as JSON escapes)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                       ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, escape)
    return Markup(text)  # escaped above for the inside of a script element


def page_data(rules: RuleSet, saved: SavedGame, timeline: Timeline, outcome: GameResult,
              words: Phrases) -> dict[str, Any]:
    """Everything the page shows: labels of the game, the boards and one entry per step.

    Boards are stored compactly: every distinct zone content and set of counter values once
    (`pieces`), and each board as the numbers of its pieces in the order of `layout`; a zone
    empty at every step is left out of the layout."""
    viewer = timeline.viewer
    views = [timeline.start, *(m.view for m in timeline.moments)]
    layout = _layout(views)
    pieces = Pieces()
    boards: list[Board] = []
    board_numbers: dict[bytes, int] = {}
    steps: list[dict[str, Any]] = []
    for i, view in enumerate(views):
        board = _board(view, layout, pieces)
        key = _encode(board)
        number = board_numbers.setdefault(key, len(boards))
        if number == len(boards):
            boards.append(board)
        steps.append(_step(timeline.moments[i - 1], number) if i else
                     {"n": 0, "kind": "start", "text": words.replay_start, "board": number})
    ended = next((m.text for m in reversed(timeline.moments) if m.kind == "end"), None)
    result = ended or (f"rule error: {outcome.error}" if outcome.error else outcome.reason)
    return {
        "game": rules.label,
        "seed": saved.seed,
        "viewer": "" if viewer == PUBLIC else f"P{viewer + 1}",
        "viewerText": words.replay_public if viewer == PUBLIC
        else words.replay_seat.format(player=f"P{viewer + 1}"),
        "hiddenCard": rules.hidden_card,
        "words": {"table": words.game, "you": words.you, "hidden": words.hidden, "step": words.replay_step,
                  "decision": words.replay_decision, "options": words.replay_options,
                  "optionsHidden": words.replay_options_hidden, "log": words.replay_log,
                  "keys": words.replay_keys, "over": words.over},
        "zones": {z.name: z.label for z in rules.zones},
        "counters": {c.name: {"label": c.label, "flag": c.flag} for c in rules.counters},
        "tokens": dict(rules.token_labels),
        "players": [{"name": name, "picks": p.picks} for name, p in timeline.start.players.items()],
        "result": result,
        "layout": layout,
        "pieces": pieces.items,
        "boards": boards,
        "steps": steps,
    }


class Pieces:
    """Distinct JSON values, numbered in the order they first appear."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.numbers: dict[bytes, int] = {}

    def number(self, value: Any) -> int:
        key = _encode(value)
        found = self.numbers.setdefault(key, len(self.items))
        if found == len(self.items):
            self.items.append(value)
        return found


def _layout(views: list[View]) -> dict[str, Any]:
    """Which zones the page shows (those that hold something at some step, shared ones, then
    each player's by zone name: a zone shows for every player if it does for one)."""
    first = views[0]
    shared = [name for name in first.shared if any(_size(v.shared[name]) for v in views)]
    own = [name for name in next(iter(first.players.values())).zones
           if any(_size(p.zones[name]) for v in views for p in v.players.values())] if first.players else []
    return {"shared": shared, "players": list(first.players), "zones": own}


def _board(view: View, layout: dict[str, Any], pieces: Pieces) -> Board:
    """A view without its log (the page has the whole log), as numbers of pieces: shared
    zones, shared counters, then per player its zones and its counters."""
    return [[pieces.number(_zone(view.shared[name])) for name in layout["shared"]],
            pieces.number(view.counters),
            [[[pieces.number(_zone(view.players[p].zones[name])) for name in layout["zones"]],
              pieces.number(view.players[p].counters)] for p in layout["players"]]]


def _size(zone: ZoneView) -> int:
    return sum(zone.tokens.values()) + len(zone.cards or [])


def _step(moment: Moment, board: int) -> dict[str, Any]:
    step: dict[str, Any] = {"n": moment.number, "kind": moment.kind, "text": moment.text, "board": board}
    d = moment.decision
    if d is not None:
        step["decision"] = {"seat": f"P{d.seat + 1}", "kind": d.kind, "prompt": d.prompt, "option": d.option,
                            "chosen": d.chosen, "forced": d.forced, "options": d.options}
    return step


def _zone(zone: ZoneView) -> dict[str, Any]:
    found: dict[str, Any] = {"tokens": zone.tokens}
    if zone.cards is not None:
        found["cards"] = zone.cards
    return found
