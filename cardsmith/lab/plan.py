"""Which games the lab plays: the pairings of characters (every legal one, a sample drawn with
the seed, or the tables given) and each game's seed, split into chunks for the workers.

A pairing is one table: each seat's characters, seats in order. Game `g` of pairing `p`
is played with `game_seed(seed, p, g)`, so a game's outcome depends on nothing but the
seed, its pairing's place in the plan and its own number, however the games are spread
over workers.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..runtime.rules import RuleSet
from ..runtime.table import count_tables, legal_picks, legal_tables, table_problems

MAX_ALL = 500  # more legal pairings than this are not all played on one machine
_SHUFFLED_WHOLE = 100_000  # a space of tables up to this size is sampled by shuffling it whole

Seats = tuple[tuple[str, ...], ...]


class PlanError(Exception):
    """Input that makes no plan; the message says why, for the person who gave it."""


@dataclass(frozen=True)
class Pairing:
    """One table of the plan: its place in the plan and each seat's characters."""

    index: int
    seats: Seats

    @property
    def text(self) -> str:
        """The table as the command line writes it (`a,b/c,d`)."""
        return "/".join(",".join(seat) for seat in self.seats)


@dataclass(frozen=True)
class Job:
    """One game to play: its pairing, its number within the pairing, its seed and table."""

    pairing: int
    game: int
    seed: int
    seats: Seats


@dataclass(frozen=True)
class Plan:
    """The pairings to play, how many games each, the seed, and how they were chosen."""

    pairings: tuple[Pairing, ...]
    games: int
    seed: int
    legal: int  # legal pairings of the game at this many seats (`count_tables`)
    chosen: str  # how the pairings were chosen, in words

    @property
    def seats(self) -> int:
        return len(self.pairings[0].seats)

    @property
    def total(self) -> int:
        return len(self.pairings) * self.games

    def jobs(self) -> Iterator[Job]:
        """Every game, pairing by pairing, in order."""
        for pairing in self.pairings:
            for g in range(self.games):
                yield Job(pairing.index, g, game_seed(self.seed, pairing.index, g), pairing.seats)

    def chunks(self, workers: int) -> Iterator[tuple[Job, ...]]:
        """The games in consecutive chunks: a few per worker, so that all stay busy to the end,
        but no more than 64 games each."""
        size = max(1, min(64, self.total // (workers * 4)))
        chunk: list[Job] = []
        for job in self.jobs():
            chunk.append(job)
            if len(chunk) == size:
                yield tuple(chunk)
                chunk = []
        if chunk:
            yield tuple(chunk)


def game_seed(seed: int, pairing: int, game: int) -> int:
    """The seed of game `game` of pairing `pairing` in a run seeded `seed` (31 bits, so that
    `cardsmith play --seed` takes it)."""
    digest = hashlib.blake2b(f"{seed}/{pairing}/{game}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF


def every_pairing(rules: RuleSet, games: int, seed: int, many: bool) -> Plan:
    """Every legal pairing at the game's smallest table; more than `MAX_ALL` only when `many`
    (a cluster plays them)."""
    seats = rules.table.min_players
    legal = count_tables(rules, seats)
    if legal > MAX_ALL and not many:
        raise PlanError(f"{rules.game} has {legal:,} legal pairings at {seats} seats, too many to play "
                        f"every one on this machine: give --sample K (K pairings drawn with the seed), "
                        f"--table for the ones you want, or --backend ray to play them on a cluster")
    tables = [_seats(t) for t in legal_tables(rules, seats)]
    return Plan(_numbered(tables), games, seed, legal, "every legal pairing")


def sampled(rules: RuleSet, k: int, games: int, seed: int) -> Plan:
    """`k` different legal pairings drawn with `seed`, in the order of `legal_tables`."""
    seats = rules.table.min_players
    options = [tuple(p) for p in legal_picks(rules)]
    space = count_tables(rules, seats)
    if k > space:
        raise PlanError(f"--sample {k}: {rules.game} has only {space:,} legal pairings at {seats} seats")
    rng = random.Random(seed)
    found: list[int] = []
    for index in _random_order(rng, space, attempts=max(1000, 100 * k)):
        if not table_problems(rules, _table_at(options, seats, rules.table.unique, index)):
            found.append(index)
            if len(found) == k:
                break
    else:
        raise PlanError(f"--sample {k}: fewer legal pairings than that were found ({len(found):,})")
    tables = [_table_at(options, seats, rules.table.unique, i) for i in sorted(found)]
    return Plan(_numbered(tables), games, seed, space, f"drawn with seed {seed} from {space:,} legal pairings")


def given(rules: RuleSet, texts: Sequence[str], games: int, seed: int) -> Plan:
    """The tables given as `a,b/c,d` (seats split by `/`, characters by `,`), each legal and
    all with the same number of seats."""
    tables: list[Seats] = []
    for text in texts:
        seats = tuple(tuple(name.strip() for name in seat.split(",")) for seat in text.split("/"))
        if any(not name for seat in seats for name in seat):
            raise PlanError(f"--table {text!r}: give each seat's characters separated by commas and the "
                            "seats separated by /, none empty (e.g. a,b/c,d)")
        problems = table_problems(rules, seats)
        if problems:
            raise PlanError(f"--table {text!r} is not a legal table: " + "; ".join(problems))
        if tables and len(seats) != len(tables[0]):
            raise PlanError(f"--table {text!r} has {len(seats)} seats and {texts[0]!r} has "
                            f"{len(tables[0])}: give tables of one size")
        tables.append(seats)
    legal = count_tables(rules, len(tables[0]))
    return Plan(_numbered(tables), games, seed, legal, "the tables given")


def _numbered(tables: Sequence[Seats]) -> tuple[Pairing, ...]:
    return tuple(Pairing(i, seats) for i, seats in enumerate(tables))


def _seats(table: Sequence[Sequence[str]]) -> Seats:
    return tuple(tuple(seat) for seat in table)


def _random_order(rng: random.Random, space: int, attempts: int) -> Iterator[int]:
    """Indices of a space of tables in an order drawn with `rng`, each once: a small space
    shuffled whole, a large one drawn index by index (at most `attempts` of them)."""
    if space <= _SHUFFLED_WHOLE:
        yield from rng.sample(range(space), space)
        return
    seen: set[int] = set()
    for _ in range(attempts):
        index = rng.randrange(space)
        if index not in seen:
            seen.add(index)
            yield index


def _table_at(options: Sequence[tuple[str, ...]], seats: int, unique: bool, index: int) -> Seats:
    """The table at `index` in the order `legal_tables` goes through the candidates: a
    product of the seats' options, or (`unique`) their permutations."""
    if not unique:
        digits = []
        for _ in range(seats):
            index, digit = divmod(index, len(options))
            digits.append(digit)
        return tuple(options[d] for d in reversed(digits))
    pool = list(options)
    table = []
    for seat in range(seats):
        block = math.perm(len(pool) - 1, seats - seat - 1)
        position, index = divmod(index, block)
        table.append(pool.pop(position))
    return tuple(table)
