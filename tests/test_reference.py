"""The rule reference (a Rulebook rendered as Markdown): chapters numbered as the source numbers
them, steps numbered in brackets after their rule, addenda in chapters of their own and shown
under the steps they change, decisions and worked examples under their rules, a glossary, a
card gallery, an index; links that resolve; labels that cannot inject Markdown."""

from __future__ import annotations

import re

import pytest

from cardsmith.compiler.checked import Checked
from cardsmith.compiler.decisions import decisions
from cardsmith.compiler.load import BuildResult, bundled_games
from cardsmith.compiler.reference import render_reference
from cardsmith.compiler.rulebook import rulebook
from tests.helpers import edition, languages, reference_markdown


@pytest.fixture(scope="module")
def en() -> str:
    return reference_markdown("sakura", "en")


def test_core_rules_keep_their_numbers_and_steps_are_numbered_after_them(en: str) -> None:
    numbers = re.findall(r"^#{3,} (\S+) ", en, re.MULTILINE)
    assert "9-4" in numbers and "8-1" in numbers and "9-2" in numbers
    assert "9-2 (ii)" in en and "8-1 (iv)" in en
    assert not re.search(r"^#+ 9-2-1\. Step", en, re.MULTILINE)  # a step never reads as a subsection


def test_an_addendum_has_its_own_chapter_with_its_own_numbers_and_shows_under_the_step_it_changes(en: str) -> None:
    assert "## §3 Addendum §3: " in en and "## §22 Addendum §22: " in en
    oboro = en.split("## §3 Addendum §3: ")[1].split("\n## ")[0]
    assert "In force when a player hosts" in oboro
    assert re.search(r"^#{3,} §3-2 ", oboro, re.MULTILINE)
    # 志水's replacement of the attack's damage step is shown under that step, linked to her chapter
    damage = en.split("9-4 (5)")[1].split("\n#")[0]
    assert "instead of this step" in damage and re.search(r"\]\(#a(dd)?22", damage)


def test_decisions_stand_under_the_rule_they_decide(sakura: BuildResult) -> None:
    assert sakura.checked is not None
    book = edition("sakura", "en")
    placed = [d for ch in book.chapters for r in _all(ch.rules) for d in r.decisions]
    tied = [d.text_in("en", "zh") for d in decisions(sakura.checked.symbols) if d.procedure is not None]
    assert tied and all(text in placed for text in tied)
    # one that starts with a paragraph number stands under that paragraph of its addendum (森罗 5-3)
    shinra = next(ch for ch in book.chapters if ch.number == "§5")
    assert any(d.startswith("5-3:") for r in _all(shinra.rules) if r.number == "§5-3" for d in r.decisions)
    # one that starts with a card's name stands with that card in the gallery (神威's 灯)
    lamp = next(c for g in book.groups for c in g.cards if "灯" in [n for _, n in c.names])
    assert any(d.startswith("灯:") for d in lamp.decisions)
    # the Chinese edition shows them in Chinese
    zh = edition("sakura", "zh")
    assert any(d.startswith("5-3：") for ch in zh.chapters if ch.number == "§5" for r in _all(ch.rules) for d in r.decisions)


def test_every_card_but_fixtures_is_in_the_gallery_with_its_numbers(sakura: BuildResult, en: str) -> None:
    assert sakura.checked is not None
    book = edition("sakura", "en")
    shown = {c.name for g in book.groups for c in g.cards}
    props = sakura.checked.card_props
    fixtures = [n for n in props if props[n].get("fixture")]
    assert fixtures and len(shown) == len(props) - len(fixtures)
    oboro_kunai = next(c for g in book.groups for c in g.cards if c.number == "NA-05-oboro-A2-N-1")
    assert ("Range", "1,3,5") in [(label.split(" (")[0], v) for label, v in oboro_kunai.numbers] or \
        any(v == "1,3,5" for _, v in oboro_kunai.numbers)


@pytest.mark.parametrize("game", bundled_games())
def test_every_link_of_every_edition_resolves(game: str) -> None:
    for language in languages(game):
        text = reference_markdown(game, language)
        anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
        targets = set(re.findall(r"\]\(#([^)]+)\)", text))
        assert targets and not targets - anchors, (language, sorted(targets - anchors)[:5])


def test_labels_cannot_inject_markdown_or_html() -> None:
    from markdown_it import MarkdownIt

    from tests.helpers import build_text
    evil = '# Pwned | x | <script>alert(1)</script> [link](http://evil) `code` **bold**'
    text = (f'zone trap "{evil}": shared, holds chip\n'
            f'procedure shown(p) "{evil}" section 99:\n    step 1 "{evil}":\n        pass\n')
    result = build_text(text)
    assert result.ok and result.checked is not None
    html = MarkdownIt("commonmark").render(render_reference(result.checked))
    assert "<script>alert" not in html and 'href="http://evil"' not in html  # no live link
    assert "<strong>bold" not in html and "<code>code</code>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _all(rules):  # type: ignore[no-untyped-def]
    for r in rules:
        yield r
        yield from _all(r.steps)


