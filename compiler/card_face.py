"""A card's face as a standalone SVG, drawn from its checked definition (for the reference's card
gallery).

The card is described to the template as a `FaceCard`: game-agnostic, typed, with every label
already in the language asked for (its names, the words of its `one of` and `set of` fields, its
numbers, keywords, flags, characters and text fields, and its generated rules text). The SVG
comes from a Jinja2 template `card.svg.j2` found like the card-text templates: beside the game's
sources (`text/card.svg.j2`) first, then the library's (`cards/text/card.svg.j2`), which draws any
game's card. Templates are data, not code: they run in Jinja2's sandbox with autoescape on, so
what a source says reaches the SVG only as escaped text. Laying text out is done here, by
display width (wide characters take two columns), through `wrap` and `line`, which the template
calls with the room it has.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import (
    ChoiceLoader,
    FileSystemLoader,
    PrefixLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
)
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..runtime.values import Pair
from .card_text import TextBook, TextTemplateError
from .checked import Checked
from .diagnostics import display_width
from .vocabulary import Term, Vocabulary, label_in, spellings

FACE_TEMPLATE = "card.svg.j2"
LIBRARY_PREFIX = "library"  # `{% import "library/card.svg.j2" as base %}`: the library's template from a game's
SVG_NS = "http://www.w3.org/2000/svg"
NUMBER_TYPES = ("int", "pair", "range")

_EXPLANATION = re.compile(r"\s*[（(][^（）()]*[）)]\s*$")
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# a line does not start with a closing mark nor end with an opening one
_CLOSING = set("，。、．：；！？）」』】〉》〕］｝・ー…‥％,.;:!?)]}%")
_OPENING = set("（「『【〈《〔［｛([{")


class FaceTemplateError(TextTemplateError):
    """A card-face template that cannot be read or rendered, or that gives no well-formed SVG:
    its file and the reason."""


# ---- the description the template draws ----

@dataclass(frozen=True)
class Word:
    """One word of an enum or set field: its identifier, its label in the language (the
    identifier where the game gives it none), and its place among the field's declared words
    (for a stable colour)."""

    ident: str
    label: str
    index: int
    labelled: bool


@dataclass(frozen=True)
class Choice:
    """The value of a `one of` field (kind "one", one word) or a `set of` field (kind "set")."""

    field: str
    label: str
    kind: str
    words: tuple[Word, ...]

    @property
    def word(self) -> Word | None:
        return self.words[0] if self.words else None


@dataclass(frozen=True)
class Number:
    """A number field's value as printed: `3` (int), `3/1` (pair), `3-4` (range), with the
    field's label (and the label without a trailing explanation in brackets, `short`)."""

    field: str
    label: str
    short: str
    kind: str
    text: str


@dataclass(frozen=True)
class Mark:
    """A keyword or a flag (a true `bool` field that is not a keyword) the card has, with its
    label without a trailing explanation in brackets (`short`)."""

    ident: str
    label: str
    short: str


@dataclass(frozen=True)
class Entry:
    """A character or text field: the field's label and the value's (a character's label)."""

    field: str
    label: str
    value: str


@dataclass(frozen=True)
class FaceCard:
    """What a card face shows, in one language, for any game."""

    ident: str
    language: str
    name: str
    other_names: tuple[str, ...]
    choices: tuple[Choice, ...]
    numbers: tuple[Number, ...]
    keywords: tuple[Mark, ...]
    flags: tuple[Mark, ...]
    characters: tuple[Entry, ...]
    texts: tuple[Entry, ...]
    rules_text: str
    invented: bool

    @property
    def tone(self) -> Word | None:
        """The word of the card's first `one of` field (what the default frame colour follows)."""
        return next((c.word for c in self.choices if c.kind == "one" and c.word is not None), None)

    def choice(self, field: str) -> Choice | None:
        return next((c for c in self.choices if c.field == field), None)

    def number(self, field: str) -> Number | None:
        return next((n for n in self.numbers if n.field == field), None)

    def numbers_except(self, *fields: str) -> list[Number]:
        return [n for n in self.numbers if n.field not in fields]

    def character(self, field: str) -> Entry | None:
        return next((e for e in self.characters if e.field == field), None)

    def text_of(self, field: str) -> Entry | None:
        return next((e for e in self.texts if e.field == field), None)

    def has(self, ident: str) -> bool:
        """Whether the card has this keyword or flag."""
        return any(m.ident == ident for m in (*self.keywords, *self.flags))


