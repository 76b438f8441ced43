"""Card text (issue: validating card text): texts read for keywords, timing markers, numbers and
card names; definitions read for the same; the two compared both ways in `check` (W201, located
on the mention); text generated from every card of every game in each of its languages, which
the same check accepts; a game's own templates; `cardsmith card`."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from cardsmith.cli import main
from cardsmith.compiler.card_facts import card_facts
from cardsmith.compiler.card_text import TextBook, template_folders
from cardsmith.compiler.library import library_root
from cardsmith.compiler.load import build_sources, bundled_games
from cardsmith.compiler.text_check import compare
from cardsmith.compiler.text_scan import Fact, Scanner, normalise
from cardsmith.compiler.vocabulary import vocabulary
from tests.helpers import TEXT_GAME, built


def build(cards: str, extra: str = "") -> tuple[object, list[str]]:
    result = build_sources({"words.csm": TEXT_GAME + extra + cards}, use_cache=False, need_model=True)
    return result, [f"{d.code}:{d.span.line}:{d.span.col}:{d.span.end_col}:{d.message}" for d in result.diagnostics]


def scan(text: str) -> list[tuple[str, str]]:
    result = build_sources({"words.csm": TEXT_GAME}, use_cache=False, need_model=True)
    assert result.checked is not None
    return [(m.fact.value, m.value) for m in Scanner(vocabulary(result.checked)).scan(text)]


# ---- reading texts ----

def test_markers_keywords_numbers_and_cards_are_read_in_every_language_and_spelling() -> None:
    assert scan("【命中後/継続中】守護（強）、迅速：+1/+0，３/－，2-4，「火花」を2つ") == [
        ("timing", "after_hit"), ("timing", "lasting"), ("keyword", "guarded"), ("keyword", "swift"),
        ("number", "+1/+0"), ("number", "3/-"), ("number", "2-4"), ("card", "spark"), ("number", "2")]


def test_the_longest_spelling_wins_and_latin_names_match_as_declared() -> None:
    assert scan("守護（強）") == [("keyword", "guarded")]
    assert scan("Swift. Be swift, Guarded; guardedly") == [("keyword", "swift"), ("keyword", "guarded")]


def test_a_latin_timing_counts_only_as_a_marker_at_the_start_of_a_sentence() -> None:
    assert scan("After Hit: gain 2. Lasting: it stays.") == [
        ("timing", "after_hit"), ("number", "2"), ("timing", "lasting")]
    assert scan("Gain 2 after hit: no. It is lasting.") == [("number", "2")]


def test_markers_inside_a_quoted_attack_belong_to_it_and_brackets_hide_their_numbers() -> None:
    assert scan("攻撃『1-3、2/1、【命中後】迅速』を行う") == [
        ("number", "1-3"), ("number", "2/1"), ("timing", "after_hit"), ("keyword", "swift")]
    assert scan("【風1】") == []  # a bracket that is not a timing still holds no number


@pytest.mark.parametrize("block", ["", "    after_hit:\n        pass\n"])
def test_a_marker_in_a_quoted_attack_says_the_timing_but_is_not_held_against_a_card_without_it(block: str) -> None:
    """The card's after-hit block may be its quoted attack's; a quoted attack may also be
    another card's, so a marker inside quotes is never a finding."""
    _, diags = build(f'card a "甲":\n    code "A"\n    text "攻撃『2/1、【命中後】なし』を行う。"\n{block}'
                     '    on_play:\n        let x = 2/1\n')
    assert [d for d in diags if d.startswith("W201")] == []


def test_reminder_text_on_a_line_of_its_own_is_not_read() -> None:
    assert scan("迅速。（例えば3-4は2-3となる）\n（守護は1以上）") == [("keyword", "swift")]
    assert scan("距離（遠1）を得る") == [("number", "1")]  # a bracket inside a sentence is read


def test_offsets_point_into_the_original_text_with_full_width_forms() -> None:
    result = build_sources({"words.csm": TEXT_GAME}, use_cache=False, need_model=True)
    assert result.checked is not None
    text = "財布に＋１／＋０"
    [m] = Scanner(vocabulary(result.checked)).scan(text)
    assert (m.fact, m.value, text[m.start:m.end]) == (Fact.NUMBER, "+1/+0", "＋１／＋０")


