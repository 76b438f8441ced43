"""The language's built-in functions (`count(zone)`, `opponent(p)`, …): `fn_NAME(g, *args)`.

`compiler/builtins.py` registers each with its signature; the first line of each docstring
is its description in the language reference. A missing value (`none`) never crashes a
built-in that reads a place or a collection: it counts as empty."""

from __future__ import annotations

from typing import Any

from .game import Game, Obj, Player, Zone
from .values import Delta, Pair, RangeChange


def fn_count(g: Game, holder: Zone | Obj | list[Any] | None, kind: str | None = None,
             owner: Player | None = None) -> int:
    """Cards in a zone, items in a list, or tokens of a kind (of an owner) in a zone or on a card."""
    if holder is None:
        return 0
    if isinstance(holder, list):
        return len(holder)
    if kind is None and isinstance(holder, Zone) and not holder.spec.holds_cards and holder.spec.tokens:
        kind = holder.spec.tokens[0]
    return g.count(holder, kind, owner)


def fn_owned(g: Game, holder: Zone | Obj | None, kind: str, owner: Player) -> int:
    """Tokens of an owned kind that belong to `owner`, in a zone or on a card."""
    return 0 if holder is None else g.count(holder, kind, owner)


def fn_space(g: Game, zone: Zone | None, kind: str | None = None) -> int:
    """How many more tokens a zone can take: its `max` is shared by every kind, so `kind` (kept
    for sources that name it) does not change the answer."""
    return 0 if zone is None else g.space(zone)


def fn_cards(g: Game, zone: Zone | None) -> list[Obj]:
    """The cards of a zone, bottom first (a copy: changing the zone does not change it)."""
    return [] if zone is None else list(zone.cards)


def fn_top(g: Game, zone: Zone | None) -> Obj | None:
    """The top card of a zone, or none."""
    return zone.cards[-1] if zone is not None and zone.cards else None


def fn_bottom(g: Game, zone: Zone | None) -> Obj | None:
    """The bottom card of a zone, or none."""
    return zone.cards[0] if zone is not None and zone.cards else None


def fn_first(g: Game, items: Any) -> Any:
    """The first item of a list or range, or none."""
    items = list(items) if items is not None else []
    return items[0] if items else None


def fn_size(g: Game, items: Any) -> int:
    """How many items a list or range has."""
    return len(items) if items is not None else 0


def fn_opponent(g: Game, p: Player | None) -> Player | None:
    """The next player in seat order (the only opponent in a two-player game)."""
    return None if p is None else g.opponent(p)


def fn_others(g: Game, p: Player | None) -> list[Player]:
    """Every player but `p`, in seat order."""
    return [q for q in g.players if q is not p]


def fn_players(g: Game) -> list[Player]:
    """Every player, in seat order."""
    return list(g.players)


def fn_player_count(g: Game) -> int:
    """How many players the game has."""
    return len(g.players)


def fn_seat(g: Game, index: int) -> Player:
    """The player in seat `index` (0 is the first; counted round the table)."""
    return g.players[index % len(g.players)]


def fn_index_of(g: Game, p: Player | None) -> int | None:
    """A player's seat number (0 is the first)."""
    return None if p is None else p.index


def fn_min(g: Game, a: int, b: int) -> int:
    """The smaller of two numbers."""
    return b if b < a else a  # as Python's `min` of two, which is slow to call


def fn_max(g: Game, a: int, b: int) -> int:
    """The larger of two numbers."""
    return b if b > a else a  # as Python's `max` of two, which is slow to call


def fn_abs(g: Game, a: int) -> int:
    """A number without its sign."""
    return abs(a)


def fn_roll(g: Game, sides: int) -> int:
    """A number from 0 to sides-1 from the game's seeded generator (0 when sides < 1)."""
    return g.rng.randrange(sides) if sides > 0 else 0


def fn_has(g: Game, obj: Obj | None, timing: str) -> bool:
    """Whether a card has a block for the timing."""
    return obj is not None and g.has(obj, timing)


def fn_new_object(g: Game, kind: str, zone: Zone | None, owner: Player | None) -> Obj:
    """A new object of a kind (such as an attack), in a zone (or none), with an owner."""
    return g.new_object(kind, None, owner, zone)


