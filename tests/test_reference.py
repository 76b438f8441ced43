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
    assert "**Step v.**" in text
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


def test_labels_cannot_inject_markdown_or_html() -> None:
    from markdown_it import MarkdownIt

    from cardsmith.compiler.reference import code
    from tests.helpers import build_text
    evil = '# Pwned | x | <script>alert(1)</script> [link](http://evil) `code` **bold**'
    text = (f'zone trap "{evil}": shared, holds chip\n'
            f'procedure shown(p) "{evil}" section 99:\n    step 1 "{evil}":\n        pass\n')
    result = build_text(text)
    assert result.ok and result.checked is not None
    html = MarkdownIt("commonmark").enable("table").render(render_reference(result.checked))
    assert "<script>" not in html and "<a " not in html and "<strong>bold" not in html
    assert "<h1>Pwned" not in html and "<code>code</code>" not in html
    row = next(r for r in html.split("<tr>") if "Pwned" in r and "trap" in r)
    assert row.count("<td>") == 6  # the zone table keeps its six columns
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in row
    assert code("a`b") == "``a`b``"  # a code span cannot be broken out of either
