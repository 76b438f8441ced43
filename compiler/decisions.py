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
    """One decision: its text in each language it is written in (None: the game's own, for a text
    without a language word), the addendum it belongs to (None: the game's), and the procedure and
    step it decides, if it names them."""

    texts: tuple[tuple[str | None, str], ...]
    addendum: str | None
    procedure: str | None
    step: str | None
    span: s.Span

    @property
    def text(self) -> str:
        """The first text written."""
        return self.texts[0][1]

    def text_in(self, language: str, own: str) -> str:
        """The text in a language (a text without a language word is in the game's own, `own`),
        else the first one written."""
        for lang, text in self.texts:
            if (lang or own) == language:
                return text
        return self.text


def language_texts(opt: s.Opt) -> tuple[list[tuple[str | None, str]], list[str]] | None:
    """A line's texts, each after an optional language word (`en "…" zh "…"`, a text without one
    being in the game's language), and the words after them; None when it starts with no text."""
    atoms = list(opt.atoms)
    texts: list[tuple[str | None, str]] = []
    i = 0
    while i < len(atoms):
        if atoms[i].kind == "str":
            texts.append((None, atoms[i].text))
            i += 1
        elif atoms[i].text != "for" and i + 1 < len(atoms) and atoms[i + 1].kind == "str":
            texts.append((atoms[i].text, atoms[i + 1].text))
            i += 2
        else:
            break
    if not texts:
        return None
    return texts, [a.text for a in atoms[i:]]


def read_decision(opt: s.Opt, addendum: str | None) -> Decision | None:
    """A `decision [LANG] "text" [LANG "text"]… [for PROC [step ID]]` line (None when it has no text)."""
    shaped = language_texts(opt)
    if shaped is None:
        return None
    texts, rest = shaped
    procedure = step = None
    if rest[:1] == ["for"] and len(rest) >= 2:
        procedure = rest[1]
        if rest[2:3] == ["step"] and len(rest) >= 4:
            step = rest[3]
    return Decision(tuple(texts), addendum, procedure, step, opt.span)


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
            read = language_texts(opt)
            words = read[1] if read is not None else []
            shaped = words == [] or (words[:1] == ["for"] and len(words) in (2, 4)
                                     and (len(words) == 2 or words[2] == "step"))
            if read is None or not shaped:
                ctx.error("E104", '`decision` takes a text (or texts, each after a language word: '
                          '`en "…" zh "…"`), then optionally `for PROCEDURE [step ID]`', opt.span)
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
