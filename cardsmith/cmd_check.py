"""`cardsmith check`, `build`, `explain` and `schema`."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .common import GAME_HELP, build_or_report, fail, out_folder, write
from .compiler.check_cache import check_outcome
from .compiler.diagnostics import CODES, render_all, to_json
from .compiler.diagnostics import explain as explain_code
from .compiler.load import bundled_games, resolve_inputs
from .runtime.display import printable

if TYPE_CHECKING:
    from .compiler.checked import Checked
    from .compiler.printed import Verdict


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--printed", "printed_file", type=click.Path(dir_okay=False),
              help="A CSV or JSON file of printed card texts to check against the definitions "
                   "(the first of PATHS is the game).")
@click.option("--printed-number", default="number", show_default=True, metavar="COLUMN",
              help="The column of --printed that holds the card number (or the card's name in the source).")
@click.option("--printed-text", default="text", show_default=True, metavar="COLUMN",
              help="The column of --printed that holds the printed text.")
@click.option("--printed-field", "printed_fields", multiple=True, metavar="FIELD=COLUMN",
              help="Also compare a field of the cards with a column of printed numbers (repeatable), "
                   "e.g. power=power.")
@click.option("--printed-by", metavar="FIELD", help="Sum the agreement up per value of this card field (a character field, say).")
@click.option("--quiet", is_flag=True, help="With --printed: print only the summary.")
@click.option("--watch", is_flag=True,
              help="Keep running: check again each time a source or card-text template changes, "
                   "re-reading only what changed (a card edit takes milliseconds, not seconds). Parses "
                   "and checks but does not generate code, so over-complex declarations (E004) are left "
                   "to a plain check. With --format json, one JSON line per check. Ctrl-C stops.")
def check(paths: tuple[str, ...], fmt: str, printed_file: str | None, printed_number: str, printed_text: str,
          printed_fields: tuple[str, ...], printed_by: str | None, quiet: bool, watch: bool) -> None:
    """Check card sources: PATHS are files, folders or bundled game names (default: every game).

    A file that starts with `use GAME` is checked together with that bundled game.
    Exits 1 when any error is found. With --printed, checks a file of printed card texts against
    the game's cards instead, and exits 1 when any card disagrees or is not found."""
    if printed_file is not None and watch:
        fail("--watch cannot be combined with --printed")
    if watch:
        from .watch import watch_check
        watch_check(group_targets(list(paths) or bundled_games()), fmt)
        return
    if printed_file is not None:
        if not paths:
            fail("--printed needs the game: cardsmith check GAME [PATH…] --printed FILE")
        report_printed(paths, Path(printed_file), printed_number, printed_text, printed_fields, printed_by,
                       fmt, quiet)
        return
    targets = list(paths) or bundled_games()
    all_diags = []
    all_sources: dict[str, str] = {}
    summaries = []
    for group in group_targets(targets):
        sources, diags = resolve_inputs(group)
        all_sources.update(sources)
        if sources:
            started = time.perf_counter()
            outcome, remembered = check_outcome(sources)
            diags.extend(outcome.diagnostics)
            if outcome.game is not None:
                summaries.append(summary_line(outcome.game, len(sources), outcome.cards, outcome.procedures,
                                              outcome.scenarios, time.perf_counter() - started,
                                              " (unchanged since the last check)" if remembered else ""))
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


def summary_line(game: str, files: int, cards: int, procedures: int, scenarios: int, seconds: float,
                 how: str = "") -> str:
    """The line that sums up the check of one game."""
    return (f"{game}: {files} file(s), {cards} card(s), {procedures} procedure(s), {scenarios} scenario(s) "
            f"checked in {seconds:.2f}s{how}")


def report_printed(paths: tuple[str, ...], printed_file: Path, number: str, text: str, fields: tuple[str, ...],
                   by: str | None, fmt: str, quiet: bool) -> None:
    """`check GAME --printed FILE`: every printed record against the card it names."""
    from .compiler.printed import PrintedCheck, PrintedError, field_columns, read_printed
    result = build_or_report(paths[0], paths[1:], fmt, need_model=True)
    assert result.checked is not None
    checked = result.checked
    if by is not None and by not in checked.symbols.fields:
        fail(f"--printed-by: the game has no field {by!r}")
    try:
        records = read_printed(printed_file, number, text, field_columns(fields, checked))
    except PrintedError as err:
        fail(str(err))
    judge = PrintedCheck(checked)
    verdicts = judge.all(records)
    groups = agreement_by(verdicts, checked, by)
    agreeing = sum(v.agrees for v in verdicts)
    missing = sum(v.card is None for v in verdicts)
    if fmt == "json":
        import json  # here: only --format json needs it, and a plain `check` starts faster without
        click.echo(json.dumps({
            "records": len(verdicts), "agree": agreeing, "not_found": missing,
            "cards": [{"row": v.record.row, "number": v.record.number, "card": v.card, "agrees": v.agrees,
                       "problems": v.problems(judge.vocab)} for v in verdicts],
            "by": {k: {"agree": a, "cards": n} for k, (a, n) in groups.items()},
        }, ensure_ascii=False, indent=2))
    else:
        if not quiet:
            for v in verdicts:
                if not v.agrees:
                    click.echo(printable(f"{printed_file}: record {v.record.row} ({v.record.number}"
                                         f"{', ' + v.card if v.card else ''}):"))
                    for problem in v.problems(judge.vocab):
                        click.echo(printable(f"    {problem}"))
        if by is not None:
            click.echo(agreement_table(groups, by))
        found = len(verdicts) - missing
        share = f" ({agreeing / found:.1%} of those found)" if found else ""
        click.echo(f"{agreeing} of {len(verdicts)} printed cards agree fully with their definitions{share}; "
                   f"{missing} not found")
    if agreeing < len(verdicts):
        sys.exit(1)


def agreement_by(verdicts: list[Verdict], checked: Checked, by: str | None) -> dict[str, tuple[int, int]]:
    """(agreeing, found) per value of a card field, for the records that name a card."""
    groups: dict[str, tuple[int, int]] = {}
    if by is None:
        return groups
    for v in verdicts:
        if v.card is None:
            continue
        key = str(checked.card_props.get(v.card, {}).get(by, ""))
        agree, total = groups.get(key, (0, 0))
        groups[key] = (agree + v.agrees, total + 1)
    return dict(sorted(groups.items()))


def agreement_table(groups: dict[str, tuple[int, int]], by: str) -> str:
    """The agreement per group as a plain-text table."""
    width = max([len(by), *(len(k) for k in groups)])
    lines = [f"{by:<{width}}  agree  cards  share", f"{'-' * width}  -----  -----  -----"]
    for key, (agree, total) in groups.items():
        lines.append(f"{key:<{width}}  {agree:>5}  {total:>5}  {agree / total:>5.0%}")
    return "\n".join(printable(line) for line in lines)


def group_targets(targets: list[str]) -> list[list[str]]:
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
@click.argument("which", type=click.Choice(["protocol", "events", "check", "watch", "printed"]), default="protocol")
def schema(which: str) -> None:
    """Print a JSON Schema: of the protocol bots speak (`play --agent jsonl`), of the events
    file (`play --events`), or of what `check --format json` writes (`check`: one document;
    `watch`: each line of `check --watch`; `printed`: `check --printed FILE`)."""
    import json

    from .check_report import schema as report_schema
    from .runtime.events import schema as events_schema
    from .runtime.protocol import schema as protocol_schema
    document = protocol_schema() if which == "protocol" else events_schema() if which == "events" \
        else report_schema(which)
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
