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


@dataclass
class Found:
    """What one declaration's check wrote: resolutions, types, diagnostics, card properties,
    and (for a card) the disagreements of its text with its definition."""

    decl: s.Node
    resolution: list[tuple[s.Node, Ref]]
    types: list[tuple[s.Node, Type]]
    diagnostics: list[Diagnostic]
    card_props: dict[str, Any] | None = None
    text_findings: Any = None  # text_lint's findings for the card, once worked out

    def replay(self, ctx: Context) -> None:
        """Write what was found into a new check, as checking again would."""
        for node, ref in self.resolution:
            ctx.checked.resolution[node] = ref
        for node, t in self.types:
            ctx.checked.types[node] = t
        ctx.diags.extend(self.diagnostics)
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


def remembered(ctx: Context, decl: s.Entity, check: Any) -> Found:
    """Check a card or scenario, or replay what checking it found in this environment."""
    found = MEMO.get(decl)
    if found is not None:
        found.replay(ctx)
        return found
    resolution: list[tuple[s.Node, Ref]] = []
    types: list[tuple[s.Node, Type]] = []
    before = len(ctx.diags)
    ctx.checked.resolution.journal, ctx.checked.types.journal = resolution, types
    try:
        check()
    finally:
        ctx.checked.resolution.journal = ctx.checked.types.journal = None
    props = ctx.checked.card_props.get(decl.name) if decl.what == "card" else None
    found = Found(decl, resolution, types, ctx.diags[before:], props)
    MEMO.found[id(decl)] = found
    return found
