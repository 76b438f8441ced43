"""How much of a game's rule work could be reused (`python bench/reuse.py [GAME] [GAMES]`).

Issue 16 asked whether the legality checks a menu runs could keep their results until something
they read changes. This script answers with counts, for the fixed games `make bench-count`
plays. It wraps every procedure and value of the compiled game and records, for each call:

- whether the same function was called before with the same arguments on a game state equal in
  everything (zones, tokens, counters, every card's fields): the most any reuse keyed by a
  version of the whole state could save;
- whether it returned what it returned the last time it had those arguments: the most that
  reuse by perfect knowledge of what the call reads could save (tracking that knowledge costs
  work of its own at every change and every call).

Slow by design (it fingerprints the whole game at every call): a measurement, not a benchmark.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import base_tables, ccs_tables  # noqa: E402

from cardsmith.compiler.load import build_game  # noqa: E402
from cardsmith.runtime.game import Game  # noqa: E402
from cardsmith.runtime.rules import RuleSet  # noqa: E402
from cardsmith.runtime.session import new_game, play  # noqa: E402

PREFIXES = ("proc_", "val_")  # the generated names of procedures and values


@dataclass
class Tally:
    name: str
    calls: int = 0
    same_state: int = 0  # same arguments, whole state unchanged since such a call
    same_result: int = 0  # same arguments, the same result as the last such call
    seen: set[tuple[Any, ...]] = field(default_factory=set)
    last: dict[tuple[Any, ...], Any] = field(default_factory=dict)


def fingerprint(g: Game) -> int:
    """The whole state of a game, cards' fields included, as one hash."""
    fields = tuple(id(c.fields) if c.shared else repr(sorted(c.fields.items(), key=repr))
                   for z in g._all_zones() for c in z.cards)  # shared starting values never change
    return hash((g.state_hash(), fields))


def key_of(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a if isinstance(a, (str, int, bool, type(None))) else id(a) for a in args)


def wrap(fn: Callable[..., Any], tally: Tally) -> Callable[..., Any]:
    def counted(g: Game, *args: Any) -> Any:
        key = (id(g), *key_of(args))
        state = (fingerprint(g), *key)
        result = fn(g, *args)
        tally.calls += 1
        tally.same_state += state in tally.seen
        tally.seen.add(state)
        if key in tally.last:
            tally.same_result += tally.last[key] == result
        tally.last[key] = result
        return result
    return counted


def instrument(rules: RuleSet) -> list[Tally]:
    """Wrap the compiled game's procedures and values in place (they call each other by name)."""
    loader: Any = rules.scenario_loader
    namespace: dict[str, Any] = loader.args[-1]  # the compiled game's module namespace
    decls = dict(rules.source_map.decls)
    tallies = []
    for name, fn in list(namespace.items()):
        if name.startswith(PREFIXES) and callable(fn):
            tally = Tally(decls.get(fn.__code__.co_firstlineno, name))
            namespace[name] = wrap(fn, tally)
            tallies.append(tally)
    return tallies


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "sakura"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    if game not in ("sakura", "ccs"):
        sys.exit("error: the fixed games are those of sakura (base goddesses) and ccs (two players)")
    rules = build_game(game).rules
    assert rules is not None, f"the bundled {game} library builds"
    tallies = instrument(rules)
    tables = base_tables() if game == "sakura" else ccs_tables(rules, 2)
    decisions = 0
    for i in range(games):
        decisions += play(new_game(rules, tables[i % len(tables)], seed=i, log=False)).decisions
    total = Counter({t.name: t.calls for t in tallies})
    print(f"{game}: {games} games, {decisions:,} decisions, {sum(total.values()):,} calls of procedures and values")
    print(f"{'called':>9} {'state unchanged':>16} {'result unchanged':>17}  procedure or value")
    for t in sorted(tallies, key=lambda t: -t.calls)[:15]:
        print(f"{t.calls:9,} {t.same_state / t.calls:16.1%} {t.same_result / t.calls:17.1%}  {t.name}")
    print("state unchanged: called before with the same arguments on an equal game state; result unchanged:\n"
          "returned what it returned the last time it had these arguments (None for a procedure that returns\n"
          "nothing).")


if __name__ == "__main__":
    main()
