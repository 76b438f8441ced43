"""The one registry of built-in functions: name, parameters, result type, what a call reads
(for the dependency pass), its implementation in `runtime/builtins.py` and its one-line
doc (the implementation's docstring). The checker, the generator, the dependency pass and
the language reference all read it; a test proves it matches the runtime."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..runtime import builtins as impl
from .refs import Type

ANY, INT, BOOL, STR, PLAYER, OBJ, ZONE, LIST, PAIR, RANGE = (
    Type.ANY, Type.INT, Type.BOOL, Type.STR, Type.PLAYER, Type.OBJ, Type.ZONE, Type.LIST, Type.PAIR, Type.RANGE)


@dataclass(frozen=True)
class Param:
    name: str
    types: tuple[Type, ...]
    optional: bool = False


@dataclass(frozen=True)
class Builtin:
    """One built-in function of the language."""

    name: str
    params: tuple[Param, ...]
    result: Type  # ANY with `result_of_first` means "the type of the first argument"
    fn: Callable[..., Any]
    reads_tokens: bool = False  # reads the tokens of its first argument (a zone or an object)
    acts: bool = False  # changes the game or draws at random (`purity.py`)
    result_of_first: bool = False

    @property
    def doc(self) -> str:
        return (self.fn.__doc__ or "").strip().split("\n")[0]

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if not p.optional)

    @property
    def signature(self) -> str:
        parts = [f"{p.name}{'?' if p.optional else ''}" for p in self.params]
        return f"{self.name}({', '.join(parts)}) → {self.result.value}"

    @property
    def runtime_name(self) -> str:
        """The attribute of the runtime's builtins module that generated code calls."""
        return self.fn.__name__


def _b(name: str, params: str, result: Type, fn: Callable[..., Any], **extra: Any) -> Builtin:
    """`params` like "holder:zone|obj|list kind?:str": name, types, `?` for optional."""
    parsed = []
    for word in params.split():
        head, _, types = word.partition(":")
        optional = head.endswith("?")
        kinds = tuple(Type(t) for t in types.split("|")) if types else (ANY,)
        parsed.append(Param(head.rstrip("?"), kinds, optional))
    return Builtin(name, tuple(parsed), result, fn, **extra)


BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    _b("count", "holder:zone|obj|list kind?:str owner?:player", INT, impl.fn_count, reads_tokens=True),
    _b("owned", "holder:zone|obj kind:str owner:player", INT, impl.fn_owned, reads_tokens=True),
    _b("space", "zone:zone kind?:str", INT, impl.fn_space, reads_tokens=True),
    _b("cards", "zone:zone", LIST, impl.fn_cards),
    _b("top", "zone:zone", OBJ, impl.fn_top),
    _b("bottom", "zone:zone", OBJ, impl.fn_bottom),
    _b("first", "items:list|range", ANY, impl.fn_first),
    _b("size", "items:list|range", INT, impl.fn_size),
    _b("opponent", "player:player", PLAYER, impl.fn_opponent),
    _b("others", "player:player", LIST, impl.fn_others),
    _b("players", "", LIST, impl.fn_players),
    _b("player_count", "", INT, impl.fn_player_count),
    _b("seat", "index:int", PLAYER, impl.fn_seat),
    _b("index_of", "player:player", INT, impl.fn_index_of),
    _b("min", "a:int b:int", INT, impl.fn_min, result_of_first=True),
    _b("max", "a:int b:int", INT, impl.fn_max, result_of_first=True),
    _b("abs", "a:int", INT, impl.fn_abs),
    _b("roll", "sides:int", INT, impl.fn_roll, acts=True),
    _b("has", "card:obj timing:str", BOOL, impl.fn_has),
    _b("new_object", "kind:str zone:zone owner:player", OBJ, impl.fn_new_object, acts=True),
    _b("new_card", "card:str owner:player zone:zone", OBJ, impl.fn_new_card, acts=True),
    _b("remove", "object:obj", Type.NONE, impl.fn_remove, acts=True),
    _b("stop_effects", "card:obj", Type.NONE, impl.fn_stop_effects, acts=True),
    _b("picked", "player:player character:str", BOOL, impl.fn_picked),
    _b("any_picked", "character:str", BOOL, impl.fn_any_picked),
    _b("addendum_active", "addendum:str", BOOL, impl.fn_addendum_active),
    _b("characters", "", LIST, impl.fn_characters),
    _b("character_prop", "character:str option:str", ANY, impl.fn_character_prop),
    _b("card_ids", "field?:str values?:any", LIST, impl.fn_card_ids),
    _b("card_prop", "card:str field:str", ANY, impl.fn_card_prop),
    _b("left", "value:pair", INT, impl.fn_left),
    _b("right", "value:pair", INT, impl.fn_right),
    _b("braced", "value:pair", BOOL, impl.fn_braced),
    _b("pair", "left:int right:int braced?:bool", PAIR, impl.fn_pair),
    _b("low", "range:range|list", INT, impl.fn_low),
    _b("high", "range:range|list", INT, impl.fn_high),
    _b("span", "low:int high:int", RANGE, impl.fn_span),
    _b("contains", "items:list|range item", BOOL, impl.fn_contains),
    _b("is_none", "value", BOOL, impl.fn_is_none),
    _b("change", "left:int right:int", Type.DELTA, impl.fn_change),
    _b("expand", "near:int far:int", Type.RANGE_CHANGE, impl.fn_expand),
    _b("shift", "amount:int", Type.RANGE_CHANGE, impl.fn_shift),
]}
