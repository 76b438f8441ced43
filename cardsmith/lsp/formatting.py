"""Formatting: a document in the canonical layout (`compiler.fmt.format_text`), as one edit of
the lines that change (the lines before and after them are left alone, so the editor keeps its
cursor and folds there)."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..compiler.fmt import format_text
from .positions import TextLines


def format_edits(text: str, path: str, encoding: str) -> list[lsp.TextEdit]:
    """The edits that lay out a document; raises `compiler.fmt.FormatError` when it cannot be."""
    result = format_text(text, path)
    if result == text:
        return []
    old, new = text.split("\n"), result.split("\n")
    same_start = 0
    while same_start < min(len(old), len(new)) - 1 and old[same_start] == new[same_start]:
        same_start += 1
    same_end = 0
    while (same_end < min(len(old), len(new)) - same_start - 1
           and old[len(old) - 1 - same_end] == new[len(new) - 1 - same_end]):
        same_end += 1
    lines = TextLines(text, encoding)
    start = lsp.Position(same_start, 0)
    if same_end == 0:
        end = lines.end()
        replaced = "\n".join(new[same_start:])
    else:
        end = lsp.Position(len(old) - same_end, 0)
        replaced = "\n".join(new[same_start:len(new) - same_end]) + "\n"
    return [lsp.TextEdit(lsp.Range(start, end), replaced)]
