"""What one seat may see: zones, counters and log lines filtered by visibility.

A card's identity is shown only where `Game.can_see` allows it; counters declared `owner`
only to their owner, `hidden` ones to nobody; log lines as that seat reads them. Values
are made plain (names, numbers, lists of names), so a view is always valid JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .log import lines_for
from .protocol import PlayerView, Value, View, ZoneView

if TYPE_CHECKING:
    from .game import Game, Zone

RECENT_LOG = 12  # log lines a view carries


def plain(g: Game, value: Any) -> Value:
    """A counter's value as a viewer sees it: numbers, flags and text as they are, other
    values by their description (players, cards and characters by name)."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, list):
        return [g.describe(v) for v in value]
    return g.describe(value)


def _zone(g: Game, zone: Zone, seat: int) -> ZoneView:
    tokens = {k if isinstance(k, str) else f"{k[0]}@P{k[1] + 1}": n for k, n in zone.tokens.items()}
    if not zone.spec.holds_cards:
        return ZoneView(tokens)
    cards = [g.card_view(c) if g.can_see(c, seat) else g.rules.hidden_card for c in zone.cards]
    return ZoneView(tokens, cards)


def view_of(g: Game, seat: int) -> View:
    """The view of one seat."""
    specs = g.rules.counters
    shared = {z.spec.name: _zone(g, z, seat) for z in g.zones if z is not None and not z.spec.supply}
    players = {}
    for p in g.players:
        zones = {z.spec.name: _zone(g, z, seat) for z in p.zones if z is not None}
        counters = {spec.name: plain(g, g.get(p, i)) for i, spec in enumerate(specs)
                    if spec.per_player and (spec.visibility == "public"
                                            or spec.visibility == "owner" and p.index == seat)}
        players[p.name] = PlayerView(zones, counters, [g.describe(c) for c in p.picks])
    counters = {spec.name: plain(g, g.get(None, i)) for i, spec in enumerate(specs)
                if not spec.per_player and spec.visibility == "public"}
    log = lines_for(g.lines, seat)
    return View(you=g.players[seat].name, seat=seat, shared=shared, players=players,
                counters=counters, log=log[-RECENT_LOG:], log_total=len(log))
