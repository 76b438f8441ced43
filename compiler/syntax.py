"""Syntax model: frozen dataclasses for every construct of the language, each with its span."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field, fields
from typing import Union, get_args

from .frozen import frozen
from .span import NO_SPAN, Span, source_lines  # noqa: F401 - part of the syntax model's interface


class Node:
    """Base of every syntax node: a frozen dataclass with a `span`. Passes over the tree
    dispatch on the node's class (see `visit.py`)."""

    __slots__ = ()
    span: Span


@frozen
class Labels:
    """Display names of a declaration: the default one, per-language ones, a section number."""

    default: str | None = None
    langs: tuple[tuple[str, str], ...] = ()
    section: str | None = None
    docs: tuple[tuple[str, str], ...] = ()  # `doc "…"` ("" = the game's language) or `doc en "…"`

    def doc(self, lang: str, default_lang: str) -> str | None:
        """The sentence that explains the declaration in a language, if it has one."""
        for key, text in self.docs:
            if key == lang or (key == "" and lang == default_lang):
                return text
        return None

    def get(self, lang: str) -> str | None:
        for key, text in self.langs:
            if key == lang:
                return text
        return None

    def all_names(self) -> list[str]:
        names = [self.default] if self.default else []
        return names + [text for _, text in self.langs]


# ---- atoms used by options and properties ---------------------------------


@frozen
class Atom(Node):
    """A literal word in an option or property: kind is name/int/str/pair/delta/path/dotrange."""

    kind: str
    text: str
    span: Span

    def literal(self) -> object:
        """The value of the word: a number, true/false/none, or the text itself."""
        if self.kind == "int":
            return int(self.text)
        return {"true": True, "false": False, "none": None}.get(self.text, self.text)


@frozen
class Opt(Node):
    """`name atom atom …` inside a declaration's option list, or a card/scenario property."""

    name: str
    atoms: tuple[Atom, ...]
    span: Span

    def words(self) -> list[str]:
        return [a.text for a in self.atoms]


# ---- expressions -----------------------------------------------------------


@frozen
class IntLit(Node):
    """A whole number, like `3`."""

    value: int
    span: Span


@frozen
class StrLit(Node):
    """A string in double quotes."""

    value: str
    span: Span


@frozen
class BoolLit(Node):
    """`true` or `false`."""

    value: bool
    span: Span


@frozen
class NoneLit(Node):
    """`none`: no value."""

    span: Span


@frozen
class PairLit(Node):
    """A two-sided value like `3/1`, `-/1` or `{1/2}` (braced)."""

    left: int | None
    right: int | None
    braced: bool
    span: Span


@frozen
class DeltaLit(Node):
    """A two-sided change like `+1/-1`."""

    left: int
    right: int
    span: Span


@frozen
class RangeLit(Node):
    """An integer range like `3-4` or `1..4`."""

    low: int
    high: int
    span: Span


@frozen
class ZoneLabel(Node):
    """A zone written by its label, like `<手牌>`."""

    label: str
    span: Span


@frozen
class Name(Node):
    """A name: a local, a parameter, a declared zone, counter, value, keyword or word."""

    ident: str
    span: Span


@frozen
class Attr(Node):
    """`x.name`: a player's zone, counter or value, a card's field, or an attribute."""

    obj: Expr
    name: str
    span: Span


@frozen
class Call(Node):
    """`f(args)`: a procedure, value, keyword, built-in, or a card's timing `x.t(args)`."""

    func: Expr
    args: tuple[Expr, ...]
    span: Span


@frozen
class Index(Node):
    """`list[i]`: an item of a list (none when there is none)."""

    obj: Expr
    index: Expr
    span: Span


@frozen
class BinOp(Node):
    """`a OP b`: arithmetic (+ - * // %), comparison, or membership (in, not in)."""

    op: str
    left: Expr
    right: Expr
    span: Span


@frozen
class BoolOp(Node):
    """`a and b and …` or `a or b or …`."""

    op: str  # "and" / "or"
    values: tuple[Expr, ...]
    span: Span