# ---- the check: both directions, located ----

@pytest.mark.parametrize(("card", "expected"), [
    # agrees: the keyword, the timing and the change are all said
    ('card a "甲" en "A":\n    code "A"\n    swift\n    text "Swift. After Hit: it gets +1/+0."\n'
     '    after_hit:\n        modify atk.power by +1/+0\n', []),
    # a keyword the card lacks, named in the middle of the text
    ('card a "甲":\n    code "A"\n    text "Now it is Guarded."\n', ["the text names the keyword"]),
    # the definition's keyword and change left unsaid
    ('card a "甲":\n    code "A"\n    swift\n    text "After Hit: nothing."\n    after_hit:\n'
     '        modify atk.power by +1/+0\n', ["keyword Swift (swift), which the text does not say",
                                            "number +1/+0, which the text does not say"]),
    # a number that is not the card's (a 2/2 card whose text says 3/1)
    ('card a "甲":\n    code "A"\n    power 2/2\n    text "Hits for 3/1."\n', ["the text names the number 3/1"]),
    # a timing in the text that the card has no block for; one it has that the text omits
    ('card a "甲":\n    code "A"\n    text "Lasting: draw."\n    after_hit:\n        pass\n',
     ["the text names the timing Lasting (lasting)", "the definition has the timing After Hit (after_hit)"]),
    # a trigger printed under the timing that covers what its condition reads; a field `under` one
    ('card a "甲":\n    code "A"\n    sealed\n    text "Lasting: when hit, gain 1."\n'
     '    when hit(p) if active(this):\n        move 1 chip from bank to p.purse\n', []),
    # mark: a block printed under another timing's marker, or under none (or its own name)
    ('card a "甲":\n    code "A"\n    text "After Hit: +0/+1. Draw."\n    boost:\n        modify atk.power by +0/+1\n'
     '    on_play:\n        pass\n', []),
    ('card a "甲":\n    code "A"\n    text "【使用時】引く。"\n    on_play:\n        pass\n', []),
    # a keyword's form is told by naming the general keyword, not the other way round
    ('card a "甲":\n    code "A"\n    half_guarded\n    guarded\n    text "Guarded."\n', []),
    ('card a "甲":\n    code "A"\n    half_guarded\n    text "Guarded."\n', ["the text names the keyword Guarded (guarded)"]),
    ('card a "甲":\n    code "A"\n    guarded\n    text "Guarded (Half)."\n',
     ["the text names the keyword Guarded (Half) (half_guarded)", "the definition has the keyword Guarded (guarded)"]),
    # a block whose effect the text tells elsewhere, printed under no marker
    ('card a "甲":\n    code "A"\n    text "It copies another card."\n    after_hit under none:\n        pass\n', []),
    # a block of one card printed under another marker than its timing's
    ('card a "甲":\n    code "A"\n    text "Lasting: +0/+1."\n    boost under lasting:\n        modify atk.power by +0/+1\n', []),
    # another card named in quotes must be in the definition, and the other way round
    ('card a "甲":\n    code "A"\n    text "Like 「火花」."\n', ["the text names the card 火花 (spark)"]),
    ('card a "甲":\n    code "A"\n    text "Make one."\n    on_play:\n        let x = card_prop(spark, "power")\n',
     ["the definition has the card Spark (spark)"]),
    # a card named by its unique text field counts as named
    ('card a "甲":\n    code "A"\n    text "Like \\"Spark\\"."\n    on_play:\n        let x = card_ids("code", "W-1")\n', []),
    # a card whose effect is not encoded says so, and its text is not held against it
    ('card a "甲":\n    code "A"\n    text "Guarded, +1/+1."\n    unchecked "not encoded yet"\n', []),
    # a keyword's own numbers may be restated; "1" always may
    ('card a "甲":\n    code "A"\n    text "Fierce (4 chips): move 1."\n    on_play:\n        if fierce:\n'
     '            pass\n', []),
])
def test_a_cards_text_is_checked_against_its_definition_both_ways(card: str, expected: list[str]) -> None:
    _, diags = build(card)
    found = [d for d in diags if d.startswith("W201")]
    assert len(found) == len(expected), found
    for want, got in zip(expected, found, strict=True):
        assert want in got, (want, got)


