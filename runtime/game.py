"""The game-agnostic engine: players, zones, objects, counters, modifiers, events and choices.

Compiled rule sets call into `Game`; nothing here knows any particular game.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from .agents import Agent, ChoiceRequest
from .limits import MAX_NUMBER
from .log import LogLine
from .protocol import View
from .record import Recorder
from .rules import CardDef, RuleSet, ZoneSpec
from .values import Delta, Pair, apply_change
from .views import view_of

UNLIMITED = 1 << 30


class GameOver(Exception):
    """Raised to stop play at once when a game ends."""

    def __init__(self, winner: int | None, reason: str) -> None:
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


class RuleViolation(Exception):
    """A compiled rule asked for something impossible; carries the source location."""


class ExpectationFailed(AssertionError):
    """A scenario's `expect` did not hold."""


class Zone:
    """A place that holds cards (ordered, top is the end of the list) and/or tokens by kind."""

    __slots__ = ("spec", "owner", "cards", "tokens", "capacity")

    def __init__(self, spec: ZoneSpec, owner: Player | None) -> None:
        self.spec = spec
        self.owner = owner
        self.cards: list[Obj] = []
        self.tokens: dict[Any, int] = {}
        self.capacity = spec.capacity

    def __contains__(self, obj: object) -> bool:
        return obj in self.cards

    def __repr__(self) -> str:
        who = f"{self.owner.name}." if self.owner else ""
        return f"<{who}{self.spec.name}>"


class Obj:
    """A card or another game object; it can hold tokens and carries fields."""

    __slots__ = ("uid", "kind", "defn", "owner", "zone", "fields", "tokens")

    def __init__(self, uid: int, kind: str, defn: CardDef | None, owner: Player | None,
                 fields: dict[str, Any]) -> None:
        self.uid = uid
        self.kind = kind
        self.defn = defn
        self.owner = owner
        self.zone: Zone | None = None
        self.fields = fields
        self.tokens: dict[Any, int] = {}

    @property
    def name(self) -> str:
        return self.defn.name if self.defn else self.kind

    def __repr__(self) -> str:
        return f"{self.name}#{self.uid}"


class Player:
    """A seat at the table with its own zones, counters, chosen characters and agent."""

    __slots__ = ("index", "name", "picks", "zones", "counters", "agent")

    def __init__(self, index: int, picks: Sequence[str], agent: Agent) -> None:
        self.index = index
        self.name = f"P{index + 1}"
        self.picks = list(picks)
        self.zones: list[Zone | None] = []
        self.counters: list[Any] = []
        self.agent = agent

    def __repr__(self) -> str:
        return self.name


class Modifier:
    """A change to a field or counter of one target while a condition and an anchor hold."""

    __slots__ = ("target", "name", "change", "cond", "until", "anchor", "anchor_zone")

    def __init__(self, target: Any, name: str, change: Any, cond: Callable[[], Any] | None,
                 until: str | None, anchor: Obj | None) -> None:
        self.target = target
        self.name = name
        self.change = change
        self.cond = cond
        self.until = until
        self.anchor = anchor
        self.anchor_zone = anchor.zone if anchor is not None else None


