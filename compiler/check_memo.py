"""What checking a card or a scenario found, remembered in this process, so that a game checked
again after an edit re-checks only what may have changed (the language server checks on every
keystroke).

A card's or scenario's check reads only the game's other declarations and what names its cards:
their names, labels and text properties (a card number); of a procedure it reads only the
signature (name, parameters, labels), and nothing of the triggers, replacements, added options,
state checks and standing actions. Parsed files are remembered by content (`parse_cache.py`),
so an unchanged declaration is the same object from one build to the next. The memo is
therefore keyed by the declaration's identity within two environments: the identities of every
rule (every declaration that is not a card or a scenario), for the check of the rules as one
unit, and their *interface* (each rule as it is written, without its places, procedures by
signature, rule behaviours by kind alone), for the cards and scenarios. An edit to a procedure's
or a trigger's body re-checks the rules alone; an edit that changes the interface re-checks
everything. When only the cards changed, what they can be named by is compared with the last
check: a check whose declaration's source holds a name that came or went is forgotten (and so is
every check that reported something, since a suggestion may name any card), the others are kept.
The memo keeps what its keys name alive, so an identity is never reused while it is remembered."""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import syntax as s
from .checked import Context
from .diagnostics import Diagnostic
from .refs import Ref, Type
from .span import Span
from .symbols import Symbols

Env = tuple[int, ...]
Namings = dict[str, frozenset[str]]  # card name -> the folded texts that name it


def environment(files: list[s.SourceFile]) -> tuple[Env, list[s.Node]]:
    """The environment of the rules' check (their identities), and the rules (kept alive)."""
    rules: list[s.Node] = [item for f in files for item in f.items
                           if not (isinstance(item, s.Entity) and item.what in ("card", "scenario"))]
    return tuple(id(r) for r in rules), rules


BEHAVIOURS = (s.Trigger, s.Replace, s.AddedOption, s.Check, s.Action)  # rules no card or scenario reads


def interface(node: object) -> object:
    """What the checks of cards and scenarios can read of a rule: the rule as written, without
    its places (a line added above it changes nothing), a procedure by its signature, a rule
    behaviour by its kind alone."""
    if isinstance(node, s.Procedure):
        return "procedure", node.name, node.params, node.types, interface(node.labels)
    if isinstance(node, BEHAVIOURS):
        return type(node).__name__
    if isinstance(node, (tuple, list)):
        return tuple(interface(item) for item in node)
    if not hasattr(node, "__dataclass_fields__"):
        return node
    return (type(node).__name__, *(interface(value) for name in node.__dataclass_fields__
                                   if not isinstance(value := getattr(node, name), Span)))


def fold(text: str) -> str:
    """A text as the card-text scanner compares it: full-width forms folded, case ignored."""
    return unicodedata.normalize("NFKC", text).casefold()


def namings_of(card: s.Entity, text_fields: set[str]) -> frozenset[str]:
    """What a card can be named by elsewhere: its name, its labels, and the values of its
    text-typed properties (`vocabulary.card_keys`: a card number names its card), folded."""
    words = [card.name, *card.labels.all_names()]
    for p in card.props:
        if p.name in text_fields:
            words += [*p.words(), " ".join(p.words())]
    return frozenset(fold(w) for w in words if w)


_FOLDED: dict[str, tuple[str, str]] = {}  # path -> its last text and that text folded


def lines_naming(words: set[str], sources: dict[str, str]) -> dict[str, list[int]]:
    """For each source, the lines that hold one of the (folded) words (folding keeps lines)."""
    hits: dict[str, list[int]] = {}
    for path, text in sources.items():
        last = _FOLDED.get(path)
        folded = last[1] if last is not None and last[0] == text else fold(text)
        _FOLDED[path] = text, folded
        starts = [at for w in words if w for at in _occurrences(folded, w)]
        if starts:
            breaks = [m.start() for m in re.finditer("\n", folded)]
            hits[path] = sorted({bisect.bisect_left(breaks, at) + 1 for at in starts})
    return hits


def _occurrences(text: str, word: str) -> Iterator[int]:
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


Entries = dict[int, tuple[s.Node, Any]]  # a NodeTable's entries, by node identity
RULES = -1  # where the memo keeps what checking every declaration but the cards and scenarios found


@dataclass
class Found:
    """What one declaration's check wrote (or, under `RULES`, the checks of all the rules):
    resolutions, types, diagnostics, card properties, the names each step defines, and (for a
    card) the disagreements of its text with its definition."""

    decl: s.Node | None
    resolution: Entries
    types: Entries
    diagnostics: list[Diagnostic]
    card_props: dict[str, Any] | None = None
    step_names: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    text_findings: Any = None  # text_lint's findings for the card, once worked out
    uses: frozenset[tuple[str, str]] | None = None  # what its resolutions use, once worked out

    def replay(self, ctx: Context) -> None:
        """Write what was found into a new check, as checking again would."""
        ctx.checked.resolution.merge(self.resolution)
        ctx.checked.types.merge(self.types)
        ctx.diags.extend(self.diagnostics)
        ctx.checked.step_names.update(self.step_names)
        if self.card_props is not None and isinstance(self.decl, s.Entity):
            ctx.checked.card_props[self.decl.name] = self.card_props


