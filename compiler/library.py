"""Where the bundled card library and grammar are (from a checkout and from an installed package)."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path


@cache
def package_folder(package: str) -> Path:
    """The folder of one of cardsmith's packages, found once per process (without importing it, and
    without `importlib.resources`, whose import alone costs a start-up more than the lookups)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"{package} is not installed as a folder")
    return Path(next(iter(spec.submodule_search_locations)))


def library_root() -> Path:
    """The bundled card library's folder."""
    return package_folder("cardsmith.cards")


def grammar_text() -> str:
    """The bundled grammar source."""
    return (package_folder("cardsmith.grammar") / "cardsmith.lark").read_text("utf-8")