def test_a_finding_is_located_on_what_the_text_says_even_after_wide_characters() -> None:
    _, diags = build('card a "甲":\n    code "A"\n    text "守护很好，Guarded。"\n')
    line = len((TEXT_GAME).splitlines()) + 3
    col = len('    text "') + 1
    assert [d for d in diags if d.startswith("W201")] == [
        f"W201:{line}:{col}:{col + 2}:card a: the text names the keyword 守护 (guarded), which the definition does not have"]


def test_the_game_chooses_warnings_errors_or_nothing() -> None:
    card = 'card a "甲":\n    code "A"\n    text "Guarded."\n'
    for mode, severity in (("error", "error"), ("warning", "warning")):
        result = build_sources({"words.csm": TEXT_GAME.replace("    start main\n", f"    start main\n    text_check {mode}\n") + card},
                               use_cache=False, need_model=True)
        assert [d.severity for d in result.diagnostics if d.code == "W201"] == [severity]
    off = build_sources({"words.csm": TEXT_GAME.replace("    start main\n", "    start main\n    text_check off\n") + card},
                        use_cache=False, need_model=True)
    assert not [d for d in off.diagnostics if d.code == "W201"]
    bad = build_sources({"words.csm": TEXT_GAME.replace("    start main\n", "    start main\n    text_check loud\n") + card},
                        use_cache=False, need_model=True)
    assert any(d.code == "E104" and "text_check" in d.message for d in bad.diagnostics)


def test_timing_and_field_options_name_what_exists() -> None:
    _, diags = build('card z "丙":\n    code "Z"\n    on_play under nowise:\n        pass\n',
                     'timing odd "怪" : mark nowhere\ntiming odd2 "怪2": covers nothing_here\n'
                     'field odd3 "怪3": bool, under nowhen\n')
    errors = [d for d in diags if d.startswith("E101")]
    assert len(errors) == 4 and all(w in " ".join(errors) for w in ("nowhere", "nothing_here", "nowhen", "nowise"))
    _, bad_form = build("", 'field odd4 "怪4": bool, keyword, form_of power\n')
    assert any("`form_of` names another keyword field" in d for d in bad_form)


def test_the_finding_suggests_the_text_generated_from_the_definition() -> None:
    result = build_sources({"words.csm": TEXT_GAME + 'card a "甲" en "A":\n    code "A"\n    text "Nothing."\n'
                            '    after_hit:\n        move 2 chip from bank to self.purse\n'},
                           use_cache=False, need_model=True)
    [first, *_] = [d for d in result.diagnostics if d.code == "W201"]
    assert first.suggestion == "After Hit: move 2 chip from Bank to your Purse."


# ---- generated text ----

@pytest.mark.parametrize("game", bundled_games())
def test_every_card_of_every_game_gets_a_text_in_each_language_that_agrees_with_it(game: str) -> None:
    """The generated text is read back by the same check: it must say every keyword, timing,
    number and card its definition has, and nothing else."""
    checked = built(game).checked
    assert checked is not None
    vocab = vocabulary(checked)
    book = TextBook(checked, vocab, template_folders(checked, library_root()))
    scanner = Scanner(vocab)
    disagreeing = {}
    for name in checked.symbols.cards:
        facts = card_facts(checked, scanner, name)
        for language in vocab.languages:
            text = book.text(name, language)
            findings = compare(scanner.scan(text), facts)
            if findings:
                disagreeing[(name, language)] = (text, [f.describe(vocab) for f in findings])
    assert not disagreeing, list(disagreeing.items())[:5]
    assert len(vocab.languages) >= 1


def test_a_game_phrases_its_own_procedures_and_a_broken_or_hostile_template_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    (folder / "text").mkdir(parents=True)
    (folder / "game.csm").write_text(TEXT_GAME.replace("language zh", "language en") + 'procedure gain(p) "获得":\n'
                                     '    move 1 chip from bank to p.purse\n'
                                     'card b "乙" en "B":\n    code "B"\n    on_play:\n        gain(self)\n', "utf-8")
    (folder / "text" / "en.j2").write_text('{% macro call_gain(args) %}{{ args[0] }} gain a chip{% endmacro %}\n', "utf-8")
    assert "you gain a chip." in card_cli("g", str(folder), "B").output
    (folder / "text" / "en.j2").write_text("{% macro call_gain(args) %}{{ ''.__class__.__mro__[1].__subclasses__() }}{% endmacro %}", "utf-8")
    hostile = card_cli("g", str(folder), "B")
    assert hostile.exit_code == 2 and "unsafe" in hostile.output and "Traceback" not in hostile.output
    (folder / "text" / "en.j2").write_text("{% macro call_gain(args) %}{{ oops", "utf-8")
    broken = card_cli("g", str(folder), "B")
    assert broken.exit_code == 2 and "en.j2" in broken.output and "Traceback" not in broken.output


