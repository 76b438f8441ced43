"""Syntax model: frozen dataclasses for every construct of the language, each with its span."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Span:
    """A source range: 1-based line and column, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


def source_lines(text: str) -> list[str]:
    """A source's lines. Lines end at \\n (or \\r\\n) only, as they do for the parser: other
    characters that Python counts as line breaks (U+2028, U+0085, form feed) stay inside
    their line, so a comment cannot hide code behind one."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


@dataclass(frozen=True)
class Labels:
    """Display names of a declaration: the default one, per-language ones, a section number."""

    default: str | None = None
    langs: tuple[tuple[str, str], ...] = ()
    section: str | None = None

    def get(self, lang: str) -> str | None:
        for key, text in self.langs:
            if key == lang:
                return text
        return None

    def all_names(self) -> list[str]:
        names = [self.default] if self.default else []
        return names + [text for _, text in self.langs]


# ---- atoms used by options and properties ---------------------------------


@dataclass(frozen=True)
class Atom:
    """A literal word in an option or property: kind is name/int/str/pair/delta/path/dotrange."""

    kind: str
    text: str
    span: Span

    def literal(self) -> object:
        """The value of the word: a number, true/false/none, or the text itself."""
        if self.kind == "int":
            return int(self.text)
        return {"true": True, "false": False, "none": None}.get(self.text, self.text)


@dataclass(frozen=True)
class Opt:
    """`name atom atom …` inside a declaration's option list, or a card/scenario property."""

    name: str
    atoms: tuple[Atom, ...]
    span: Span

    def words(self) -> list[str]:
        return [a.text for a in self.atoms]


# ---- expressions -----------------------------------------------------------


@dataclass(frozen=True)
class IntLit:
    value: int
    span: Span


@dataclass(frozen=True)
class StrLit:
    value: str
    span: Span


@dataclass(frozen=True)
class BoolLit:
    value: bool
    span: Span


@dataclass(frozen=True)
class NoneLit:
    span: Span


@dataclass(frozen=True)
class PairLit:
    """A two-sided value like `3/1`, `-/1` or `{1/2}` (braced)."""

    left: int | None
    right: int | None
    braced: bool
    span: Span


@dataclass(frozen=True)
class DeltaLit:
    """A two-sided change like `+1/-1`."""

    left: int
    right: int
    span: Span


@dataclass(frozen=True)
class RangeLit:
    """An integer range like `3-4` or `1..4`."""

    low: int
    high: int
    span: Span


@dataclass(frozen=True)
class ZoneLabel:
    """A zone written by its label, like `<装>`."""

    label: str
    span: Span


@dataclass(frozen=True)
class Name:
    ident: str
    span: Span


@dataclass(frozen=True)
class Attr:
    obj: Expr
    name: str
    span: Span


@dataclass(frozen=True)
class Call:
    func: Expr
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class Index:
    obj: Expr
    index: Expr
    span: Span


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" / "or"
    values: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class Not:
    operand: Expr
    span: Span


@dataclass(frozen=True)
class Neg:
    operand: Expr
    span: Span


@dataclass(frozen=True)
class ListLit:
    items: tuple[Expr, ...]
    span: Span


Expr = Union[
    IntLit, StrLit, BoolLit, NoneLit, PairLit, DeltaLit, RangeLit, ZoneLabel, Name, Attr,
    Call, Index, BinOp, BoolOp, Not, Neg, ListLit,
]


# ---- choices (right-hand side of `let`) ------------------------------------


@dataclass(frozen=True)
class Pick:
    var: str
    collection: Expr
    player: Expr
    where: Expr | None
    optional: bool
    labels: Labels
    span: Span


@dataclass(frozen=True)
class NumberChoice:
    low: Expr
    high: Expr
    player: Expr
    labels: Labels
    span: Span


@dataclass(frozen=True)
class Ask:
    player: Expr
    labels: Labels
    span: Span


Choice = Union[Pick, NumberChoice, Ask]


# ---- statements ------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """`move N [token] from A to B`: moves up to N tokens; its value is how many moved."""

    amount: Expr
    token: str | None
    token_span: Span | None
    owner: Expr | None
    source: Expr
    dest: Expr
    span: Span


@dataclass(frozen=True)
class Let:
    name: str
    value: Expr | Choice | Move
    span: Span


@dataclass(frozen=True)
class Assign:
    target: Expr
    value: Expr
    span: Span


@dataclass(frozen=True)
class AugAssign:
    target: Expr
    op: str
    value: Expr
    span: Span


@dataclass(frozen=True)
class Put:
    obj: Expr
    dest: Expr
    place: str | None
    span: Span


@dataclass(frozen=True)
class Emit:
    event: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class Modify:
    target: Expr
    delta: Expr
    while_: Expr | None
    until: str | None
    span: Span


@dataclass(frozen=True)
class Forbid:
    """`forbid TOKEN from ZONE [while COND]`: card effects cannot move those tokens out of ZONE."""

    token: str
    zone: Expr
    while_: Expr | None
    span: Span


