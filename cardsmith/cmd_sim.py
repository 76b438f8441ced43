"""`cardsmith sim`: the balance lab. Many seeded games of every legal pairing (or a sample of
them, or the tables given) on every core or on a Ray cluster; tables as CSV and Parquet,
the outliers, and one HTML report (`cardsmith/lab/`)."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .common import GAME_HELP, build_or_report, fail, out_folder, policy_option
from .common import say as to_people
from .runtime.display import printable

if TYPE_CHECKING:  # the lab itself is loaded only when the command runs (not for --help)
    from .lab.plan import Plan
    from .lab.run import Advance, Played, RunInfo
    from .lab.stats import Results
    from .runtime.rules import RuleSet

PRINTED = 25  # outliers printed at the end (all are in outliers.csv and the report)


@click.command("sim", help="The balance lab: play --games seeded games of every legal pairing of characters "
               "(or --sample K of them drawn with the seed, or each --table given) with computer players, on "
               "every core or a Ray cluster, and write per pairing, character, turn order, game length and "
               "card the results with 95% Wilson intervals as CSV and Parquet, the outliers, and report.html. "
               "The same seed gives the same tables whatever the workers or backend. Exits 1 when a game "
               "is stopped by a rule error. " + GAME_HELP)
@click.argument("game")
@click.argument("paths", nargs=-1)
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True, help="Games per pairing.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the run: each game's seed is drawn from it, the pairing and the game's number.")
@policy_option
@click.option("--sample", type=click.IntRange(min=1), metavar="K",
              help="Play K legal pairings drawn with the seed instead of every one.")
@click.option("--table", "tables", multiple=True, metavar="A,B/C,D",
              help="Play this table (seats split by /, characters by commas); repeat for more.")
@click.option("--workers", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
              help="Processes to play on (default: every core); with --backend ray, the CPUs of the local "
                   "Ray instance.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where games are played: processes of this machine, or Ray tasks "
                   "(pip install 'cardsmith[ray]').")
@click.option("--address", metavar="ADDR",
              help="The Ray cluster to join (HOST:PORT of its head, ray://HOST:PORT, or auto); without it "
                   "a local Ray instance is started for the run.")
@click.option("--out", type=click.Path(path_type=Path), metavar="DIR",
              help="The folder to write into  [default: out/sim-GAME].")
@click.option("--games-table/--no-games-table", "games_table", default=True, show_default=True,
              help="Write games.csv/.parquet, one row per game. Every other table is added up as games "
                   "finish, so without it a run's memory grows with its pairings, not its games (for runs "
                   "of millions of games).")
def sim(game: str, paths: tuple[str, ...], games: int, seed: int, policy: str, sample: int | None,
        tables: tuple[str, ...], workers: int, backend: str, address: str | None, out: Path | None,
        games_table: bool) -> None:
    from .lab import plan as plans
    from .lab.run import RunInfo
    from .lab.stats import TABLES, tabulate

    if sample is not None and tables:
        fail("give --sample or --table, not both")
    if address is not None and backend != "ray":
        fail("--address names a Ray cluster: give it with --backend ray")
    built = build_or_report(game, paths)
    rules = built.rules
    assert rules is not None
    try:
        if tables:
            plan = plans.given(rules, tables, games, seed)
        elif sample is not None:
            plan = plans.sampled(rules, sample, games, seed)
        else:
            plan = plans.every_pairing(rules, games, seed, many=backend == "ray")
    except plans.PlanError as err:
        fail(str(err))
    folder = out or Path("out") / f"sim-{rules.game}"
    _writable(folder)
    if rules.use_event is None:
        click.echo(printable(f"note: {rules.game} names no `card_uses` event: no card statistics"), err=True)
    timed = _play(built.sources, rules, plan, policy, workers, backend, address, games_table)
    results = tabulate(rules, plan, timed.played, policy)
    replay = " ".join([game, *paths])
    written = [n for n in TABLES if games_table or n != "games"]
    run = RunInfo(backend, timed.workers, replay, results.summary.games, timed.seconds,
                  [f"{n}.{kind}" for n in written for kind in ("csv", "parquet")])
    names = _write(folder, results, run, written)
    _summary(rules, results, run, folder, names)
    if results.summary.errors:
        sys.exit(1)


@dataclass(frozen=True)
class Timed:
    """The games played, how long playing them took (a Ray instance's start left out) and on
    how many workers (a Ray cluster's CPUs)."""

    played: Played
    seconds: float
    workers: int


def _play(sources: dict[str, str], rules: RuleSet, plan: Plan, policy: str, workers: int, backend: str,
          address: str | None, keep: bool) -> Timed:
    """Every game of the plan on the backend, with a progress bar (`keep`: keep each game's
    record); exit 2 when the backend cannot run."""
    from .lab.run import BackendError, GameSources, ray_cluster, run_local, run_ray

    game = GameSources.of(sources)
    label = f"{rules.game}: {len(plan.pairings):,} pairing(s) × {plan.games}"
    try:
        with ExitStack() as stack:
            ray = stack.enter_context(ray_cluster(address, workers)) if backend == "ray" else None
            with _progress(plan.total, label) as advance:
                started = time.perf_counter()
                if ray is not None:
                    played = run_ray(ray, game, plan, policy, keep, advance)
                    workers = int(ray.cluster_resources().get("CPU", workers))
                else:
                    played = run_local(game, rules, plan, policy, workers, keep, advance)
                return Timed(played, time.perf_counter() - started, workers)
    except BackendError as err:
        fail(str(err))


def _writable(folder: Path) -> None:
    """Exit 2 unless files can be written in `folder` (made if need be), before any game."""
    out_folder(folder)
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        fail(f"cannot write in the folder {folder}: {err.strerror or err}")


@contextmanager
def _progress(total: int, label: str) -> Iterator[Advance]:
    """A progress bar with the games played, the time so far and the time left, on stderr."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task(printable(label), total=total)
        yield lambda n: progress.advance(task, n)


def _write(folder: Path, results: Results, run: RunInfo, tables: list[str]) -> list[str]:
    """The tables named and the report; exit 2 when a file cannot be written."""
    from .lab.export import write_table
    from .lab.report import write_report
    from .lab.stats import TABLES

    written = []
    try:
        for name in tables:
            row_type = TABLES[name]
            rows = getattr(results, name)
            written += [p.name for p in write_table(folder, name, row_type, rows, results.summary.seats)]
        write_report(folder / "report.html", results, run)
    except OSError as err:
        fail(f"cannot write in {folder}: {err.strerror or err}")
    return ["report.html", *written]


def _summary(rules: RuleSet, results: Results, run: RunInfo, folder: Path, names: list[str]) -> None:
    from .lab.stats import percent

    s = results.summary
    say = to_people(False)
    say(f"{s.label}: {s.games:,} games of {s.pairings:,} pairing(s) in {run.seconds:.1f}s "
        f"({run.games_per_second:.1f} games/s, {run.workers} worker(s), {run.backend})")
    won = ", ".join(f"P{i + 1} won {w} ({percent(w / s.games)})" for i, w in enumerate(s.wins))
    say(f"  {won}, {s.draws} drawn, {s.errors} stopped by a rule error")
    first = results.turn_order[0]
    say(f"  the first player won {percent(first.win_rate)} [{percent(first.ci_low)}–{percent(first.ci_high)}] "
        f"(who moved first: {s.first_known_from})")
    say(f"  {len(results.cards)} cards used; a player who used a card won {percent(s.card_rate)} of the time")
    say(f"  outliers: {len(results.outliers) or 'none'}")
    for o in results.outliers[:PRINTED]:
        which = f"#{o.subject} {o.name}" if o.kind == "pairing" else f"{o.name} ({o.subject})"
        say(f"    {o.kind} {which}: {percent(o.win_rate)} [{percent(o.ci_low)}–{percent(o.ci_high)}] "
            f"of {o.games}, {o.side} {o.reference}")
    if len(results.outliers) > PRINTED:
        say(f"    … and {len(results.outliers) - PRINTED} more (outliers.csv, report.html)")
    failed = results.failed
    for g in failed[:5]:
        picks = "".join(f" --pick {','.join(seat.split('+'))}" for seat in g.characters)
        policy = f" --policy {s.policy}" if s.policy != "random" else ""
        players = f" --players {s.seats}" if s.seats != rules.table.min_players else ""
        say(f"  rule error in seed {g.seed}: {g.error}")
        say(f"    cardsmith play {run.replay} --seed {g.seed}{players}{policy}{picks}")
    if len(failed) > 5:
        where = "games.csv" if results.games else "report.html"
        say(f"  … and {len(failed) - 5} more games with rule errors ({where})")
    say(f"  wrote {folder}{os.sep}: {', '.join(names)}")