@frozen
class Not(Node):
    """`not a`."""

    operand: Expr
    span: Span


@frozen
class Neg(Node):
    """`-a`."""

    operand: Expr
    span: Span


@frozen
class ListLit(Node):
    """`[a, b, …]`."""

    items: tuple[Expr, ...]
    span: Span


@frozen
class ListWhere(Node):
    """`[x in LIST where COND]`: the items of a list for which a condition holds, in order."""

    var: str
    items: Expr
    cond: Expr
    span: Span


Expr = Union[
    IntLit, StrLit, BoolLit, NoneLit, PairLit, DeltaLit, RangeLit, ZoneLabel, Name, Attr,
    Call, Index, BinOp, BoolOp, Not, Neg, ListLit, ListWhere,
]
EXPRESSIONS: tuple[type, ...] = get_args(Expr)  # to `walk` statements without their expressions


# ---- choices (right-hand side of `let`) ------------------------------------


@frozen
class Pick(Node):
    """`pick x in LIST for P [where COND] [prefer COND] [optional] "prompt"`: P chooses one
    item; agents that play to act choose among the items `prefer` holds for when any does."""

    var: str
    collection: Expr
    player: Expr
    where: Expr | None
    optional: bool
    labels: Labels
    span: Span
    prefer: Expr | None = None


@frozen
class NumberChoice(Node):
    """`number from A to B for P "prompt"`: P chooses a number."""

    low: Expr
    high: Expr
    player: Expr
    labels: Labels
    span: Span


@frozen
class Ask(Node):
    """`ask P "prompt"`: P answers yes or no."""

    player: Expr
    labels: Labels
    span: Span


Choice = Union[Pick, NumberChoice, Ask]


# ---- statements ------------------------------------------------------------


@frozen
class Move(Node):
    """`move N [token] from A to B`: moves up to N tokens; its value is how many moved."""

    amount: Expr
    token: str | None
    token_span: Span | None
    owner: Expr | None
    source: Expr
    dest: Expr
    span: Span


@frozen
class Let(Node):
    """`let x = VALUE`: a new local variable (a value, a choice or a move)."""

    name: str
    value: Expr | Choice | Move
    span: Span


@frozen
class Assign(Node):
    """`target = value` on a local, a counter or a field."""

    target: Expr
    value: Expr
    span: Span


@frozen
class AugAssign(Node):
    """`target += value` or `target -= value`."""

    target: Expr
    op: str
    value: Expr
    span: Span


@frozen
class Put(Node):
    """`put CARD into ZONE [top|bottom]`."""

    obj: Expr
    dest: Expr
    place: str | None
    span: Span


@frozen
class Emit(Node):
    """`emit EVENT(args)`: triggers of the event run."""

    event: str
    args: tuple[Expr, ...]
    span: Span


@frozen
class Modify(Node):
    """`modify X.field by CHANGE [live] [while COND] [until EVENT]`: a lasting change; `live`:
    CHANGE is worked out again at every read (`by change(0, mirror(p)) live`), not once."""

    target: Expr
    delta: Expr
    while_: Expr | None
    until: str | None
    span: Span
    live: bool = False


@frozen
class Forbid(Node):
    """`forbid TOKEN from ZONE [while COND]`: card effects cannot move those tokens out of ZONE."""

    token: str
    zone: Expr
    while_: Expr | None
    span: Span


@frozen
class Reveal(Node):
    """`reveal X to P`: P sees the card X (or every card in zone X) until it moves."""

    what: Expr
    to: Expr
    span: Span


@frozen
class Shuffle(Node):
    """`shuffle ZONE`."""

    zone: Expr
    span: Span


@frozen
class Log(Node):
    """`log "text {}", x [to P]`: a log line for every player, or only for P (a player or a list)."""

    message: str
    args: tuple[Expr, ...]
    span: Span
    to: Expr | None = None


@frozen
class Expect(Node):
    """`expect COND "message"` (scenarios): the scenario fails unless COND holds."""

    cond: Expr
    message: str | None
    span: Span