@dataclass(frozen=True)
class Reveal:
    """`reveal X to P`: P sees the card X (or every card in zone X) until it moves."""

    what: Expr
    to: Expr
    span: Span


@dataclass(frozen=True)
class Shuffle:
    zone: Expr
    span: Span


@dataclass(frozen=True)
class Log:
    """`log "text {}", x [to P]`: a log line for every player, or only for P (a player or a list)."""

    message: str
    args: tuple[Expr, ...]
    span: Span
    to: Expr | None = None


@dataclass(frozen=True)
class Expect:
    cond: Expr
    message: str | None
    span: Span


@dataclass(frozen=True)
class Return:
    value: Expr | Choice | None
    span: Span


@dataclass(frozen=True)
class End:
    """`win P`, `lose P` or `draw_game none`, with an optional reason ("life 0")."""

    kind: str  # win / lose / draw_game
    player: Expr
    span: Span
    reason: str | None = None


@dataclass(frozen=True)
class CallStmt:
    call: Expr
    span: Span


@dataclass(frozen=True)
class Pass:
    span: Span


@dataclass(frozen=True)
class Break:
    span: Span


@dataclass(frozen=True)
class If:
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class For:
    var: str
    iterable: Expr
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class While:
    cond: Expr
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Repeat:
    count: Expr
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Option:
    """A menu option; `passive` marks one that declines to act (ending a phase, not
    reacting), which agents that prefer to act choose last."""

    labels: Labels
    var: str | None
    iterable: Expr | None
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span
    passive: bool = False


@dataclass(frozen=True)
class Menu:
    player: Expr
    labels: Labels
    options: tuple[Option, ...]
    span: Span


@dataclass(frozen=True)
class Once:
    event: str
    params: tuple[str, ...]
    cond: Expr | None
    until: str | None
    body: tuple[Stmt, ...]
    span: Span


Stmt = Union[
    Let, Assign, AugAssign, Move, Put, Emit, Modify, Forbid, Reveal, Shuffle, Log, Expect, Return, End,
    CallStmt, Pass, Break, If, For, While, Repeat, Menu, Once,
]


# ---- declarations ----------------------------------------------------------


@dataclass(frozen=True)
class Use:
    game: str
    span: Span


@dataclass(frozen=True)
class Simple:
    """A one-line declaration: character, token, zone, counter/flag, field, kind."""

    what: str
    name: str
    labels: Labels
    opts: tuple[Opt, ...]
    span: Span
    name_span: Span


@dataclass(frozen=True)
class Value:
    name: str
    params: tuple[str, ...]
    labels: Labels
    expr: Expr
    span: Span


@dataclass(frozen=True)
class Event:
    name: str
    params: tuple[str, ...]
    labels: Labels
    span: Span


@dataclass(frozen=True)
class Timing:
    name: str
    params: tuple[str, ...]
    labels: Labels
    opts: tuple[Opt, ...]
    span: Span


@dataclass(frozen=True)
class Keyword:
    name: str
    labels: Labels
    expr: Expr | None
    span: Span


@dataclass(frozen=True)
class Step:
    ident: str
    labels: Labels
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Procedure:
    name: str
    params: tuple[str, ...]
    labels: Labels
    steps: tuple[Step, ...]  # a procedure without steps has one unnamed step
    span: Span


@dataclass(frozen=True)
class Trigger:
    event: str
    params: tuple[str, ...]
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span
    labels: Labels = Labels()
    event_span: Span = NO_SPAN


@dataclass(frozen=True)
class Replace:
    procedure: str
    step: str
    cond: Expr | None
    labels: Labels
    body: tuple[Stmt, ...]
    span: Span
    procedure_span: Span = NO_SPAN
    step_span: Span = NO_SPAN


@dataclass(frozen=True)
class Check:
    name: str
    labels: Labels
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Action:
    """`action NAME "label" for p if COND:` — offered to p in every menu while COND holds."""

    name: str
    labels: Labels
    player: str
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class TimingBlock:
    name: str
    body: tuple[Stmt, ...]
    span: Span


@dataclass(frozen=True)
class Entity:
    """A declaration with a property body: game, card or scenario."""

    what: str
    name: str
    labels: Labels
    props: tuple[Opt, ...]
    blocks: tuple[TimingBlock, ...]
    triggers: tuple[Trigger, ...]
    span: Span
    name_span: Span

    def prop(self, name: str) -> Opt | None:
        for p in self.props:
            if p.name == name:
                return p
        return None


@dataclass(frozen=True)
class Addendum:
    name: str
    labels: Labels
    props: tuple[Opt, ...]
    items: tuple[Decl, ...]
    span: Span


Decl = Union[
    Use, Simple, Value, Event, Timing, Keyword, Procedure, Trigger, Replace, Check, Action,
    Entity, Addendum,
]


@dataclass(frozen=True)
class SourceFile:
    """One parsed file: its path, text and top-level declarations."""

    path: str
    text: str
    items: tuple[Decl, ...] = field(default=())
