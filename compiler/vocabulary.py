"""The words a game's card texts are read and written with: in every language and spelling the
game declares, the names of its keywords, timings and cards, where a timing's effects are
printed, and which languages the game has labels for."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..runtime.phrases import DEFAULT_LANGUAGE
from . import syntax as s
from .checked import Checked
from .symbols import Symbols

ALIAS = "alt"  # the language tag of a second default label (an alias in the game's own language)


class Term(Enum):
    """What a name in a card text stands for."""

    KEYWORD = "keyword"
    TIMING = "timing"
    CARD = "card"
    ZONE = "zone"  # read only so that a keyword inside a zone's name is not taken for the keyword


def label_in(labels: s.Labels, language: str, default_language: str) -> str | None:
    """A declaration's label in one language (its default label is in the game's language)."""
    if language == default_language:
        return labels.default
    return labels.get(language)


def spellings(labels: s.Labels) -> list[str]:
    """Every name a declaration is written with: its labels in each language and its aliases."""
    return [n for n in dict.fromkeys(labels.all_names()) if n]


@dataclass
class Vocabulary:
    """A game's text vocabulary, built once per checked game."""

    languages: tuple[str, ...]  # the game's own language first
    names: dict[Term, dict[str, s.Labels]] = field(default_factory=dict)  # term -> ident -> labels
    marks: dict[str, str | None] = field(default_factory=dict)  # timing -> the timing it prints under
    covers: dict[str, str] = field(default_factory=dict)  # a name a card trigger's condition reads -> timing
    card_keys: dict[str, str] = field(default_factory=dict)  # a text only one card's field holds -> that card
    forms: dict[str, str] = field(default_factory=dict)  # a keyword -> the keyword it is a form of

    @property
    def language(self) -> str:
        return self.languages[0]

    def label(self, term: Term, ident: str, language: str) -> str:
        """The name of a keyword, timing or card in a language (its default label, then its
        identifier, where it has none in that language)."""
        labels = self.names[term].get(ident)
        if labels is None:
            return ident
        return label_in(labels, language, self.language) or labels.default or ident

    def spellings(self, term: Term) -> list[tuple[str, str]]:
        """(name, ident) for every spelling of every declaration of a kind, longest first, so
        that a longer name wins over a shorter one it contains."""
        pairs = [(name, ident) for ident, labels in self.names[term].items() for name in spellings(labels)]
        return sorted(pairs, key=lambda p: -len(p[0]))

    def mark(self, timing: str) -> str | None:
        """The timing whose marker a block of this timing is printed under (none: no marker)."""
        return self.marks.get(timing, timing)


def game_languages(sym: Symbols) -> tuple[str, ...]:
    """The game's language (`language`, else the default), then every other language its
    `game` declaration has a label in."""
    game = sym.game
    own = DEFAULT_LANGUAGE
    if game is not None:
        prop = game.prop("language")
        if prop is not None and prop.words():
            own = prop.words()[0]
    others = [lang for lang, _ in (game.labels.langs if game is not None else ()) if lang != ALIAS]
    return tuple(dict.fromkeys([own, *others]))


def vocabulary(checked: Checked) -> Vocabulary:
    """The vocabulary of a checked game."""
    sym = checked.symbols
    vocab = Vocabulary(game_languages(sym))
    keywords = {n: f.decl.labels for n, f in sym.fields.items() if f.keyword}
    keywords |= {n: k.labels for n, k in sym.keywords.items()}
    vocab.names[Term.KEYWORD] = keywords
    vocab.names[Term.TIMING] = {n: t.labels for n, t in sym.timings.items()}
    vocab.names[Term.CARD] = {n: c.labels for n, c in sym.cards.items()}
    vocab.names[Term.ZONE] = {n: z.decl.labels for n, z in sym.zones.items()}
    for name, timing in sym.timings.items():
        for opt in timing.opts:
            words = opt.words()
            if opt.name == "mark" and len(words) == 1:
                vocab.marks[name] = None if words[0] == "none" else words[0]
            elif opt.name == "covers":
                vocab.covers.update((w, name) for w in words)
    vocab.card_keys = _card_keys(checked)
    vocab.forms = {n: f.form_of for n, f in sym.fields.items() if f.form_of is not None}
    return vocab


def _card_keys(checked: Checked) -> dict[str, str]:
    """The texts that name one card: a value of a `text` field that only one card has in that
    field (such as a card number), which rules may use to refer to that card. Where a value names
    different cards through different fields (a version's `replaces` holds its original's
    number), the field declared first wins."""
    keys: dict[str, str] = {}
    for name, info in checked.symbols.fields.items():
        if info.type != "text":
            continue
        owners: dict[str, set[str]] = {}
        for card, props in checked.card_props.items():
            value = props.get(name)
            if isinstance(value, str) and value:
                owners.setdefault(value, set()).add(card)
        for value, cards in owners.items():
            if len(cards) == 1:
                keys.setdefault(value, next(iter(cards)))
    return keys
