"""`cardsmith scenarios`: run the scenario tests written in the language."""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

import click

from .common import GAME_HELP, build_or_report, say_all
from .runtime.display import printable
from .runtime.log import lines_for
from .runtime.session import play_scenario


@click.command(help="Run GAME's scenarios (rules and rulings written as tests in the language). With "
                    "PATHS, only the scenarios those files declare. " + GAME_HELP)
@click.argument("game")
@click.argument("paths", nargs=-1)
@click.option("-k", "pattern", help="Only scenarios whose name holds this text (or matches it as a "
              "pattern with * and ?).")
@click.option("--log", "show_log", is_flag=True, help="Print each scenario's game log.")
def scenarios(game: str, paths: tuple[str, ...], pattern: str | None, show_log: bool) -> None:
    result = build_or_report(game, paths, need_model=True)
    assert result.rules is not None and result.checked is not None
    rules, declared = result.rules, result.checked.symbols.scenarios
    names = list(rules.scenarios)
    if paths:
        mine = [Path(p).resolve() for p in paths]
        names = [n for n in names if any(_within(Path(declared[n].span.file).resolve(), m) for m in mine)]
    if pattern:
        glob = any(ch in pattern for ch in "*?[")
        names = [n for n in names if (fnmatch.fnmatchcase(n, pattern) if glob else pattern in n)]
    failed = 0
    for name in names:
        problem, played = play_scenario(rules, name)
        click.echo(printable(f"{'ok  ' if problem is None else 'FAIL'} {name}" + (f": {problem}" if problem else "")))
        if show_log:
            say_all(f"    | {line}" for line in lines_for(played.lines, None))
        failed += problem is not None
    click.echo(f"{len(names) - failed} passed, {failed} failed")
    if failed or not names:
        if not names:
            click.echo("no scenario matched", err=True)
        sys.exit(1)


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents
