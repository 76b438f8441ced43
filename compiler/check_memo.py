"""What checking a card or a scenario found, remembered in this process, so that a game checked
again after an edit re-checks only what may have changed (the language server checks on every
keystroke).

A card's or scenario's check reads only the game's other declarations and the names and labels of
its cards; parsed files are remembered by content (`parse_cache.py`), so an unchanged
declaration is the same object from one build to the next. The memo is therefore keyed by the
declaration's identity and by the *environment*: the identities of every declaration that is
not a card or a scenario, and every card's name and labels. An edit to a card leaves the
environment as it was; an edit to a rule changes it and everything is checked again. The memo
keeps what its keys name alive, so an identity is never reused while it is remembered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import syntax as s
from .checked import Context
from .diagnostics import Diagnostic
from .refs import Ref, Type

Env = tuple[Any, ...]


def environment(files: list[s.SourceFile]) -> tuple[Env, list[s.Node]]:
    """The environment of a game's cards and scenarios, and the nodes it names (to keep alive)."""
    rules: list[s.Node] = []
    cards: list[tuple[str, s.Labels]] = []
    for f in files:
        for item in f.items:
            if isinstance(item, s.Entity) and item.what in ("card", "scenario"):
                if item.what == "card":
                    cards.append((item.name, item.labels))
            else:
                rules.append(item)
    return (tuple(id(r) for r in rules), tuple(cards)), rules


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
    """The declarations found in one environment (a new environment starts afresh)."""

    env: Env | None = None
    keep: list[s.Node] = field(default_factory=list)
    found: dict[int, Found] = field(default_factory=dict)

    def enter(self, env: Env, keep: list[s.Node]) -> None:
        if env != self.env:
            self.env, self.keep, self.found = env, keep, {}

    def get(self, decl: s.Node) -> Found | None:
        found = self.found.get(id(decl))
        return found if found is not None and found.decl is decl else None


MEMO = Memo()


def remembered(ctx: Context, decl: s.Entity, check: Callable[[], object]) -> Found:
    """Check a card or scenario, or replay what checking it found in this environment."""
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
    """Check every rule (all but the cards and scenarios), or replay what that found in this
    environment: the rules' checks read nothing else (of the cards, only their names and labels,
    which the environment holds)."""
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
