"""Where the bundled card library and grammar are (from a checkout and from an installed package)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def library_root() -> Path:
    """The bundled card library's folder."""
    return Path(str(resources.files("cardsmith.cards")))


def grammar_text() -> str:
    """The bundled grammar source."""
    return resources.files("cardsmith.grammar").joinpath("cardsmith.lark").read_text("utf-8")
