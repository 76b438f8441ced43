"""Text from sources and games made safe to print on a terminal.

Labels, log lines and source lines come from files that anyone may have written. Printed
as they are, control characters in them could clear the screen, move the cursor, set the
clipboard (OSC 52) or reorder what the reader sees (bidirectional controls). `printable`
shows every such character as a visible escape instead.
"""

from __future__ import annotations

import unicodedata


def _shown(ch: str) -> str:
    if ch.isprintable() or unicodedata.category(ch) == "Zs":
        return ch
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def printable(text: str) -> str:
    """`text` with control, format and line-separator characters shown as escapes
    (spaces of any width stay)."""
    if text.isprintable():
        return text
    return "".join(_shown(ch) for ch in text)
