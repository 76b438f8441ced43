"""Instruction counts (`make bench-count`): the work `make bench` times, counted instead by
valgrind's cachegrind, so that two builds can be compared on a busy or drifting machine.

Each figure is a run of the work minus a run of the same process doing none of it (the same
imports and set-up), under `PYTHONHASHSEED=0` and with one cache folder (`build/count-cache`):
the counts repeat exactly from run to run of one checkout.
They count instructions, not time; valgrind's virtual CPU hides some instruction sets (SHA
extensions, for one), so hashing counts more here than it costs. Runs two at a time.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


@dataclass(frozen=True)
class Measure:
    label: str
    work: str  # a work kind of this script (`--work KIND N`)
    size: int  # how much work: cards or games
    unit: str  # what a count is divided by: "card", "game" or "decision"


MEASURES = [
    Measure("parse + build of generated cards (syntax model)", "parse", 2000, "card"),
    Measure("what generated cards add to a cold Sakura build", "build", 500, "card"),
    Measure("Sakura, fixed base-goddess games", "sakura", 40, "game"),
    Measure("Sakura, fixed games of every character", "every", 40, "game"),
    Measure("库洛小樱对战, 2 players", "ccs2", 20, "decision"),
    Measure("库洛小樱对战, 10 players", "ccs10", 4, "decision"),
]


def count(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    """Instructions a process executes (with `env` added to this one's environment), and what it
    printed."""
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *argv], capture_output=True, text=True,
                          env={**os.environ, **(env or {}), "PYTHONHASHSEED": "0"}, check=False)
    found = REFS.search(proc.stderr)
    if proc.returncode != 0 or found is None:
        sys.exit(f"error: {' '.join(argv)} failed under valgrind:\n{proc.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), proc.stdout


def measure(m: Measure) -> str:
    script = [sys.executable, str(HERE / "count.py"), "--work", m.work]
    with ThreadPoolExecutor(2) as pool:
        (done, out), (none, _) = pool.map(count, [[*script, str(m.size)], [*script, "0"]])
    per = m.size if m.unit != "decision" else int(out.split()[-1])
    return f"{m.label}: {(done - none) / 1e6:,.0f} M for {per:,} {m.unit}s = {(done - none) / per / 1e3:,.1f} k per {m.unit}"


def work(kind: str, n: int) -> None:
    """Do `n` units of one kind of work (none when n is 0, after the same set-up)."""
    sys.path.insert(0, str(HERE))
    from run import base_tables, ccs_tables, every_tables, synthetic_cards

    from cardsmith.compiler.load import build_game, build_sources, game_files, read_sources
    from cardsmith.compiler.parse import parse_source, parser
    from cardsmith.runtime.session import new_game, play

    if kind == "parse":
        parser()
        if n:
            parse_source("generated.csm", synthetic_cards(n))
        return
    if kind == "build":
        library = read_sources(game_files("sakura"))[0]
        result = build_sources({**library, "generated.csm": synthetic_cards(n)} if n else library, use_cache=False,
                               need_model=True)
        assert result.ok
        return
    game = "ccs" if kind.startswith("ccs") else "sakura"
    rules = build_game(game).rules
    assert rules is not None
    tables = base_tables() if kind == "sakura" else every_tables(rules) if kind == "every" else \
        ccs_tables(rules, int(kind[3:]))
    decisions = 0
    for i in range(n):
        decisions += play(new_game(rules, tables[i % len(tables)], seed=i, log=False)).decisions
    print("decisions", decisions)


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("error: valgrind is not installed (Debian: apt-get install valgrind); `make bench-count` "
                 "tries to install it with apt")
    # one cache folder from run to run: a different path would hash differently and shift the counts
    os.environ["CARDSMITH_CACHE"] = str(HERE.parent / "build" / "count-cache")
    cli = [sys.executable, "-m", "cardsmith.cli"]
    for warm in ([*cli, "check", "sakura"], [*cli, "play", "sakura", "--seed", "1"], [*cli, "play", "ccs", "--seed", "1"],
                 [sys.executable, str(HERE / "count.py"), "--work", "parse", "0"]):
        subprocess.run(warm, capture_output=True, check=False)  # fill the cache: a miss would be counted
    with ThreadPoolExecutor(2) as pool:
        (python, _), (played, _), (checked, _) = pool.map(count, [
            [sys.executable, "-c", "pass"], [*cli, "play", "sakura", "--seed", "1"], [*cli, "check", "sakura"]])
    print(f"whole process: python -c pass: {python / 1e6:,.1f} M instructions")
    print(f"whole process: cardsmith check sakura, warm: {checked / 1e6:,.1f} M")
    print(f"whole process: cardsmith play sakura --seed 1, warm: {played / 1e6:,.1f} M")
    for m in MEASURES:
        print(measure(m), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--work"]:
        work(sys.argv[2], int(sys.argv[3]))
    else:
        main()
