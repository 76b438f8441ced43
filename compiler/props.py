"""Properties: the game's table (`players`, `picks`), each card's property lines read into
values of their fields, and scenario properties."""

from __future__ import annotations

from functools import cached_property
from typing import Any, TypeVar

from ..runtime.phrases import DEFAULT_LANGUAGE, PHRASES
from ..runtime.rules import TableSpec
from ..runtime.values import Pair
from . import syntax as s
from .checked import Context
from .decisions import language_texts
from .diagnostics import did_you_mean
from .limits import MAX_PICKS, MAX_PLAYERS, MAX_RANGE
from .symbols import FieldInfo

T = TypeVar("T")

CARD_BUILTIN_PROPS = {
    "text": "the card's text, checked against the definition both ways (W201)",
    "invented": "the effect is ours, not the source's: every output says so",
    "fixture": "a card made for test scenarios only: it is in no deck, gallery or card list",
    "note": "a remark shown with the card in the reference (why it is encoded this way); `note en \"…\" zh \"…\"`: "
            "in each language of the reference",
    "copies": "`copies N`: how many of the card a deck holds (default 1)",
    "unchecked": "`unchecked \"reason\"`: the card's text is not held against its definition (W201), for a "
                 "card whose effect is not encoded; the reference lists the card and the reason (in each "
                 "language it is written in, like `note`)",
}
GAME_PROPS = {
    "players": "`players N` or `players LOW..HIGH`", "start": "`start PROCEDURE`: the procedure that plays a game",
    "picks": "`picks N [different [by OPTION]] [unique]`: characters each player picks; `different`: a "
             "player's characters differ (by a character option); `unique`: no character at two seats",
    "decision": "`decision [LANG] \"…\" [LANG \"…\"]… [for PROCEDURE [step ID]]`: a choice made where the sources leave something "
                "open (also in an addendum), in each language after its word (a text without one is in the game's "
                "language); the reference shows it under the rule it names, in the edition's language",
    "hidden_card": "`hidden_card \"…\"`: what players read in place of a card they cannot see "
                   "(default: the `language`'s word for it)",
    "language": "`language CODE`: the language of the engine's own words to players (yes, no, the "
                "terminal's board and help) and of generated card text: " + ", ".join(PHRASES)
                + f" (default {DEFAULT_LANGUAGE}; a code with a hyphen in quotes: `language \"zh-Hant\"`)",
    "card_moves": "`card_moves EVENT`: the event (declared with three parameters: the card, the zone it "
                  "left, the zone it entered) that the engine emits whenever a card changes zone",
    "card_uses": "`card_uses EVENT`: the event (declared with two parameters: the player, the card) the rules "
                 "emit when a player uses a card; `cardsmith sim` counts each card's uses and wins by it",
    "first_mover": "`first_mover COUNTER`: a global counter that names the player who moves first once it "
                   "names a player (e.g. the turn player); `cardsmith sim` reads the first player it names to "
                   "count wins by turn order",
    "chapter": "`chapter N \"title\" [LANG \"title\" …]`: the title of the reference's chapter N (the rules "
               "numbered N-…)",
    "text_check": "`text_check warning|error|off`: how disagreements of a card's text and its definition are "
                  "reported (W201; warnings by default)",
    "token_moves": "`token_moves EVENT`: the event (declared with five parameters: the token kind, how many "
                   "moved, where from, where to — a zone or a card — and the card whose effect moved them, or "
                   "none for the rules) that the engine emits whenever tokens move",
}
EVENT_PROPS = {"card_moves": (3, "three", "the card, the zone it left, the zone it entered"),
               "card_uses": (2, "two", "the player, the card"),
               "token_moves": (5, "five", "the token kind, how many, where from, where to, the card that moved "
                                          "them")}
SCENARIO_PROPS = {
    "players": "`players A B vs C D`: the characters of each seat", "seed": "`seed N`",
    "script": "`script p1 \"label\" 2 p2 …`: the answers of each seat, in order (a number answers a "
              "number choice by its value, any other choice by index; a text is a label or its start)",
    "start": "`start ends`: the scenario expects the game to end",
}


def _decimal(text: str) -> bool:
    return text.isascii() and text.isdecimal()


