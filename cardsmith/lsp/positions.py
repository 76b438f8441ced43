"""Positions: an LSP position counts code units of the encoding client and server agreed on
(UTF-16 unless they agreed on another), a `Span` counts Python characters (code points), 1-based
with an exclusive end. A character outside the Basic Multilingual Plane (an emoji, a CJK
extension B ideograph) is one character and two UTF-16 units; CJK in the BMP is one of each.

Lines end at \\n (a \\r before it is not part of the line), as they do for the parser."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lsprotocol import types as lsp

from ..compiler.span import Span

UTF16, UTF8, UTF32 = "utf-16", "utf-8", "utf-32"
NAME = re.compile(r"(?!\d)\w+")  # the grammar's NAME


def char_units(ch: str, encoding: str = UTF16) -> int:
    """How many code units one character takes."""
    o = ord(ch)
    if encoding == UTF32:
        return 1
    if encoding == UTF8:
        return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return 2 if o > 0xFFFF else 1


def to_units(line: str, chars: int, encoding: str = UTF16) -> int:
    """The code units taken by the first `chars` characters of a line."""
    prefix = line[:max(chars, 0)]
    if encoding == UTF32 or prefix.isascii():
        return len(prefix)
    if encoding == UTF8:
        return len(prefix.encode("utf-8", "surrogatepass"))
    return len(prefix) + sum(1 for ch in prefix if ord(ch) > 0xFFFF)


def to_chars(line: str, units: int, encoding: str = UTF16) -> int:
    """The character index at a count of code units: a count inside a character (half of a
    surrogate pair) means the start of that character; one past the line, its end."""
    if encoding == UTF32 or line.isascii():
        return min(max(units, 0), len(line))
    count = 0
    for i, ch in enumerate(line):
        width = char_units(ch, encoding)
        if count + width > units:
            return i
        count += width
    return len(line)


@dataclass
class TextLines:
    """A text cut into lines, to convert positions and spans of that text."""

    text: str
    encoding: str = UTF16

    def __post_init__(self) -> None:
        self.lines = [line.removesuffix("\r") for line in self.text.split("\n")]

    def line(self, index: int) -> str:
        """The line at a 0-based index ("" past the end)."""
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def position(self, line: int, col: int) -> lsp.Position:
        """The LSP position of a 1-based line and column (clamped to the text)."""
        if line < 1:
            return lsp.Position(0, 0)
        if line > len(self.lines):
            return self.end()
        text = self.lines[line - 1]
        return lsp.Position(line - 1, to_units(text, min(max(col - 1, 0), len(text)), self.encoding))

    def range(self, span: Span) -> lsp.Range:
        """The LSP range of a span of this text."""
        start = self.position(span.line, span.col)
        end = self.position(span.end_line, span.end_col)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return lsp.Range(start, end)

    def end(self) -> lsp.Position:
        """The position just past the last character."""
        last = self.lines[-1]
        return lsp.Position(len(self.lines) - 1, to_units(last, len(last), self.encoding))

    def whole(self) -> lsp.Range:
        return lsp.Range(lsp.Position(0, 0), self.end())

    def line_col(self, position: lsp.Position) -> tuple[int, int]:
        """The 1-based line and column (in characters) of an LSP position."""
        index = min(max(position.line, 0), len(self.lines) - 1)
        if position.line >= len(self.lines):
            return len(self.lines), len(self.lines[-1]) + 1
        return index + 1, to_chars(self.lines[index], position.character, self.encoding) + 1

    def word_at(self, position: lsp.Position) -> tuple[str, int, int] | None:
        """The name under (or just before) a position: its text and its 1-based start and
        exclusive end columns."""
        line, col = self.line_col(position)
        text = self.line(line - 1)
        for match in NAME.finditer(text):
            if match.start() + 1 <= col <= match.end() + 1:
                return match.group(), match.start() + 1, match.end() + 1
        return None
