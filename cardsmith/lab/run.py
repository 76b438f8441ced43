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
class PairingTally:
    """One pairing's games so far: how many, each seat's wins, draws, and games a rule error stopped."""

    games: int
    wins: list[int]
    draws: int = 0
    errors: int = 0

    def add(self, other: PairingTally) -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.draws += other.draws
        self.errors += other.errors


@dataclass
class Played:
    """Games played, added up as they come: per pairing, wins by turn order, how often each
    length occurred, the cards used and the games a rule error stopped, so that a run's
    memory grows with its pairings and not its games. Each game's record is kept too only
    when `records` is a list (the games table is wanted)."""

    seats: int
    records: list[GameRecord] | None = None
    games: int = 0
    pairings: dict[int, PairingTally] = field(default_factory=dict)
    moved: list[int] = field(default_factory=list)  # wins by the winner's place in turn order (0: moved first)
    steps: dict[int, int] = field(default_factory=dict)  # a game's length in steps → games that long
    decisions: dict[int, int] = field(default_factory=dict)
    failed: list[GameRecord] = field(default_factory=list)
    cards: CardTally = field(default_factory=CardTally)

    @classmethod
    def empty(cls, seats: int, keep: bool) -> Played:
        """Nothing played yet, at tables of `seats`; `keep`: keep every game's record."""
        return cls(seats, [] if keep else None, moved=[0] * seats)

    def count(self, record: GameRecord) -> None:
        """Add one game."""
        self.games += 1
        tally = self._tally(record.pairing)
        tally.games += 1
        if record.error is not None:
            tally.errors += 1
            self.failed.append(record)
        elif record.winner is None:
            tally.draws += 1
        if record.winner is not None:
            tally.wins[record.winner] += 1
            self.moved[(record.winner - record.first) % self.seats] += 1
        self.steps[record.steps] = self.steps.get(record.steps, 0) + 1
        self.decisions[record.decisions] = self.decisions.get(record.decisions, 0) + 1
        if self.records is not None:
            self.records.append(record)

    def _tally(self, pairing: int) -> PairingTally:
        tally = self.pairings.get(pairing)
        if tally is None:
            tally = self.pairings[pairing] = PairingTally(0, [0] * self.seats)
        return tally

    def add(self, other: Played) -> None:
        """Add the games of `other` (played after these, in the plan's order)."""
        self.games += other.games
        for index, theirs in other.pairings.items():
            self._tally(index).add(theirs)
        self.moved = [a + b for a, b in zip(self.moved, other.moved, strict=True)]
        for mine_lengths, their_lengths in ((self.steps, other.steps), (self.decisions, other.decisions)):
            for length, n in their_lengths.items():
                mine_lengths[length] = mine_lengths.get(length, 0) + n
        self.failed.extend(other.failed)
        if self.records is not None and other.records is not None:
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


def play_chunk(game: GameSources, jobs: tuple[Job, ...], policy: str, keep: bool) -> Played:
    """Play a chunk of games (a worker's task); `keep`: keep each game's record."""
    rules = rules_for(game)
    first = FirstMover.of(rules)
    places = {ident: i for i, ident in enumerate(rules.cards)}
    played = Played.empty(len(jobs[0].seats), keep)
    for job in jobs:
        seats = len(job.seats)
        watch = Watch(rules, first, places, seats)
        agents = watch.agents(computer_agents(policy, job.seed, seats))
        g = new_game(rules, job.seats, agents, seed=job.seed, log=False)
        watch.attach(g)
        result = play(g)
        played.count(GameRecord(job.pairing, job.game, job.seed, result.winner, watch.first_seat(g),
                                result.steps, result.decisions, result.reason, result.cause, result.error))
        played.cards.count(watch.uses(), result.winner)
    return played


def run_local(game: GameSources, rules: RuleSet, plan: Plan, policy: str, workers: int, keep: bool,
              advance: Advance) -> Played:
    """Every game of the plan on `workers` processes of this machine (1: in this one); `keep`:
    keep each game's record."""
    adopt(game, rules)
    played = Played.empty(plan.seats, keep)
    if workers == 1:
        for chunk in plan.chunks(1):
            played.add(play_chunk(game, chunk, policy, keep))
            advance(len(chunk))
        return played
    done = _InOrder(played)
    tasks = ((i, chunk, policy, keep) for i, chunk in enumerate(plan.chunks(workers)))
    with multiprocessing.Pool(workers, initializer=_start_worker, initargs=(game,)) as pool:
        for index, chunk_played in pool.imap_unordered(_play_in_worker, tasks):
            done.put(index, chunk_played)
            advance(chunk_played.games)
    return played


def _start_worker(game: GameSources) -> None:
    global _worker_game
    _worker_game = game
    rules_for(game)


def _play_in_worker(task: tuple[int, tuple[Job, ...], str, bool]) -> tuple[int, Played]:
    index, jobs, policy, keep = task
    assert _worker_game is not None
    return index, play_chunk(_worker_game, jobs, policy, keep)


class _InOrder:
    """Chunks' results added to `played` in the plan's order as they arrive in any: a chunk
    that finished early waits only for those before it."""

    def __init__(self, played: Played) -> None:
        self.played = played
        self.waiting: dict[int, Played] = {}
        self.next = 0

    def put(self, index: int, chunk: Played) -> None:
        self.waiting[index] = chunk
        while self.next in self.waiting:
            self.played.add(self.waiting.pop(self.next))
            self.next += 1


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


def run_ray(ray: Any, game: GameSources, plan: Plan, policy: str, keep: bool, advance: Advance) -> Played:
    """Every game of the plan as tasks of a joined Ray (`ray_cluster`): the chunks submitted
    with at most twice the cluster's CPUs in flight, collected as they finish."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(play_chunk)
    shared = ray.put(game)
    chunks: Iterator[tuple[int, tuple[Job, ...]]] = enumerate(plan.chunks(cpus))
    pending: dict[Any, int] = {}
    played = Played.empty(plan.seats, keep)
    done = _InOrder(played)
    while True:
        for index, chunk in chunks:
            pending[task.remote(shared, chunk, policy, keep)] = index
            if len(pending) >= 2 * cpus:
                break
        if not pending:
            return played
        finished, _ = ray.wait(list(pending), num_returns=1)
        for ref in finished:
            chunk_played = ray.get(ref)
            done.put(pending.pop(ref), chunk_played)
            advance(chunk_played.games)
