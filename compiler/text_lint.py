"""Part of the check stage: every card's `text` held against its definition (W201), each finding
located on what the text says (or on the whole text for what it leaves out), with the text
generated from the definition as the suggestion. `text_check error|warning|off` in the game
block sets how findings are reported (warnings by default)."""

from __future__ import annotations

import re

from . import syntax as s
from .card_facts import card_facts
from .card_text import TextBook, TextTemplateError, template_folders
from .check_memo import MEMO
from .checked import Context
from .diagnostics import Diagnostic
from .library import library_root
from .text_check import compare
from .text_scan import Mention, Scanner
from .vocabulary import Vocabulary, vocabulary

MODES = ("warning", "error", "off")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def text_language(text: str, vocab: Vocabulary) -> str:
    """The language of the game a text seems to be written in (by its script)."""
    langs = vocab.languages
    if _KANA.search(text) and "ja" in langs:
        return "ja"
    if _HAN.search(text):
        return next((lang for lang in langs if lang.startswith("zh")), vocab.language)
    return "en" if "en" in langs else vocab.language


def text_check_mode(ctx: Context) -> str:
    """How the game wants text findings reported (and E104 for a mode it cannot have)."""
    game = ctx.sym.game
    prop = game.prop("text_check") if game is not None else None
    if prop is None:
        return "warning"
    words = prop.words()
    if len(words) != 1 or words[0] not in MODES:
        ctx.error("E104", "`text_check` takes one of " + ", ".join(MODES), prop.span)
        return "warning"
    return words[0]


def check_card_texts(ctx: Context) -> None:
    """W201 (or errors, as the game says) for every disagreement of a card's text and definition."""
    mode = text_check_mode(ctx)
    if mode == "off":
        return
    checked = ctx.checked
    vocab = vocabulary(checked)
    scanner = Scanner(vocab)
    book = TextBook(checked, vocab, template_folders(checked, library_root()))
    broken: set[str] = set()
    for name, card in ctx.sym.cards.items():
        prop = card.prop("text")
        text = checked.card_props.get(name, {}).get("text")
        if prop is None or not isinstance(text, str) or not text or card.prop("unchecked") is not None:
            continue
        known = MEMO.get(card)  # what this card's check found, in this environment
        findings = known.text_findings if known is not None and known.text_findings is not None else \
            compare(scanner.scan(text), card_facts(checked, scanner, name))
        if known is not None:
            known.text_findings = findings
        if not findings:
            continue
        language = text_language(text, vocab)
        suggestion = _suggestion(ctx, book, name, language, broken)
        for i, f in enumerate(findings):
            span = _mention_span(ctx, prop, text, f.mention) if f.mention is not None else prop.span
            message = f"card {name}: {f.describe(vocab, language)}"
            hint = "write the text from the definition, or change the definition" if i == 0 else None
            ctx.diags.append(_diagnostic(mode, message, span, hint, suggestion if i == 0 else None))


def _diagnostic(mode: str, message: str, span: s.Span, hint: str | None, suggestion: str | None) -> Diagnostic:
    return Diagnostic("W201", message, span, hint, suggestion, "error" if mode == "error" else "warning")


def _suggestion(ctx: Context, book: TextBook, name: str, language: str, broken: set[str]) -> str | None:
    """The card's generated text, or None (and one E117 per language) when its templates fail."""
    if language in broken:
        return None
    try:
        return book.text(name, language) or None
    except TextTemplateError as err:
        broken.add(language)
        game = ctx.sym.game
        where = s.Span(err.where[0], err.where[1], 1, err.where[1], 1) if err.where is not None else \
            game.name_span if game is not None else s.NO_SPAN
        ctx.error("E117", str(err), where, hint="fix the template, or remove it to use the library's phrasing")
        return None


def _mention_span(ctx: Context, prop: s.Opt, text: str, mention: Mention) -> s.Span:
    """Where a mention stands in the source: inside the string when the string is written on one
    line without escapes, else the whole text line."""
    if len(prop.atoms) != 1 or prop.atoms[0].kind != "str":
        return prop.span
    span = prop.atoms[0].span
    lines = s.source_lines(ctx.sym.sources.get(span.file, ""))
    if span.line != span.end_line or not 1 <= span.line <= len(lines):
        return prop.span
    raw = lines[span.line - 1][span.col - 1:span.end_col - 1]
    if raw[1:-1] != text:
        return prop.span
    return s.Span(span.file, span.line, span.col + 1 + mention.start, span.line, span.col + 1 + mention.end)