class Props:
    """Reads property lines against the declared fields; reports what does not fit."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.sym = ctx.sym

    # ---- the game ----

    def game(self, game: s.Entity) -> None:
        for p in game.props:
            if p.name not in GAME_PROPS:
                self.ctx.error("E113", f"unknown game property {p.name!r}", p.span,
                               hint="allowed: " + ", ".join(sorted(GAME_PROPS)),
                               suggestion=did_you_mean(p.name, GAME_PROPS))
        self.ctx.checked.table = self.table(game)
        language = game.prop("language")
        if language is not None and (len(language.words()) != 1 or language.words()[0] not in PHRASES):
            self.ctx.error("E104", "`language` takes one of " + ", ".join(PHRASES), language.span)
        start = game.prop("start")
        if start is None or not start.atoms:
            self.ctx.error("E115", "the game needs `start PROCEDURE`, the procedure that plays a game",
                           game.name_span)
        elif start.atoms[0].text not in self.sym.procedures:
            self.ctx.error("E101", f"unknown procedure {start.atoms[0].text!r}", start.atoms[0].span,
                           suggestion=did_you_mean(start.atoms[0].text, self.sym.procedures))
        for prop in EVENT_PROPS:
            self._named_event(prop, game.prop(prop))
        self._first_mover(game.prop("first_mover"))
        for blk in game.blocks:
            self.ctx.error("E114", "a game has no timing blocks", blk.span)

    def _named_event(self, prop_name: str, prop: s.Opt | None) -> None:
        """`card_moves EVENT` / `token_moves EVENT` / `card_uses EVENT`: an event the engine emits
        or watches, declared with the parameters it is given."""
        arity, arity_word, params = EVENT_PROPS[prop_name]
        named = self._named(prop_name, prop, "event", self.sym.events)
        if named is not None and len(named[1].params) != arity:
            self.ctx.error("E104", f"the event {named[0]!r} that `{prop_name}` names needs {arity_word} parameters "
                           f"({params})", named[2])

    def _first_mover(self, prop: s.Opt | None) -> None:
        """`first_mover COUNTER`: a global counter (one per game, not per player)."""
        named = self._named("first_mover", prop, "counter", self.sym.counters)
        if named is not None and named[1].per_player:
            self.ctx.error("E104", f"`first_mover` names a global counter, and {named[0]!r} is kept per player",
                           named[2], hint="declare a `global` counter set to the player who moves first")

    def _named(self, prop_name: str, prop: s.Opt | None, kind: str, known: dict[str, T]) -> tuple[str, T, s.Span] | None:
        """What a game property names with its one word (`kind`: what it names, `known`: those
        declared): the name, the declaration and where the name is written; None when the
        property is absent, or after reporting a missing or unknown name."""
        if prop is None:
            return None
        if len(prop.atoms) != 1:
            self.ctx.error("E104", f"`{prop_name}` names one {kind}", prop.span)
            return None
        atom = prop.atoms[0]
        found = known.get(atom.text)
        if found is None:
            self.ctx.error("E101", f"unknown {kind} {atom.text!r}", atom.span, suggestion=did_you_mean(atom.text, known))
            return None
        return atom.text, found, atom.span

    def table(self, game: s.Entity) -> TableSpec:
        """`players N` or `players N..M`; `picks N [different [by OPTION]] [unique]`."""
        low, high = self._players(game.prop("players"))
        picks = game.prop("picks")
        if picks is None:
            return TableSpec(low, high, 1)
        words = picks.words()
        count, rest = (words[0] if words else ""), words[1:]
        different = unique = False
        by = None
        if rest[:1] == ["different"]:
            different, rest = True, rest[1:]
            if rest[:1] == ["by"] and len(rest) >= 2:
                by, rest = rest[1], rest[2:]
        if rest[:1] == ["unique"]:
            unique, rest = True, rest[1:]
        if not (_decimal(count) and 1 <= int(count) <= MAX_PICKS) or rest:
            self.ctx.error("E104", f"`picks` needs a number 1..{MAX_PICKS}, then optionally "
                           "`different`, `different by OPTION` and `unique`", picks.span,
                           hint="e.g. `picks 2 different by number`")
            return TableSpec(low, high, 1)
        if by is not None and not any(o.name == by for c in self.sym.characters.values() for o in c.opts):
            self.ctx.error("E101", f"no character has the option {by!r}", picks.span)
        return TableSpec(low, high, int(count), different, by, unique)

    def _players(self, players: s.Opt | None) -> tuple[int, int]:
        if players is None:
            return 2, 2
        words = players.words()
        bounds = words[0].split("..") if len(words) == 1 else []
        if bounds and len(bounds) <= 2 and all(_decimal(b) for b in bounds):
            low, high = int(bounds[0]), int(bounds[-1])
            if 1 <= low <= high <= MAX_PLAYERS:
                return low, high
        self.ctx.error("E104", f"`players` needs a number or a range like 2..10 within 1..{MAX_PLAYERS}",
                       players.span)
        return 2, 2

    # ---- cards ----

    def card(self, card: s.Entity) -> None:
        """The values of a card's property lines (into `checked.card_props`), then W201."""
        sym = self.sym
        props: dict[str, Any] = {}
        for p in card.props:
            if p.name in CARD_BUILTIN_PROPS:
                props[p.name] = self._builtin_prop(p)
                continue
            info = sym.fields.get(p.name)
            if info is None:
                self.ctx.error("E113", f"unknown card property {p.name!r}", p.span,
                               hint="declare it with `field` or use a built-in: " + ", ".join(sorted(CARD_BUILTIN_PROPS)),
                               suggestion=did_you_mean(p.name, list(sym.fields) + list(CARD_BUILTIN_PROPS)))
                continue
            props[p.name] = self.value(info, p)
        for name in self._required:
            if name not in props:
                self.ctx.error("E115", f"card {card.name} has no {name!r}", card.name_span,
                               hint=f"add a line `{name} …`")
        props.setdefault("copies", 1)
        self.ctx.checked.card_props[card.name] = props

    @cached_property
    def _required(self) -> list[str]:
        """The fields every card must set: those of a kind or a character with no default
        (worked out once: a game declares far more fields than a card sets)."""
        return [name for name, info in self.sym.fields.items()
                if not info.has_default and info.type in ("enum", "character")]

    @staticmethod
    def _builtin_prop(p: s.Opt) -> Any:
        if p.name in ("invented", "fixture"):
            return True
        if p.name == "copies":
            return int(p.atoms[0].text) if p.atoms and p.atoms[0].kind == "int" else 1
        if p.name in ("note", "unchecked"):  # the first of its texts (`note en "…" zh "…"`)
            texts = language_texts(p)
            if texts is not None:
                return texts[0][0][1]
        return " ".join(p.words())

    def value(self, info: FieldInfo, p: s.Opt) -> Any:
        """The value of one property line for a field of the given type (None after an error)."""
        reader = getattr(self, f"_read_{info.type}", None)
        if reader is None:
            return " ".join(p.words())
        return reader(info, p)

    def _bad(self, p: s.Opt, wanted: str) -> None:
        self.ctx.error("E104", f"{p.name} needs {wanted}", p.span)

    def _read_int(self, info: FieldInfo, p: s.Opt) -> Any:
        atoms = p.atoms
        if len(atoms) == 1 and atoms[0].kind == "int":
            return int(atoms[0].text)
        if len(atoms) == 1 and atoms[0].kind == "pair" and atoms[0].text.startswith("{"):
            return None
        return self._bad(p, "a number")

    def _read_pair(self, info: FieldInfo, p: s.Opt) -> Any:
        atoms = p.atoms
        if len(atoms) == 1 and atoms[0].kind == "pair":
            left, right = atoms[0].text.strip("{}").split("/")
            return Pair(None if left == "-" else int(left), None if right == "-" else int(right),
                        atoms[0].text.startswith("{"))
        return self._bad(p, "a two-sided value like 3/1")

    def _read_range(self, info: FieldInfo, p: s.Opt) -> Any:
        values: list[int] = []
        for a in p.atoms:
            if a.kind == "int":
                values.append(int(a.text))
            elif a.kind == "path" and a.text.count("-") == 1:
                lo, hi = (int(x) for x in a.text.split("-"))
                if not 0 <= lo <= hi <= MAX_RANGE:
                    self.ctx.error("E104", f"range {a.text} must run upwards within 0-{MAX_RANGE}", a.span)
                    return None
                values.extend(range(lo, hi + 1))
            else:
                return self._bad(p, "a range like 3-4 or 2")
        if not values:
            return self._bad(p, "a range like 3-4 or 2")
        return tuple(sorted(set(values)))

    def _read_text(self, info: FieldInfo, p: s.Opt) -> Any:
        return " ".join(p.words())

    def _read_bool(self, info: FieldInfo, p: s.Opt) -> Any:
        atoms = p.atoms
        if not atoms:
            return True
        if len(atoms) == 1 and atoms[0].text in ("true", "false"):
            return atoms[0].text == "true"
        return self._bad(p, "true or false (or nothing)")

    def _read_enum(self, info: FieldInfo, p: s.Opt) -> Any:
        atoms = p.atoms
        if len(atoms) == 1 and atoms[0].text in info.choices:
            return atoms[0].text
        word = atoms[0].text if atoms else ""
        self.ctx.error("E104", f"{p.name} must be one of {', '.join(info.choices)}", p.span,
                       suggestion=did_you_mean(word, info.choices))
        return None

    def _read_set(self, info: FieldInfo, p: s.Opt) -> Any:
        for a in p.atoms:
            if a.text not in info.choices:
                self.ctx.error("E104", f"{a.text!r} is not one of {', '.join(info.choices)}", a.span,
                               suggestion=did_you_mean(a.text, info.choices))
        return tuple(p.words())

    def _read_character(self, info: FieldInfo, p: s.Opt) -> Any:
        atoms = p.atoms
        if len(atoms) == 1 and atoms[0].text in self.sym.characters:
            return atoms[0].text
        word = atoms[0].text if atoms else ""
        self.ctx.error("E101", f"unknown character {word!r}", p.span,
                       suggestion=did_you_mean(word, self.sym.characters))
        return None

    # ---- scenarios ----

    def scenario(self, scen: s.Entity) -> None:
        for p in scen.props:
            if p.name not in SCENARIO_PROPS:
                self.ctx.error("E113", f"unknown scenario property {p.name!r}", p.span,
                               hint="allowed: " + ", ".join(sorted(SCENARIO_PROPS)),
                               suggestion=did_you_mean(p.name, SCENARIO_PROPS))
            if p.name == "players":
                for a in p.atoms:
                    for name in a.text.split("/"):
                        if a.text != "vs" and name not in self.sym.characters:
                            self.ctx.error("E101", f"unknown character {name!r}", a.span,
                                           suggestion=did_you_mean(name, self.sym.characters))
            if p.name == "seed" and not (len(p.atoms) == 1 and p.atoms[0].kind == "int"):
                self.ctx.error("E104", "`seed` needs a number", p.span)
