"""Rule-set description the compiled module hands to the runtime: specs of zones, counters, cards."""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Callable, Collection, Mapping
from sys import intern
from typing import Any

from msgspec import Struct, field, json

from .values import Pair

GENERATED_PREFIX = "<cardsmith:"  # the file name generated code is compiled under


class TableSpec(Struct, frozen=True):
    """Who sits at the table: how many players, how many characters each picks, and which
    picks are legal (`different`: a player's characters differ, by the character option
    `different_by` when set; `unique`: no character is picked at two seats)."""

    min_players: int
    max_players: int
    picks: int
    different: bool = False
    different_by: str | None = None
    unique: bool = False


class ZoneSpec(Struct, frozen=True):
    """A declared zone. `per_player` zones exist once per player, others once per game."""

    name: str
    label: str
    per_player: bool
    holds_cards: bool
    tokens: tuple[str, ...]
    capacity: int | None
    visibility: str  # public / owner / hidden
    reveal_field: str | None  # a card field that makes a card public while true
    supply: bool  # an unlimited source and sink of tokens


class CounterSpec(Struct, frozen=True):
    """A declared counter or flag with optional bounds and default."""

    name: str
    label: str
    per_player: bool
    low: int | None
    high: int | None
    start: Any
    flag: bool
    visibility: str = "public"  # public / owner (only its player sees it) / hidden
    logged: bool = False  # every change is written to the game log
    addendum: str | None = None  # the addendum that declares it: it exists while that one is in force
    hosts_only: bool = False  # (an addendum's, with `absent`) only players hosting the addendum have it


class CardDef(Struct, frozen=True):
    """A card's static data: properties and compiled timing functions."""

    ident: str
    name: str
    props: dict[str, Any]
    timings: dict[str, Callable[..., Any]]
    labels: dict[str, str] = field(default_factory=dict)


Prop = int | str | bool | None | tuple[int | str | bool | None, ...]


class CardRow(Struct, array_like=True):
    """One card as a generated module's card table holds it: a JSON array of its name, label,
    properties, timing blocks (by the names of the module's functions) and labels."""

    ident: str
    name: str
    props: dict[str, Prop]
    timings: dict[str, str]
    labels: dict[str, str]


_CARD_TABLE = json.Decoder(list[CardRow])


def card_defs(table: str, functions: Mapping[str, Any], pairs: Collection[str]) -> dict[str, CardDef]:
    """The cards of a generated module's card table (a JSON list of `CardRow`s). Lists come
    back as tuples (ranges, sets of words), those of the fields named in `pairs` as `Pair`s.
    Names and words are interned, as the code's own constants are: the rules compare them
    with those constants on every step."""
    cards: dict[str, CardDef] = {}
    for row in _CARD_TABLE.decode(table):
        props = {intern(name): intern(value) if type(value) is str else value for name, value in row.props.items()}
        for name in pairs:
            value = props.get(name)
            if type(value) is tuple:  # (a built-in property under a pair field's name keeps its value)
                props[name] = Pair(*value)  # type: ignore[arg-type]  # a pair field holds (int | None, int | None, bool)
        timings = {intern(timing): functions[fn] for timing, fn in row.timings.items()}
        ident = intern(row.ident)
        cards[ident] = CardDef(ident, row.name, props, timings, row.labels)
    return cards


class TriggerSpec(Struct, frozen=True):
    """A rule trigger (`when EVENT`): runs fn(g, *event_args) when active."""

    event: str
    fn: Callable[..., Any]
    addendum: str | None


class CardTriggerSpec(Struct, frozen=True):
    """A card trigger: runs fn(g, card, *event_args) for every copy of the card in the game."""

    event: str
    card: str
    fn: Callable[..., Any]


class Reads(Struct, frozen=True):
    """What a state check reads through one addendum's rules (a replacement of a step it
    calls), or through one card's blocks: it counts only in games where that addendum is
    active, or once that card is in the game."""

    zones: list[str]
    counters: list[str]
    objects: bool = False


class CheckSpec(Struct, frozen=True):
    """A state check and what it reads: it runs after a change to one of those."""

    fn: Callable[..., Any]
    zones: list[str]
    counters: list[str]
    objects: bool  # reads tokens on objects: runs after any token move that involves one
    addendum: str | None = None  # a check of an addendum runs only in games where it is active
    through: dict[str, Reads] = field(default_factory=dict)  # more reads, by addendum
    by_card: dict[str, Reads] = field(default_factory=dict)  # more reads, by card
    # zones read only for the cards carrying one of these fields (which never change): a change
    # to the zone counts only when such a card comes or goes
    marked: dict[str, list[str]] = field(default_factory=dict)

    def reads_in(self, active: frozenset[str], present: frozenset[str]) -> Reads:
        """What the check reads in a game where these addenda are active and these cards are
        present."""
        more = [r for name, r in self.through.items() if name in active]
        more += [r for ident, r in self.by_card.items() if ident in present]
        return Reads(zones=[*self.zones, *(z for r in more for z in r.zones)],
                     counters=[*self.counters, *(c for r in more for c in r.counters)],
                     objects=self.objects or any(r.objects for r in more))


