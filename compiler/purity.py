"""Which code only reads: no move, write, log, event, decision or random draw, directly or
through what it calls. Evaluating such code twice gives the same value, and evaluating it
changes nothing the game can observe but its step count; the generator uses this to work out
a call once where a menu asks for it twice, and to walk a zone's own list of cards where
nothing the walk evaluates can change it.

A call only reads when the procedure, value, keyword or timing it calls does: every step of a
procedure and every addendum step that can replace one, every card block of a timing. A cycle
of calls that read only reads only. Reading a field or counter that some `modify` changes runs
the modifiers' conditions (and live changes), so it only reads when all of those do.
"""

from __future__ import annotations

from . import syntax as s
from .builtins import BUILTINS
from .checked import Checked
from .refs import BuiltinRef, Callee, CallRef, CounterRef, FieldRef, LocalRef
from .writes import Writes

# the statements that only read: bindings of locals, control flow, returns, calls
READING_STATEMENTS = (s.Let, s.Assign, s.AugAssign, s.Return, s.CallStmt, s.Pass, s.Break, s.If, s.For, s.While,
                      s.Repeat)
READING_NODES = (*s.EXPRESSIONS, *READING_STATEMENTS)


MODIFIERS = (None, "")  # the key of every modifier's condition and live change together


class Purity:
    """Which of a game's declarations and expressions only read, worked out on first need."""

    def __init__(self, checked: Checked, writes: Writes) -> None:
        self.c = checked
        self.writes = writes
        self._found: dict[tuple[Callee | None, str], bool] = {}
        self._open: set[tuple[Callee | None, str]] = set()  # being looked at: a call back to one reads

    def only_reads(self, root: object) -> bool:
        """Whether an expression, a statement or a block only reads."""
        resolution = self.c.resolution
        for node in s.walk(root):
            if not isinstance(node, READING_NODES):
                return False
            if isinstance(node, (s.Assign, s.AugAssign)) and not isinstance(resolution.get(node.target), LocalRef):
                return False  # a field or counter written
            match resolution.get(node):
                case CallRef(callee, name, _) if not self._reads((callee, name)):
                    return False
                case BuiltinRef(name) if BUILTINS[name].acts:
                    return False
                case CounterRef(name, _) | FieldRef(name) if self.writes.modified(name) and not self._reads(MODIFIERS):
                    return False
        return True

    def declaration(self, callee: Callee, name: str) -> bool:
        """Whether calling a declaration only reads."""
        return self._reads((callee, name))

    def _reads(self, key: tuple[Callee | None, str]) -> bool:
        """Whether what `key` names only reads. A cycle back to one being looked at counts as
        reading; when that one turns out not to, what was found meanwhile is forgotten."""
        known = self._found.get(key)
        if known is not None:
            return known
        if key in self._open:
            return True
        self._open.add(key)
        before = set(self._found)
        found = self.only_reads(self._parts(key))
        self._open.discard(key)
        if not found:
            for later in set(self._found) - before:
                del self._found[later]
        self._found[key] = found
        return found

    def _parts(self, key: tuple[Callee | None, str]) -> list[object]:
        """What runs when `key` is called (or, for `MODIFIERS`, when a modified value is read)."""
        sym, (callee, name) = self.c.symbols, key
        match callee:
            case Callee.PROCEDURE:
                return [step.body for step in sym.procedures[name].steps] + \
                    [(rep.cond, rep.body) for rep, _ in sym.replacements if rep.procedure == name]
            case Callee.VALUE:
                return [sym.values[name].expr]
            case Callee.KEYWORD:
                return [sym.keywords[name].expr]
            case Callee.TIMING:
                return [block.body for card in sym.cards.values() for block in card.blocks if block.name == name]
            case None:
                return [(m.while_, m.delta if m.live else None) for m in self.writes.modifiers]
