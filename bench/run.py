"""Benchmarks (`make bench`): check times, compile throughput, random games per second per core.

Not part of the tests: numbers are printed and recorded by hand in BENCHMARKS.md.
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import tempfile
import time

from cardsmith.compiler.load import (
    build_game,
    build_sources,
    bundled_games,
    game_files,
    read_sources,
)
from cardsmith.runtime.session import new_game, play
from cardsmith.runtime.table import legal_picks

BASE = ["yurina", "saine", "himika", "tokoyo"]


def best_of(runs: int, fn: object) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return min(times)


def bench_check() -> None:
    os.environ["CARDSMITH_CACHE"] = tempfile.mkdtemp(prefix="cardsmith-bench-")
    cold = best_of(3, lambda: build_game("sakura", use_cache=False))
    build_game("sakura")  # fill the cache
    warm = best_of(5, lambda: build_game("sakura"))
    print(f"check sakura library, cold (parse+check+generate+compile): {cold * 1000:.0f} ms")
    print(f"check sakura library, warm (content-hash cache hit):        {warm * 1000:.1f} ms")


def synthetic_cards(n: int) -> str:
    lines = ["use sakura", ""]
    kinds = ["attack", "action", "enhance"]
    for i in range(n):
        kind = kinds[i % 3]
        lines += [f'card bench_{i} "测试{i}" en "Bench {i}":', "    goddess yurina", "    fixture",
                  f"    type {kind}"]
        if kind == "attack":
            lines += [f"    range {i % 5}-{i % 5 + 2}", f"    damage {i % 4}/{i % 3}", "    after_attack:",
                      "        if resolve:", "            move 1 crystal from dust to self.aura"]
        elif kind == "action":
            lines += ["    on_use:", "        draw(self, 1)", "        move 1 crystal from distance to dust"]
        else:
            lines += ["    capacity 2", "    on_destroy:", "        attack_with(self, 1-4, 2/-)"]
        lines.append("")
    return "\n".join(lines)


def bench_compile(n: int = 2000) -> None:
    sources, _ = read_sources(game_files("sakura"))
    sources["bench.csm"] = synthetic_cards(n)
    started = time.perf_counter()
    result = build_sources(sources, use_cache=False)
    elapsed = time.perf_counter() - started
    if not result.ok:
        print("synthetic file did not compile:", result.diagnostics[:3])
        sys.exit(1)
    print(f"compile {n} generated cards (+ library): {elapsed:.2f} s = {n / elapsed:.0f} cards/s")


def games_per_second(game: str, matchups: list[list[list[str]]], seconds: float = 9.0) -> list[float]:
    """Random games per second on one core, three timed runs cycling the matchups."""
    rules = build_game(game).rules
    assert rules is not None
    rates = []
    for _ in range(3):
        games = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds / 3:
            result = play(new_game(rules, matchups[games % len(matchups)], seed=games, log=False))
            if result.error:
                print(f"{game} game error:", result.error)
                sys.exit(1)
            games += 1
        rates.append(games / (time.perf_counter() - started))
    return rates


def fixed_games(game: str, matchups: list[list[list[str]]], games: int = 300, runs: int = 5) -> float:
    """The same seeded games each run: games per second of the best run (steadier than a
    time window, since every run does exactly the same work)."""
    rules = build_game(game).rules
    assert rules is not None

    def once() -> None:
        for i in range(games):
            play(new_game(rules, matchups[i % len(matchups)], seed=i, log=False))
    once()
    return games / best_of(runs, once)


def report(label: str, rates: list[float]) -> None:
    print(f"random games, {label}, one core: {statistics.median(rates):.0f} games/s "
          f"(runs: {', '.join(f'{r:.0f}' for r in rates)})")


def bench_games() -> None:
    pairs = [list(p) for p in itertools.combinations(BASE, 2)]
    base = [[pairs[i], pairs[(i + 1) % len(pairs)]] for i in range(len(pairs))]
    report("Sakura Arms base-goddess matchups", games_per_second("sakura", base))
    print(f"300 fixed Sakura base-goddess games, best of 5: {fixed_games('sakura', base):.0f} games/s")
    rules = build_game("sakura").rules
    assert rules is not None
    seats = legal_picks(rules)
    report(f"Sakura Arms, every character ({len(rules.characters)})", games_per_second(
        "sakura", [[seats[i], seats[(i * 7 + 3) % len(seats)]] for i in range(len(seats))]))
    characters = ["sabier", "himelia", "aika", "leo"]
    report("EAT/PAINT, all matchups", games_per_second(
        "eatpaint", [[[a], [b]] for a in characters for b in characters]))
    if "ccs" in bundled_games():
        rules = build_game("ccs").rules
        assert rules is not None
        names = list(rules.characters)
        for players in (2, 10):
            matchups = [[[names[(start + k) % len(names)]] for k in range(players)] for start in range(len(names))]
            report(f"库洛小樱对战, {players} players", games_per_second("ccs", matchups))


if __name__ == "__main__":
    bench_check()
    bench_compile()
    bench_games()
