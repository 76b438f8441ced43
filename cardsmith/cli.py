"""The `cardsmith` command line (click): check, build, play, ref, explain, scenarios, demo."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .compiler.diagnostics import explain as explain_code
from .compiler.diagnostics import render_all, to_json
from .compiler.load import BuildResult, build_game, build_sources, bundled_games, resolve_inputs
from .compiler.reference import render_reference
from .runtime.agents import (
    ActiveAgent,
    Agent,
    AgentGaveUp,
    JsonLinesAgent,
    RandomAgent,
)
from .runtime.display import printable
from .runtime.events import encode as encode_event
from .runtime.events import schema as events_schema
from .runtime.log import events_for, lines_for
from .runtime.protocol import schema as protocol_schema
from .runtime.rules import RuleSet
from .runtime.saves import Divergence, ReplayAgents, SavedGame, SaveError, read_save, save_game
from .runtime.session import GameResult, agent_seed, new_game, play, run_scenario
from .runtime.table import draw_picks, table_problems
from .terminal import TerminalAgent


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _build_or_report(game: str, fmt: str = "text", need_model: bool = False,
                     to_stderr: bool = False) -> BuildResult:
    if game not in bundled_games():
        _fail(f"unknown game {game!r}; bundled games: {', '.join(bundled_games())}")
    result = build_game(game, need_model=need_model)
    if not result.ok:
        click.echo(to_json(result.diagnostics) if fmt == "json" else render_all(result.diagnostics, result.sources),
                   err=to_stderr)
        sys.exit(1)
    return result


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardsmith")
def main() -> None:
    """cardsmith: write a card game's rules and cards in a small language, check them,
    compile them to Python and play them.

    Start with `cardsmith check`, then `cardsmith play GAME`, `cardsmith soak GAME` and
    `cardsmith ref GAME`."""
    _warnings_to_stderr()


def _warnings_to_stderr() -> None:
    """Warnings of the library (a cache entry skipped, …) as `warning: …` lines on stderr."""
    logger = logging.getLogger("cardsmith")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("warning: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def check(paths: tuple[str, ...], fmt: str) -> None:
    """Check card sources: PATHS are files, folders or bundled game names (default: every game).

    A file that starts with `use GAME` is checked together with that bundled game.
    Exits 1 when any error is found."""
    targets = list(paths) or bundled_games()
    all_diags = []
    all_sources: dict[str, str] = {}
    summaries = []
    for group in _group_targets(targets):
        sources, diags = resolve_inputs(group)
        all_sources.update(sources)
        if sources:
            started = time.perf_counter()
            result = build_sources(sources, need_model=True)
            diags.extend(result.diagnostics)
            game_decl = result.checked.symbols.game if result.checked is not None else None
            if result.checked is not None and game_decl is not None:
                sym = result.checked.symbols
                summaries.append(f"{game_decl.name}: {len(sources)} file(s), {len(sym.cards)} card(s), "
                                 f"{len(sym.procedures)} procedure(s), {len(sym.scenarios)} scenario(s) "
                                 f"checked in {time.perf_counter() - started:.2f}s")
        all_diags.extend(diags)
    if fmt == "json":
        click.echo(to_json(all_diags))
    else:
        if all_diags:
            click.echo(render_all(all_diags, all_sources))
        for line in summaries:
            click.echo(line)
    if any(d.severity == "error" for d in all_diags):
        sys.exit(1)


def _out_folder(folder: Path) -> None:
    """Create an output folder, or exit 2 saying why it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        _fail(f"cannot create the folder {folder}: {err.strerror or err}")


