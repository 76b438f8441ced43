"""Who sits at the table: legal picks of characters, checked and drawn with a seed."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence

from .rules import RuleSet


def table_problems(rules: RuleSet, picks: Sequence[Sequence[str]]) -> list[str]:
    """Why these picks cannot start a game of `rules` (empty when they can)."""
    table = rules.table
    problems = []
    if not table.min_players <= len(picks) <= table.max_players:
        size = (f"{table.min_players}" if table.min_players == table.max_players
                else f"{table.min_players} to {table.max_players}")
        problems.append(f"{rules.game} is played by {size} players, not {len(picks)}")
    for seat, chosen in enumerate(picks, start=1):
        unknown = [c for c in chosen if c not in rules.characters]
        if unknown:
            problems.append(f"P{seat}: unknown character(s) {', '.join(map(repr, unknown))}; "
                            f"known: {', '.join(rules.characters)}")
            continue
        if len(chosen) != table.picks:
            problems.append(f"P{seat} picks {len(chosen)} character(s); each player picks {table.picks}")
        if table.different and len(set(_keys(rules, chosen))) != len(chosen):
            by = f" {table.different_by}" if table.different_by else ""
            problems.append(f"P{seat}'s characters must have different{by}s: {', '.join(chosen)}")
    if table.unique:
        seen: dict[str, int] = {}
        for seat, chosen in enumerate(picks, start=1):
            for c in chosen:
                if c in seen:
                    problems.append(f"{c} is picked by P{seen[c]} and P{seat}; each character once")
                seen.setdefault(c, seat)
    return problems


def _keys(rules: RuleSet, chosen: Sequence[str]) -> list[object]:
    by = rules.table.different_by
    return [c if by is None else rules.characters[c].get(by, c) for c in chosen]


def draw_picks(rules: RuleSet, players: int, seed: int) -> list[list[str]]:
    """Legal characters for every seat, drawn with `seed` (the same seed, the same draw)."""
    rng = random.Random(seed)
    names = sorted(rules.characters)
    taken: set[str] = set()
    picks = []
    for _ in range(players):
        pool = [c for c in names if not (rules.table.unique and c in taken)]
        chosen: list[str] = []
        while len(chosen) < rules.table.picks and pool:
            c = pool.pop(rng.randrange(len(pool)))
            if rules.table.different and _keys(rules, [c])[0] in _keys(rules, chosen):
                continue
            chosen.append(c)
        taken.update(chosen)
        picks.append(chosen)
    return picks


def legal_picks(rules: RuleSet) -> list[list[str]]:
    """Every legal set of characters for one seat, in a stable order."""
    names = sorted(rules.characters)
    found = [list(combo) for combo in itertools.combinations(names, rules.table.picks)]
    if rules.table.different:
        found = [c for c in found if len(set(_keys(rules, c))) == len(c)]
    return found


def legal_tables(rules: RuleSet, players: int) -> Iterator[list[list[str]]]:
    """Every legal table of `players` seats, in a stable order (lazily: there can be many)."""
    options = legal_picks(rules)
    tables = (itertools.permutations(options, players) if rules.table.unique
              else itertools.product(options, repeat=players))
    for table in tables:
        picks = [list(seat) for seat in table]
        if not table_problems(rules, picks):
            yield picks


def count_tables(rules: RuleSet, players: int) -> int:
    """How many legal tables of `players` seats there are (at most; with `unique` and
    several picks per seat some share a character and are left out)."""
    n = len(legal_picks(rules))
    return math.perm(n, players) if rules.table.unique else n ** players
