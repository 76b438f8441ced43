"""Functions that compiled rules call for the language's built-in operations."""

from __future__ import annotations

from typing import Any

from .game import ExpectationFailed, Game, Obj, Player, RuleViolation, Zone
from .limits import LOOP_LIMIT, MAX_ITEMS, MAX_NUMBER
from .values import Delta, Pair, RangeChange, apply_change


def add(a: Any, b: Any) -> Any:
    """`+` on numbers, two-sided values and changes, or lists."""
    if isinstance(a, Pair) or isinstance(b, (Delta, RangeChange)):
        return apply_change(a, b)
    if a is None:
        return b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) + len(b) > MAX_ITEMS:
            raise RuleViolation(f"a list grew beyond {MAX_ITEMS:,} items")
        return list(a) + list(b)
    return a + b


def num(value: Any) -> Any:
    """A computed value, refused when it is a number beyond the language's bound."""
    if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise RuleViolation(f"a number grew beyond ±{MAX_NUMBER:,}")
    return value


def each(g: Game, items: Any) -> list[Any]:
    """The items a `for` loop walks, counted toward the game's loop limit."""
    items = list(items)
    g.loops += len(items)
    if g.loops > LOOP_LIMIT:
        raise RuleViolation("a loop in the rules did not finish")
    return items


def sub(a: Any, b: Any) -> Any:
    if isinstance(b, Delta):
        return apply_change(a, Delta(-b.left, -b.right))
    return a - b


def same(a: Any, b: Any) -> bool:
    """Equality in which a list and a range with the same members are equal."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return bool(a == b)


def expect(cond: Any, message: str, where: str) -> None:
    if not cond:
        raise ExpectationFailed(f"{where}: {message}")


def tick(g: Game) -> None:
    """Count loop iterations so a rule that never ends becomes an error, not a hang."""
    g.loops += 1
    if g.loops > LOOP_LIMIT:
        raise RuleViolation("a loop in the rules did not finish")


def hosts(p: Player, characters: tuple[str, ...]) -> bool:
    return any(c in p.picks for c in characters)


def card_of(obj: Obj) -> str | None:
    return obj.defn.ident if obj.defn is not None else None


def at(seq: Any, index: int) -> Any:
    try:
        return seq[index]
    except (IndexError, TypeError):
        return None


# ---- language built-ins: fn_NAME(g, *args) ------------------------------------------


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
