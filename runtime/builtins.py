"""The language's built-in functions (`count(zone)`, `opponent(p)`, …): `fn_NAME(g, *args)`.

`compiler/builtins.py` registers each with its signature; the first line of each docstring
is its description in the language reference."""

from __future__ import annotations

from typing import Any

from .game import Game, Obj, Player, Zone
from .values import Delta, Pair, RangeChange


def fn_count(g: Game, holder: Zone | Obj | list[Any] | None, kind: str | None = None,
             owner: Player | None = None) -> int:
    if holder is None:
        return 0
    if isinstance(holder, list):
        return len(holder)
    if kind is None and isinstance(holder, Zone) and not holder.spec.holds_cards and holder.spec.tokens:
        kind = holder.spec.tokens[0]
    return g.count(holder, kind, owner)


def fn_owned(g: Game, holder: Zone | Obj, kind: str, owner: Player) -> int:
    return g.count(holder, kind, owner)


def fn_space(g: Game, zone: Zone, kind: str | None = None) -> int:
    token = kind or (zone.spec.tokens[0] if zone.spec.tokens else "")
    return g.space(zone, token)


def fn_cards(g: Game, zone: Zone) -> list[Obj]:
    return list(zone.cards)


def fn_top(g: Game, zone: Zone) -> Obj | None:
    return zone.cards[-1] if zone.cards else None


def fn_bottom(g: Game, zone: Zone) -> Obj | None:
    return zone.cards[0] if zone.cards else None


def fn_first(g: Game, items: Any) -> Any:
    items = list(items)
    return items[0] if items else None


def fn_size(g: Game, items: Any) -> int:
    return len(items) if items is not None else 0


def fn_opponent(g: Game, p: Player) -> Player:
    return g.opponent(p)


def fn_players(g: Game) -> list[Player]:
    return list(g.players)


def fn_player_count(g: Game) -> int:
    return len(g.players)


def fn_seat(g: Game, index: int) -> Player:
    return g.players[index % len(g.players)]


def fn_min(g: Game, a: int, b: int) -> int:
    return min(a, b)


def fn_max(g: Game, a: int, b: int) -> int:
    return max(a, b)


def fn_abs(g: Game, a: int) -> int:
    return abs(a)


def fn_has(g: Game, obj: Obj, timing: str) -> bool:
    return g.has(obj, timing)


def fn_new_object(g: Game, kind: str, zone: Zone | None, owner: Player | None) -> Obj:
    return g.new_object(kind, None, owner, zone, {})


def fn_remove(g: Game, obj: Obj) -> None:
    g.remove_object(obj)


def fn_picked(g: Game, p: Player, character: str) -> bool:
    return character in p.picks


def fn_any_picked(g: Game, character: str) -> bool:
    return any(character in p.picks for p in g.players)


def fn_addendum_active(g: Game, name: str) -> bool:
    return name in g.active_addenda


def fn_left(g: Game, pair: Pair | None) -> int | None:
    return pair.left if pair is not None else None


def fn_right(g: Game, pair: Pair | None) -> int | None:
    return pair.right if pair is not None else None


def fn_braced(g: Game, pair: Pair | None) -> bool:
    return bool(pair is not None and pair.braced)


def fn_pair(g: Game, left: int | None, right: int | None, braced: bool = False) -> Pair:
    return Pair(left, right, bool(braced))


def fn_low(g: Game, rng: tuple[int, ...]) -> int | None:
    return min(rng) if rng else None


def fn_high(g: Game, rng: tuple[int, ...]) -> int | None:
    return max(rng) if rng else None


def fn_span(g: Game, low: int, high: int) -> tuple[int, ...]:
    """The range low-high (values below 0 dropped, at most 1,001 values)."""
    low = max(low, 0)
    return tuple(range(low, min(high, low + 1000) + 1))


def fn_contains(g: Game, items: Any, item: Any) -> bool:
    return items is not None and item in items


def fn_is_none(g: Game, value: Any) -> bool:
    return value is None


def fn_index_of(g: Game, p: Player) -> int:
    return p.index


def fn_change(g: Game, left: int, right: int) -> Delta:
    """A two-sided change computed at run time (`change(0, x)` is +0/+x)."""
    return Delta(int(left), int(right))


def fn_expand(g: Game, near: int, far: int) -> RangeChange:
    """Range expansion: `near` more values below the low end, `far` above the high end."""
    return RangeChange(0, int(near), int(far))


def fn_shift(g: Game, amount: int) -> RangeChange:
    """Move every value of a range by `amount` (3-4 shifted by -1 is 2-3)."""
    return RangeChange(int(amount), 0, 0)


def fn_character_prop(g: Game, character: str, key: str) -> Any:
    """An option of a character declaration (numbers as int), or None."""
    value = g.rules.characters.get(character, {}).get(key)
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return value


def fn_characters(g: Game) -> list[str]:
    return list(g.rules.characters)


def fn_roll(g: Game, sides: int) -> int:
    """A number from 0 to sides-1 from the game's generator."""
    return g.rng.randrange(sides) if sides > 0 else 0


def fn_card_ids(g: Game) -> list[str]:
    return list(g.rules.cards)


def fn_card_prop(g: Game, ident: str, name: str) -> Any:
    card = g.rules.cards.get(ident)
    if card is None:
        return None
    return card.props.get(name, g.rules.field_defaults.get(name))


def fn_new_card(g: Game, ident: str, owner: Player, zone: Zone) -> Obj:
    return g.new_card(ident, owner, zone)


def fn_stop_effects(g: Game, card: Obj | None) -> None:
    """End what a card's anchored blocks registered (modifiers, guards) while it stays put."""
    if card is not None:
        g.release(card)


def fn_others(g: Game, p: Player) -> list[Player]:
    return [q for q in g.players if q is not p]
