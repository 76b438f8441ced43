"""Choices: every decision a player makes goes through their agent, as a `ChoiceRequest`;
every answer is recorded (and logged while the game keeps a log)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .agents import ChoiceRequest
from .errors import ExpectationFailed, RuleViolation
from .phrases import Phrases
from .state import Player

if TYPE_CHECKING:
    from .record import Recorder
    from .rules import ActionSpec, RuleSet

MenuEntry = tuple[int, Any, str]  # option number (-1: a standing action), bound value, label


class Choices:
    """The part of `Game` that asks players."""

    rules: RuleSet
    phrases: Phrases
    logging: bool
    recorder: Recorder
    decisions: list[tuple[int, int]]
    offer_checks: list[tuple[int, str, bool, str]]  # seat, label, offered?, where (scenarios)
    _in_action: bool
    live_actions: list[tuple[int, ActionSpec]]  # the standing actions of this game (rules index, spec)

    describe: Callable[..., str]  # see views.Seeing
    log: Callable[..., None]

    def _ask(self, p: Player, kind: str, prompt: str, options: list[str] | Callable[[], list[str]],
             count: int, low: int | None = None,
             passive: frozenset[int] | Callable[[], frozenset[int]] = frozenset(),
             preferred: Callable[[], frozenset[int]] | None = None,
             values: Sequence[Any] | Callable[[], Sequence[Any]] = ()) -> int:
        request = ChoiceRequest(p.index, kind, prompt, options, count, self, low,  # type: ignore[arg-type]
                                passive, preferred, values)  # (the game itself: no cast call per decision)
        if self.offer_checks:
            self._check_offers(request)
        answer = p.agent.choose(request)
        if not 0 <= answer < count:
            raise RuleViolation(f"agent answered {answer} to a choice of {count}")
        self.decisions.append((p.index, answer))
        return answer

    def _check_offers(self, request: ChoiceRequest) -> None:
        """Scenario checks (`expect [not] offered`) waiting for this seat's next decision."""
        mine = [c for c in self.offer_checks if c[0] == request.player]
        self.offer_checks = [c for c in self.offer_checks if c[0] != request.player]
        for _, label, wanted, where in mine:
            found = any(option.startswith(label) or label in option for option in request.options)
            if found != wanted:
                verb = "was not offered" if wanted else "was offered"
                raise ExpectationFailed(f"{where}: {label!r} {verb} at {request.prompt!r}: {request.options}")

    def pick(self, p: Player, items: Iterable[Any], prompt: str, optional: bool,
             prefer: Callable[[Any], Any] | None = None) -> Any:
        """Let a player pick one item (None when there is none, or when optional and declined).
        `prefer` says which items an agent that plays to act should choose among."""
        pool = list(items)
        if not pool:
            return None
        count = len(pool) + (1 if optional else 0)
        if count == 1:
            if self.logging:
                self.recorder.choice(p, "pick", prompt, 0, "", pool[0], forced=True)
            return pool[0]

        def labels() -> list[str]:
            return [self.describe(x) for x in pool] + ([self.phrases.none] if optional else [])

        def preferred() -> frozenset[int]:
            assert prefer is not None
            return frozenset(i for i, x in enumerate(pool) if prefer(x))
        i = self._ask(p, "pick", prompt, labels, count,
                      passive=frozenset({len(pool)}) if optional else frozenset(),
                      preferred=preferred if prefer is not None else None, values=pool)
        chosen = None if i == len(pool) else pool[i]
        if self.logging:
            self.recorder.choice(p, "pick", prompt, i, self.phrases.none if chosen is None else "", chosen)
        return chosen

    def choose_number(self, p: Player, low: int, high: int, prompt: str) -> int:
        if high <= low:
            return low
        i = self._ask(p, "number", prompt, lambda: [str(n) for n in range(low, high + 1)], high - low + 1, low)
        if self.logging:
            self.recorder.choice(p, "number", prompt, i, str(low + i), None)
        return low + i

    def confirm(self, p: Player, prompt: str) -> bool:
        answers = [self.phrases.yes, self.phrases.no]
        i = self._ask(p, "ask", prompt, answers, 2)
        if self.logging:
            self.recorder.choice(p, "ask", prompt, i, answers[i], None)
        return i == 0

    def menu(self, p: Player, prompt: str, entries: list[tuple[int, Any, str]],
             passive: tuple[int, ...] = ()) -> tuple[int, Any]:
        """Offer a menu of (option number, bound value, label); returns the chosen pair.
        `passive` lists the option numbers that decline to act."""
        if not entries or entries[0][0] < 0 and not any(number >= 0 for number, _, _ in entries):
            raise RuleViolation(f"no option is available for {prompt!r}")
        if len(entries) == 1:
            i = 0
        else:
            def labels() -> list[str]:
                return [label if value is None or number < 0 else f"{label}: {self.describe(value)}"
                        for number, value, label in entries]

            def quiet() -> frozenset[int]:
                actions = self.rules.actions
                return frozenset(i for i, (number, value, _) in enumerate(entries)
                                 if number in passive or number < 0 and actions[value].passive)

            def values() -> list[Any]:
                return [value for number, value, _ in entries if number >= 0]
            i = self._ask(p, "menu", prompt, labels, len(entries), passive=quiet, values=values)
        number, value, label = entries[i]
        if self.logging:
            self.recorder.choice(p, "menu", prompt, i, label, value if number >= 0 else None,
                                 forced=len(entries) == 1)
        return number, value

    def standing_actions(self, p: Player, entries: Sequence[tuple[int, Any, str]]) -> list[tuple[int, Any, str]]:
        """Menu entries (numbered -1) for the standing actions p may take now.

        Compiled menus add them to real decisions (two or more options), leaving out an action
        the menu already offers under the same label (a menu none of whose options has an
        action's label gives no entries); none are offered while a standing action is being
        taken."""
        if self._in_action or not self.live_actions:
            return []
        present = {label for _, _, label in entries} if entries else ()
        offered: list[tuple[int, Any, str]] = []  # a loop, not a comprehension: one call fewer on every decision of such a game
        for i, a in self.live_actions:
            if a.label not in present and a.allowed(self, p):
                offered.append((-1, i, a.label))
        return offered

    def take_action(self, p: Player, index: int) -> None:
        self._in_action = True
        try:
            self.log("{} {}", p, self.rules.actions[index].label)
            self.rules.actions[index].fn(self, p)
        finally:
            self._in_action = False
