"""The `cardsmith` command line (click): check, build, play, ref, explain, scenarios, demo."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import click

from .compiler.diagnostics import explain as explain_code
from .compiler.diagnostics import render_all, to_json
from .compiler.load import BuildResult, build_game, build_sources, bundled_games, resolve_inputs
from .compiler.reference import render_reference
from .runtime.agents import Agent, JsonLinesAgent, RandomAgent, TerminalAgent
from .runtime.rules import RuleSet
from .runtime.session import GameResult, agent_seed, new_game, play, replay_agents, run_scenario


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _build_or_report(game: str, fmt: str = "text", want_model: bool = False) -> BuildResult:
    if game not in bundled_games():
        _fail(f"unknown game {game!r}; bundled games: {', '.join(bundled_games())}")
    result = build_game(game, want_model=want_model)
    if not result.ok:
        click.echo(to_json(result.diagnostics) if fmt == "json" else render_all(result.diagnostics, result.sources))
        sys.exit(1)
    return result


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardsmith")
def main() -> None:
    """cardsmith: write a card game's rules and cards in a small language, check them,
    compile them to Python and play them.

    Start with `cardsmith check`, then `cardsmith play GAME`, `cardsmith soak GAME` and
    `cardsmith ref GAME`."""


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
            result = build_sources(sources, want_model=True)
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
    out.mkdir(parents=True, exist_ok=True)
    for game in games or tuple(bundled_games()):
        started = time.perf_counter()
        result = _build_or_report(game, want_model=True)
        assert result.python_source is not None
        target = out / f"{game}_rules.py"
        target.write_text(result.python_source, encoding="utf-8")
        lines = result.python_source.count("\n")
        click.echo(f"{game}: {result.stats.get('cards', 0)} cards → {target} ({lines} lines) "
                   f"in {time.perf_counter() - started:.2f}s")


def _parse_picks(text: str | None, default: list[str]) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()] if text else default


def _agent(kind: str, seed: int, seat: int) -> Agent:
    if kind == "terminal":
        return TerminalAgent()
    if kind == "jsonl":
        return JsonLinesAgent()
    return RandomAgent(agent_seed(seed, seat))


@main.command("play")
@click.argument("game")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the game's random generator.")
@click.option("--p1", help="Comma-separated characters for player 1 (e.g. yurina,saine).")
@click.option("--p2", help="Comma-separated characters for player 2.")
@click.option("--pick", "picks_opt", multiple=True,
              help="Characters of the next seat (repeat once per seat; overrides --p1/--p2).")
@click.option("--players", "player_count", type=int,
              help="Number of players; seats without --pick get characters drawn with the seed.")
@click.option("--agent", type=click.Choice(["random", "terminal", "jsonl"]), default="random",
              show_default=True, help="Who plays seat --seat; the others are random.")
@click.option("--seat", type=int, default=1, show_default=True, help="The seat the --agent takes.")
@click.option("--log/--no-log", "show_log", default=True, help="Print the game log.")
@click.option("--save", "save_file", type=click.Path(dir_okay=False),
              help="Save seed, characters and every decision to a JSON file.")
@click.option("--replay", "replay_file", type=click.Path(dir_okay=False, exists=True),
              help="Replay a saved game exactly (ignores the other options).")
def play_cmd(game: str, seed: int, p1: str | None, p2: str | None, picks_opt: tuple[str, ...],
             player_count: int | None, agent: str, seat: int, show_log: bool,
             save_file: str | None, replay_file: str | None) -> None:
    """Play one game of GAME with the given seed and characters."""
    result = _build_or_report(game)
    rules = result.rules
    assert rules is not None
    if replay_file:
        _replay(rules, game, replay_file, show_log)
        return
    count = _table_size(rules, game, player_count or max(len(picks_opt), rules.table.min_players))
    defaults = _default_picks(rules, count, seed)
    if picks_opt:
        picks = [_parse_picks(text, []) for text in picks_opt] + defaults[len(picks_opt):]
    else:
        picks = [_parse_picks(p1, defaults[0]), _parse_picks(p2, defaults[1])] + defaults[2:]
    for side in picks:
        unknown = [c for c in side if c not in rules.characters]
        if unknown:
            _fail(f"unknown character(s) {', '.join(unknown)}; known: {', '.join(rules.characters)}")
    agents: list[Agent] = [RandomAgent(agent_seed(seed, i)) for i in range(len(picks))]
    if not 1 <= seat <= len(picks):
        _fail(f"--seat must be between 1 and {len(picks)}")
    agents[seat - 1] = _agent(agent, seed, seat - 1)
    g = new_game(rules, picks, agents, seed=seed)
    try:
        outcome = play(g)
    except (EOFError, KeyboardInterrupt):
        _fail("game abandoned: input closed", 130)
        return
    if show_log and agent == "random":
        for line in outcome.log:
            click.echo(line)
    _summary(outcome, picks, seed)
    if save_file:
        record = {"game": game, "seed": seed, "picks": picks, "answers": outcome.answers,
                  "final_state": outcome.final_hash}
        Path(save_file).write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        click.echo(f"saved {len(outcome.answers)} decisions to {save_file}")
    if outcome.error:
        sys.exit(1)


def _replay(rules: RuleSet, game: str, path: str, show_log: bool) -> None:
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        seed, picks, answers = int(record["seed"]), record["picks"], record["answers"]
        if record.get("game") != game:
            _fail(f"{path} is a game of {record.get('game')!r}, not {game!r}")
    except (OSError, ValueError, KeyError, TypeError) as err:
        _fail(f"cannot read saved game {path}: {err}")
        return
    outcome = play(new_game(rules, picks, replay_agents(answers, len(picks)), seed=seed))
    if show_log:
        for line in outcome.log:
            click.echo(line)
    _summary(outcome, picks, seed)
    expected = record.get("final_state")
    if outcome.error or (expected and expected != outcome.final_hash):
        _fail("the replay did not reach the saved final state (the rules or cards changed?)", 1)
    click.echo("replay matches the saved game")


def _default_picks(rules: RuleSet, players: int, seed: int) -> list[list[str]]:
    """Characters for seats nobody chose: the first ones by number for two players, else drawn."""
    def number(name: str) -> int:
        text = str(rules.characters[name].get("number", "0"))
        return int(text) if text.isdigit() else 0
    names = sorted(rules.characters, key=number)
    n = rules.table.picks
    if players == 2 and len(names) >= 2 * n:
        return [names[0:n], names[n:2 * n]]
    return _drawn_picks(rules, players, seed)


def _table_size(rules: RuleSet, game: str, count: int) -> int:
    """The number of players, refused (exit 2) when the game is not played by that many."""
    if not rules.table.min_players <= count <= rules.table.max_players:
        _fail(f"{game} is played by {rules.table.min_players} to {rules.table.max_players} players")
    return count


def _summary(outcome: GameResult, picks: list[list[str]], seed: int) -> None:
    sides = " vs ".join("+".join(p) or "-" for p in picks)
    click.echo(f"seed {seed}: {sides}: {outcome.reason} after {outcome.steps} steps and "
               f"{outcome.decisions} decisions; final state {outcome.final_hash}")
    if outcome.error:
        click.echo(f"rule error: {outcome.error}", err=True)


@main.command()
@click.argument("game")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
def ref(game: str, out_file: str | None) -> None:
    """Write GAME's numbered rule reference (Markdown), generated from the checked source."""
    result = _build_or_report(game, want_model=True)
    assert result.checked is not None
    text = render_reference(result.checked)
    if out_file:
        Path(out_file).write_text(text, encoding="utf-8")
        click.echo(f"wrote {out_file} ({text.count(chr(10))} lines)")
    else:
        click.echo(text)


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
        click.echo(f"{'ok  ' if problem is None else 'FAIL'} {name}" + (f": {problem}" if problem else ""))
        failed += problem is not None
    click.echo(f"{len(rules.scenarios) - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


@main.command()
@click.argument("game")
@click.option("--games", type=int, default=200, show_default=True, help="How many games to play.")
@click.option("--players", "player_count", type=int, help="Players per game (default: the game's minimum).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game; each next game adds 1.")
def soak(game: str, games: int, player_count: int | None, seed: int) -> None:
    """Play many seeded random games of GAME and report every rule error with its card line.

    Characters are drawn with each game's seed, so all of them get played. Exits 1 when any
    game fails."""
    result = _build_or_report(game)
    rules = result.rules
    assert rules is not None
    count = _table_size(rules, game, player_count or rules.table.min_players)
    errors: dict[str, list[int]] = {}
    outcomes = {"win": 0, "draw": 0, "unfinished": 0}
    started = time.perf_counter()
    with click.progressbar(range(seed, seed + games), label=f"{game}: {games} games", file=sys.stderr) as seeds:
        for s in seeds:
            picks = _drawn_picks(rules, count, s)
            outcome = play(new_game(rules, picks, seed=s, log=False))
            if outcome.error:
                errors.setdefault(outcome.error, []).append(s)
            kind = "unfinished" if outcome.reason == "unfinished" else "draw" if outcome.winner is None else "win"
            outcomes[kind] += 1
    elapsed = time.perf_counter() - started
    click.echo(f"{games} games in {elapsed:.1f}s ({games / elapsed:.0f}/s): {outcomes['win']} won, "
               f"{outcomes['draw']} drawn, {outcomes['unfinished']} unfinished, "
               f"{sum(len(v) for v in errors.values())} with rule errors")
    for message, seeds_failed in errors.items():
        shown = ", ".join(str(x) for x in seeds_failed[:5]) + (" …" if len(seeds_failed) > 5 else "")
        click.echo(f"  {message}\n    seeds: {shown} (replay one: cardsmith play {game} --seed N …)")
    if errors:
        sys.exit(1)


def _drawn_picks(rules: RuleSet, players: int, seed: int) -> list[list[str]]:
    """Characters for every seat, drawn with the game's seed."""
    names = sorted(rules.characters)
    rng = random.Random(seed)
    return [rng.sample(names, min(rules.table.picks, len(names))) for _ in range(players)]


@main.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="out", show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
def demo(out_dir: str, seed: int) -> None:
    """The main job: check and build every bundled game, write the references, play one game each."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for game in bundled_games():
        started = time.perf_counter()
        result = _build_or_report(game, want_model=True)
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
        (out / f"{game}_rules.py").write_text(result.python_source, encoding="utf-8")
        (out / f"{game}_reference.md").write_text(render_reference(checked), encoding="utf-8")
        click.echo(f"[{game}] wrote {out / (game + '_rules.py')} and {out / (game + '_reference.md')}")
        rules = result.rules
        picks = _default_picks(rules, rules.table.min_players, seed)
        outcome = play(new_game(rules, picks, seed=seed))
        for line in outcome.log[-8:]:
            click.echo(f"    {line}")
        _summary(outcome, picks, seed)
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
