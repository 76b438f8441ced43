"""The rule reference in Markdown: one edition of the game's `Rulebook` (`rulebook.py`) through
a Jinja2 template. Every value the template prints is escaped, so a label cannot add headings,
tables, links or HTML; anchors and link targets are the book's own."""

from __future__ import annotations

import re

from jinja2 import Environment, PackageLoader, StrictUndefined

from ..runtime.display import printable
from .checked import Checked
from .rulebook import Rulebook, rulebook


class Md(str):
    """Markdown made by this module: printed as it is. Every other value the template
    prints is escaped, so a label cannot add headings, tables, links or HTML."""


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~!])")


def md(text: object) -> Md:
    """Text shown literally in Markdown (one line, special characters escaped)."""
    flat = printable(" ".join(str(text).split("\n")))
    return Md(_MD_SPECIAL.sub(r"\\\1", flat))


def _finalize(value: object) -> object:
    return value if isinstance(value, Md) or not isinstance(value, str) else md(value)


def render_markdown(book: Rulebook) -> str:
    """One edition as Markdown."""
    env = Environment(loader=PackageLoader("cardsmith.compiler", "templates"), undefined=StrictUndefined,
                      autoescape=False, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                      finalize=_finalize)
    env.filters["raw"] = Md
    text = env.get_template("rulebook.md.j2").render(
        title=book.title, words=book.words, chapters=book.chapters, glossary=book.glossary, groups=book.groups,
        decisions=book.decisions, index=book.index)
    return re.sub(r"\n{3,}", "\n\n", text)


def render_reference(checked: Checked, language: str | None = None) -> str:
    """The game's rule reference in Markdown, in its own language or the one given."""
    return render_markdown(rulebook(checked, language))
