"""The game loop now against the commit before issue 16's first change, side by side on this
machine (`make bench-since-issue`): Sakura's fixed base-goddess games, and 库洛小樱对战's at 10 players.

No hand-written Sakura engine runs here, so the issue's Sakura target (3× its figure) is read
through the reviewer's own numbers: 383 games/s for cardsmith against the engine's 198, and 1.47×
per decision, both at the issue. 库洛小樱对战's target is 2× the issue's own games/s at 10 players.
This script plays the same fixed games as `make bench-count` (its tables and seeds) with the
issue's code and with this checkout's, checks that both make the same decisions (the same games),
and prints how many fewer instructions a game takes now, and what that makes of the targets.

The issue's code is a detached worktree of ISSUE_BASE in a temporary folder, made importable as
`cardsmith` the way pyproject.toml maps the package's folders, with a cache folder of its own;
this checkout is run the same way, so both load alike. Counts are cachegrind's (a run of the games
minus a run of none, under PYTHONHASHSEED=0). `--time PAIRS` also times them by turns (the best of
three runs of the games, CPU time, in one process each) and prints the median ratio of the pairs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from count import count
from run import base_tables, ccs_tables

from cardsmith.compiler.load import build_game

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ISSUE_BASE = "1a39258^"  # the commit before issue 16's first change
REVIEWER_GAMES_PER_S = 383  # cardsmith at the issue, on the reviewer's machine
PEER_GAMES_PER_S = 198  # the hand-written engine there
REVIEWER_PER_DECISION = 1.47  # cardsmith's advantage per decision there

# Prints where it imported the runtime from, plays argv[1] fixed games of the game argv[4] (tables in
# argv[2], as JSON) and prints the decisions; argv[3] "time" plays them three times after one warm
# game and prints the best CPU time instead.
GAMES_CODE = """
import json, sys, time
import cardsmith.runtime.session
from cardsmith.compiler.load import build_game
from cardsmith.runtime.session import new_game, play
print(cardsmith.runtime.session.__file__)
rules = build_game(sys.argv[4]).rules
n, tables = int(sys.argv[1]), json.loads(sys.argv[2])
def games():
    return sum(play(new_game(rules, tables[i % len(tables)], seed=i, log=False)).decisions for i in range(n))
if sys.argv[3] == "time":
    play(new_game(rules, tables[0], seed=n + 1, log=False))
    best = None
    for _ in range(3):
        started = time.process_time()
        games()
        spent = time.process_time() - started
        best = spent if best is None else min(best, spent)
    print(best)
else:
    print("decisions", games())
