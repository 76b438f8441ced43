"""What a card's definition tells a player, on the terms its text is compared on: the keywords
it has or gives, the timings its effects are printed under, its numbers and the other cards it
names (`CardFacts`), read from the checked model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime.values import Pair
from . import syntax as s
from .checked import Checked
from .refs import Callee, CallRef, CounterRef, FieldRef, WordRef, ZoneRef
from .text_scan import Fact, Scanner, canonical_delta, canonical_pair, canonical_range
from .vocabulary import Term, Vocabulary


@dataclass
class CardFacts:
    """The facts of one card's definition.

    `keywords`, `timings`, `numbers` and `cards` are what a player must be told (for numbers:
    two-sided values, changes, ranges and how many tokens a move takes). `allowed` holds, per
    kind, what a text may further say without being wrong: every whole number of the card's
    blocks and properties and of the keywords it uses, and whatever the names of the rules it
    calls, the counters, fields and zones it reads and the prompts it asks say ("pay 7 points",
    "a card of 「X」")."""

    own: str
    forms: dict[str, str] = field(default_factory=dict)  # a keyword -> the general one that tells of it
    keywords: set[str] = field(default_factory=set)
    timings: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    cards: set[str] = field(default_factory=set)
    allowed: dict[Fact, set[str]] = field(default_factory=lambda: {f: set() for f in Fact})

    def required(self, fact: Fact) -> set[str]:
        return {Fact.KEYWORD: self.keywords, Fact.TIMING: self.timings, Fact.NUMBER: self.numbers,
                Fact.CARD: self.cards}[fact]

    def may_say(self, fact: Fact, value: str) -> bool:
        return value in self.required(fact) or value in self.allowed[fact]


def card_facts(checked: Checked, scanner: Scanner, name: str) -> CardFacts:
    """The facts of the card `name` (the scanner reads the labels it restates)."""
    sym = checked.symbols
    vocab = scanner.vocab
    card = sym.cards[name]
    facts = CardFacts(name, vocab.forms)
    facts.allowed[Fact.NUMBER].add("1")  # how texts say "a" or "one of" (draw 1 card): never wrong
    for prop, value in checked.card_props.get(name, {}).items():
        info = sym.fields.get(prop)
        if info is None:
            continue
        if info.keyword and value is True:
            facts.keywords.add(prop)
        if info.under is not None and value not in (None, False, 0, "", ()):
            _timing(vocab, info.under, facts)
            for label in info.decl.labels.all_names():  # the effect's own name, as its text prints it
                for m in scanner.scan(label):
                    facts.allowed[m.fact].add(m.value)
        facts.allowed[Fact.NUMBER] |= _prop_numbers(value)
        if isinstance(value, str) and value in sym.cards and value != name:
            facts.allowed[Fact.CARD].add(value)  # a property naming another card (`partner sweet`)
    reader = _Reader(checked, scanner, facts)
    for blk in card.blocks:
        printed = blk.under or blk.name  # `usable under constant:` prints under another marker
        if printed != "none":  # `under none`: what the block does is printed without a marker
            _timing(vocab, printed, facts)
            if vocab.mark(printed) is None:  # printed without a marker, or with its own
                facts.allowed[Fact.TIMING].add(printed)
        reader.read(blk.body)
    for trig in card.triggers:
        timing = covering(checked, vocab, trig)
        if timing is not None:
            _timing(vocab, timing, facts)
        reader.read((trig.cond, trig.body))
    return facts


def _timing(vocab: Vocabulary, timing: str, facts: CardFacts) -> None:
    mark = vocab.mark(timing)
    if mark is not None:
        facts.timings.add(mark)


def covering(checked: Checked, vocab: Vocabulary, trig: s.Trigger) -> str | None:
    """The timing a card trigger is printed under: the one that `covers` a name its condition
    reads (`covers deployed` for a trigger `when … if deployed(this)`)."""
    if trig.cond is None or not vocab.covers:
        return None
    for node in s.walk(trig.cond):
        ref = checked.resolution.get(node)
        match ref:
            case CallRef(_, callee_name, _) if callee_name in vocab.covers:
                return vocab.covers[callee_name]
            case FieldRef(field_name) if field_name in vocab.covers:
                return vocab.covers[field_name]
    return None


class _Reader:
    """Keywords, numbers and cards in a card's blocks and triggers."""

    def __init__(self, checked: Checked, scanner: Scanner, facts: CardFacts) -> None:
        self.c, self.scanner, self.facts = checked, scanner, facts
        self.vocab = scanner.vocab

    def read(self, root: object) -> None:
        sym, facts, own = self.c.symbols, self.facts, self.facts.own
        for node in s.walk(root):
            match node:
                case s.IntLit(value=value):
                    facts.allowed[Fact.NUMBER].add(str(abs(value)))
                case s.PairLit(left=left, right=right):
                    facts.numbers.add(canonical_pair(left, right))
                case s.DeltaLit(left=left, right=right):
                    facts.numbers.add(canonical_delta(left, right))
                case s.RangeLit(low=low, high=high):
                    facts.numbers.add(canonical_range(low, high))
                case s.Move(amount=s.IntLit(value=value)):
                    facts.numbers.add(str(value))
                case s.StrLit(value=text) if self.vocab.card_keys.get(text, own) != own:
                    facts.cards.add(self.vocab.card_keys[text])
                case s.Option(labels=labels) | s.Menu(labels=labels) | s.Pick(labels=labels) \
                        | s.Ask(labels=labels) | s.NumberChoice(labels=labels):
                    self.restated(labels, own_words=True)
            match self.c.resolution.get(node):
                case FieldRef(name) if name in self.vocab.names[Term.KEYWORD]:
                    facts.keywords.add(name)
                case CallRef(Callee.KEYWORD, name, _):
                    facts.keywords.add(name)
                    expr = sym.keywords[name].expr
                    if expr is not None:
                        inner = CardFacts(own)
                        _Reader(self.c, self.scanner, inner).read(expr)
                        facts.allowed[Fact.NUMBER] |= inner.allowed[Fact.NUMBER] | inner.numbers
                case WordRef(word) if word in sym.cards and word != own:
                    facts.cards.add(word)
                case CallRef(Callee.PROCEDURE | Callee.VALUE as callee, name, _):
                    self.restated((sym.procedures if callee is Callee.PROCEDURE else sym.values)[name].labels)
                case FieldRef(name):
                    self.restated(sym.fields[name].decl.labels)
                case CounterRef(name, _):
                    self.restated(sym.counters[name].decl.labels)
                case ZoneRef(name, _):
                    self.restated(sym.zones[name].decl.labels)

    def restated(self, labels: s.Labels, own_words: bool = False) -> None:
        """What a called rule's name or the card's own prompt says may be said again by the
        text: its numbers, cards and timings, and (only the card's own words) its keywords — a
        card has or gives a keyword by its own lines, not by the name of a rule it calls."""
        for label in labels.all_names():
            for m in self.scanner.scan(label):
                if own_words or m.fact is not Fact.KEYWORD:
                    self.facts.allowed[m.fact].add(m.value)


def _prop_numbers(value: Any) -> set[str]:
    """The numbers a property holds, as a text may state them."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int):
        return {str(abs(value))}
    if isinstance(value, Pair):
        return {canonical_pair(value.left, value.right)} | {str(v) for v in (value.left, value.right) if v is not None}
    if isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):
        return {canonical_range(min(value), max(value))} | {str(v) for v in value}
    return set()