def describe(checked: Checked, vocab: Vocabulary, book: TextBook, name: str, language: str) -> FaceCard:
    """The card `name` as its face shows it in `language`."""
    sym = checked.symbols
    if name not in sym.cards:
        raise KeyError(f"no card {name!r}")
    props = checked.card_props.get(name, {})
    writer = book.writer(language)

    def label(labels: Any, fallback: str) -> str:
        return _clean(label_in(labels, language, vocab.language) or labels.default or fallback)

    def word(ident: str, index: int) -> Word:
        text = writer.word(ident)
        return Word(ident, _clean(text), index, text != ident)

    choices, numbers, keywords, flags, characters, texts = [], [], [], [], [], []
    for field, info in sym.fields.items():
        value = props.get(field)
        if value is None:
            continue
        flabel = label(info.decl.labels, field)
        if info.type == "enum" and isinstance(value, str):
            choices.append(Choice(field, flabel, "one", (word(value, _index(info.choices, value)),)))
        elif info.type == "set" and value:
            choices.append(Choice(field, flabel, "set",
                                  tuple(word(w, _index(info.choices, w)) for w in value)))
        elif info.type in NUMBER_TYPES:
            text = number_text(value)
            if text is not None:
                numbers.append(Number(field, flabel, _short(flabel), info.type, text))
        elif info.type == "bool" and value is True:
            if info.keyword:
                kw = _clean(vocab.label(Term.KEYWORD, field, language))
                keywords.append(Mark(field, kw, kw))
            elif info.under is None:  # a field printed under a timing is in the rules text already
                flags.append(Mark(field, flabel, _short(flabel)))
        elif info.type == "character" and isinstance(value, str) and value in sym.characters:
            characters.append(Entry(field, flabel, label(sym.characters[value].labels, value)))
        elif info.type == "text" and isinstance(value, str) and value:
            texts.append(Entry(field, flabel, _clean(value)))
    shown = _clean(vocab.label(Term.CARD, name, language))
    others = tuple(n for n in (_clean(x) for x in spellings(sym.cards[name].labels)) if n != shown)
    return FaceCard(
        ident=name, language=language, name=shown, other_names=others, choices=tuple(choices),
        numbers=tuple(numbers), keywords=tuple(keywords), flags=tuple(flags), characters=tuple(characters),
        texts=tuple(texts), rules_text=_clean(book.text(name, language)), invented=bool(props.get("invented")))


def _short(label: str) -> str:
    """A label without the explanation it may carry in brackets at its end."""
    return _EXPLANATION.sub("", label) or label


def _index(choices: Sequence[str], word: str) -> int:
    return choices.index(word) if word in choices else len(choices)


