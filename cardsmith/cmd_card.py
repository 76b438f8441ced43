"""`cardsmith card`: one card's definition, its text generated in every language of its game, the
designer's text, and where the two disagree."""

from __future__ import annotations

import click

from .common import build_or_report, fail
from .compiler import syntax as s
from .compiler.card_facts import card_facts
from .compiler.card_text import TextBook, TextTemplateError, template_folders
from .compiler.checked import Checked
from .compiler.diagnostics import did_you_mean
from .compiler.library import library_root
from .compiler.text_check import compare
from .compiler.text_lint import text_language
from .compiler.text_scan import Scanner
from .compiler.vocabulary import spellings, vocabulary
from .runtime.display import printable


@click.command()
@click.argument("game")
@click.argument("name")
@click.argument("paths", nargs=-1)
def card(game: str, name: str, paths: tuple[str, ...]) -> None:
    """Show the card NAME of GAME: its definition, the text generated from it in each of the
    game's languages, the designer's `text`, and every disagreement between text and definition.

    NAME is the card's name in the source, one of its labels in any language, or its number.
    PATHS are more files or folders of yours that add to the game (each starting `use GAME`)."""
    result = build_or_report(game, paths, need_model=True)
    assert result.checked is not None
    checked = result.checked
    ident = find_card(checked, name)
    vocab = vocabulary(checked)
    decl = checked.symbols.cards[ident]
    say = _say
    say(f"{ident} — {' / '.join(spellings(decl.labels))}   ({decl.span})")
    say("")
    say("definition")
    for line in _source_lines(checked, decl):
        say(f"  {line}")
    say("")
    say("generated text")
    book = TextBook(checked, vocab, template_folders(checked, library_root()))
    for language in vocab.languages:
        try:
            say(f"  {language:<8}{book.text(ident, language) or '(no rules text)'}")
        except TextTemplateError as err:
            fail(str(err))
    text = checked.card_props.get(ident, {}).get("text")
    say("")
    say("designer's text")
    say(f"  {text}" if text else "  (none)")
    if text:
        scanner = Scanner(vocab)
        findings = compare(scanner.scan(str(text)), card_facts(checked, scanner, ident))
        language = text_language(str(text), vocab)
        say("")
        if findings:
            say(f"disagreements ({len(findings)})")
            for f in findings:
                where = f"  at “{str(text)[f.mention.start:f.mention.end]}”" if f.mention is not None else ""
                say(f"  - {f.describe(vocab, language)}{where}")
        else:
            say("text and definition agree (keywords, timings, numbers, cards)")


def _say(line: str) -> None:
    click.echo(printable(line))


def find_card(checked: Checked, name: str) -> str:
    """The card named by its identifier, a label in any language or a number (exit 2 otherwise)."""
    cards = checked.symbols.cards
    if name in cards:
        return name
    by_key = vocabulary(checked).card_keys.get(name)
    if by_key is not None:
        return by_key
    by_label = sorted({ident for ident, decl in cards.items() if name in spellings(decl.labels)})
    if len(by_label) == 1:
        return by_label[0]
    if by_label:
        fail(f"several cards are called {name!r}: {', '.join(by_label)}; name one of them")
    known = list(cards) + [n for decl in cards.values() for n in spellings(decl.labels)]
    close = did_you_mean(name, known)
    fail(f"no card {name!r} in this game" + (f"; did you mean {close!r}?" if close else ""))


def _source_lines(checked: Checked, decl: s.Entity) -> list[str]:
    lines = s.source_lines(checked.symbols.sources.get(decl.span.file, ""))
    return lines[decl.span.line - 1:decl.span.end_line]