def fn_new_card(g: Game, ident: str, owner: Player, zone: Zone) -> Obj:
    """A new copy of a declared card, owned by a player, in a zone."""
    return g.new_card(ident, owner, zone)


def fn_remove(g: Game, obj: Obj | None) -> None:
    """Take an object out of the game (it leaves its zone; what was made for it ends)."""
    if obj is not None:
        g.remove_object(obj)


def fn_stop_effects(g: Game, card: Obj | None) -> None:
    """End what a card's anchored blocks registered (modifiers, guards) while it stays put."""
    if card is not None:
        g.release(card)


def fn_picked(g: Game, p: Player | None, character: str) -> bool:
    """Whether a player picked the character."""
    return p is not None and character in p.picks


def fn_any_picked(g: Game, character: str) -> bool:
    """Whether any player picked the character."""
    return any(character in p.picks for p in g.players)


def fn_addendum_active(g: Game, name: str) -> bool:
    """Whether an addendum is in force in this game (a player hosts one of its characters)."""
    return name in g.active_addenda


def fn_characters(g: Game) -> list[str]:
    """Every declared character."""
    return list(g.rules.characters)


def fn_character_prop(g: Game, character: str, key: str) -> Any:
    """An option of a character declaration (whole numbers as numbers), or none."""
    value = g.rules.characters.get(character, {}).get(key)
    if isinstance(value, str) and value.lstrip("-").isascii() and value.lstrip("-").isdecimal():
        return int(value)
    return value


def fn_card_ids(g: Game, field: str | None = None, values: Any = None) -> list[str]:
    """Every declared card, or (in declared order) those whose field is one of the values (a list or one value)."""
    if field is None:
        return list(g.rules.cards)
    return list(g.rules.cards_where(field, values if isinstance(values, list) else [values]))


def fn_card_prop(g: Game, ident: str, name: str) -> Any:
    """A property of a declared card (its field's default when the card does not set it)."""
    card = g.rules.cards.get(ident)
    if card is None:
        return None
    return card.props.get(name, g.rules.field_defaults.get(name))


def fn_left(g: Game, pair: Pair | None) -> int | None:
    """The left side of a two-sided value (none for `-`)."""
    return pair.left if pair is not None else None


def fn_right(g: Game, pair: Pair | None) -> int | None:
    """The right side of a two-sided value (none for `-`)."""
    return pair.right if pair is not None else None


def fn_braced(g: Game, pair: Pair | None) -> bool:
    """Whether a two-sided value is written in braces, like {1/2}."""
    return bool(pair is not None and pair.braced)


def fn_pair(g: Game, left: int | None, right: int | None, braced: bool = False) -> Pair:
    """A two-sided value from its sides (none for `-`)."""
    return Pair(left, right, bool(braced))


def fn_low(g: Game, rng: tuple[int, ...] | None) -> int | None:
    """The lowest value of a range, or none when it is empty."""
    return min(rng) if rng else None


def fn_high(g: Game, rng: tuple[int, ...] | None) -> int | None:
    """The highest value of a range, or none when it is empty."""
    return max(rng) if rng else None


def fn_span(g: Game, low: int, high: int) -> tuple[int, ...]:
    """The range low-high (values below 0 dropped, at most 1,001 values)."""
    low = max(low, 0)
    return tuple(range(low, min(high, low + 1000) + 1))


def fn_contains(g: Game, items: Any, item: Any) -> bool:
    """Whether a list or range holds the item."""
    return items is not None and item in items


def fn_is_none(g: Game, value: Any) -> bool:
    """Whether a value is none."""
    return value is None


def fn_change(g: Game, left: int, right: int) -> Delta:
    """A two-sided change computed at run time (`change(0, x)` is +0/+x)."""
    return Delta(int(left), int(right))


def fn_expand(g: Game, near: int, far: int) -> RangeChange:
    """A range change: `near` more values below the low end, `far` above the high end; a
    negative number shrinks that end instead (`expand(-1, 0)`: 2-4 becomes 3-4, 1,3,5 becomes 3,5)."""
    return RangeChange(0, int(near), int(far))


def fn_shift(g: Game, amount: int) -> RangeChange:
    """A range change that moves every value by `amount` (3-4 shifted by -1 is 2-3)."""
    return RangeChange(int(amount), 0, 0)
