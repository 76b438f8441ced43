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


def test_an_addendum_keeps_its_own_paragraph_numbers(sakura: BuildResult) -> None:
    """Each goddess addendum is its seed section; its rules are listed, each procedure with
    its own paragraph number, never renumbered in order (which would clash with the seed's)."""
    assert sakura.checked is not None
    text = render_reference(sakura.checked)
    oboro = text.split("## 3 Addendum: ")[1].split("\n## ")[0]
    assert "Active when a player hosts: oboro, oboro\\_a1, oboro\\_a2." in oboro
    assert re.search(r"^- \*\*\[3-2\]\*\* Procedure \*\*.+\*\*", oboro, re.MULTILINE)
    assert not re.search(r"^3-\d+\. ", oboro, re.MULTILINE)
    assert "## Addendum: 胧的卡牌所需的规则" in text  # an addendum of card hooks has no seed number


def test_every_rule_of_an_addendum_shows_its_paragraph_and_an_extended_zone_is_not_new(
        sakura: BuildResult) -> None:
    """Tokens, zones, values and step additions carry seed numbers as procedures do; a zone an
    addendum extends (`zone aura: also holds …`) is named as the core's zone, not as a new one."""
    assert sakura.checked is not None
    text = render_reference(sakura.checked)
    korunu = text.split("## 13 Addendum: ")[1].split("\n## ")[0]
    assert re.search(r"^- \*\*\[13-1\]\*\* New token \*\*.+\*\* \(`korunu_frost`\)", korunu, re.MULTILINE)
    assert re.search(r"^- \*\*\[13-3\]\*\* Zone \*\*装\*\* \(`aura`\): also holds", korunu, re.MULTILINE)
    assert "New zone **aura**" not in korunu


def test_ranges_with_gaps_are_printed_as_they_are(sakura: BuildResult) -> None:
    assert sakura.checked is not None
    text = render_reference(sakura.checked)
    assert re.search(r"`oboro_a2_n1` \| 全息苦无 \| .* \| 适正距离 1,3,5, 伤害 1/1", text)
    assert re.search(r"`yurina_n1` \| .* \| 适正距离 3-4, 伤害 3/1", text)


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
