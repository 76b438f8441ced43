"""Sakura Arms card text (cards/sakura/text/*.j2 and the ja/en labels of core.csm): the text
generated for the base four goddesses' cards reads as rules text in every language — no engine
identifiers, no Chinese label where the declaration has one in the text's language — and a few
representative cards read exactly as written here."""

from __future__ import annotations

import re

import pytest

from cardsmith.compiler import syntax as s
from cardsmith.compiler.card_text import TextBook, template_folders
from cardsmith.compiler.checked import Checked
from cardsmith.compiler.library import library_root
from cardsmith.compiler.vocabulary import vocabulary
from tests.helpers import built

BASE_FOUR = ("yurina", "saine", "himika", "tokoyo")
LANGUAGES = ("zh", "ja", "en")
_WORD = re.compile(r"(?<![A-Za-z'’])[A-Za-z_][A-Za-z0-9_]*")
_EXPLANATION = re.compile(r"\s*[（(][^（）()]*[）)]\s*$")
# parameter names that are also plain English words (an English text may say "card" or "side")
_ENGLISH = set("a after amount back banned before by cap card cause distances enlisted face found free full gear icon "
               "kind kinds lie life number optional origin owner plan proxy seeds side source sprouts user what will"
               .split())


@pytest.fixture(scope="module")
def game() -> tuple[Checked, TextBook]:
    checked = built("sakura").checked
    assert checked is not None
    return checked, TextBook(checked, vocabulary(checked), template_folders(checked, library_root()))


def base_cards(checked: Checked) -> list[str]:
    names = [n for n in checked.symbols.cards if n.split("_")[0] in BASE_FOUR]
    assert len(names) == 44, names
    return names


def parameter_names(checked: Checked) -> set[str]:
    """Every parameter name of the game's timings, events, procedures and values."""
    sym = checked.symbols
    names: set[str] = set()
    for table in (sym.timings, sym.events, sym.procedures, sym.values):
        for decl in table.values():
            names |= {getattr(p, "name", p) for p in getattr(decl, "params", ()) or ()}
    return names


def identifiers(text: str, language: str, params: set[str]) -> list[str]:
    """What in a generated text is an engine identifier: snake_case names, Python values, parameter
    names (in a Chinese or Japanese text any of them; in English those that are not English words),
    and the templates' own «marks»."""
    found = []
    for word in _WORD.findall(text):
        if "_" in word or word in ("True", "False", "None"):
            found.append(word)
        elif word in params and (language != "en" or word not in _ENGLISH):
            found.append(word)
    if "«" in text or "»" in text:
        found.append("«mark»")
    return found


