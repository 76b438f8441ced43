"""Reference generation: numbered sections from the checked model, addenda included."""

from __future__ import annotations

import re

from cardsmith.compiler.load import BuildResult
from cardsmith.compiler.reference import render_reference


def test_reference_has_numbered_core_sections_addenda_and_cards(sakura: BuildResult) -> None:
    assert sakura.checked is not None
    text = render_reference(sakura.checked)
    headings = re.findall(r"^## (\S+) (.+)$", text, re.MULTILINE)
    numbers = [n for n, _ in headings]
    assert "9-4" in numbers and "8-1" in numbers and "21" in numbers and "22" in numbers
    assert any("Addendum" in title for _, title in headings)
    assert "Step v." in text or "**Step v.**" in text
    # replacements are shown under the step they replace
    assert re.search(r"Step ii\.\*\* .+\n\n   - \*Addendum", text)
    # every card appears with its numbers
    for ident in sakura.checked.symbols.cards:
        if not sakura.checked.card_props[ident].get("fixture"):
            assert f"`{ident}`" in text


def test_reference_follows_the_source(sakura: BuildResult) -> None:
    assert sakura.checked is not None
    text = render_reference(sakura.checked)
    first = sakura.checked.symbols.procedures["resolve_attack"].steps[0]
    assert (first.labels.default or "") in text