@pytest.mark.parametrize(("template", "where", "reason"), [
    ("{% macro call_gain() %}x{% endmacro %}\n", None, "TypeError: macro 'call_gain' takes not more than 0"),
    ("{% macro call_gain(args) %}\n{{ 1 / 0 }}\n{% endmacro %}\n", 2, "ZeroDivisionError"),
    ("\n\n{% set half = 1 / 0 %}\n", 3, "ZeroDivisionError"),
    ("{% macro call_gain(args) %}\n{{ args.nothing.deeper }}{% endmacro %}\n", 2, "UndefinedError"),
])
def test_a_template_that_fails_as_it_runs_is_an_error_on_its_line(tmp_path: Path, template: str, where: int | None,
                                                                     reason: str) -> None:
    """A designer's template whose macro takes the wrong values, or whose lines raise as they run
    (in a macro or at its top), is E117 on the template's line when one is known — never an
    internal error."""
    folder = tmp_path / "g"
    (folder / "text").mkdir(parents=True)
    (folder / "game.csm").write_text(TEXT_GAME.replace("language zh", "language en") + 'procedure gain(p) "获得":\n'
                                     '    move 1 chip from bank to p.purse\n'
                                     'card b "乙" en "B":\n    code "B"\n    text "Gain 5 chips."\n'
                                     '    on_play:\n        gain(self)\n', "utf-8")
    template_file = folder / "text" / "en.j2"
    template_file.write_text(template, "utf-8")
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 1 and "internal error" not in result.output, result.output
    line = next(ln for ln in result.output.splitlines() if "error[E117]" in ln)
    assert reason in line, line
    if where is not None:
        assert line.startswith(f"{template_file}:{where}:1: error[E117]"), line


def card_cli(_: str, game: str, name: str) -> Result:
    return CliRunner().invoke(main, ["card", game, name])


# ---- cardsmith card ----

def test_card_shows_the_definition_every_language_the_designers_text_and_the_verdict() -> None:
    result = CliRunner().invoke(main, ["card", "sakura", "一閃"])
    assert result.exit_code == 0, result.output
    out = result.output
    for part in ("yurina_n2", "definition", "modify atk.damage by +1/+0", "generated text", "designer's text"):
        assert part in out
    for language in ("zh ", "ja ", "en "):
        assert f"  {language}" in out
    assert "【常時】" in out and "+1/+0" in out


def test_card_finds_a_card_by_its_number_and_says_what_it_cannot_find() -> None:
    by_number = CliRunner().invoke(main, ["card", "sakura", "NA-01-yurina-O-N-2"])
    assert by_number.exit_code == 0 and "yurina_n2" in by_number.output
    missing = CliRunner().invoke(main, ["card", "sakura", "yurina_n22"])
    assert missing.exit_code == 2 and "no card 'yurina_n22'" in missing.output and "did you mean" in missing.output


def _folded_one_by_one(text: str) -> tuple[str, list[int]]:
    """What `normalise` gives, worked out the slow way: every character folded alone."""
    out, where = "", []
    for i, ch in enumerate(text):
        folded = "-" if ch == "\u2212" else unicodedata.normalize("NFKC", ch)
        out += folded
        where += [i] * len(folded)
    return out, [*where, len(text)]


@given(st.text(alphabet=st.sampled_from("ab 1/-+（）：，。「」\u2212\u0301ｶﾞ①㎏ﬁ测试攻击é\u3000"), max_size=30) | st.text(max_size=30))
def test_normalising_a_text_folds_each_character_alone(text: str) -> None:
    """The shortcut for texts already in NFKC form gives what folding each character does."""
    assert normalise(text) == _folded_one_by_one(text)
