"""Playing a plan: chunks of games on worker processes of this machine or as Ray tasks, the
records put back in the plan's order whichever chunk finished first.

A worker builds the game once from its sources (`rules_for`; a forked worker finds the
parent's build already there) and plays each game of a chunk with the same computer agents
as `cardsmith soak`, a `Watch` looking on.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..common import computer_agents
from ..compiler.load import build_sources
from ..runtime.rules import RuleSet
from ..runtime.session import new_game, play
from .plan import Job, Plan
from .watch import FirstMover, Watch

Advance = Callable[[int], None]  # told how many more games were played
_PROBE_SECONDS = 5.0


class BackendError(Exception):
    """A backend that cannot run; the message says why and what to do."""


@dataclass(frozen=True)
class GameSources:
    """What a worker needs to build the game: its sources (path → text) and their hash."""

    key: str
    sources: dict[str, str]

    @classmethod
    def of(cls, sources: dict[str, str]) -> GameSources:
        h = hashlib.sha256()
        for path, text in sources.items():
            h.update(path.encode() + b"\0" + text.encode() + b"\0")
        return cls(h.hexdigest(), dict(sources))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """How one game went: which game it was, who won (seat, or None), which seat moved first,
    its length, how it ended, and a rule error if one stopped it."""

    pairing: int
    game: int
    seed: int
    winner: int | None
    first: int
    steps: int
    decisions: int
    ended: str
    cause: str | None
    error: str | None


@dataclass
class CardTally:
    """Cards used, by their place in `rules.cards`: in how many games a player used each (once
    per player per game), how many of those that player won, and how many times it was used.
    Counted per chunk and added up, so a run keeps no per-game list of cards."""

    used: dict[int, int] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=dict)
    times: dict[int, int] = field(default_factory=dict)

    def count(self, seats: list[dict[int, int]], winner: int | None) -> None:
        """Add one game: each seat's cards used (card → times) and who won."""
        for seat, cards in enumerate(seats):
            for card, n in cards.items():
                self.used[card] = self.used.get(card, 0) + 1
                self.won[card] = self.won.get(card, 0) + (seat == winner)
                self.times[card] = self.times.get(card, 0) + n

    def add(self, other: CardTally) -> None:
        for mine, theirs in ((self.used, other.used), (self.won, other.won), (self.times, other.times)):
            for card, n in theirs.items():
                mine[card] = mine.get(card, 0) + n


@dataclass
class Played:
    """Games played: their records in the plan's order, and the cards they used."""

    records: list[GameRecord] = field(default_factory=list)
    cards: CardTally = field(default_factory=CardTally)

    def add(self, other: Played) -> None:
        self.records.extend(other.records)
        self.cards.add(other.cards)


@dataclass(frozen=True)
class RunInfo:
    """How the run went, beside its results: where, how fast, which files it wrote."""

    backend: str
    workers: int
    replay: str  # what `cardsmith play` needs to load the same game (GAME [PATH…])
    games: int
    seconds: float
    files: list[str]

    @property
    def games_per_second(self) -> float:
        return self.games / max(self.seconds, 1e-9)


_BUILT: dict[str, RuleSet] = {}  # rule sets built (or adopted) in this process, by sources' hash
_worker_game: GameSources | None = None  # the game of this pool worker


def adopt(game: GameSources, rules: RuleSet) -> None:
    """Use rules already built for these sources in this process (and in workers forked from it)."""
    _BUILT[game.key] = rules


def rules_for(game: GameSources) -> RuleSet:
    """The game's rules, built at most once per process."""
    rules = _BUILT.get(game.key)
    if rules is None:
        result = build_sources(game.sources)
        if result.rules is None:
            raise RuntimeError("the game's sources no longer build on this worker")
        rules = _BUILT[game.key] = result.rules
    return rules


def play_chunk(game: GameSources, jobs: tuple[Job, ...], policy: str) -> Played:
    """Play a chunk of games (a worker's task)."""
    rules = rules_for(game)
    first = FirstMover.of(rules)
    places = {ident: i for i, ident in enumerate(rules.cards)}
    played = Played()
    for job in jobs:
        seats = len(job.seats)
        watch = Watch(rules, first, places, seats)
        agents = watch.agents(computer_agents(policy, job.seed, seats))
        g = new_game(rules, job.seats, agents, seed=job.seed, log=False)
        watch.attach(g)
        result = play(g)
        played.records.append(GameRecord(job.pairing, job.game, job.seed, result.winner, watch.first_seat(g),
                                         result.steps, result.decisions, result.reason, result.cause,
                                         result.error))
        played.cards.count(watch.uses(), result.winner)
    return played