class CheckIndex(Struct, frozen=True):
    """Which checks to run after a change, for one set of active addenda and present cards."""

    zones: dict[str, tuple[int, ...]]  # zone name -> checks reading it
    counters: list[tuple[int, ...]]  # counter index -> checks reading it
    objects: tuple[int, ...]  # checks reading tokens on objects
    marked: dict[str, tuple[tuple[int, str], ...]]  # zone name -> (check, field): the cards that count


class ActionSpec(Struct, frozen=True):
    """A standing action: offered in each of a player's menus while `allowed(g, p)` holds."""

    name: str
    label: str
    allowed: Callable[..., Any]
    fn: Callable[..., Any]
    passive: bool = False  # taking it is not playing on: agents that act choose it last
    addendum: str | None = None  # an addendum's action is offered only in games where it is active


class SourceMap(Struct):
    """Where generated code comes from: the source (file, line) of each mapped generated line,
    held as three parallel integer arrays in generated-line order (compact, so a cached game
    loads quickly), and the generated line where each declaration's function starts."""

    paths: list[str]  # the source files the `files` entries index
    at: array[int]  # mapped generated lines, ascending
    files: array[int]  # the source file of each, as an index into `paths`
    source_lines: array[int]  # the source line of each
    decls: list[tuple[int, str]]  # (first generated line, "card X, block on_use"), in order

    @classmethod
    def of(cls, lines: dict[int, tuple[str, int]], decls: list[tuple[int, str]]) -> SourceMap:
        """The map of generated line → (source file, source line)."""
        paths: dict[str, int] = {}
        at, files, source_lines = array("i"), array("i"), array("i")
        for generated in sorted(lines):
            path, line = lines[generated]
            at.append(generated)
            files.append(paths.setdefault(path, len(paths)))
            source_lines.append(line)
        return cls(list(paths), at, files, source_lines, decls)

    def entries(self) -> list[tuple[int, tuple[str, int]]]:
        """Every mapped generated line with its source, in generated-line order."""
        return [(n, (self.paths[f], line)) for n, f, line in zip(self.at, self.files, self.source_lines, strict=True)]

    def where(self, generated: int) -> str | None:
        """`file:line in DECLARATION` for a generated line: the nearest mapped line at or
        before it (lines the generator adds, like loop guards, belong to the line above)."""
        at = bisect.bisect_right(self.at, generated)
        if not at:
            return None
        path, line = self.paths[self.files[at - 1]], self.source_lines[at - 1]
        d = bisect.bisect_right(self.decls, (generated, "\uffff"))
        return f"{path}:{line}" + (f" in {self.decls[d - 1][1]}" if d else "")


class Scenarios(Struct, frozen=True):
    """A game's scenarios: how to run each one, and each one's properties."""

    runs: dict[str, Callable[..., Any]]
    props: dict[str, dict[str, list[str]]]


