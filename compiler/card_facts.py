"""What a card's definition tells a player, on the terms its text is compared on: the keywords
it has or gives, the timings its effects are printed under, its numbers and the other cards it
names (`CardFacts`), read from the checked model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime.values import Pair
from . import syntax as s
from .checked import Checked
from .refs import Callee, CallRef, FieldRef, WordRef
from .text_scan import canonical_delta, canonical_pair, canonical_range
from .vocabulary import Term, Vocabulary


@dataclass
class CardFacts:
    """The facts of one card's definition.

    `numbers` are those a player must be told (two-sided values, changes, ranges, how many
    tokens a move takes); `allowed` are further numbers a text may state without being wrong
    (every whole number of the card's blocks and properties, and of the keywords it uses)."""

    own: str
    keywords: set[str] = field(default_factory=set)
    timings: set[str] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    allowed: set[str] = field(default_factory=set)
    cards: set[str] = field(default_factory=set)


def card_facts(checked: Checked, vocab: Vocabulary, name: str) -> CardFacts:
    """The facts of the card `name`."""
    sym = checked.symbols
    card = sym.cards[name]
    facts = CardFacts(name)
    facts.allowed.add("1")  # "1" is how texts say "a" or "one of" (draw 1 card, choose 1): never wrong
    for prop, value in checked.card_props.get(name, {}).items():
        info = sym.fields.get(prop)
        if info is None:
            continue
        if info.keyword and value is True:
            facts.keywords.add(prop)
        if info.under is not None and value not in (None, False, 0, "", ()):
            mark = vocab.mark(info.under)
            if mark is not None:
                facts.timings.add(mark)
        facts.allowed |= _prop_numbers(value)
    for blk in card.blocks:
        mark = vocab.mark(blk.name)
        if mark is not None:
            facts.timings.add(mark)
        _read(checked, vocab, blk.body, facts, name)
    for trig in card.triggers:
        timing = covering(checked, vocab, trig)
        if timing is not None:
            mark = vocab.mark(timing)
            if mark is not None:
                facts.timings.add(mark)
        _read(checked, vocab, (trig.cond, trig.body), facts, name)
    facts.allowed |= facts.numbers
    return facts


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


def _read(checked: Checked, vocab: Vocabulary, root: object, facts: CardFacts, own: str) -> None:
    """Keywords, numbers and cards in a block, a trigger or a keyword's condition."""
    sym = checked.symbols
    for node in s.walk(root):
        match node:
            case s.IntLit(value=value):
                facts.allowed.add(str(abs(value)))
            case s.PairLit(left=left, right=right):
                facts.numbers.add(canonical_pair(left, right))
            case s.DeltaLit(left=left, right=right):
                facts.numbers.add(canonical_delta(left, right))
            case s.RangeLit(low=low, high=high):
                facts.numbers.add(canonical_range(low, high))
            case s.Move(amount=s.IntLit(value=value)):
                facts.numbers.add(str(value))
            case s.StrLit(value=text) if vocab.card_keys.get(text, own) != own:
                facts.cards.add(vocab.card_keys[text])
        ref = checked.resolution.get(node)
        match ref:
            case FieldRef(name) if name in vocab.names[Term.KEYWORD]:
                facts.keywords.add(name)
            case CallRef(Callee.KEYWORD, name, _):
                facts.keywords.add(name)
                expr = sym.keywords[name].expr
                if expr is not None:
                    inner = CardFacts(own)
                    _read(checked, vocab, expr, inner, own)
                    facts.allowed |= inner.allowed | inner.numbers
            case WordRef(word) if word in sym.cards and word != own:
                facts.cards.add(word)


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
