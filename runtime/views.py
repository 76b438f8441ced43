"""What one seat may see: zones, counters and log lines filtered by visibility.

A card's identity is shown only where `Game.can_see` allows it; counters declared `owner`
only to their owner, `hidden` ones to nobody; log lines as that seat reads them. Values
are made plain (names, numbers, lists of names), so a view is always valid JSON. The
public view (seat `PUBLIC`) holds what every player may see.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from .protocol import PlayerView, Value, View, ZoneView
from .state import Obj, Player, Zone
from .values import Delta, Pair

if TYPE_CHECKING:
    from .game import Game
    from .record import Recorder
    from .rules import CounterSpec, RuleSet

RECENT_LOG = 12  # log lines a view carries
PUBLIC = -1  # the viewer seat of nobody: what every player may see


def plain(g: Game, value: Any) -> Value:
    """A counter's value as a viewer sees it: numbers, flags and text as they are, other
    values by their description (players, cards and characters by name)."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, list):
        return [g.describe(v) for v in value]
    return g.describe(value)


def _zone(g: Game, zone: Zone, seat: int) -> ZoneView:
    tokens = {k if isinstance(k, str) else f"{k[0]}@P{k[1] + 1}": n
              for k, n in zone.tokens.items()} if zone.tokens else {}
    if not zone.spec.holds_cards:
        return ZoneView(tokens)
    cards = [g.card_view(c) if g.can_see(c, seat) else g.rules.hidden_card for c in zone.cards]
    return ZoneView(tokens, cards)


def view_of(g: Game, seat: int) -> View:
    """The view of one seat, or with `PUBLIC` what every player may see (`you` is then "")."""
    specs = [(i, spec) for i, spec in enumerate(g.rules.counters)
             if spec.addendum is None or spec.addendum in g.active_addenda]
    mine = [(i, spec) for i, spec in specs  # what the seat reads of its own counters
            if spec.per_player and spec.visibility in ("public", "owner")]
    anyones = [(i, spec) for i, spec in mine if spec.visibility == "public"]  # and of everyone else's
    shared = {z.spec.name: _zone(g, z, seat) for z in g.zones if z is not None and not z.spec.supply}
    players = {}
    for p in g.players:
        zones = {z.spec.name: _zone(g, z, seat) for z in p.zones if z is not None}
        players[p.name] = PlayerView(zones, _counters(g, p, mine if p.index == seat else anyones),
                                     [g.describe(c) for c in p.picks])
    counters = {spec.name: plain(g, g.get(None, i)) for i, spec in specs
                if not spec.per_player and spec.visibility == "public"}
    public = seat == PUBLIC
    return View(you="" if public else g.players[seat].name, seat=seat, shared=shared, players=players,
                counters=counters, log=g.recorder.recent(seat, RECENT_LOG),
                log_total=g.recorder.public if public else g.recorder.readable(seat))


def _counters(g: Game, p: Player, specs: list[tuple[int, CounterSpec]]) -> dict[str, Value]:
    """A player's counters of `specs` that the player has, as plain values."""
    shown: dict[str, Value] = {}
    values = p.counters
    for i, spec in specs:
        if spec.hosts_only and not _has(g, p, spec):
            continue
        value = g.get(p, i) if g.mods else values[i]
        shown[spec.name] = value if value is None or isinstance(value, int) else plain(g, value)
    return shown


def _has(g: Game, p: Player, spec: CounterSpec) -> bool:
    """Whether a player has this counter: an addendum's counter that other players read as
    its `absent` value belongs only to the players hosting that addendum."""
    return not spec.hosts_only or any(c in p.picks for c in g.rules.addenda.get(spec.addendum or "", ()))


class Seeing:
    """The part of `Game` that says what each seat may see and how values read: card
    visibility, descriptions, log lines and views."""

    rules: RuleSet
    logging: bool
    recorder: Recorder
    known: dict[int, set[int]]

    read: Callable[..., Any]  # see modifiers.Modifiers

    def log(self, message: str, *args: Any, to: Player | list[Player] | None = None) -> None:
        """Add a line (`{}` marks take the arguments) for every seat, or for the `to` seats.
        A seat that cannot see a card named in the line reads the game's word for a hidden
        card in its place."""
        if not self.logging:
            return
        audience = None if to is None else frozenset(
            p.index for p in (to if isinstance(to, list) else [to]))
        self.recorder.said(message, args, audience)

    def format(self, message: str, args: tuple[Any, ...], hidden: Collection[Obj] = ()) -> str:
        """A log message with its `{}` marks filled (cards in `hidden` masked)."""
        if not args:
            return message
        parts = message.split("{}")
        marks = len(parts) - 1
        texts = [self.describe(a, hidden) for a in args][:marks]
        joined = [""] * (2 * marks + 1)  # the parts with the arguments between them (a mark past them: empty)
        joined[::2] = parts
        joined[1:2 * len(texts):2] = texts
        return "".join(joined)

    def can_see(self, card: Obj, seat: int) -> bool:
        """Whether a seat may know which card this is, where it lies now."""
        zone = card.zone
        if zone is None:
            return True
        spec = zone.spec
        if spec.visibility == "public":
            return True
        if spec.visibility == "owner" and zone.owner is not None and zone.owner.index == seat:
            return True
        if spec.reveal_field and card.fields.get(spec.reveal_field):
            return True
        return seat in self.known.get(card.uid, ())

    def describe(self, value: Any, hidden: Collection[Obj] = ()) -> str:
        """How a value is shown to players: cards and characters by name, zones with their
        owner; cards in `hidden` by the game's word for a hidden card."""
        if isinstance(value, Obj):
            return self.rules.hidden_card if value in hidden else value.name
        if isinstance(value, Zone):
            return f"{value.spec.label}({value.owner.name})" if value.owner else value.spec.label
        if isinstance(value, str):
            if value in self.rules.cards:
                return self.rules.cards[value].name
            if value in self.rules.characters:
                return str(self.rules.characters[value].get("label", value))
        if isinstance(value, (list, tuple)) and not isinstance(value, (Pair, Delta)):
            return ", ".join(self.describe(v, hidden) for v in value)
        return str(value)

    def card_view(self, card: Obj) -> str:
        """A visible card: its name, the tokens on it and its shown fields."""
        labels = self.rules.token_labels
        extra = [f"{labels.get(k if isinstance(k, str) else k[0], k)}×{n}" for k, n in card.tokens.items()]
        for name, label in self.rules.shown_fields.items():
            value = self.read(card, name)
            if value is True:
                extra.append(label)
            elif value not in (None, False, (), ""):
                extra.append(f"{label} {self.describe(value)}")
        return f"{card.name} [{', '.join(extra)}]" if extra else card.name

    def view(self, viewer: int) -> View:
        """What one seat may see (see `views.py`)."""
        return view_of(self, viewer)  # type: ignore[arg-type]