def chinese_only_labels(checked: Checked, language: str) -> list[str]:
    """The default (Chinese) labels of declarations that have a label of their own in `language`."""
    sym = checked.symbols
    labels: list[s.Labels] = []
    for table in (sym.zones, sym.counters, sym.fields):
        labels += [info.decl.labels for info in table.values()]
    for table in (sym.tokens, sym.kinds, sym.timings, sym.events, sym.values, sym.procedures, sym.keywords,
                  sym.characters, sym.cards):
        labels += [decl.labels for decl in table.values()]
    found = []
    for lab in labels:
        own = lab.get(language)
        default = _EXPLANATION.sub("", lab.default or "") or lab.default
        if own and default and default != own and default not in own:
            found.append(default)
    return sorted(set(found), key=len, reverse=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_base_four_goddesses_texts_show_no_engine_identifiers(game: tuple[Checked, TextBook], language: str) -> None:
    checked, book = game
    params = parameter_names(checked)
    leaking = {}
    for name in base_cards(checked):
        text = book.text(name, language)
        found = identifiers(text, language, params)
        if language != "en":  # a Chinese or Japanese text has no Latin-script words at all here
            found += _WORD.findall(text)
        if found:
            leaking[name] = (found, text)
    assert not leaking, leaking


@pytest.mark.parametrize("language", ("ja", "en"))
def test_the_base_four_goddesses_texts_use_the_languages_own_labels(game: tuple[Checked, TextBook], language: str) -> None:
    checked, book = game
    chinese = chinese_only_labels(checked, language)
    assert "虚" in chinese  # ダスト, Dust
    assert ("集中力" in chinese) == (language == "en")  # the same word in Japanese
    leaking = {}
    for name in base_cards(checked):
        text = book.text(name, language)
        found = [label for label in chinese if label in text]
        if found:
            leaking[name] = (found, text)
    assert not leaking, leaking


def test_an_english_text_of_the_base_four_has_no_chinese_at_all(game: tuple[Checked, TextBook]) -> None:
    checked, book = game
    han = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    assert not {n: t for n in base_cards(checked) if han.search(t := book.text(n, "en"))}


# Written as what the generated text must be: an attack with a constant modifier, an attack with
# an after-attack effect, an enhancement that attacks when destroyed, a special with a resurgence
# condition.
EXPECTED = {
    "yurina_n2": {
        "zh": "【常时】若决死，则此《攻击》获得+1/+0。",
        "ja": "【常時】決死ならば、この《攻撃》は+1/+0となる。",
        "en": "Forced: If Resolve is active, this attack gets +1/+0.",
    },
    "saine_n1": {
        "zh": "【攻击后】若八相，则进行《攻击》「适正距离4-5、2/1」。",
        "ja": "【攻撃後】八相ならば、攻撃『適正距離4-5、2/1』を行う。",
        "en": "After Attack: If Idea is active, make an attack: range 4-5, 2/1.",
    },
    "tokoyo_n7": {
        "zh": "终端 【展开时】你的集中力变为2。 【破弃时】进行《攻击》「适正距离3-6、-/1」。",
        "ja": "終端 【展開時】あなたの集中力は2になる。 【破棄時】攻撃『適正距離3-6、-/1』を行う。",
        "en": "Terminal. Initialize: Your Vigor becomes 2. Disenchant: Make an attack: range 3-6, -/1.",
    },
    "saine_s3": {
        "zh": "【攻击后】若此牌是作为对应使用的，则被对应的《攻击》获得-1/-1。 【再起】八相。",
        "ja": "【攻撃後】このカードが対応として使われたならば、対応した《攻撃》は-1/-1となる。 【再起】八相である。",
        "en": "After Attack: If this card was played as a reaction, the attack this card answers gets -1/-1. "
              "Resurgence: Idea is active.",
    },
}


@pytest.mark.parametrize(("card", "language"), [(c, lang) for c in EXPECTED for lang in LANGUAGES])
def test_representative_cards_read_exactly_as_written(game: tuple[Checked, TextBook], card: str, language: str) -> None:
    _, book = game
    assert book.text(card, language) == EXPECTED[card][language]


def test_an_attack_made_by_an_effect_carries_what_the_card_adds_to_it(game: tuple[Checked, TextBook]) -> None:
    """衝音晶: `let a = effect_attack(…)`, `a.no_reactions = true`, `launch(a)` read as one attack."""
    _, book = game
    assert book.text("saine_n6", "ja").endswith("【破棄時】攻撃『適正距離0-10、1/-、対応不可』を行う。ダスト→間合：1。")
    assert book.text("saine_n6", "zh").endswith("【破弃时】进行《攻击》「适正距离0-10、1/-、不可对应」。虚→距离：1。")
    assert book.text("saine_n6", "en").endswith("Disenchant: Make an attack: range 0-10, 1/-, No Reactions. Dust → Distance: 1.")


def test_your_next_attack_and_up_to_n_basic_actions(game: tuple[Checked, TextBook]) -> None:
    """A trigger for the player's own next attack, and a choice one may stop, repeated."""
    _, book = game
    assert "次にあなたが《攻撃》を行った時、その《攻撃》は+1/+0となる" in book.text("yurina_n3", "ja")
    assert "the next time this turn you make an attack, that attack gets +1/+0" in book.text("yurina_n3", "en")
    assert book.text("yurina_n5", "ja").endswith("あなたのライフが相手のライフ未満ならば、2回まで、基本動作を行う。")
    assert book.text("yurina_n5", "en").endswith("If your Life is less than your opponent's Life, up to 2 times, do a basic action.")
