"""`cardsmith demo`: the main job behind `make run`."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from .common import build_or_report, out_folder, summary, write
from .compiler.load import bundled_games
from .compiler.reference import render_reference
from .runtime.display import printable
from .runtime.log import lines_for
from .runtime.session import new_game, play, run_scenario
from .runtime.table import draw_picks


@click.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="out", show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
def demo(out_dir: str, seed: int) -> None:
    """The main job: check and build every bundled game, write the references, play one game each."""
    out = Path(out_dir)
    out_folder(out)
    for game in bundled_games():
        started = time.perf_counter()
        result = build_or_report(game, need_model=True)
        checked, rules = result.checked, result.rules
        assert checked is not None and rules is not None and result.python_source is not None
        sym = checked.symbols
        warnings = sum(1 for d in result.diagnostics if d.severity == "warning")
        click.echo(f"[{game}] checked {len(result.sources)} file(s): {len(sym.cards)} cards, "
                   f"{len(sym.procedures)} procedures, {len(sym.addenda)} addenda, no errors, "
                   f"{warnings} warning(s) ({time.perf_counter() - started:.2f}s)")
        failed = [name for name in rules.scenarios if run_scenario(rules, name) is not None]
        click.echo(f"[{game}] scenarios: {len(rules.scenarios) - len(failed)} passed, "
                   f"{len(failed)} failed" + (f" ({', '.join(failed)})" if failed else ""))
        write(out / f"{game}_rules.py", result.python_source)
        write(out / f"{game}_reference.md", render_reference(checked))
        click.echo(f"[{game}] wrote {out / (game + '_rules.py')} and {out / (game + '_reference.md')}")
        picks = draw_picks(rules, rules.table.min_players, seed)
        outcome = play(new_game(rules, picks, seed=seed))
        for line in lines_for(outcome.log, None)[-8:]:
            click.echo(printable(f"    {line}"))
        summary(outcome, picks, seed, click.echo)
        if outcome.error or failed:
            sys.exit(1)
