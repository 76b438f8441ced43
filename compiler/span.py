"""Where a piece of source text is: `Span`, and how a source splits into lines. Kept apart
from the syntax model so that what only reports locations (diagnostics, the check cache)
does not load the whole model."""

from __future__ import annotations

from .frozen import frozen


@frozen
class Span:
    """A source range: 1-based line and column, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


def source_lines(text: str) -> list[str]:
    """A source's lines. Lines end at \\n (or \\r\\n) only, as they do for the parser: other
    characters that Python counts as line breaks (U+2028, U+0085, form feed) stay inside
    their line, so a comment cannot hide code behind one."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