def _write(path: Path, text: str) -> None:
    """Write an output file, or exit 2 saying why it cannot be written."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        _fail(f"cannot write {path}: {err.strerror or err}")


def _group_targets(targets: list[str]) -> list[list[str]]:
    """Each bundled game name is checked on its own; files and folders together."""
    games = [[t] for t in targets if t in bundled_games() and not Path(t).exists()]
    rest = [t for t in targets if not (t in bundled_games() and not Path(t).exists())]
    return games + ([rest] if rest else [])


@main.command()
@click.argument("games", nargs=-1)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="out", show_default=True,
              help="Where to write the generated Python modules.")
def build(games: tuple[str, ...], out_dir: str) -> None:
    """Compile games (default: every bundled game) to Python modules in OUT."""
    out = Path(out_dir)
    _out_folder(out)
    for game in games or tuple(bundled_games()):
        started = time.perf_counter()
        result = _build_or_report(game, need_model=True)
        assert result.python_source is not None
        target = out / f"{game}_rules.py"
        _write(target, result.python_source)
        lines = result.python_source.count("\n")
        click.echo(f"{game}: {result.stats.get('cards', 0)} cards → {target} ({lines} lines) "
                   f"in {time.perf_counter() - started:.2f}s")


def _parse_picks(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",")]
    if not all(names):
        _fail(f"{text!r}: give character names separated by commas, none empty")
    return names


def _table(rules: RuleSet, seed: int, players: int | None, p1: str | None, p2: str | None,
           picks_opt: tuple[str, ...]) -> list[list[str]]:
    """The characters of every seat: those given, the rest drawn with the seed (as `soak`
    draws them, so `play --seed N` replays what `soak` played for seed N). Exit 2 on an
    illegal table."""
    given = [_parse_picks(t) for t in picks_opt] if picks_opt else \
        [_parse_picks(t) if t is not None else None for t in (p1, p2)]
    while given and given[-1] is None:
        given.pop()
    count = players or max(len(given), rules.table.min_players)
    drawn = draw_picks(rules, count, seed)
    picks = [chosen if chosen is not None else drawn[i]
             for i, chosen in enumerate(given + [None] * (count - len(given)))]
    problems = table_problems(rules, picks)
    if problems:
        _fail("illegal table: " + "; ".join(problems))
    return picks


POLICY_HELP = ("How computer players choose: `random` (uniformly) or `active` (they act before "
               "they pass, so games reach real endings sooner).")


def _computer_agents(policy: str, seed: int, seats: int) -> list[Agent]:
    kind = ActiveAgent if policy == "active" else RandomAgent
    return [kind(agent_seed(seed, i)) for i in range(seats)]


def _agent(kind: str, policy: str, seed: int, seat: int) -> Agent:
    if kind == "terminal":
        return TerminalAgent()
    if kind == "jsonl":
        return JsonLinesAgent()
    return _computer_agents(policy, seed, seat + 1)[seat]


def _writable_file(path: str) -> None:
    """Exit 2 unless a file can be written at `path` (checked before a game is played)."""
    target = Path(path)
    if target.is_dir():
        _fail(f"{path}: is a folder")
    folder = target.parent
    if not folder.is_dir():
        _fail(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        _fail(f"{path}: not writable")


@main.command("play")
@click.argument("game")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the game's random generator.")
@click.option("--p1", help="Comma-separated characters for player 1 (e.g. alice,bob).")
@click.option("--p2", help="Comma-separated characters for player 2.")
@click.option("--pick", "picks_opt", multiple=True,
              help="Characters of the next seat (repeat once per seat; overrides --p1/--p2).")
@click.option("--players", "player_count", type=click.IntRange(min=1),
              help="Number of players; seats without --pick get characters drawn with the seed.")
@click.option("--agent", type=click.Choice(["random", "terminal", "jsonl"]), default="random",
              show_default=True, help="Who plays seat --seat; the others are random. `jsonl`: a "
              "program over stdin/stdout (docs/jsonl-protocol.md); stdout then carries only JSON.")
@click.option("--seat", type=click.IntRange(min=1), default=1, show_default=True,
              help="The seat the --agent takes.")
@click.option("--policy", type=click.Choice(["random", "active"]), default="random", show_default=True,
              help=POLICY_HELP)
@click.option("--log/--no-log", "show_log", default=True, help="Print the game log.")
@click.option("--log-as", "log_as", default=None, metavar="all|public|SEAT",
              help="Whose log to print: everything, what every player saw, or one seat's "
                   "(default: the --agent seat when it is a person or a program, else all).")
@click.option("--save", "save_file", type=click.Path(),
              help="Save seed, characters and every decision to a JSON file.")
@click.option("--events", "events_file", type=click.Path(),
              help="Write what happened as JSON lines (see `cardsmith schema events`), as the "
                   "--log-as reader saw it.")
@click.option("--replay", "replay_file", type=click.Path(),
              help="Replay a saved game exactly (ignores the other options).")
def play_cmd(game: str, seed: int, p1: str | None, p2: str | None, picks_opt: tuple[str, ...],
             player_count: int | None, agent: str, seat: int, policy: str, show_log: bool,
             log_as: str | None, save_file: str | None, events_file: str | None,
             replay_file: str | None) -> None:
    """Play one game of GAME with the given seed and characters."""
    result = _build_or_report(game, to_stderr=agent == "jsonl")
    rules = result.rules
    assert rules is not None
    if replay_file:
        _replay(rules, replay_file, show_log)
        return
    for target in (save_file, events_file):
        if target:
            _writable_file(target)
    picks = _table(rules, seed, player_count, p1, p2, picks_opt)
    if seat > len(picks):
        _fail(f"--seat must be between 1 and {len(picks)}")
    human = agent != "random"
    viewer = _log_viewer(log_as, seat - 1 if human else None, len(picks))
    agents = _computer_agents(policy, seed, len(picks))
    chosen = agents[seat - 1] = _agent(agent, policy, seed, seat - 1)
    say = _say(to_stderr=agent == "jsonl")
    if isinstance(chosen, JsonLinesAgent):
        chosen.start(rules.game, seat - 1, len(picks))
    try:
        outcome = play(new_game(rules, picks, agents, seed=seed))
    except (EOFError, KeyboardInterrupt):
        _fail("game abandoned: input closed", 130)
        return
    except AgentGaveUp as err:
        _fail(f"game abandoned: {err}")
        return
    if isinstance(chosen, JsonLinesAgent):
        chosen.finish(outcome.winner, outcome.reason, outcome.steps, outcome.decisions, outcome.error,
                      outcome.cause)
    if show_log and agent != "terminal":
        for line in lines_for(outcome.log, viewer):
            say(printable(line))
    _summary(outcome, picks, seed, say)
    if save_file:
        save_game(save_file, SavedGame(rules.game, seed, picks, outcome.answers, outcome.final_hash))
        say(f"saved {len(outcome.answers)} decisions to {save_file}")
    if events_file:
        records = events_for(outcome.log, viewer)
        _write(Path(events_file), "".join(encode_event(e) + "\n" for e in records))
        say(f"wrote {len(records)} events to {events_file}")
    if outcome.error:
        sys.exit(1)


def _log_viewer(log_as: str | None, default: int | None, seats: int) -> int | None:
    """The seat whose log is printed (None: everything); `public` is a seat of nobody."""
    if log_as is None:
        return default
    if log_as == "all":
        return None
    if log_as == "public":
        return -1
    text = log_as.upper().removeprefix("P")
    if not (text.isascii() and text.isdecimal() and 1 <= int(text) <= seats):
        _fail(f"--log-as takes all, public or a seat from 1 to {seats}")
    return int(text) - 1


def _say(to_stderr: bool) -> Callable[[str], None]:
    return lambda line: click.echo(line, err=to_stderr)


def _replay(rules: RuleSet, path: str, show_log: bool) -> None:
    try:
        saved = read_save(path, rules)
    except SaveError as err:
        _fail(str(err))
        return
    replay = ReplayAgents(saved.answers)
    agents: list[Agent] = [replay.seat(i) for i in range(len(saved.picks))]
    try:
        outcome = play(new_game(rules, saved.picks, agents, seed=saved.seed))
    except Divergence as err:
        if err.short:
            _fail(f"{path} is incomplete: {err}")
        _fail(f"the replay left the saved game at {err} (did the rules or cards change?)", 1)
        return
    if show_log:
        for line in lines_for(outcome.log, None):
            click.echo(printable(line))
    _summary(outcome, saved.picks, saved.seed, click.echo)
    problem = outcome.error or replay.left_over()
    if problem is None and saved.final_state != outcome.final_hash:
        problem = (f"every decision was used, but the final state is {outcome.final_hash}, "
                   f"not the saved {saved.final_state}")
    if problem:
        _fail(f"the replay does not match: {problem} (did the rules or cards change?)", 1)
    click.echo(f"replay matches the saved game ({len(saved.answers)} decisions)")


def _summary(outcome: GameResult, picks: list[list[str]], seed: int,
             say: Callable[[str], None]) -> None:
    sides = " vs ".join("+".join(p) or "-" for p in picks)
    say(printable(f"seed {seed}: {sides}: {outcome.reason} after {outcome.steps} steps and "
                  f"{outcome.decisions} decisions; final state {outcome.final_hash}"))
    if outcome.error:
        click.echo(printable(f"rule error: {outcome.error}"), err=True)


@main.command()
@click.argument("game")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
def ref(game: str, out_file: str | None) -> None:
    """Write GAME's numbered rule reference (Markdown), generated from the checked source."""
    result = _build_or_report(game, need_model=True)
    assert result.checked is not None
    text = render_reference(result.checked)
    if out_file:
        _write(Path(out_file), text)
        click.echo(f"wrote {out_file} ({text.count(chr(10))} lines)")
    else:
        click.echo(text)


