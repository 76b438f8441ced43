"""Where the bundled card library is (from a checkout and from an installed package)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def library_root() -> Path:
    """The bundled card library's folder."""
    return Path(str(resources.files("cardsmith.cards")))
