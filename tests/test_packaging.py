"""Packaging: the wheel carries the grammar, the templates and the whole card library."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_contains_grammar_templates_and_cards(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 and "No module named" in proc.stderr:
        pytest.skip("setuptools is not available for an offline build")
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("cardsmith-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cardsmith/grammar/cardsmith.lark" in names
    assert "cardsmith/compiler/templates/rulebook.md.j2" in names
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "cards").rglob("*.csm")}
    assert sources and {f"cardsmith/{s}" for s in sources} <= names


def test_every_card_folder_is_a_listed_package() -> None:
    """A folder of the library that pyproject.toml does not list would be left out of the
    wheel (and setuptools warns about it)."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"])
    folders = {"cardsmith.cards." + ".".join(p.relative_to(ROOT / "cards").parts)
               for p in (ROOT / "cards").rglob("*") if p.is_dir() and any(p.glob("*.csm"))}
    assert folders <= listed, f"add to pyproject.toml packages: {sorted(folders - listed)}"