"""


def importable(source: Path, into: Path) -> Path:
    """A folder where `import cardsmith` finds `source`'s code: its `cardsmith/` copied, and each
    of the package's top-level subfolders that pyproject.toml maps from elsewhere linked in."""
    shutil.copytree(source / "cardsmith", into / "cardsmith", ignore=shutil.ignore_patterns("__pycache__"))
    mapping = tomllib.loads((source / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-dir"]
    for package, folder in mapping.items():
        if package.count(".") == 1 and not (into / "cardsmith" / package.split(".")[1]).exists():
            (into / "cardsmith" / package.split(".")[1]).symlink_to(source / folder)
    return into


@dataclass(frozen=True)
class Work:
    """Fixed games played by both codes."""

    label: str
    game: str
    tables: list[list[list[str]]]
    games: int


def works() -> list[Work]:
    ccs = build_game("ccs").rules
    assert ccs is not None
    return [Work("Sakura, 40 fixed base-goddess games", "sakura", base_tables(), 40),
            Work("库洛小樱对战, 4 fixed games at 10 players", "ccs", ccs_tables(ccs, 10), 4)]


class Side:
    """One of the two codes: where it imports from and its own cache folder."""

    def __init__(self, name: str, tree: Path, cache: Path) -> None:
        self.name = name
        cache.mkdir(mode=0o700)
        self.env = {"PYTHONPATH": str(tree), "CARDSMITH_CACHE": str(cache), "PYTHONDONTWRITEBYTECODE": ""}
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True, capture_output=True)

    def argv(self, work: Work, games: int, mode: str) -> list[str]:
        # -P: the working folder (this checkout, with its own `cardsmith/`) is not put on the path
        return [sys.executable, "-P", "-c", GAMES_CODE, str(games), json.dumps(work.tables), mode, work.game]

    def run(self, work: Work, games: int, mode: str) -> str:
        done = subprocess.run(self.argv(work, games, mode), env={**os.environ, **self.env}, capture_output=True,
                              text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"error: the {self.name} code failed:\n{done.stderr[-2000:]}")
        where, said = done.stdout.strip().split("\n", 1)
        if not where.startswith(self.env["PYTHONPATH"]):
            sys.exit(f"error: the {self.name} code was imported from {where}, not {self.env['PYTHONPATH']}")
        return said

    def counted(self, work: Work) -> tuple[int, int]:
        """Instructions of all the games, and their decisions."""
        self.run(work, 1, "count")  # fills the cache: a build would be counted otherwise
        (played, out), (none, _) = (count(self.argv(work, work.games, "count"), self.env),
                                    count(self.argv(work, 0, "count"), self.env))
        return played - none, int(out.split()[-1])


def compare(work: Work, issue: Side, now: Side, pairs: int) -> None:
    """Count (and with `pairs`, time) one work with both codes and print how they compare."""
    (before, decisions), (after, same) = issue.counted(work), now.counted(work)
    if decisions != same:
        sys.exit(f"error: {work.label}: the games differ ({decisions} decisions at the issue, {same} now)")
    ratio = before / after
    print(f"{work.label} ({decisions:,} decisions):")
    if work.game == "sakura":
        print(f"  instructions per game at the issue ({ISSUE_BASE}): {before / work.games / 1e6:,.2f} M; "
              f"now: {after / work.games / 1e6:,.2f} M; {ratio:.3f}× fewer")
        print(f"  the reviewer's {REVIEWER_GAMES_PER_S} games/s would read about {REVIEWER_GAMES_PER_S * ratio:.0f} "
              f"(target 3× the hand-written engine's {PEER_GAMES_PER_S}: {3 * PEER_GAMES_PER_S}); per decision "
              f"about {REVIEWER_PER_DECISION * ratio:.2f}× the engine (target 2×). An estimate: instructions are "
              "not time.")
    else:
        print(f"  instructions per decision at the issue ({ISSUE_BASE}): {before / decisions / 1e3:,.1f} k; "
              f"now: {after / decisions / 1e3:,.1f} k; {ratio:.3f}× fewer for the same games (target 2× the "
              "games/s)")
    if pairs:
        ratios = []
        for _ in range(pairs):
            spent_then, spent_now = float(issue.run(work, work.games, "time")), float(now.run(work, work.games, "time"))
            ratios.append(spent_then / spent_now)
        print(f"  timed by turns, {pairs} pairs: now {statistics.median(ratios):.2f}× faster (median; "
              f"{min(ratios):.2f} to {max(ratios):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=int, default=0, metavar="PAIRS", help="also time PAIRS runs of each, by turns")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("error: valgrind is not installed (`make bench-count` installs it with apt)")
    with tempfile.TemporaryDirectory(prefix="cardsmith-since-issue-") as tmp:
        work = Path(tmp)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(work / "issue"), ISSUE_BASE],
                       check=True)
        try:
            issue = Side("issue's", importable(work / "issue", work / "issue-import"), work / "issue-cache")
            now = Side("current", importable(ROOT, work / "now-import"), work / "now-cache")
            for one in works():
                compare(one, issue, now, args.time)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(work / "issue")], check=False)


if __name__ == "__main__":
    main()
