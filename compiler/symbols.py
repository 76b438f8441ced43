"""The checked model's symbol table: every declaration of a game, by kind and name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import syntax as s


@dataclass
class ZoneInfo:
    index: int
    decl: s.Simple
    per_player: bool
    holds_cards: bool
    tokens: list[str]
    capacity: int | None
    visibility: str
    reveal_field: str | None
    supply: bool
    addendum: str | None


@dataclass
class CounterInfo:
    index: int
    decl: s.Simple
    per_player: bool
    low: int | None
    high: int | None
    start: Any
    flag: bool
    absent: int | bool | None  # what a player without the addendum reads (`absent N|true|false`)
    addendum: str | None
    visibility: str = "public"  # public / owner / hidden
    logged: bool = False  # its changes are written to the game log


@dataclass
class FieldInfo:
    decl: s.Simple
    type: str  # int, pair, range, text, bool, enum, set, character
    choices: list[str]
    default: Any
    keyword: bool = False  # a printed keyword: the card text must name it exactly when it is set
    has_default: bool = False  # declared with `default`: cards may leave the property out
    shown: bool = False  # players see this field on every card they can see
    logged: bool = False  # every change the rules write is logged
    under: str | None = None  # the timing a card that sets it prints an effect under (`under TIMING`)
    form_of: str | None = None  # the keyword this keyword is a form of (`form_of KEYWORD`)


@dataclass
class Symbols:
    """All declarations of one game, after merging its files and addenda."""

    game: s.Entity | None = None
    characters: dict[str, s.Simple] = field(default_factory=dict)
    tokens: dict[str, s.Simple] = field(default_factory=dict)
    token_owned: dict[str, bool] = field(default_factory=dict)
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    zone_labels: dict[str, str] = field(default_factory=dict)
    counters: dict[str, CounterInfo] = field(default_factory=dict)
    fields: dict[str, FieldInfo] = field(default_factory=dict)
    enum_words: dict[str, str] = field(default_factory=dict)  # word -> field that declares it
    kinds: dict[str, s.Simple] = field(default_factory=dict)
    values: dict[str, s.Value] = field(default_factory=dict)
    events: dict[str, s.Event] = field(default_factory=dict)
    timings: dict[str, s.Timing] = field(default_factory=dict)
    keywords: dict[str, s.Keyword] = field(default_factory=dict)
    procedures: dict[str, s.Procedure] = field(default_factory=dict)
    triggers: list[tuple[s.Trigger, str | None]] = field(default_factory=list)
    replacements: list[tuple[s.Replace, str | None]] = field(default_factory=list)
    added_options: list[tuple[s.AddedOption, str | None]] = field(default_factory=list)
    checks: list[tuple[s.Check, str | None]] = field(default_factory=list)
    actions: list[tuple[s.Action, str | None]] = field(default_factory=list)
    cards: dict[str, s.Entity] = field(default_factory=dict)
    scenarios: dict[str, s.Entity] = field(default_factory=dict)
    addenda: dict[str, s.Addendum] = field(default_factory=dict)
    decl_addendum: dict[int, str] = field(default_factory=dict)  # id(decl) -> addendum name
    sources: dict[str, str] = field(default_factory=dict)

    def all_names(self) -> list[str]:
        """Every declared name, for `did you mean` suggestions."""
        groups: list[Any] = [self.characters, self.tokens, self.zones, self.counters, self.fields,
                             self.enum_words, self.kinds, self.values, self.events, self.timings,
                             self.keywords, self.procedures, self.cards]
        names: list[str] = []
        for g in groups:
            names.extend(g)
        return names

    def zone_by_label(self, label: str) -> str | None:
        return self.zone_labels.get(label)

    def step_menus(self, procedure: str, step: str) -> list[s.Menu]:
        """The `choose` menus written in one step of a procedure (none if there is no such step)."""
        proc = self.procedures.get(procedure)
        body = next((st.body for st in proc.steps if st.ident == step), ()) if proc is not None else ()
        return [node for node in s.walk(body) if isinstance(node, s.Menu)]

    def added_options_by_menu(self) -> dict[int, list[tuple[s.Option, str | None]]]:
        """The options addenda add, by the menu they join (`id` of its node), in source order;
        an addition whose step does not hold exactly one menu joins none (the checker says so)."""
        by_menu: dict[int, list[tuple[s.Option, str | None]]] = {}
        for added, addendum in self.added_options:
            menus = self.step_menus(added.procedure, added.step)
            if len(menus) == 1:
                by_menu.setdefault(id(menus[0]), []).append((added.option, addendum))
        return by_menu
