"""The `decision` lines of a game and of its addenda: a choice made where the sources leave
something open, optionally tied to the rule it decides (`decision "…" for PROC [step ID]`), so the
reference can show it under that rule."""

from __future__ import annotations

from dataclasses import dataclass

from . import syntax as s
from .checked import Context
from .diagnostics import did_you_mean
from .symbols import Symbols


@dataclass(frozen=True)
class Decision:
    """One decision: its text, the addendum it belongs to (None: the game's), and the procedure
    and step it decides, if it names them."""

    text: str
    addendum: str | None
    procedure: str | None
    step: str | None
    span: s.Span


def read_decision(opt: s.Opt, addendum: str | None) -> Decision | None:
    """A `decision "text" [for PROC [step ID]]` line (None when it has no text)."""
    atoms = list(opt.atoms)
    if not atoms or atoms[0].kind != "str":
        return None
    procedure = step = None
    rest = [a.text for a in atoms[1:]]
    if rest[:1] == ["for"] and len(rest) >= 2:
        procedure = rest[1]
        if rest[2:3] == ["step"] and len(rest) >= 4:
            step = rest[3]
    return Decision(atoms[0].text, addendum, procedure, step, opt.span)


def decisions(sym: Symbols) -> list[Decision]:
    """Every decision of the game block, then of each addendum, in order."""
    found = []
    owners: list[tuple[str | None, tuple[s.Opt, ...]]] = [(None, sym.game.props if sym.game else ())]
    owners += [(name, add.props) for name, add in sym.addenda.items()]
    for addendum, props in owners:
        for opt in props:
            if opt.name == "decision":
                d = read_decision(opt, addendum)
                if d is not None:
                    found.append(d)
    return found


def check_decisions(ctx: Context) -> None:
    """E104 for a decision line of the wrong shape; E101/E105 for a rule it names that does not exist."""
    sym = ctx.sym
    owners = [sym.game.props if sym.game else ()] + [add.props for add in sym.addenda.values()]
    for props in owners:
        for opt in props:
            if opt.name != "decision":
                continue
            words = [a.text for a in opt.atoms[1:]]
            shaped = words == [] or (words[:1] == ["for"] and len(words) in (2, 4)
                                     and (len(words) == 2 or words[2] == "step"))
            if not opt.atoms or opt.atoms[0].kind != "str" or not shaped:
                ctx.error("E104", '`decision` takes a text, then optionally `for PROCEDURE [step ID]`', opt.span)
                continue
            d = read_decision(opt, None)
            if d is None or d.procedure is None:
                continue
            proc = sym.procedures.get(d.procedure)
            if proc is None:
                ctx.error("E101", f"unknown procedure {d.procedure!r}", opt.span,
                          suggestion=did_you_mean(d.procedure, sym.procedures))
            elif d.step is not None and d.step not in {st.ident for st in proc.steps}:
                ctx.error("E105", f"procedure {d.procedure} has no step {d.step}", opt.span,
                          hint="its steps: " + ", ".join(st.ident for st in proc.steps if st.ident))
