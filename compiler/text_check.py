"""A card's text held against its definition, both ways: what the text names must be in the
definition, and what the definition has that a player must know must be in the text."""

from __future__ import annotations

from dataclasses import dataclass

from .card_facts import CardFacts
from .text_scan import Fact, Mention
from .vocabulary import Term, Vocabulary

TERMS = {Fact.KEYWORD: Term.KEYWORD, Fact.TIMING: Term.TIMING, Fact.CARD: Term.CARD}
WHAT = {Fact.KEYWORD: "keyword", Fact.TIMING: "timing", Fact.NUMBER: "number", Fact.CARD: "card"}


@dataclass(frozen=True)
class Finding:
    """One disagreement: the text names something the definition lacks (`mention` set), or the
    definition has something the text does not say (`mention` None)."""

    fact: Fact
    value: str
    mention: Mention | None

    @property
    def in_text(self) -> bool:
        return self.mention is not None

    def describe(self, vocab: Vocabulary, language: str | None = None) -> str:
        """The finding in words, naming a keyword, timing or card by its label (in the given
        language, else the game's)."""
        term = TERMS.get(self.fact)
        label = vocab.label(term, self.value, language or vocab.language) if term is not None else ""
        shown = self.value if term is None else f"{label} ({self.value})"
        if self.in_text:
            return f"the text names the {WHAT[self.fact]} {shown}, which the definition does not have"
        return f"the definition has the {WHAT[self.fact]} {shown}, which the text does not say"


def compare(mentions: list[Mention], facts: CardFacts) -> list[Finding]:
    """Every disagreement between a text's mentions and a definition's facts, the text's first
    (in the order they stand in the text)."""
    said: dict[Fact, set[str]] = {f: set() for f in Fact}
    findings: list[Finding] = []
    for m in mentions:
        if m.fact is Fact.CARD and m.value == facts.own:
            continue  # a card may name itself
        if not m.quoted and not facts.may_say(m.fact, m.value) and m.value not in said[m.fact]:
            findings.append(Finding(m.fact, m.value, m))
        said[m.fact].add(m.value)
    told = said[Fact.KEYWORD] | {k for k, general in facts.forms.items() if general in said[Fact.KEYWORD]}
    said[Fact.KEYWORD] = told  # naming a keyword tells of its forms ("Guarded" of "Guarded (Half)")
    for fact in Fact:
        findings += [Finding(fact, v, None) for v in sorted(facts.required(fact) - said[fact])]
    return findings