@main.command()
@click.argument("which", type=click.Choice(["protocol", "events"]), default="protocol")
def schema(which: str) -> None:
    """Print a JSON Schema: of the protocol bots speak (`play --agent jsonl`), or of the
    events file (`play --events`)."""
    document = protocol_schema() if which == "protocol" else events_schema()
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print the long explanation of a diagnostic CODE (e.g. E101)."""
    text = explain_code(code)
    if text is None:
        _fail(f"no diagnostic code {code!r}; codes look like E101 or W201")
    click.echo(text)


@main.command()
@click.argument("game")
def scenarios(game: str) -> None:
    """Run GAME's scenario tests (rulings written in the language)."""
    result = _build_or_report(game)
    rules = result.rules
    assert rules is not None
    failed = 0
    for name in rules.scenarios:
        problem = run_scenario(rules, name)
        click.echo(printable(f"{'ok  ' if problem is None else 'FAIL'} {name}" + (f": {problem}" if problem else "")))
        failed += problem is not None
    click.echo(f"{len(rules.scenarios) - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


@main.command()
@click.argument("game")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True, help="How many games to play.")
@click.option("--players", "player_count", type=click.IntRange(min=1),
              help="Players per game (default: the game's minimum).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game; each next game adds 1.")
@click.option("--policy", type=click.Choice(["random", "active"]), default="random", show_default=True,
              help=POLICY_HELP)
