"""The game-agnostic engine: one game in progress.

`Game` holds the state (players, zones, objects, counters) and the changes to it (token
and card moves, counter writes); the other concerns are its parts, one module each:
modifiers and guards (`modifiers.py`), state-check scheduling (`checks.py`), events and
triggers (`triggers.py`), choices (`choices.py`), what each seat sees (`views.py`), and
hashing and invariants (`integrity.py`). Compiled rule sets call into it through the
runtime contract; nothing here knows any particular game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .agents import Agent
from .checks import Checks
from .choices import Choices
from .errors import ExpectationFailed, GameOver, RuleViolation, check_number
from .integrity import Integrity, Traced
from .limits import MAX_NUMBER
from .log import LogLine
from .modifiers import Modifiers
from .phrases import phrases
from .record import Recorder
from .rules import CardDef, RuleSet
from .state import UNLIMITED, Obj, Player, Zone
from .triggers import Triggers
from .views import Seeing

NOBODY: frozenset[int] = frozenset()

__all__ = ["ExpectationFailed", "Game", "GameOver", "Obj", "Player", "RuleViolation", "Zone"]


class Game(Modifiers, Checks, Triggers, Choices, Seeing, Integrity):
    """One game in progress: all state, the seeded generator, the log and the rule hooks."""

    lines: list[LogLine]

    def __new__(cls, *args: Any, trace: bool = False, **kwargs: Any) -> Game:
        """A game made with `trace=True` is a `TracedGame`."""
        return super().__new__(TracedGame if trace and cls is Game else cls)

    def __init__(self, rules: RuleSet, picks: Sequence[Sequence[str]], agents: Sequence[Agent],
                 seed: int, *, trace: bool = False, log: bool = True) -> None:
        """`trace`: record a state hash at every procedure step (`hashes`) and run `step_hook` there."""
        self.rules = rules
        self.rng = random.Random(seed)
        self.seed = seed
        self.logging = log
        self.lines = []
        self.hashes = []
        self.decisions = []  # (seat, answer), in the order asked
        self.steps = 0
        self.loops = 0  # loop iterations in the rules, to stop a rule that never ends
        self.winner: int | None = None
        self.result = ""
        self.cause: str | None = None  # why the game ended, in the game's words
        self.offer_checks = []
        self.winner_checked = False  # a scenario checked who won
        self._uid = 0
        # fixed for the whole game: generated code walks this list itself, uncopied
        self.players = [Player(i, p, a) for i, (p, a) in enumerate(zip(picks, agents, strict=True))]
        self.recorder = Recorder(self)
        self.zones = []
        for spec in rules.zones:
            if spec.per_player:
                self.zones.append(None)
                for p in self.players:
                    p.zones.append(Zone(spec, p))
            else:
                self.zones.append(Zone(spec, None))
                for p in self.players:
                    p.zones.append(None)
        shared, own = rules.counter_starts()
        self.counters = list(shared)
        for p in self.players:
            p.counters = list(own)
        self.supply_flow: dict[Any, int] = {}
        self.mods = {}
        self.awaited = set()  # events some modifier or `once` handler lasts until (kept once seen)
        self.forbids = []
        self.active_addenda = rules.active_addenda(frozenset(c for p in self.players for c in p.picks))
        self._init_triggers(rules, self.active_addenda)
        self._init_checks(rules, self.active_addenda)
        self.live_actions = [(i, a) for i, a in enumerate(rules.actions)
                             if a.addendum is None or a.addendum in self.active_addenda]
        self.objects_by_card = {}
        self._in_action = False
        self.known = {}  # card uid -> seats it was revealed to
        self.step_hook = None
        self.phrases = phrases(rules.language)

    def opponent(self, p: Player) -> Player:
        """The next player in seat order (the only opponent in a two-player game)."""
        return self.players[(p.index + 1) % len(self.players)]

    def new_object(self, kind: str, defn: CardDef | None, owner: Player | None, zone: Zone | None) -> Obj:
        self._uid += 1
        obj = Obj(self._uid, kind, defn, owner, self.rules.start_fields(defn))
        if defn is not None:
            copies = self.objects_by_card.get(defn.ident)
            if copies is None:  # the card's first copy in this game
                copies = self.objects_by_card[defn.ident] = []
                self._card_arrives(defn.ident)
                self._card_triggers_arrive(defn.ident)
            copies.append(obj)
        if zone is not None:
            zone.cards.append(obj)
            obj.zone = zone
            if self.rules.checks:
                self._changed(self._card_checks(obj, None, zone))
        return obj

    def new_card(self, ident: str, owner: Player, zone: Zone) -> Obj:
        defn = self.rules.cards[ident]
        return self.new_object("card", defn, owner, zone)

    def remove_object(self, obj: Obj) -> None:
        """Take an object out of play entirely (tokens on it must be moved first)."""
        if obj.tokens:
            raise RuleViolation(f"{obj!r} was taken out of the game with tokens on it: move them first")
        if obj.zone is not None:
            obj.zone.cards.remove(obj)
            obj.zone = None
        if obj.defn is not None:
            copies = self.objects_by_card.get(obj.defn.ident, [])
            if obj in copies:
                copies.remove(obj)
        for mods in self.mods.values():
            mods[:] = [m for m in mods if m.target is not obj]
        self.mods = {k: v for k, v in self.mods.items() if v}

    def get(self, p: Player | None, index: int) -> Any:
        value = p.counters[index] if p is not None else self.counters[index]
        if self.mods:
            mods = self.mods.get(self.rules.counters[index].name)
            if mods:
                value = self._apply_mods(mods, p, value)
        return value

    def set(self, p: Player | None, index: int, value: Any) -> None:
        spec = self.rules.counters[index]
        if not spec.flag and isinstance(value, int):
            if spec.low is not None and value < spec.low:
                value = spec.low
            if spec.high is not None and value > spec.high:
                value = spec.high
            if not -MAX_NUMBER <= value <= MAX_NUMBER:
                check_number(value)  # refuses it (tested here first: most values are small)
        holder = p.counters if p is not None else self.counters
        before = holder[index]
        if before == value and type(before) is type(value):
            return
        holder[index] = value
        if spec.logged and self.logging:
            self.recorder.counter(spec.label, p, before, value, spec.visibility)
        checks = self._counter_checks[index]
        if checks:
            self._changed(checks)

    def count(self, holder: Zone | Obj, kind: str | None = None, owner: Player | None = None) -> int:
        """Cards in a zone (no kind), or tokens of a kind in a zone or on an object."""
        if kind is None:
            if isinstance(holder, Zone):
                return len(holder.cards)
            raise RuleViolation("count of an object needs a token kind")
        if owner is not None:
            return holder.tokens.get((kind, owner.index), 0)
        value = holder.tokens.get(kind, 0)
        return value

    def space(self, zone: Zone) -> int:
        """How many more tokens fit in a zone: its `max` counts every token in it that belongs
        to no player, of whatever kind (tokens that belong to a player do not count)."""
        if zone.capacity is None:
            return UNLIMITED
        room = zone.capacity - zone.held
        return room if room > 0 else 0

    def move(self, amount: int, kind: str, source: Zone | Obj, dest: Zone | Obj,
             owner: Player | None = None, by_card: Obj | None = None) -> int:
        """Move up to `amount` tokens; as many as exist and fit. Returns how many moved.

        `by_card` is the card whose effect makes the move (written in its block); `forbid`
        guards can stop such moves. Moves made by the rules' procedures are never stopped."""
        if amount <= 0 or source is dest:
            return 0
        if by_card is not None and self.forbids and self._forbidden(kind, source, by_card):
            return 0
        key: Any = kind if owner is None else (kind, owner.index)
        src_supply = isinstance(source, Zone) and source.spec.supply
        dst_supply = isinstance(dest, Zone) and dest.spec.supply
        n = amount if src_supply else source.tokens.get(key, 0)
        if n > amount:  # (conditions, not `min`: this is on the hottest path)
            n = amount
        if isinstance(dest, Zone) and dest.capacity is not None and owner is None:
            room = self.space(dest)
            if n > room:
                n = room
        if n <= 0:
            return 0
        if src_supply:
            self.supply_flow[key] = self.supply_flow.get(key, 0) + n
        else:
            left = source.tokens[key] - n
            if left:
                source.tokens[key] = left
            else:
                del source.tokens[key]
            if owner is None and type(source) is Zone:
                source.held -= n
        if dst_supply:
            self.supply_flow[key] = self.supply_flow.get(key, 0) - n
        else:
            dest.tokens[key] = dest.tokens.get(key, 0) + n
            if owner is None and type(dest) is Zone:
                dest.held += n
        if self.logging:
            self.recorder.tokens(n, kind, source, dest, by_card)
        if self.rules.checks:
            checks = self._holder_checks(source) + self._holder_checks(dest)
            if checks:
                self._changed(checks)
        moved = self.rules.token_event
        if moved is not None and moved in self.heard:
            self.emit(moved, kind, n, source, dest, by_card)
        return n

    def put(self, obj: Obj, dest: Zone, place: str | None = None) -> None:
        """Move a card to a zone: on top (default) or at the bottom."""
        source = obj.zone
        seen = frozenset(s for s in range(len(self.players)) if self.can_see(obj, s)) if self.logging else NOBODY
        if source is not None:
            source.cards.remove(obj)
        if self.known:
            self.known.pop(obj.uid, None)
        if place == "bottom":
            dest.cards.insert(0, obj)
        else:
            dest.cards.append(obj)
        obj.zone = dest
        if self.logging:
            self.recorder.card(obj, source, dest, seen)
        if self.rules.checks:
            checks = self._card_checks(obj, source, dest)
            if checks:
                self._changed(checks)
        moved = self.rules.move_event
        if moved is not None and source is not dest and moved in self.heard:
            self.emit(moved, obj, source, dest)

    def reveal(self, what: Zone | Obj | list[Obj], to: Player | list[Player]) -> None:
        """Let players see cards they could not see: until each card next moves, or its zone
        is shuffled."""
        cards = what.cards if isinstance(what, Zone) else what if isinstance(what, list) else [what]
        seats = [v.index for v in to] if isinstance(to, list) else [to.index]
        known = self.known
        for card in cards:
            seen = known.get(card.uid)
            if seen is None:
                known[card.uid] = set(seats)
            else:
                seen.update(seats)

    def shuffle(self, zone: Zone) -> None:
        """Shuffle a zone's cards: what anyone was shown of them no longer says where they lie."""
        self.rng.shuffle(zone.cards)
        if self.known:
            for card in zone.cards:
                self.known.pop(card.uid, None)

    def end(self, kind: str, p: Player | list[Player] | None, reason: str | None = None) -> None:
        """End the game: `win`/`lose` for a player, `win` for a team (a list), or `draw_game`;
        `reason` says why in the game's words (it is logged and reported as the cause)."""
        words = self.phrases
        if isinstance(p, list) and kind == "win" and p:
            names = ", ".join(q.name for q in p)
            self.winner = p[0].index
            self.result = f"{names} wins" if len(p) == 1 else f"{names} win"
            said = words.won.format(player=names)
        elif kind == "draw_game" or p is None or isinstance(p, list):
            self.winner, self.result, said = None, "draw", words.drawn
        elif kind == "win":
            self.winner, self.result, said = p.index, f"{p.name} wins", words.won.format(player=p.name)
        else:
            other = self.opponent(p)
            self.winner, self.result, said = other.index, f"{p.name} loses", words.lost.format(player=p.name)
        self.cause = reason
        if self.logging:
            self.recorder.ended(self.winner, self.result, reason,
                                words.because.format(result=said, cause=reason) if reason else said)
        raise GameOver(self.winner, self.result)


class TracedGame(Traced, Game):
    """A game that records a state hash at every procedure step it counts (`Traced`)."""
