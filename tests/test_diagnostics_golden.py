"""Golden diagnostics: each broken source in tests/data/diagnostics/ renders exactly as its .out file.

Set CARDSMITH_UPDATE_GOLDEN=1 to rewrite the .out files after an intended change (then read
the diff: it is the review)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardsmith.compiler.diagnostics import render_all
from cardsmith.compiler.load import build_sources, resolve_inputs

ROOT = Path(__file__).resolve().parent.parent
DATA = Path("tests") / "data" / "diagnostics"
CASES = sorted(p.name for p in (ROOT / DATA).glob("*.csm"))


@pytest.mark.parametrize("name", CASES)
def test_rendered_diagnostics_match(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    path = DATA / name
    sources, diags = resolve_inputs([str(path)])
    result = build_sources(sources, need_model=True)  # the library parsed once for every case (the tests' own cache)
    rendered = render_all(diags + result.diagnostics, sources) + "\n"
    expected_file = path.with_suffix(".out")
    if os.environ.get("CARDSMITH_UPDATE_GOLDEN"):
        expected_file.write_text(rendered, encoding="utf-8")
    assert rendered == expected_file.read_text(encoding="utf-8")