def run_local(game: GameSources, rules: RuleSet, plan: Plan, policy: str, workers: int,
              advance: Advance) -> Played:
    """Every game of the plan on `workers` processes of this machine (1: in this one)."""
    adopt(game, rules)
    if workers == 1:
        played = Played()
        for chunk in plan.chunks(1):
            played.add(play_chunk(game, chunk, policy))
            advance(len(chunk))
        return played
    done: dict[int, Played] = {}
    tasks = ((i, chunk, policy) for i, chunk in enumerate(plan.chunks(workers)))
    with multiprocessing.Pool(workers, initializer=_start_worker, initargs=(game,)) as pool:
        for index, chunk_played in pool.imap_unordered(_play_in_worker, tasks):
            done[index] = chunk_played
            advance(len(chunk_played.records))
    return _in_order(done)


def _start_worker(game: GameSources) -> None:
    global _worker_game
    _worker_game = game
    rules_for(game)


def _play_in_worker(task: tuple[int, tuple[Job, ...], str]) -> tuple[int, Played]:
    index, jobs, policy = task
    assert _worker_game is not None
    return index, play_chunk(_worker_game, jobs, policy)


def _in_order(done: dict[int, Played]) -> Played:
    """The chunks' results put together in the plan's order."""
    played = Played()
    for index in sorted(done):
        played.add(done.pop(index))
    return played


@contextmanager
def ray_cluster(address: str | None, workers: int) -> Iterator[Any]:
    """Ray, joined for the run: the cluster at `address`, the Ray instance this process already
    joined, or a local instance of `workers` CPUs started for the run; left (a local instance
    shut down) afterwards. Each node needs cardsmith installed; the game's sources travel with
    the tasks."""
    try:
        import ray
    except ImportError as err:
        raise BackendError("--backend ray needs Ray, which is not installed: pip install 'cardsmith[ray]'") from err
    ours = not ray.is_initialized()
    if ours:
        _connect(ray, address, workers)
    try:
        yield ray
    finally:
        if ours:
            ray.shutdown()


def _connect(ray: Any, address: str | None, workers: int) -> None:
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    if address is None:
        ray.init(num_cpus=workers, **quiet)
        return
    _probe(address)
    try:
        ray.init(address=address, **quiet)
    except Exception as err:  # noqa: BLE001 - Ray raises many kinds; each means no cluster to run on
        raise BackendError(f"--address {address}: could not join a Ray cluster there: {err}") from err


def _probe(address: str) -> None:
    """Fail at once when `HOST:PORT` (or `ray://HOST:PORT`) does not answer: Ray itself would
    keep retrying for minutes. `auto` and `local` are left to Ray."""
    if address in ("auto", "local"):
        return
    hostport = address.removeprefix("ray://")
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdecimal():
        raise BackendError(f"--address {address!r}: give HOST:PORT of a Ray cluster's head (or ray://HOST:PORT, "
                           "auto or local)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_PROBE_SECONDS).close()
    except OSError as err:
        raise BackendError(f"--address {address}: no Ray cluster answers there "
                           f"({err.strerror or str(err) or 'no answer'})") from err


def run_ray(ray: Any, game: GameSources, plan: Plan, policy: str, advance: Advance) -> Played:
    """Every game of the plan as tasks of a joined Ray (`ray_cluster`): the chunks submitted
    with at most twice the cluster's CPUs in flight, collected as they finish."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(play_chunk)
    shared = ray.put(game)
    chunks: Iterator[tuple[int, tuple[Job, ...]]] = enumerate(plan.chunks(cpus))
    pending: dict[Any, int] = {}
    done: dict[int, Played] = {}
    while True:
        for index, chunk in chunks:
            pending[task.remote(shared, chunk, policy)] = index
            if len(pending) >= 2 * cpus:
                break
        if not pending:
            return _in_order(done)
        finished, _ = ray.wait(list(pending), num_returns=1)
        for ref in finished:
            chunk_played = ray.get(ref)
            done[pending.pop(ref)] = chunk_played
            advance(len(chunk_played.records))