class RuleSet(Struct):
    """Everything the runtime needs to play one game, produced by the compiler."""

    game: str
    label: str
    table: TableSpec
    zones: list[ZoneSpec]
    counters: list[CounterSpec]
    field_defaults: dict[str, Any]
    cards: dict[str, CardDef]
    characters: dict[str, dict[str, Any]]
    triggers: list[TriggerSpec]
    card_triggers: list[CardTriggerSpec]
    checks: list[CheckSpec]
    procedures: dict[str, Callable[..., Any]]
    addenda: dict[str, tuple[str, ...]]  # addendum -> characters that activate it
    entry: str  # the procedure that plays a whole game
    shown_fields: dict[str, str] = field(default_factory=dict)  # field -> label, shown in views
    hidden_card: str = "?"  # what players read in place of a card they cannot see
    language: str = "en"  # the language of the engine's own words to players (see phrases.py)
    logged_fields: dict[str, str] = field(default_factory=dict)  # field -> label, changes logged
    token_labels: dict[str, str] = field(default_factory=dict)  # token kind -> its label
    actions: list[ActionSpec] = field(default_factory=list)
    move_event: str | None = None  # emitted (card, zone left, zone entered) whenever a card changes zone
    token_event: str | None = None  # emitted (kind, count, from, to, card) whenever tokens move
    use_event: str | None = None  # emitted by the rules (player, card) when a player uses a card
    first_mover: str | None = None  # a global counter that names the player who moves first
    source_map: SourceMap = field(default_factory=lambda: SourceMap.of({}, []))
    scenario_loader: Callable[[], Scenarios] | None = None  # set by the loader: scenarios are code apart
    _scenarios: Scenarios | None = None
    _by_field: dict[tuple[str, tuple[Any, ...]], list[str]] = field(default_factory=dict)
    _start_fields: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    _check_indexes: dict[tuple[frozenset[str], frozenset[str]], CheckIndex] = field(default_factory=dict)
    _card_triggers: dict[str, list[tuple[int, CardTriggerSpec]]] | None = None
    _active: dict[frozenset[str], frozenset[str]] = field(default_factory=dict)
    _handlers: dict[frozenset[str], dict[str, list[Callable[..., Any]]]] = field(default_factory=dict)
    _cards_read: frozenset[str] | None = None
    _counter_starts: tuple[list[Any], list[Any]] | None = None

    def scenario_book(self) -> Scenarios:
        """The scenarios, loaded on first use (a game played or simulated never runs one)."""
        if self._scenarios is None:
            self._scenarios = self.scenario_loader() if self.scenario_loader is not None else Scenarios({}, {})
        return self._scenarios

    @property
    def scenarios(self) -> dict[str, Callable[..., Any]]:
        return self.scenario_book().runs

    @property
    def scenario_props(self) -> dict[str, dict[str, list[str]]]:
        return self.scenario_book().props

    def handlers_in(self, active: frozenset[str]) -> dict[str, list[Callable[..., Any]]]:
        """The rule triggers by event in a game with these addenda active, in declared order;
        remembered per set (games share it and never change it)."""
        handlers = self._handlers.get(active)
        if handlers is None:
            handlers = self._handlers[active] = {}
            for t in self.triggers:
                if t.addendum is None or t.addendum in active:
                    handlers.setdefault(t.event, []).append(t.fn)
        return handlers

    def cards_read(self) -> frozenset[str]:
        """The cards that some state check reads through."""
        if self._cards_read is None:
            self._cards_read = frozenset(ident for c in self.checks for ident in c.by_card)
        return self._cards_read

    def active_addenda(self, picks: frozenset[str]) -> frozenset[str]:
        """The addenda in force in a game whose players picked these characters (those that name
        no character always are); remembered per set of picks."""
        active = self._active.get(picks)
        if active is None:
            active = self._active[picks] = frozenset(
                name for name, chars in self.addenda.items() if not chars or any(c in picks for c in chars))
        return active

    def card_triggers_of(self, card: str) -> list[tuple[int, CardTriggerSpec]]:
        """A card's triggers with their places in the declared order."""
        if self._card_triggers is None:
            self._card_triggers = {}
            for order, ct in enumerate(self.card_triggers):
                self._card_triggers.setdefault(ct.card, []).append((order, ct))
        return self._card_triggers.get(card, [])

    def check_index(self, active: frozenset[str], present: frozenset[str]) -> CheckIndex:
        """The checks by what they read, in a game with these addenda active and these cards
        present (checks of other addenda left out, reads through absent cards not counted);
        remembered, since the same few combinations recur game after game."""
        index = self._check_indexes.get((active, present))
        if index is None:
            zones: dict[str, list[int]] = {spec.name: [] for spec in self.zones}
            counters: dict[str, list[int]] = {c.name: [] for c in self.counters}
            objects: list[int] = []
            marked: dict[str, list[tuple[int, str]]] = {}
            for i, check in enumerate(self.checks):  # in order: each list holds its checks in order
                if check.addendum is None or check.addendum in active:
                    reads = check.reads_in(active, present)
                    for table, names in ((zones, reads.zones), (counters, reads.counters)):
                        for name in set(names).intersection(table):  # once each, declared names only
                            table[name].append(i)
                    if reads.objects:
                        objects.append(i)
                    for zone, fields in check.marked.items():
                        if zone in zones and zone not in reads.zones:  # read in full here: already listed
                            marked.setdefault(zone, []).extend((i, f) for f in fields)
            index = CheckIndex({name: tuple(found) for name, found in zones.items()},
                               [tuple(found) for found in counters.values()], tuple(objects),
                               {zone: tuple(found) for zone, found in marked.items()})
            self._check_indexes[(active, present)] = index
        return index

    def counter_starts(self) -> tuple[list[Any], list[Any]]:
        """Every counter's starting value, as the game holds them (a player's counters read None
        there) and as each player holds them (the game's read None there); copied by each game."""
        if self._counter_starts is None:
            starts = [False if c.flag and c.start is None else c.start for c in self.counters]
            self._counter_starts = ([None if c.per_player else v for c, v in zip(self.counters, starts, strict=True)],
                                    [v if c.per_player else None for c, v in zip(self.counters, starts, strict=True)])
        return self._counter_starts

    def start_fields(self, card: CardDef | None) -> dict[str, Any]:
        """The starting fields of a copy of `card` (None: of another object): the defaults with the
        card's own values over them. Shared by every such object; objects copy it to write."""
        ident = None if card is None else card.ident
        values = self._start_fields.get(ident)
        if values is None:
            values = self._start_fields[ident] = {**self.field_defaults, **(card.props if card else {})}
        return values

    def cards_where(self, name: str, wanted: list[Any]) -> list[str]:
        """The cards (in declared order) whose field `name` is one of `wanted`; remembered per query,
        since a game's set-up asks the same few questions every game."""
        try:
            key = (name, tuple(wanted))
            hit = self._by_field.get(key)
        except TypeError:  # an unhashable value: answer without remembering
            key, hit = None, None
        if hit is None:
            default = self.field_defaults.get(name)
            hit = [ident for ident, card in self.cards.items() if card.props.get(name, default) in wanted]
            if key is not None:
                self._by_field[key] = hit
        return hit
