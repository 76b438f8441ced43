"""`cardsmith soak`: many seeded games, every rule error with its card line and a command
that replays it, results per character."""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import click

from .cmd_play import given_picks, pick_options
from .common import GAME_HELP, build_or_report, computer_agents, fail, table
from .runtime.display import printable
from .runtime.rules import RuleSet
from .runtime.session import GameResult, new_game, play
from .runtime.table import count_tables, legal_tables


@dataclass
class Record:
    """What a soak saw: outcomes, endings, rule errors and each character's results."""

    outcomes: dict[str, int] = field(default_factory=lambda: {"win": 0, "draw": 0, "unfinished": 0})
    causes: dict[str, int] = field(default_factory=dict)
    errors: dict[str, list[tuple[int, list[list[str]]]]] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)

    def add(self, seed: int, picks: list[list[str]], outcome: GameResult) -> None:
        if outcome.cause:
            self.causes[outcome.cause] = self.causes.get(outcome.cause, 0) + 1
        if outcome.error:
            self.errors.setdefault(outcome.error, []).append((seed, picks))
        kind = "unfinished" if outcome.reason == "unfinished" else "draw" if outcome.winner is None else "win"
        self.outcomes[kind] += 1
        for seat, chosen in enumerate(picks):
            for c in chosen:
                self.played[c] = self.played.get(c, 0) + 1
                self.won[c] = self.won.get(c, 0) + (seat == outcome.winner)


@click.command(help="Play many seeded games of GAME and report every rule error with its card "
                    "line, each failing seed's characters and the command that replays it, and "
                    "results per character. Seats nobody picked for get characters drawn with each "
                    "game's seed (or, with --all-pairings, every legal table in turn). Games are "
                    "counted by how they ended (the reason the rules give, such as a turn limit). "
                    "Exits 1 when any game fails. " + GAME_HELP)
@click.argument("game")
@click.argument("paths", nargs=-1)
@click.option("--games", type=click.IntRange(min=1), help="How many games to play  [default: 200, or "
              "every legal table with --all-pairings].")
@pick_options
@click.option("--all-pairings", is_flag=True, help="Cycle through every legal table of characters.")
def soak(game: str, paths: tuple[str, ...], games: int | None, seed: int, p1: str | None, p2: str | None,
         picks_opt: tuple[str, ...], player_count: int | None, policy: str, all_pairings: bool) -> None:
    rules = build_or_report(game, paths).rules
    assert rules is not None
    given = given_picks(p1, p2, picks_opt)
    count = len(table(rules, seed, player_count, list(given)))
    if all_pairings:
        if any(g is not None for g in given):
            fail("--all-pairings plays every table: leave out --p1, --p2 and --pick")
        games = games or count_tables(rules, count)
        tables: Iterator[list[list[str]]] = itertools.cycle(legal_tables(rules, count))
    else:
        games = games or 200
        tables = (table(rules, s, count, list(given)) for s in itertools.count(seed))
    record = Record()
    started = time.perf_counter()
    with click.progressbar(length=games, label=f"{rules.game}: {games} games", file=sys.stderr) as bar:
        for s, picks in zip(range(seed, seed + games), tables, strict=False):
            outcome = play(new_game(rules, picks, computer_agents(policy, s, count), seed=s, log=False))
            record.add(s, picks, outcome)
            bar.update(1)
    replay = " ".join([game, *paths])
    _report(rules, record, games, time.perf_counter() - started, count, policy, replay)
    if record.errors:
        sys.exit(1)


def _report(rules: RuleSet, record: Record, games: int, elapsed: float, count: int, policy: str,
            replay: str) -> None:
    """The summary, endings, results per character, and each rule error with the seeds that
    show it; `replay` is what `cardsmith play` needs to load the same game."""
    out = record.outcomes
    click.echo(f"{games} games in {elapsed:.1f}s ({games / max(elapsed, 1e-9):.0f}/s): {out['win']} won, "
               f"{out['draw']} drawn, {out['unfinished']} unfinished, "
               f"{sum(len(v) for v in record.errors.values())} with rule errors")
    for cause, n in sorted(record.causes.items(), key=lambda kv: -kv[1]):
        click.echo(printable(f"  ended by {cause}: {n} ({100 * n / games:.1f}%)"))
    click.echo("  per character (games, wins, win rate):")
    for c in sorted(record.played, key=lambda c: (-record.played[c], c)):
        played, won = record.played[c], record.won.get(c, 0)
        click.echo(printable(f"    {c:<16} {played:>6} {won:>6} {100 * won / played:5.1f}%"))
    options = (f" --players {count}" if count != rules.table.min_players else "") + \
        (f" --policy {policy}" if policy != "random" else "")
    for message, failed in record.errors.items():
        click.echo(printable(f"  {message}"))
        for s, picks in failed[:5]:
            sides = " vs ".join("+".join(p) for p in picks)
            chosen = "".join(f" --pick {','.join(p)}" for p in picks)
            click.echo(printable(f"    seed {s} ({sides}): cardsmith play {replay} --seed {s}{options}{chosen}"))
        if len(failed) > 5:
            click.echo(f"    … and {len(failed) - 5} more seeds")
