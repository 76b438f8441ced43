"""`cardsmith ref`: the rule reference of a game, what its cards can use, or the language."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import GAME_HELP, build_or_report, fail, out_folder, write
from .compiler.card_text import TextTemplateError
from .compiler.langref import game_api, language_reference
from .compiler.reference import render_reference
from .compiler.site import write_site
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
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="Markdown (one document of one edition), or a static HTML site of every edition (needs --out).")
@click.option("--out", "out_file", type=click.Path(), help="Write to a file (Markdown) or a folder (HTML) "
              "instead of stdout.")
def ref(game: str | None, paths: tuple[str, ...], api: bool, language: bool, edition: str | None, fmt: str,
        out_file: str | None) -> None:
    if language:
        text = language_reference()
    elif game is None:
        fail("name a GAME (or give --language)")
    else:
        result = build_or_report(game, paths, need_model=True)
        assert result.checked is not None
        if fmt == "html":
            if out_file is None:
                fail("--format html writes a folder: give it with --out DIR")
            folder = Path(out_file)
            if folder.exists() and not folder.is_dir():
                fail(f"--out {out_file}: not a folder")
            out_folder(folder)
            editions = game_languages(result.checked.symbols)
            try:
                with click.progressbar(length=len(editions), label=f"{game}: {len(editions)} editions",
                                       file=sys.stderr) as bar:
                    written = write_site(result.checked, folder, done=lambda _: bar.update(1))
            except OSError as err:
                fail(f"cannot write {out_file}: {err.strerror or err}")
            except TextTemplateError as err:
                fail(str(err))
            click.echo(f"wrote {len(written)} files to {folder} (open {folder / 'index.html'})")
            return
        languages = game_languages(result.checked.symbols)
        if edition is not None and edition not in languages:
            fail(f"--lang {edition}: this game's editions are {', '.join(languages)}")
        try:
            text = game_api(result.checked) if api else render_reference(result.checked, edition)
        except TextTemplateError as err:
            fail(str(err))
    if out_file:
        write(Path(out_file), text)
        click.echo(f"wrote {out_file} ({text.count(chr(10))} lines)")
    else:
        click.echo(text, nl=False)