@dataclass
class Memo:
    """What the checks found, by declaration, with the environments they were found in (the
    rules' identities and interface) and what named the cards then."""

    env: Env | None = None
    keep: list[s.Node] = field(default_factory=list)
    found: dict[int, Found] = field(default_factory=dict)
    namings: Namings = field(default_factory=dict)
    named: dict[int, tuple[s.Entity, frozenset[str]]] = field(default_factory=dict)  # by card identity
    interface: tuple[object, ...] | None = None  # the rules' `interface`, when the entries were found
    interfaces: dict[int, tuple[s.Node, object]] = field(default_factory=dict)  # each rule's, by identity

    def enter(self, env: Env, keep: list[s.Node], sym: Symbols) -> None:
        """Start a check: afresh when the rules' interface changed, without the rules' own
        check when a rule changed, and forgetting what a change of the cards' names may have
        changed."""
        if env != self.env:
            rules = self.rules_interface(keep)
            if rules != self.interface:
                self.interface, self.found, self.namings, self.named = rules, {}, {}, {}
            self.env, self.keep = env, keep
            self.found.pop(RULES, None)
        namings = self.card_namings(sym)
        changed = {w for name in self.namings.keys() | namings.keys()
                   for w in self.namings.get(name, frozenset()) ^ namings.get(name, frozenset())}
        self.namings = namings
        if changed and self.found:
            self.forget(lines_naming(changed, sym.sources))

    def rules_interface(self, rules: list[s.Node]) -> tuple[object, ...]:
        """Every rule's `interface`, worked out once for each rule object."""
        fresh: dict[int, tuple[s.Node, object]] = {}
        for r in rules:
            hit = self.interfaces.get(id(r))
            fresh[id(r)] = hit if hit is not None and hit[0] is r else (r, interface(r))
        self.interfaces = fresh
        return tuple(fresh[id(r)][1] for r in rules)

    def card_namings(self, sym: Symbols) -> Namings:
        """Each card's `namings_of`, worked out once for each card object (which fields are
        text-typed is part of the rules' interface: when it changes, this starts afresh)."""
        text_fields = {n for n, f in sym.fields.items() if f.type == "text"}
        named = {}
        for card in sym.cards.values():
            known = self.named.get(id(card))
            named[id(card)] = known if known is not None and known[0] is card else (card, namings_of(card, text_fields))
        self.named = named
        return {card.name: words for card, words in named.values()}

    def forget(self, hits: dict[str, list[int]]) -> None:
        """Drop every check that reported something, or whose declaration covers one of the lines."""
        def touched(span: Span) -> bool:
            return any(span.line <= n <= span.end_line for n in hits.get(span.file, ()))

        rules_touched = any(touched(r.span) for r in self.keep)
        self.found = {key: f for key, f in self.found.items()
                      if not f.diagnostics and not (touched(f.decl.span) if f.decl is not None else rules_touched)}

    def copy(self) -> Memo:
        return Memo(self.env, self.keep, self.found, self.namings, self.named, self.interface, self.interfaces)

    def load(self, other: Memo) -> None:
        self.env, self.keep, self.found = other.env, other.keep, other.found
        self.namings, self.named = other.namings, other.named
        self.interface, self.interfaces = other.interface, other.interfaces

    def get(self, decl: s.Node) -> Found | None:
        found = self.found.get(id(decl))
        return found if found is not None and found.decl is decl else None


MEMO = Memo()


def remembered(ctx: Context, decl: s.Entity, check: Callable[[], object]) -> Found:
    """Check a card or scenario, or replay what checking it found (`Memo.enter` says how long
    that holds)."""
    found = MEMO.get(decl)
    if found is not None:
        found.replay(ctx)
        return found
    found = record(ctx, decl, check)
    if decl.what == "card":
        found.card_props = ctx.checked.card_props.get(decl.name)
    MEMO.found[id(decl)] = found
    return found


def rules_remembered(ctx: Context, check: Callable[[], object]) -> Found:
    """Check every rule (all but the cards and scenarios), or replay what that found while no
    rule changed: of the cards, the rules' checks read only what names them (`Memo.enter`
    forgets this check when such a name in a rule's source came or went)."""
    found = MEMO.found.get(RULES)
    if found is not None:
        found.replay(ctx)
        return found
    names = dict(ctx.checked.step_names)
    found = record(ctx, None, check)
    found.step_names = {k: v for k, v in ctx.checked.step_names.items() if names.get(k) is not v}
    MEMO.found[RULES] = found
    return found


def record(ctx: Context, decl: s.Node | None, check: Callable[[], object]) -> Found:
    """Run a check, noting every resolution, type and diagnostic it writes."""
    resolution: list[tuple[s.Node, Ref]] = []
    types: list[tuple[s.Node, Type]] = []
    before = len(ctx.diags)
    ctx.checked.resolution.journal, ctx.checked.types.journal = resolution, types
    try:
        check()
    finally:
        ctx.checked.resolution.journal = ctx.checked.types.journal = None
    return Found(decl, {id(n): (n, r) for n, r in resolution}, {id(n): (n, t) for n, t in types},
                 ctx.diags[before:])
