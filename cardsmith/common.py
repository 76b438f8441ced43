"""What the commands share: failing clearly, building a game with the designer's files,
writing outputs, the table of characters, and computer players."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from .compiler.diagnostics import render_all, to_json
from .compiler.load import BuildResult, build_target, bundled_games
from .runtime.display import printable

if TYPE_CHECKING:  # the engine itself is loaded by the commands that play (not by `check`)
    from .runtime.agents import Agent
    from .runtime.rules import RuleSet
    from .runtime.session import GameResult

GAME_HELP = ("GAME is a bundled game (`cardsmith check` lists them), a folder holding a game of "
             "your own, or a file that starts with `use GAME`; PATHS are more files or folders "
             "that add to it (each starting `use GAME`).")
POLICY_HELP = ("How computer players choose: `random` (uniformly) or `active` (they act before they "
               "pass and aim where the rules prefer, so games reach real endings sooner).")
policy_option = click.option("--policy", type=click.Choice(["random", "active"]), default="random",
                             show_default=True, help=POLICY_HELP)


def fail(message: str, code: int = 2) -> NoReturn:
    click.echo(printable(f"error: {message}"), err=True)
    sys.exit(code)


def build_or_report(game: str, paths: tuple[str, ...] = (), fmt: str = "text", need_model: bool = False,
                    to_stderr: bool = False) -> BuildResult:
    """The game and the designer's files, built; exit 1 with the diagnostics on errors."""
    if game not in bundled_games() and not Path(game).exists():
        fail(f"no bundled game, folder or file {game!r}; bundled games: {', '.join(bundled_games())}")
    result = build_target(game, list(paths), need_model=need_model)
    if not result.ok:
        text = to_json(result.diagnostics) if fmt == "json" else render_all(result.diagnostics, result.sources)
        click.echo(text, err=to_stderr)
        sys.exit(1)
    return result


def out_folder(folder: Path) -> None:
    """Create an output folder, or exit 2 saying why it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        fail(f"cannot create the folder {folder}: {err.strerror or err}")


def write(path: Path, text: str) -> None:
    """Write an output file, or exit 2 saying why it cannot be written."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")


def writable_file(path: str) -> None:
    """Exit 2 unless a file can be written at `path` (checked before a game is played)."""
    target = Path(path)
    if target.is_dir():
        fail(f"{path}: is a folder")
    folder = target.parent
    if not folder.is_dir():
        fail(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        fail(f"{path}: not writable")


def say(to_stderr: bool) -> Callable[[str], None]:
    """Print lines for people: to stderr when stdout belongs to a protocol."""
    return lambda line: click.echo(printable(line), err=to_stderr)


def say_all(lines: Iterable[str], to_stderr: bool = False) -> None:
    """Print many lines for people in one write (a game's log has thousands)."""
    text = "\n".join(printable(line) for line in lines)
    if text:
        click.echo(text, err=to_stderr)


def parse_picks(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",")]
    if not all(names):
        fail(f"{text!r}: give character names separated by commas, none empty")
    return names


def table(rules: RuleSet, seed: int, players: int | None, given: list[list[str] | None]) -> list[list[str]]:
    """The characters of every seat: those given, the rest drawn with the seed (as `soak`
    draws them, so `play --seed N` replays what `soak` played for seed N). Exit 2 on an
    illegal table."""
    from .runtime.table import draw_picks, table_problems
    while given and given[-1] is None:
        given.pop()
    count = players or max(len(given), rules.table.min_players)
    drawn = draw_picks(rules, count, seed)
    picks = [chosen if chosen is not None else drawn[i]
             for i, chosen in enumerate(given + [None] * (count - len(given)))]
    problems = table_problems(rules, picks)
    if problems:
        fail("illegal table: " + "; ".join(problems))
    return picks


def computer_agents(policy: str, seed: int, seats: int) -> list[Agent]:
    from .runtime.agents import ActiveAgent, RandomAgent
    from .runtime.session import agent_seed
    kind = ActiveAgent if policy == "active" else RandomAgent
    return [kind(agent_seed(seed, i)) for i in range(seats)]


def summary(outcome: GameResult, picks: list[list[str]], seed: int, out: Callable[[str], None]) -> None:
    sides = " vs ".join("+".join(p) or "-" for p in picks)
    out(printable(f"seed {seed}: {sides}: {outcome.reason} after {outcome.steps} steps and "
                  f"{outcome.decisions} decisions; final state {outcome.final_hash}"))
    if outcome.error:
        click.echo(printable(f"rule error: {outcome.error}"), err=True)