def test_every_public_ruling_is_a_worked_example_under_the_core_rule_it_rules_on(sakura: BuildResult) -> None:
    """A judge answers the public rulings (../shared/rules/rulings.md) from the reference: each
    ruling's scenario stands as an example under the numbered core rule it concerns."""
    assert sakura.checked is not None
    book = edition("sakura", "en")
    placed = {e.title.split()[0] for ch in book.chapters if ch.key.startswith("ch")
              for r in _all(ch.rules) if r.number for e in r.examples}
    rulings = {(s.labels.default or "").split()[0] for name, s in sakura.checked.symbols.scenarios.items()
               if re.fullmatch(r"r\d+_.+", name)}
    assert len(rulings) >= 18 and not rulings - placed, sorted(rulings - placed)
    r15 = next(e for ch in book.chapters for r in _all(ch.rules) for e in r.examples if e.title.startswith("R15"))
    assert r15.checks[0] == "O's single aura crystal was taken"  # what it checks, in the order it checks it
    assert r15.checks[-1] == "life damage goes to O's own flare"


def test_a_variable_is_named_where_it_is_read_not_replaced_by_its_first_value() -> None:
    """`let n = 0` counted up in a loop reads as a variable named by a letter, as rules texts
    name X (never by its identifier, never as '0 increases by 1'); a variable that starts empty
    says nothing of its start; each rule names its own from X on."""
    from tests.helpers import build_text
    text = ('procedure chips_held "持有的筹码" section 98:\n'
            '    let n = 0\n    for q in players():\n        n += count(q.purse)\n    return n\n'
            'procedure first_rich "第一位有筹码的玩家" section 99:\n'
            '    let who = none\n    for q in players():\n        if who == none and count(q.purse) > 0:\n'
            '            who = q\n    return who\n')
    result = build_text(text)
    assert result.ok and result.checked is not None, result.diagnostics
    zh = render_reference(result.checked, "zh")
    held = zh.split("### 98 持有的筹码")[1].split("\n#")[0]
    assert "令X为0。" in held and "X增加" in held and "0增加" not in held and "结果为X。" in held
    rich = zh.split("### 99 第一位有筹码的玩家")[1].split("\n#")[0]
    assert "X变为该玩家" in rich and "令X" not in rich and "无变为" not in rich and "X为无" in rich
    assert "who" not in rich and "结果为X。" in rich


_DUO = ('game duo "双人" en "Duo" ja "デュオ":\n    players 2\n    start play\n    language zh\n{game}'
        'zone hand "手牌": per player, holds cards\n'
        'procedure play "一局" section 1:\n    lose seat(0)\n{rest}')


def _duo(game: str, rest: str = "") -> Checked:
    """A two-player game in zh, en and ja with more lines in its game block and after it."""
    from tests.helpers import build_text
    result = build_text(_DUO.format(game=game, rest=rest), with_mini=False)
    assert result.ok and result.checked is not None, result.diagnostics
    return result.checked


def test_a_decision_reads_in_the_editions_language() -> None:
    """`decision en "…" zh "…"`: each edition shows its own text (one without a language word is
    in the game's language); an edition the decision is not written in shows the first text."""
    from tests.helpers import build_text, codes
    decided = ('    decision en "Ties go to the second player." zh "平局时后手获胜。" for play\n'
               '    decision "先手先行动。"\n')
    checked = _duo(decided)
    zh, en, ja = (rulebook(checked, lang) for lang in ("zh", "en", "ja"))
    assert zh.chapters[0].rules[0].decisions == ["平局时后手获胜。"]
    assert en.chapters[0].rules[0].decisions == ["Ties go to the second player."]
    assert ja.chapters[0].rules[0].decisions == ["Ties go to the second player."]  # not written in ja
    assert zh.decisions == en.decisions == ["先手先行动。"]
    broken = build_text(_DUO.format(game=decided.replace('decision "先手先行动。"', "decision en"), rest=""), with_mini=False)
    assert codes(broken.diagnostics) == ["E104"]


@pytest.mark.parametrize("game", bundled_games())
def test_every_glossary_term_is_defined_in_the_editions_words(game: str) -> None:
    """Zones, counters, timings, tokens and printed keywords are defined from their declarations
    (whose, what a zone holds and how much, who sees it, a counter's values and start, the marker
    a timing prints under) in each edition's language."""
    for language in languages(game):
        book = edition(game, language)
        kinds = {book.words.zone, book.words.counter, book.words.timing, book.words.token}
        undefined = [t.label for t in book.glossary if t.kind in kinds and not t.definition]
        assert not undefined, (language, undefined[:10])


def test_a_counter_and_a_zone_are_defined_by_what_their_declarations_say(sakura: BuildResult) -> None:
    assert sakura.checked is not None
    zh = {t.label: t.definition for t in edition("sakura", "zh").glossary}
    en = {t.label: t.definition for t in edition("sakura", "en").glossary}
    assert zh["价格"] == "每位玩家各有一个；取值1到4；初始为2"
    # what addenda add to the aura (コルヌ's freeze tokens, 志水's lacerations) is held there too
    assert en["Aura"] == "each player has one; holds sakura crystal, Freeze token, Laceration; at most 5; seen by everyone"
    assert en["Deck"].endswith("seen by nobody")


def test_a_cards_note_reads_in_the_editions_language() -> None:
    checked = _duo("", 'card a "甲" en "A":\n    note en "Its effect is ours." zh "效果是我们设计的。"\n'
                       '    unchecked "尚未编码"\n')
    zh, en = (next(c for g in rulebook(checked, lang).groups for c in g.cards) for lang in ("zh", "en"))
    assert (zh.note, en.note) == ("效果是我们设计的。", "Its effect is ours.")
    assert zh.unchecked == en.unchecked == "尚未编码"  # written once, in the game's language
