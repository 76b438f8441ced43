"""Developer helper: build the bundled Sakura library and play N random games (used while encoding cards)."""

import itertools
import sys

from cardsmith.compiler.diagnostics import render_all
from cardsmith.compiler.load import build_game
from cardsmith.runtime.session import new_game, play

result = build_game(sys.argv[1] if len(sys.argv) > 1 else "sakura", use_cache=False)
print(render_all(result.diagnostics, result.sources))
if not result.ok:
    sys.exit(1)
games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
pairs = [list(p) for p in itertools.combinations(sys.argv[3].split(","), 2)] if len(sys.argv) > 3 else [["yurina", "saine"], ["himika", "tokoyo"]]
errors = 0
for seed in range(games):
    a, b = pairs[seed % len(pairs)], pairs[(seed + 1) % len(pairs)]
    res = play(new_game(result.rules, [a, b], seed=seed))
    if res.error:
        errors += 1
        print(f"seed {seed} {a} vs {b}: {res.error}")
print(f"{games} games, {errors} errors")