class Game:
    """One game in progress: all state, the seeded generator, the log and the rule hooks."""

    def __init__(self, rules: RuleSet, picks: Sequence[Sequence[str]], agents: Sequence[Agent],
                 seed: int, *, trace: bool = False, log: bool = True) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.seed = seed
        self.trace = trace
        self.logging = log
        self.lines: list[LogLine] = []
        self.recorder = Recorder(self)
        self.hashes: list[str] = []
        self.decisions: list[tuple[int, int]] = []  # (seat, answer), in the order asked
        self.steps = 0
        self.loops = 0  # loop iterations in the rules, to stop a rule that never ends
        self.winner: int | None = None
        self.result = ""
        self.cause: str | None = None  # why the game ended, in the game's words
        self._uid = 0
        self.players = [Player(i, p, a) for i, (p, a) in enumerate(zip(picks, agents, strict=True))]
        self.zones: list[Zone | None] = []
        self.zone_by_name: dict[str, int] = {}
        for i, spec in enumerate(rules.zones):
            self.zone_by_name[spec.name] = i
            if spec.per_player:
                self.zones.append(None)
                for p in self.players:
                    p.zones.append(Zone(spec, p))
            else:
                self.zones.append(Zone(spec, None))
                for p in self.players:
                    p.zones.append(None)
        self.counters: list[Any] = []
        for counter in rules.counters:
            start = False if counter.flag and counter.start is None else counter.start
            self.counters.append(None if counter.per_player else start)
            for p in self.players:
                p.counters.append(start if counter.per_player else None)
        self.supply_flow: dict[Any, int] = {}
        self.mods: dict[str, list[Modifier]] = {}
        self.dynamic: dict[str, list[tuple[Callable[..., Any], str | None]]] = {}
        self.handlers: dict[str, list[Callable[..., Any]]] = {}
        self.active_addenda = {name for name, chars in rules.addenda.items()
                               if not chars or any(c in p.picks for p in self.players for c in chars)}
        for trig in rules.triggers:
            if trig.addendum is None or trig.addendum in self.active_addenda:
                self.handlers.setdefault(trig.event, []).append(trig.fn)
        self.card_handlers: dict[str, list[tuple[str, Callable[..., Any]]]] = {}
        for ct in rules.card_triggers:
            self.card_handlers.setdefault(ct.event, []).append((ct.card, ct.fn))
        self.objects_by_card: dict[str, list[Obj]] = {}
        self._checking = False
        self._in_action = False
        self.known: dict[int, set[int]] = {}  # card uid -> seats it was revealed to
        self._pending: set[int] = set()
        self._zone_checks: dict[str, tuple[int, ...]] = {}
        self._counter_checks: list[tuple[int, ...]] = []
        for spec in rules.zones:
            self._zone_checks[spec.name] = tuple(i for i, c in enumerate(rules.checks) if spec.name in c.zones)
        for counter in rules.counters:
            self._counter_checks.append(tuple(i for i, c in enumerate(rules.checks) if counter.name in c.counters))
        self._object_checks = tuple(i for i, c in enumerate(rules.checks) if c.objects)
        self.step_hook: Callable[[Game], None] | None = None
        self.forbids: list[tuple[str, Zone | Obj, Callable[[], Any] | None, Obj | None, Zone | None]] = []

    # ---- basics ----------------------------------------------------------------------

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
        texts = [self.describe(a, hidden) for a in args] + [""] * len(parts)
        return "".join(part + (texts[i] if i < len(parts) - 1 else "") for i, part in enumerate(parts))

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

    def opponent(self, p: Player) -> Player:
        """The next player in seat order (the only opponent in a two-player game)."""
        return self.players[(p.index + 1) % len(self.players)]

    # ---- objects ---------------------------------------------------------------------

    def new_object(self, kind: str, defn: CardDef | None, owner: Player | None, zone: Zone | None,
                   fields: dict[str, Any]) -> Obj:
        self._uid += 1
        values = dict(self.rules.field_defaults)
        if defn is not None:
            values.update(defn.props)
        values.update(fields)
        obj = Obj(self._uid, kind, defn, owner, values)
        if defn is not None:
            self.objects_by_card.setdefault(defn.ident, []).append(obj)
        if zone is not None:
            zone.cards.append(obj)
            obj.zone = zone
        return obj

    def new_card(self, ident: str, owner: Player, zone: Zone) -> Obj:
        defn = self.rules.cards[ident]
        return self.new_object("card", defn, owner, zone, {})

    def remove_object(self, obj: Obj) -> None:
        """Take an object out of play entirely (tokens on it must be moved first)."""
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

    def read(self, obj: Obj, name: str) -> Any:
        """A field of an object, with the modifiers in force applied."""
        mods = self.mods.get(name)
        if mods:
            return self._apply_mods(mods, obj, obj.fields.get(name))
        return obj.fields.get(name)

    def _apply_mods(self, mods: list[Modifier], target: Any, value: Any) -> Any:
        stale = False
        for m in mods:
            if m.anchor is not None and m.anchor.zone is not m.anchor_zone:
                stale = True
                continue
            if m.target is target and (m.cond is None or m.cond()):
                value = apply_change(value, m.change)
        if stale:
            mods[:] = [m for m in mods if m.anchor is None or m.anchor.zone is m.anchor_zone]
            if not mods:
                self.mods = {k: v for k, v in self.mods.items() if v}
        return value

    def write(self, obj: Obj, name: str, value: Any) -> None:
        if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise RuleViolation(f"a number grew beyond ±{MAX_NUMBER:,}")
        obj.fields[name] = value

    def modify(self, target: Any, name: str, change: Any, cond: Callable[[], Any] | None,
               until: str | None, anchor: Obj | None) -> None:
        """Register a change to a field/counter; it lasts while cond and anchor hold, or until an event."""
        self.mods.setdefault(name, []).append(Modifier(target, name, change, cond, until, anchor))

    # ---- counters --------------------------------------------------------------------

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
                raise RuleViolation(f"a number grew beyond ±{MAX_NUMBER:,}")
        holder = p.counters if p is not None else self.counters
        before = holder[index]
        if before == value and type(before) is type(value):
            return
        holder[index] = value
        if spec.logged and self.logging:
            self.recorder.counter(spec.label, p, before, value)
        if self.rules.checks:
            self._changed(self._counter_checks[index])

    # ---- tokens and cards ------------------------------------------------------------

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

    def space(self, zone: Zone, kind: str) -> int:
        if zone.capacity is None:
            return UNLIMITED
        return max(zone.capacity - zone.tokens.get(kind, 0), 0)

    def forbid(self, kind: str, holder: Zone | Obj, cond: Callable[[], Any] | None, anchor: Obj | None) -> None:
        """Effects of other cards may not move tokens of a kind out of a zone or off an object
        while cond (and the anchor card's place) hold; the anchor card's own effects still may."""
        self.forbids.append((kind, holder, cond, anchor, anchor.zone if anchor is not None else None))

    def release(self, card: Obj) -> None:
        """End what the card's anchored blocks registered (modifiers and guards), now."""
        for name, mods in list(self.mods.items()):
            kept = [m for m in mods if m.anchor is not card]
            if kept:
                self.mods[name] = kept
            else:
                del self.mods[name]
        self.forbids = [f for f in self.forbids if f[3] is not card]

    def _forbidden(self, kind: str, source: Zone | Obj, mover: Obj) -> bool:
        live = [f for f in self.forbids if f[3] is None or f[3].zone is f[4]]
        if len(live) != len(self.forbids):
            self.forbids = live
        return any(k == kind and z is source and a is not mover and (c is None or c())
                   for k, z, c, a, _ in live)

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
        n = amount if src_supply else min(amount, source.tokens.get(key, 0))
        if isinstance(dest, Zone) and dest.capacity is not None and owner is None:
            n = min(n, max(dest.capacity - dest.tokens.get(key, 0), 0))
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
        if dst_supply:
            self.supply_flow[key] = self.supply_flow.get(key, 0) - n
        else:
            dest.tokens[key] = dest.tokens.get(key, 0) + n
        if self.logging:
            self.recorder.tokens(n, kind, source, dest, by_card)
        if self.rules.checks:
            self._changed(self._holder_checks(source) + self._holder_checks(dest))
        return n

    def put(self, obj: Obj, dest: Zone, place: str | None = None) -> None:
        """Move a card to a zone: on top (default) or at the bottom."""
        source = obj.zone
        seen = frozenset(s for s in range(len(self.players)) if self.can_see(obj, s)) if self.logging else frozenset()
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
            from_checks = self._zone_checks.get(source.spec.name, ()) if source is not None else ()
            self._changed(from_checks + self._zone_checks.get(dest.spec.name, ()))

    def reveal(self, what: Zone | Obj | list[Obj], to: Player | list[Player]) -> None:
        """Let players see cards they could not see: until each card next moves, or its zone
        is shuffled."""
        cards = what.cards if isinstance(what, Zone) else what if isinstance(what, list) else [what]
        viewers = to if isinstance(to, list) else [to]
        for card in cards:
            self.known.setdefault(card.uid, set()).update(v.index for v in viewers)

    def shuffle(self, zone: Zone) -> None:
        """Shuffle a zone's cards: what anyone was shown of them no longer says where they lie."""
        self.rng.shuffle(zone.cards)
        if self.known:
            for card in zone.cards:
                self.known.pop(card.uid, None)

    def _holder_checks(self, holder: Zone | Obj) -> tuple[int, ...]:
        if isinstance(holder, Zone):
            return self._zone_checks.get(holder.spec.name, ())
        zone = self._zone_checks.get(holder.zone.spec.name, ()) if holder.zone is not None else ()
        return self._object_checks + zone

    def _changed(self, checks: tuple[int, ...]) -> None:
        """Run the state checks that read what just changed, until a round changes nothing.

        Checks never run re-entrantly: a change made by a check adds the checks it concerns
        to the next round."""
        if not checks:
            return
        self._pending.update(checks)
        if self._checking:
            return
        self._checking = True
        try:
            for _ in range(100):
                if not self._pending:
                    return
                batch = sorted(self._pending)
                self._pending.clear()
                for i in batch:
                    self.rules.checks[i].fn(self)
            raise RuleViolation("state checks keep changing the game")
        finally:
            self._checking = False

    # ---- events ----------------------------------------------------------------------

    def emit(self, event: str, *args: Any) -> None:
        for fn in self.handlers.get(event, ()):
            fn(self, *args)
        for ident, fn in self.card_handlers.get(event, ()):
            for obj in list(self.objects_by_card.get(ident, ())):
                fn(self, obj, *args)
        if event in self.dynamic:
            waiting = self.dynamic.pop(event)
            keep = []
            for fn, until in waiting:
                if not fn(*args):
                    keep.append((fn, until))
            if keep:
                self.dynamic.setdefault(event, [])[:0] = keep
        if self.mods:
            for name, mods in list(self.mods.items()):
                if any(m.until == event for m in mods):
                    kept = [m for m in mods if m.until != event]
                    if kept:
                        self.mods[name] = kept
                    else:
                        del self.mods[name]
        for name in list(self.dynamic):
            waiting = self.dynamic[name]
            if any(until == event for _, until in waiting):
                self.dynamic[name] = [(f, u) for f, u in waiting if u != event]

    def once(self, event: str, fn: Callable[..., bool], until: str | None) -> None:
        """Wait for an event; fn returns True once it has fired (then it is dropped)."""
        self.dynamic.setdefault(event, []).append((fn, until))

    def run(self, obj: Obj, timing: str, default: Any, *args: Any) -> Any:
        """Run a card's block for a timing, if it has one; return its result or the default."""
        defn = obj.defn
        fn = defn.timings.get(timing) if defn is not None else None
        if fn is None:
            return default
        result = fn(self, obj, *args)
        return default if result is None else result

    def has(self, obj: Obj, timing: str) -> bool:
        return obj.defn is not None and timing in obj.defn.timings

    # ---- choices ---------------------------------------------------------------------

    def _ask(self, p: Player, kind: str, prompt: str, options: list[str] | Callable[[], list[str]],
             count: int, low: int | None = None, passive: frozenset[int] = frozenset()) -> int:
        answer = p.agent.choose(ChoiceRequest(p.index, kind, prompt, options, count, self, low, passive))
        if not 0 <= answer < count:
            raise RuleViolation(f"agent answered {answer} to a choice of {count}")
        self.decisions.append((p.index, answer))
        return answer

    def pick(self, p: Player, items: Iterable[Any], prompt: str, optional: bool) -> Any:
        """Let a player pick one item (None when there is none, or when optional and declined)."""
        pool = list(items)
        if not pool:
            return None
        count = len(pool) + (1 if optional else 0)
        if count == 1:
            return pool[0]

        def labels() -> list[str]:
            return [self.describe(x) for x in pool] + (["(none)"] if optional else [])
        i = self._ask(p, "pick", prompt, labels, count,
                      passive=frozenset({len(pool)}) if optional else frozenset())
        chosen = None if i == len(pool) else pool[i]
        if self.logging:
            self.recorder.choice(p, "pick", prompt, i, "(none)" if chosen is None else "", chosen)
        return chosen

    def choose_number(self, p: Player, low: int, high: int, prompt: str) -> int:
        if high <= low:
            return low
        i = self._ask(p, "number", prompt, lambda: [str(n) for n in range(low, high + 1)], high - low + 1, low)
        if self.logging:
            self.recorder.choice(p, "number", prompt, i, str(low + i), None)
        return low + i

    def confirm(self, p: Player, prompt: str) -> bool:
        i = self._ask(p, "ask", prompt, ["yes", "no"], 2)
        if self.logging:
            self.recorder.choice(p, "ask", prompt, i, ["yes", "no"][i], None)
        return i == 0

    def menu(self, p: Player, prompt: str, entries: list[tuple[int, Any, str]],
             passive: tuple[int, ...] = ()) -> tuple[int, Any]:
        """Offer a menu of (option number, bound value, label); returns the chosen pair.
        `passive` lists the option numbers that decline to act."""
        if not any(number >= 0 for number, _, _ in entries):
            raise RuleViolation(f"no option is available for {prompt!r}")
        if len(entries) == 1:
            i = 0
        else:
            def labels() -> list[str]:
                return [label if value is None or number < 0 else f"{label}: {self.describe(value)}"
                        for number, value, label in entries]
            quiet = frozenset(i for i, (number, _, _) in enumerate(entries) if number in passive)
            i = self._ask(p, "menu", prompt, labels, len(entries), passive=quiet)
        number, value, label = entries[i]
        if self.logging:
            self.recorder.choice(p, "menu", prompt, i, label, value if number >= 0 else None,
                                 forced=len(entries) == 1)
        return number, value

    def standing_actions(self, p: Player, entries: list[tuple[int, Any, str]]) -> list[tuple[int, Any, str]]:
        """Menu entries (numbered -1) for the standing actions p may take now.

        Compiled menus add them to real decisions (two or more options), leaving out an action
        the menu already offers under the same label; none are offered while a standing action
        is being taken."""
        if self._in_action:
            return []
        present = {label for _, _, label in entries}
        return [(-1, i, a.label) for i, a in enumerate(self.rules.actions)
                if a.label not in present and a.allowed(self, p)]

    def take_action(self, p: Player, index: int) -> None:
        self._in_action = True
        try:
            self.log("{} {}", p, self.rules.actions[index].label)
            self.rules.actions[index].fn(self, p)
        finally:
            self._in_action = False

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

    # ---- ending, tracing, invariants ---------------------------------------------------

    def end(self, kind: str, p: Player | list[Player] | None, reason: str | None = None) -> None:
        """End the game: `win`/`lose` for a player, `win` for a team (a list), or `draw_game`;
        `reason` says why in the game's words (it is logged and reported as the cause)."""
        if isinstance(p, list) and kind == "win" and p:
            self.winner = p[0].index
            self.result = f"{p[0].name} wins" if len(p) == 1 else f"{', '.join(q.name for q in p)} win"
        elif kind == "draw_game" or p is None or isinstance(p, list):
            self.winner, self.result = None, "draw"
        elif kind == "win":
            self.winner, self.result = p.index, f"{p.name} wins"
        else:
            other = self.opponent(p)
            self.winner, self.result = other.index, f"{p.name} loses"
        self.cause = reason
        if self.logging:
            self.recorder.ended(self.winner, self.result, reason)
        raise GameOver(self.winner, self.result)

    def step(self, where: str) -> None:
        """Called at each procedure step while tracing: records a state hash, runs the step hook."""
        if self.trace:
            self.hashes.append(self.state_hash())
        if self.step_hook is not None:
            self.step_hook(self)

    def state_hash(self) -> str:
        h = hashlib.blake2b(digest_size=12)
        for z in self._all_zones():
            h.update(repr(z).encode())
            h.update(repr(sorted(z.tokens.items(), key=repr)).encode())
            for c in z.cards:
                h.update(f"{c.name}{c.uid}{sorted(c.tokens.items(), key=repr)}".encode())
        h.update(repr(self.counters).encode())
        for p in self.players:
            h.update(repr(p.counters).encode())
        return h.hexdigest()

    def _all_zones(self) -> list[Zone]:
        zones = [z for z in self.zones if z is not None]
        for p in self.players:
            zones.extend(z for z in p.zones if z is not None)
        return zones

    def token_total(self, kind: str) -> int:
        """Tokens of an unowned kind in every zone and on every object outside the supply."""
        total = 0
        for z in self._all_zones():
            if not z.spec.supply:
                total += z.tokens.get(kind, 0)
            for c in z.cards:
                total += c.tokens.get(kind, 0)
        return total

    def invariant_problems(self, initial: dict[str, int]) -> list[str]:
        """Conservation of tokens (given the starting totals) and zone capacities."""
        problems = []
        for kind, start in initial.items():
            expected = start + self.supply_flow.get(kind, 0)
            actual = self.token_total(kind)
            if actual != expected:
                problems.append(f"{kind}: {actual} present, {expected} expected")
        for z in self._all_zones():
            if z.capacity is not None:
                for key, n in z.tokens.items():
                    if not isinstance(key, tuple) and n > z.capacity:
                        problems.append(f"{z!r} holds {n} {key} over its capacity {z.capacity}")
            for key, n in z.tokens.items():
                if n < 0:
                    problems.append(f"{z!r} holds {n} {key}")
        return problems

    def view(self, viewer: int) -> View:
        """What one seat may see (see `views.py`)."""
        return view_of(self, viewer)

    def card_view(self, card: Obj) -> str:
        """A visible card: its name, the tokens on it and its shown fields."""
        extra = [f"{k if isinstance(k, str) else k[0]}×{n}" for k, n in card.tokens.items()]
        for name, label in self.rules.shown_fields.items():
            value = self.read(card, name)
            if value is True:
                extra.append(label)
            elif value not in (None, False, (), ""):
                extra.append(f"{label} {self.describe(value)}")
        return f"{card.name} [{', '.join(extra)}]" if extra else card.name