@frozen
class ExpectOffered(Node):
    """`expect [not] offered P "label"` (scenarios): P's next decision offers (or does not
    offer) an option whose label starts with or holds the text."""

    player: Expr
    label: str
    offered: bool
    span: Span


@frozen
class ExpectWinner(Node):
    """`expect winner P` (scenarios): the game has ended and P won (`none`: a draw)."""

    player: Expr
    span: Span


@frozen
class Return(Node):
    """`return [VALUE]`: leave the procedure (with a value)."""

    value: Expr | Choice | None
    span: Span


@frozen
class End(Node):
    """`win P`, `lose P` or `draw_game none`, with an optional reason ("life 0")."""

    kind: str  # win / lose / draw_game
    player: Expr
    span: Span
    reason: str | None = None


@frozen
class CallStmt(Node):
    """A call made for its effect, as a statement."""

    call: Expr
    span: Span


@frozen
class Pass(Node):
    """`pass`: nothing."""

    span: Span


@frozen
class Break(Node):
    """`break`: leave the innermost loop or menu loop."""

    span: Span


@frozen
class If(Node):
    """`if … elif … else …`."""

    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...]
    span: Span


@frozen
class For(Node):
    """`for x in LIST:` over a copy of the list."""

    var: str
    iterable: Expr
    body: tuple[Stmt, ...]
    span: Span


@frozen
class While(Node):
    """`while COND:`."""

    cond: Expr
    body: tuple[Stmt, ...]
    span: Span


@frozen
class Repeat(Node):
    """`repeat N:`."""

    count: Expr
    body: tuple[Stmt, ...]
    span: Span


@frozen
class Option(Node):
    """A menu option; `passive` marks one that declines to act (ending a phase, not
    reacting), which agents that prefer to act choose last."""

    labels: Labels
    var: str | None
    iterable: Expr | None
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span
    passive: bool = False


@frozen
class Menu(Node):
    """`choose for P "prompt":` followed by options."""

    player: Expr
    labels: Labels
    options: tuple[Option, ...]
    span: Span


@frozen
class Once(Node):
    """`once when EVENT(params) [if COND] [until EVENT]:` a one-shot trigger."""

    event: str
    params: tuple[str, ...]
    cond: Expr | None
    until: str | None
    body: tuple[Stmt, ...]
    span: Span


Stmt = Union[
    Let, Assign, AugAssign, Move, Put, Emit, Modify, Forbid, Reveal, Shuffle, Log, Expect, ExpectOffered, ExpectWinner, Return, End,
    CallStmt, Pass, Break, If, For, While, Repeat, Menu, Once,
]


# ---- declarations ----------------------------------------------------------


@frozen
class Use(Node):
    """`use GAME`: this file adds to a bundled game."""

    game: str
    span: Span


@frozen
class Simple(Node):
    """A one-line declaration: character, token, zone, counter/flag, field, kind."""

    what: str
    name: str
    labels: Labels
    opts: tuple[Opt, ...]
    span: Span
    name_span: Span


@frozen
class Value(Node):
    """`value NAME(params) "label" = EXPR`: a derived value."""

    name: str
    params: tuple[str, ...]
    labels: Labels
    expr: Expr
    span: Span
    types: tuple[str | None, ...] = ()  # each parameter's declared type word, if any


@frozen
class Event(Node):
    """`event NAME(params) "label"`."""

    name: str
    params: tuple[str, ...]
    labels: Labels
    span: Span
    types: tuple[str | None, ...] = ()  # each parameter's declared type word, if any


@frozen
class Timing(Node):
    """`timing NAME(params) "label": options`: a slot card blocks fill."""

    name: str
    params: tuple[str, ...]
    labels: Labels
    opts: tuple[Opt, ...]
    span: Span
    types: tuple[str | None, ...] = ()  # each parameter's declared type word, if any


@frozen
class Keyword(Node):
    """`keyword NAME "label" [= EXPR]`: a condition about `self`, or a word."""

    name: str
    labels: Labels
    expr: Expr | None
    span: Span


