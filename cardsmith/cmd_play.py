"""`cardsmith play`: one seeded game, with computer players, a person or a bot; saving and
replaying games exactly."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .common import (
    GAME_HELP,
    build_or_report,
    computer_agents,
    fail,
    parse_picks,
    policy_option,
    say,
    say_all,
    summary,
    table,
    writable_file,
    write,
)
from .runtime.agents import Agent, AgentGaveUp, JsonLinesAgent
from .runtime.events import encode as encode_event
from .runtime.log import events_for, lines_for
from .runtime.rules import RuleSet
from .runtime.saves import Divergence, ReplayAgents, SavedGame, SaveError, read_save, save_game
from .runtime.session import new_game, play


def pick_options(command: Any) -> Any:
    """The options that choose who sits at the table (play and soak share them)."""
    for option in reversed([
        click.option("--seed", type=int, default=1, show_default=True, help="Seed of the game's random generator."),
        click.option("--p1", help="Comma-separated characters for player 1 (e.g. alice,bob)."),
        click.option("--p2", help="Comma-separated characters for player 2."),
        click.option("--pick", "picks_opt", multiple=True,
                     help="Characters of the next seat (repeat once per seat; overrides --p1/--p2)."),
        click.option("--players", "player_count", type=click.IntRange(min=1),
                     help="Number of players; seats nobody picked for get characters drawn with the seed."),
        policy_option,
    ]):
        command = option(command)
    return command


def given_picks(p1: str | None, p2: str | None, picks_opt: tuple[str, ...]) -> list[list[str] | None]:
    if picks_opt:
        return [parse_picks(t) for t in picks_opt]
    return [parse_picks(t) if t is not None else None for t in (p1, p2)]


@click.command("play", help="Play one game of GAME with the given seed and characters. " + GAME_HELP)
@click.argument("game")
@click.argument("paths", nargs=-1)
@pick_options
@click.option("--agent", type=click.Choice(["random", "terminal", "jsonl"]), default="random",
              show_default=True, help="Who plays seat --seat; the others are computer players. `jsonl`: a "
              "program over stdin/stdout (docs/jsonl-protocol.md); stdout then carries only JSON.")
@click.option("--seat", type=click.IntRange(min=1), default=1, show_default=True,
              help="The seat the --agent takes.")
@click.option("--log/--no-log", "show_log", default=True, help="Print the game log.")
@click.option("--log-as", "log_as", default=None, metavar="all|public|SEAT",
              help="Whose log to print: everything, what every player saw, or one seat's "
                   "(default: the --agent seat when it is a person or a program, else all).")
@click.option("--save", "save_file", type=click.Path(),
              help="Save seed, characters and every decision to a JSON file.")
@click.option("--events", "events_file", type=click.Path(),
              help="Write what happened as JSON lines (see `cardsmith schema events`), as the "
                   "--log-as reader saw it.")
@click.option("--replay", "replay_file", type=click.Path(),
              help="Replay a saved game exactly (ignores the other options).")
def play_cmd(game: str, paths: tuple[str, ...], seed: int, p1: str | None, p2: str | None,
             picks_opt: tuple[str, ...], player_count: int | None, policy: str, agent: str, seat: int,
             show_log: bool, log_as: str | None, save_file: str | None, events_file: str | None,
             replay_file: str | None) -> None:
    result = build_or_report(game, paths, to_stderr=agent == "jsonl")
    rules = result.rules
    assert rules is not None
    if replay_file:
        _replay(rules, replay_file, show_log)
        return
    for target in (save_file, events_file):
        if target:
            writable_file(target)
    picks = table(rules, seed, player_count, given_picks(p1, p2, picks_opt))
    if seat > len(picks):
        fail(f"--seat must be between 1 and {len(picks)}")
    viewer = _log_viewer(log_as, seat - 1 if agent != "random" else None, len(picks))
    agents = computer_agents(policy, seed, len(picks))
    chosen = agents[seat - 1] = _agent(agent, agents[seat - 1])
    out = say(to_stderr=agent == "jsonl")
    if isinstance(chosen, JsonLinesAgent):
        chosen.start(rules.game, seat - 1, len(picks), rules.hidden_card)
    try:
        outcome = play(new_game(rules, picks, agents, seed=seed))
    except (EOFError, KeyboardInterrupt):
        fail("game abandoned: input closed", 130)
    except AgentGaveUp as err:
        fail(f"game abandoned: {err}")
    if agent == "terminal":
        chosen.finish(outcome, rules)  # type: ignore[attr-defined]
    if isinstance(chosen, JsonLinesAgent):
        chosen.finish(outcome.winner, outcome.reason, outcome.steps, outcome.decisions, outcome.error,
                      outcome.cause)
    if show_log and agent != "terminal":
        say_all(lines_for(outcome.log, viewer), to_stderr=agent == "jsonl")
    summary(outcome, picks, seed, out)
    if save_file:
        save_game(save_file, SavedGame(rules.game, seed, picks, outcome.answers, outcome.final_hash))
        out(f"saved {len(outcome.answers)} decisions to {save_file}")
    if events_file:
        records = events_for(outcome.log, viewer)
        write(Path(events_file), "".join(encode_event(e) + "\n" for e in records))
        out(f"wrote {len(records)} events to {events_file}")
    if outcome.error:
        sys.exit(1)


def _agent(kind: str, computer: Agent) -> Agent:
    if kind == "terminal":
        from .terminal import TerminalAgent  # rich is loaded only for a person at the terminal
        return TerminalAgent()
    if kind == "jsonl":
        return JsonLinesAgent()
    return computer


def _log_viewer(log_as: str | None, default: int | None, seats: int) -> int | None:
    """The seat whose log is printed (None: everything); `public` is a seat of nobody."""
    if log_as is None:
        return default
    if log_as == "all":
        return None
    if log_as == "public":
        return -1
    text = log_as.upper().removeprefix("P")
    if not (text.isascii() and text.isdecimal() and 1 <= int(text) <= seats):
        fail(f"--log-as takes all, public or a seat from 1 to {seats}")
    return int(text) - 1


def _replay(rules: RuleSet, path: str, show_log: bool) -> None:
    try:
        saved = read_save(path, rules)
    except SaveError as err:
        fail(str(err))
    replay = ReplayAgents(saved.answers)
    agents: list[Agent] = [replay.seat(i) for i in range(len(saved.picks))]
    try:
        outcome = play(new_game(rules, saved.picks, agents, seed=saved.seed))
    except Divergence as err:
        if err.short:
            fail(f"{path} is incomplete: {err}")
        fail(f"the replay left the saved game at {err} (did the rules or cards change?)", 1)
    if show_log:
        say_all(lines_for(outcome.log, None))
    summary(outcome, saved.picks, saved.seed, click.echo)
    problem = outcome.error or replay.mismatch(outcome, saved)
    if problem:
        fail(f"the replay does not match: {problem} (did the rules or cards change?)", 1)
    click.echo(f"replay matches the saved game ({len(saved.answers)} decisions)")