def number_text(value: Any) -> str | None:
    """A number field's value as printed: 3, 3/1, -/1, {2/1}, 3-4, 1-2,5."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Pair):
        return str(value)
    if isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):
        runs: list[list[int]] = []
        for v in sorted(set(value)):
            if runs and v == runs[-1][-1] + 1:
                runs[-1].append(v)
            else:
                runs.append([v])
        return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
    return None


def _clean(text: str) -> str:
    """Text without the characters XML cannot hold (control characters)."""
    return _NOT_XML.sub("\ufffd", text)


# ---- laying text out ----

@dataclass(frozen=True)
class Line:
    """One line of text at a font size that fits its room; `squeeze` (the room's width) when it
    fits only squeezed (`textLength`)."""

    text: str
    size: float
    squeeze: float | None


@dataclass(frozen=True)
class Block:
    """Text wrapped to fit a box: its lines, the font size, the distance between baselines, and
    whether text had to be cut (with an ellipsis) to fit."""

    lines: tuple[str, ...]
    size: float
    leading: float
    cut: bool


BOLD = 1.12  # how much wider a narrow character is in bold


@lru_cache(maxsize=8192)
def char_em(ch: str, bold: bool = False) -> float:
    """An estimate of a character's advance in ems: a wide character (two display columns) one em,
    a narrow one about half, by its shape (wider in bold)."""
    width = display_width(ch)
    if width == 2:
        return 1.0
    if bold:
        return char_em(ch) * BOLD
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0.0
    if ch == " ":
        return 0.32
    if ch in "iljtfrI.,:;'|!`()[]{}/-":
        return 0.36
    if ch in "mwMW%@":
        return 0.9
    if ch.isupper() or ch.isdigit():
        return 0.68
    return 0.6


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An estimate of the text's width at a font size."""
    return sum(char_em(ch, bold) for ch in text) * size


def line(text: str, width: float, size: float, min_size: float | None = None, bold: bool = False) -> Line:
    """The text on one line in `width`: at `size`, or smaller down to `min_size`, else squeezed."""
    flat = " ".join(text.split())
    low = min_size if min_size is not None else size * 0.6
    current = float(size)
    while text_width(flat, current, bold) > width and current > low:
        current = max(low, current * 0.94)
    squeeze = float(width) if text_width(flat, current, bold) > width else None
    return Line(flat, round(current, 1), squeeze)


def wrap(text: str, width: float, height: float, size: float, min_size: float | None = None,
         leading: float = 1.3, bold: bool = False) -> Block:
    """The text wrapped in a box of `width` by `height`: at `size`, or the largest size down to
    `min_size` at which every line fits; at `min_size` the lines that do not fit are cut."""
    low = min_size if min_size is not None else size * 0.55
    current = float(size)
    while True:
        lines = wrap_lines(text, width / current, bold)
        if len(lines) * current * leading <= height or current <= low:
            break
        current = max(low, current * 0.94)
    room = max(1, int(height // (current * leading)))
    cut = len(lines) > room
    if cut:
        lines = lines[:room]
        last = lines[-1]
        while last and text_width(last + "…", current, bold) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    return Block(tuple(lines), round(current, 1), round(current * leading, 1), cut)


def wrap_lines(text: str, ems: float, bold: bool = False) -> list[str]:
    """Lines of at most `ems` (the estimate of `char_em`): Latin text breaks between words, wide
    text between characters, never before a closing mark nor after an opening one; a word
    longer than a line is broken where it must."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines.extend(_wrap_paragraph(paragraph, ems, bold))
    return lines or [""]


def _wrap_paragraph(text: str, ems: float, bold: bool) -> list[str]:
    lines: list[str] = []
    current, used = "", 0.0
    for token in _tokens(text):
        size = sum(char_em(ch, bold) for ch in token)
        if token.isspace():
            if current and used + size <= ems:
                current, used = current + " ", used + size
            elif current:
                lines.append(current.rstrip())
                current, used = "", 0.0
            continue
        if used + size <= ems:
            current, used = current + token, used + size
            continue
        if current.strip():
            lines.append(current.rstrip())
        current, used = "", 0.0
        while size > ems and len(token) > 1:  # a token longer than a line
            cut = 1
            while cut < len(token) and sum(char_em(ch, bold) for ch in token[:cut + 1]) <= ems:
                cut += 1
            lines.append(token[:cut])
            token = token[cut:]
            size = sum(char_em(ch, bold) for ch in token)
        current, used = token, size
    if current.strip() or not lines:
        lines.append(current.rstrip())
    return lines


def _tokens(text: str) -> list[str]:
    """What a line may break between: runs of spaces, runs of narrow characters (words), and
    single wide characters; a closing mark sticks to what it follows, an opening mark to what
    follows it."""
    raw: list[str] = []
    for ch in text.replace("\t", " "):
        wide = display_width(ch) == 2
        if ch == " ":
            if raw and raw[-1].isspace():
                raw[-1] += ch
            else:
                raw.append(ch)
        elif wide or not raw or raw[-1].isspace() or display_width(raw[-1][-1]) == 2:
            raw.append(ch)
        else:
            raw[-1] += ch
    glued: list[str] = []
    for token in raw:
        if glued and not token.isspace() and token[0] in _CLOSING and not glued[-1].isspace():
            glued[-1] += token
        elif glued and not token.isspace() and glued[-1][-1] in _OPENING:
            glued[-1] += token
        else:
            glued.append(token)
    return glued


# ---- rendering ----

@lru_cache(maxsize=16)
def _environment(folders: tuple[Path, ...]) -> ImmutableSandboxedEnvironment:
    """The sandbox the face templates of these folders run in (`card.svg.j2` is the first
    folder's that has one; `library/card.svg.j2` the last folder's, the library's)."""
    loaders: list[Any] = [FileSystemLoader([str(f) for f in folders])]
    if folders:
        loaders.append(PrefixLoader({LIBRARY_PREFIX: FileSystemLoader(str(folders[-1]))}))
    env = ImmutableSandboxedEnvironment(loader=ChoiceLoader(loaders), undefined=StrictUndefined,
                                        autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.globals.update(wrap=wrap, line=line, text_width=text_width)
    return env


def card_face(checked: Checked, vocab: Vocabulary, book: TextBook, name: str, language: str) -> str:
    """The face of card `name` in `language`: one standalone SVG document (an `<svg>` element in
    the SVG namespace with a viewBox), the same for the same card every time."""
    card = describe(checked, vocab, book, name, language)
    folders = tuple(book.folders)
    env = _environment(folders)
    where = " / ".join(str(f / FACE_TEMPLATE) for f in folders if (f / FACE_TEMPLATE).is_file())
    try:
        template = env.get_template(FACE_TEMPLATE)
    except TemplateNotFound:
        raise FaceTemplateError(f"no card-face template {FACE_TEMPLATE} in "
                                + ", ".join(str(f) for f in folders)) from None
    except TemplateSyntaxError as err:
        raise FaceTemplateError(f"{err.filename or where}:{err.lineno}: {err.message}") from None
    except TemplateError as err:
        raise FaceTemplateError(f"{where}: {err}") from None
    source = template.filename or where
    try:
        svg = template.render(card=card)
    except TemplateError as err:  # an unsafe access (SecurityError) or an undefined name, too
        raise FaceTemplateError(f"{source}: card {name}: {err}") from None
    except Exception as err:  # whatever else an expression in the template raises (1 // 0, …)
        raise FaceTemplateError(f"{source}: card {name}: {type(err).__name__}: {err}") from None
    _check_svg(svg, source)
    return svg


def _check_svg(svg: str, source: str) -> None:
    """The template's output must be one SVG element, without declarations (no entities)."""
    if re.search(r"<!(?!--)", svg):
        raise FaceTemplateError(f"{source}: the SVG may not hold declarations (<!DOCTYPE, <!ENTITY, …)")
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as err:
        raise FaceTemplateError(f"{source}: not well-formed SVG: {err}") from None
    if root.tag != f"{{{SVG_NS}}}svg" or "viewBox" not in root.attrib:
        raise FaceTemplateError(f"{source}: the document is not an <svg> element in the SVG namespace "
                                "with a viewBox")
