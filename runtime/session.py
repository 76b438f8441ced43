"""Running whole games and scenarios on a compiled rule set."""

from __future__ import annotations

import functools
import itertools
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field

from .agents import Agent, AgentError, RandomAgent, ScriptedAgent
from .game import ExpectationFailed, Game, GameOver
from .log import LogLine
from .rules import GENERATED_PREFIX, RuleSet


@dataclass
class GameResult:
    """How a game ended: winner (seat index or None), reason, length, log, and the final
    state's hash (worked out only when asked: most games played never need it)."""

    winner: int | None
    reason: str
    steps: int
    decisions: int
    log: list[LogLine]
    game: Game = field(repr=False, compare=False)
    error: str | None = None
    hashes: list[str] = field(default_factory=list)
    cause: str | None = None  # why the game ended, as the rules say it
    answers: list[tuple[int, int]] = field(default_factory=list)

    @functools.cached_property
    def final_hash(self) -> str:
        return self.game.state_hash()


def new_game(rules: RuleSet, picks: Sequence[Sequence[str]], agents: Sequence[Agent] | None = None,
             seed: int = 0, trace: bool = False, log: bool = True) -> Game:
    if agents is None:
        agents = [RandomAgent(agent_seed(seed, seat)) for seat in range(len(picks))]
    return Game(rules, picks, agents, seed, trace=trace, log=log)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of a random agent: derived from the game's seed and the seat."""
    return seed * 1009 + seat + 1


def located(rules: RuleSet, exc: BaseException) -> str:
    """A rule error as people read it: the exception, the source line of the innermost
    generated frame with its declaration, and the chain of calls that led there."""
    chain = [rules.source_map.where(frame.lineno)
             for frame in reversed(traceback.extract_tb(exc.__traceback__))
             if frame.filename.startswith(GENERATED_PREFIX) and frame.lineno is not None]
    places = [where for where in chain if where is not None]
    if isinstance(exc, RecursionError):
        text = "RuleViolation: calls nested too deeply (a procedure that keeps calling itself?)"
    else:
        text = f"{type(exc).__name__}: {exc}"
    if not places:
        return text
    inner, *callers = places
    path, _, decl = inner.partition(" in ")
    text += f" (at {path})" + (f" in {decl}" if decl else "")
    return text + (f"; called from {' ← '.join(_runs(callers))}" if callers else "")


def _runs(places: list[str]) -> list[str]:
    """The same call site repeated in a row written once with its count (`… ×998`)."""
    out: list[str] = []
    for where, run in itertools.groupby(places):
        n = len(list(run))
        out.append(where if n == 1 else f"{where} ×{n}")
    return out


def play(game: Game) -> GameResult:
    """Play a game from its entry procedure to the end; rule errors are reported, not raised."""
    entry = game.rules.procedures[game.rules.entry]
    error = None
    try:
        entry(game)
    except GameOver:
        pass
    except (EOFError, AgentError):
        raise  # the seat's agent stopped: not a fault of the rules
    except Exception as exc:  # noqa: BLE001 - whatever the rules raise is a located rule error
        error = located(game.rules, exc)
    return GameResult(game.winner, game.result or "unfinished", game.steps, len(game.decisions),
                      game.lines, game, error=error, hashes=game.hashes,
                      answers=list(game.decisions), cause=game.cause)


def run_scenario(rules: RuleSet, name: str) -> str | None:
    """Run one scenario; returns None when it passes, or what went wrong."""
    return play_scenario(rules, name)[0]


def play_scenario(rules: RuleSet, name: str) -> tuple[str | None, Game]:
    """Run one scenario: what went wrong (None when it passes) and the game it played."""
    props = rules.scenario_props.get(name, {})
    words = props.get("players", [])
    sides: list[list[str]] = [[]]
    for w in words:
        if w == "vs":
            sides.append([])
        else:
            sides[-1].extend(w.split("/"))
    while len(sides) < rules.table.min_players:
        sides.append([])
    seed = int(props["seed"][0]) if props.get("seed") else 0
    scripts: list[list[int | str]] = [[] for _ in sides]
    current = 0
    for w in props.get("script", []):
        if w.startswith("p") and _decimal(w[1:]):
            current = int(w[1:]) - 1
        else:
            scripts[current].append(int(w) if _decimal(w) else w)
    agents = [ScriptedAgent(s, strict=True) for s in scripts]
    game = Game(rules, sides, agents, seed)
    try:
        rules.scenarios[name](game)
    except ExpectationFailed as exc:
        return str(exc), game
    except Exception as exc:  # noqa: BLE001 - a rule error or a script that does not fit fails it
        return located(rules, exc), game
    if game.result and not game.winner_checked and props.get("start", [""])[0] != "ends":
        return f"game ended: {game.result}", game
    unused = [f"P{i + 1}: {', '.join(map(str, a.answers))}" for i, a in enumerate(agents) if a.answers]
    if unused:
        return "scripted answers were not used: " + "; ".join(unused), game
    return None, game


def _decimal(text: str) -> bool:
    return text.isascii() and text.isdecimal()
