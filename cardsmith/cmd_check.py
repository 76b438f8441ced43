"""`cardsmith check`, `build`, `explain` and `schema`."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from .common import GAME_HELP, build_or_report, fail, out_folder, write
from .compiler.diagnostics import CODES, render_all, to_json
from .compiler.diagnostics import explain as explain_code
from .compiler.load import build_sources, bundled_games, resolve_inputs
from .runtime.events import schema as events_schema
from .runtime.protocol import schema as protocol_schema


@click.command()
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


def _group_targets(targets: list[str]) -> list[list[str]]:
    """Each bundled game name is checked on its own; files and folders together."""
    games = [[t] for t in targets if t in bundled_games() and not Path(t).exists()]
    rest = [t for t in targets if not (t in bundled_games() and not Path(t).exists())]
    return games + ([rest] if rest else [])


@click.command(help="Compile GAME (default: every bundled game) to a Python module in OUT. " + GAME_HELP)
@click.argument("game", required=False)
@click.argument("paths", nargs=-1)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="out", show_default=True,
              help="Where to write the generated Python modules.")
def build(game: str | None, paths: tuple[str, ...], out_dir: str) -> None:
    out = Path(out_dir)
    out_folder(out)
    for target in [game] if game else bundled_games():
        started = time.perf_counter()
        result = build_or_report(target, paths if game else (), need_model=True)
        assert result.python_source is not None and result.rules is not None
        path = out / f"{result.rules.game}_rules.py"
        write(path, result.python_source)
        lines = result.python_source.count("\n")
        click.echo(f"{result.rules.game}: {result.stats.get('cards', 0)} cards → {path} ({lines} lines) "
                   f"in {time.perf_counter() - started:.2f}s")


@click.command()
@click.argument("which", type=click.Choice(["protocol", "events"]), default="protocol")
def schema(which: str) -> None:
    """Print a JSON Schema: of the protocol bots speak (`play --agent jsonl`), or of the
    events file (`play --events`)."""
    document = protocol_schema() if which == "protocol" else events_schema()
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))


@click.command()
@click.argument("code", required=False)
@click.option("--list", "listing", is_flag=True, help="List every diagnostic code with its title.")
def explain(code: str | None, listing: bool) -> None:
    """Print the long explanation of a diagnostic CODE (e.g. E101), or list every code."""
    if listing or code is None:
        for known, (title, _) in sorted(CODES.items()):
            click.echo(f"{known}  {title}")
        return
    text = explain_code(code)
    if text is None:
        fail(f"no diagnostic code {code!r}; codes look like E101 or W201 (`cardsmith explain --list`)")
    click.echo(text)
