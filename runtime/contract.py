"""The runtime contract: everything generated code may touch, named in one place.

Generated modules import this module as `rt` and use only the names in `exported`; besides
that they call the methods of the game (`g`) listed in `GAME_API` and read the attributes
listed in `DATA_API` of players, objects and zones. A test reads every generated module
of the bundled games and proves it stays within the contract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import builtins as _functions
from .errors import GameOver
from .limits import LOOP_LIMIT
from .ops import (
    add,
    at,
    card_of,
    concat,
    expect,
    expect_offered,
    expect_winner,
    hosts,
    num,
    same,
    sub,
    tick,
)
from .rules import (
    GENERATED_PREFIX,
    ActionSpec,
    CardDef,
    CardTriggerSpec,
    CheckSpec,
    CounterSpec,
    Reads,
    RuleSet,
    Scenarios,
    TableSpec,
    TriggerSpec,
    ZoneSpec,
    card_defs,
)
from .values import Delta, Pair

# One option of a menu as generated code builds it: the option's number in its `choose`
# block (-1 for a standing action), the value it is offered for, and its label. Plain
# tuples: menus are built on the hottest path of every game.
MenuEntry = tuple[int, Any, str]

OnceHandler = Callable[..., bool]  # a `once` block: returns True once it has fired


# the language's built-in functions, `fn_NAME(g, *args)`, are part of the contract too
BUILTIN_FUNCTIONS = sorted(name for name in vars(_functions) if name.startswith("fn_"))
globals().update({name: getattr(_functions, name) for name in BUILTIN_FUNCTIONS})

__all__ = exported = [
    "GENERATED_PREFIX", "ActionSpec", "CardDef", "CardTriggerSpec", "CheckSpec", "CounterSpec",
    "Reads", "RuleSet", "Scenarios", "TableSpec", "TriggerSpec", "ZoneSpec", "Delta", "Pair",
    "add", "at", "card_defs", "card_of", "concat", "expect", "expect_offered", "expect_winner", "hosts", "num", "same",
    "sub", "tick", "GameOver", "LOOP_LIMIT",
    *BUILTIN_FUNCTIONS,
]

GAME_API = frozenset({
    # state and its changes
    "zones", "counters", "players", "mods", "active_addenda", "steps", "loops", "get", "set", "read", "write", "space",
    "move", "put", "modify", "forbid", "reveal", "shuffle", "emit", "heard", "once", "run",
    # choices, the log, the end
    "pick", "choose_number", "confirm", "menu", "live_actions", "standing_actions", "take_action", "log", "logging",
    "end",
    # the rule set, for its card definitions (`card_prop` written in place reads `g.rules.cards[ID].props`)
    "rules",
})

DATA_API = frozenset({
    "zones", "counters", "picks", "index",  # players
    "fields", "tokens", "owner", "zone", "name", "kind", "uid", "timings",  # objects
    "cards", "held",  # zones (`held`: the tokens that count toward its capacity)
    "get", "append",  # reading `fields`/`tokens` (dicts), building menu entries (a list)
    "props",  # a card definition's properties (`card_prop` in place)
})