def soak(game: str, games: int, player_count: int | None, seed: int, policy: str) -> None:
    """Play many seeded random games of GAME and report every rule error with its card line.

    Characters are drawn with each game's seed, so all of them get played. Games are counted
    by how they ended (the reason the rules give, such as a turn limit). Exits 1 when any
    game fails."""
    result = _build_or_report(game)
    rules = result.rules
    assert rules is not None
    count = player_count or rules.table.min_players
    problems = table_problems(rules, draw_picks(rules, count, seed))
    if problems:
        _fail("illegal table: " + "; ".join(problems))
    errors: dict[str, list[tuple[int, list[list[str]]]]] = {}
    outcomes = {"win": 0, "draw": 0, "unfinished": 0}
    causes: dict[str, int] = {}
    started = time.perf_counter()
    with click.progressbar(range(seed, seed + games), label=f"{game}: {games} games", file=sys.stderr) as seeds:
        for s in seeds:
            picks = draw_picks(rules, count, s)
            agents = _computer_agents(policy, s, count)
            outcome = play(new_game(rules, picks, agents, seed=s, log=False))
            if outcome.cause:
                causes[outcome.cause] = causes.get(outcome.cause, 0) + 1
            if outcome.error:
                errors.setdefault(outcome.error, []).append((s, picks))
            kind = "unfinished" if outcome.reason == "unfinished" else "draw" if outcome.winner is None else "win"
            outcomes[kind] += 1
    elapsed = time.perf_counter() - started
    click.echo(f"{games} games in {elapsed:.1f}s ({games / elapsed:.0f}/s): {outcomes['win']} won, "
               f"{outcomes['draw']} drawn, {outcomes['unfinished']} unfinished, "
               f"{sum(len(v) for v in errors.values())} with rule errors")
    for cause, n in sorted(causes.items(), key=lambda kv: -kv[1]):
        click.echo(printable(f"  ended by {cause}: {n} ({100 * n / games:.1f}%)"))
    table = f" --players {count}" if count != rules.table.min_players else ""
    for message, failed in errors.items():
        click.echo(printable(f"  {message}"))
        for s, picks in failed[:5]:
            sides = " vs ".join("+".join(p) for p in picks)
            how = f"{table} --policy {policy}" if policy != "random" else table
            click.echo(printable(f"    seed {s} ({sides}): cardsmith play {game} --seed {s}{how}"))
        if len(failed) > 5:
            click.echo(f"    … and {len(failed) - 5} more seeds")
    if errors:
        sys.exit(1)


