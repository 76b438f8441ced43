"""`cardsmith ref`: the rule reference of a game, what its cards can use, or the language."""

from __future__ import annotations

from pathlib import Path

import click

from .common import GAME_HELP, build_or_report, fail, write
from .compiler.langref import game_api, language_reference
from .compiler.reference import render_reference
from .compiler.vocabulary import game_languages


@click.command(help="Write GAME's numbered rule reference (Markdown), generated from the checked "
                    "source; with --api, what its cards can use; with --language (and no GAME), the "
                    "reference of the language itself. " + GAME_HELP)
@click.argument("game", required=False)
@click.argument("paths", nargs=-1)
@click.option("--api", is_flag=True, help="List the game's zones, counters, fields, timings, events, "
              "keywords, values and procedures with their parameters.")
@click.option("--language", is_flag=True, help="The language reference (every statement, expression, "
              "built-in, declaration and option), as in docs/LANGUAGE.md.")
@click.option("--lang", "edition", metavar="LANG", help="The edition's language (default: the game's own; "
              "any language the game has labels in, e.g. zh, ja, en).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
def ref(game: str | None, paths: tuple[str, ...], api: bool, language: bool, edition: str | None,
        out_file: str | None) -> None:
    if language:
        text = language_reference()
    elif game is None:
        fail("name a GAME (or give --language)")
    else:
        result = build_or_report(game, paths, need_model=True)
        assert result.checked is not None
        languages = game_languages(result.checked.symbols)
        if edition is not None and edition not in languages:
            fail(f"--lang {edition}: this game's editions are {', '.join(languages)}")
        text = game_api(result.checked) if api else render_reference(result.checked, edition)
    if out_file:
        write(Path(out_file), text)
        click.echo(f"wrote {out_file} ({text.count(chr(10))} lines)")
    else:
        click.echo(text, nl=False)