@frozen
class Step(Node):
    """`step ID "label":` a numbered step of a procedure."""

    ident: str
    labels: Labels
    body: tuple[Stmt, ...]
    span: Span


@frozen
class Procedure(Node):
    """`procedure NAME(params) "label" section N:` made of steps."""

    name: str
    params: tuple[str, ...]
    labels: Labels
    steps: tuple[Step, ...]  # a procedure without steps has one unnamed step
    span: Span
    types: tuple[str | None, ...] = ()  # each parameter's declared type word, if any


@frozen
class Trigger(Node):
    """`when EVENT(params) [if COND]:` a rule trigger (or a card's, inside a card)."""

    event: str
    params: tuple[str, ...]
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span
    labels: Labels = Labels()
    event_span: Span = NO_SPAN


@frozen
class AddedOption(Node):
    """`in PROC step ID option "label" [for X in L] [if COND]:` an addendum's extra option in
    the one `choose` menu of that step; it sees the step's names."""

    procedure: str
    step: str
    option: Option
    span: Span
    procedure_span: Span = NO_SPAN
    step_span: Span = NO_SPAN


@frozen
class Replace(Node):
    """`instead of PROC step ID [when COND]:` an addendum's replacement of a step, or
    `after PROC step ID [when COND]:` what it adds after the step (every such addition runs)."""

    procedure: str
    step: str
    cond: Expr | None
    labels: Labels
    body: tuple[Stmt, ...]
    span: Span
    procedure_span: Span = NO_SPAN
    step_span: Span = NO_SPAN
    after: bool = False


@frozen
class Check(Node):
    """`check NAME:` a state-based check, run after changes to what it reads."""

    name: str
    labels: Labels
    body: tuple[Stmt, ...]
    span: Span


@frozen
class Action(Node):
    """`action NAME "label" for p [if COND] [passive]:` — offered to p in every menu while
    COND holds; `passive` when taking it is not playing on (agents that act choose it last)."""

    name: str
    labels: Labels
    player: str
    cond: Expr | None
    body: tuple[Stmt, ...]
    span: Span
    passive: bool = False


@frozen
class TimingBlock(Node):
    """`NAME under TIMING:` prints the block under that timing's marker in the card's text
    instead of its own timing's (a play restriction printed under the constant effects' marker: `usable under constant:`);
    `under none`: with no marker (what it does is told elsewhere in the text)."""

    name: str
    body: tuple[Stmt, ...]
    span: Span
    under: str | None = None


@frozen
class Entity(Node):
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


@frozen
class Addendum(Node):
    """`addendum NAME "label" section N:` rules that apply while a player hosts its characters."""

    name: str
    labels: Labels
    props: tuple[Opt, ...]
    items: tuple[Decl, ...]
    span: Span


Decl = Union[
    Use, Simple, Value, Event, Timing, Keyword, Procedure, Trigger, Replace, AddedOption, Check,
    Action, Entity, Addendum,
]


@frozen
class SourceFile(Node):
    """One parsed file: its path, text and top-level declarations."""

    path: str
    text: str
    items: tuple[Decl, ...] = field(default=())


_LEAVES = frozenset({"Span", "Span | None", "str", "int", "bool", "str | None", "int | None", "Labels", "tuple[str, ...]",
                     "tuple[str | None, ...]"})  # field types that never hold a node
_CHILDREN: dict[type, tuple[str, ...]] = {}  # each node class's fields that may hold nodes


def walk(root: object, prune: tuple[type, ...] = ()) -> Iterator[Node]:
    """Every node in a node, or in a tuple or list of nodes, in no particular order; nodes of
    the `prune` classes are given but not looked into."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            yield item
            if prune and isinstance(item, prune):
                continue
            names = _CHILDREN.get(type(item))
            if names is None:
                names = _CHILDREN[type(item)] = tuple(
                    f.name for f in fields(item) if f.type not in _LEAVES)  # type: ignore[arg-type]
            stack.extend([getattr(item, name) for name in names])
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