@main.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="out", show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
def demo(out_dir: str, seed: int) -> None:
    """The main job: check and build every bundled game, write the references, play one game each."""
    out = Path(out_dir)
    _out_folder(out)
    for game in bundled_games():
        started = time.perf_counter()
        result = _build_or_report(game, need_model=True)
        checked = result.checked
        assert checked is not None and result.rules is not None and result.python_source is not None
        sym = checked.symbols
        warnings = sum(1 for d in result.diagnostics if d.severity == "warning")
        click.echo(f"[{game}] checked {len(result.sources)} file(s): {len(sym.cards)} cards, "
                   f"{len(sym.procedures)} procedures, {len(sym.addenda)} addenda, no errors, "
                   f"{warnings} warning(s) ({time.perf_counter() - started:.2f}s)")
        failed = [name for name in result.rules.scenarios if run_scenario(result.rules, name) is not None]
        click.echo(f"[{game}] scenarios: {len(result.rules.scenarios) - len(failed)} passed, "
                   f"{len(failed)} failed" + (f" ({', '.join(failed)})" if failed else ""))
        _write(out / f"{game}_rules.py", result.python_source)
        _write(out / f"{game}_reference.md", render_reference(checked))
        click.echo(f"[{game}] wrote {out / (game + '_rules.py')} and {out / (game + '_reference.md')}")
        rules = result.rules
        picks = draw_picks(rules, rules.table.min_players, seed)
        outcome = play(new_game(rules, picks, seed=seed))
        for line in lines_for(outcome.log, None)[-8:]:
            click.echo(printable(f"    {line}"))
        _summary(outcome, picks, seed, click.echo)
        if outcome.error or failed:
            sys.exit(1)


def run() -> Any:
    """Entry point that never shows a Python traceback for a failure."""
    try:
        return main(standalone_mode=True)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        click.echo(f"internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("please report this with the command you ran", err=True)
        sys.exit(3)


if __name__ == "__main__":
    run()
