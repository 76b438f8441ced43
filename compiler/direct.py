"""The syntax model built during the parse: each reduction makes its model node at once.

Parsing a declaration into Lark's tree and then walking that tree with the `Builder` made each
node twice: a tree node with its positions, then the model's dataclass. `Direct` runs the
parse loop (`lalr.Driver`) with reductions that call the Builder's method for the rule as soon
as the rule is reduced, so no tree node is made for a rule the Builder builds. It makes what
`Builder.transform` makes of Lark's tree, with the same spans (tests/test_parse.py compares the
two on every declaration of the corpus and on mutated ones). Wherever the two could differ it
gives up, and the caller parses and builds the usual way, which reports what is wrong in its
own order: a syntax error, an error raised by a Builder method, an expression nested too deeply,
a node without a position lifted into a wider rule (its tree node would take its position from
that rule).

Each entry of the parse stack is a Lark token or a `Slot`: a built value, the extent its tree
node would have as a container (where a parent that starts or ends with it starts or ends),
and how deeply expressions nest inside it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from lark import Lark, Tree
from lark.grammar import Rule

from . import syntax as s
from .build import NESTING_RULES, RULE_METHODS, At, Builder, nesting
from .lalr import Driver, GiveUp
from .limits import MAX_EXPR_DEPTH
from .trees import Reduce, pass_through, shape

Slot = tuple[Any, At, int]  # a built value, its extent as a container (None: none), its depth
Extent = Callable[[list[Any]], At]  # where a rule's node lies, from its children


class Direct:
    """Parses and builds one declaration in one pass, or raises `GiveUp`."""

    def __init__(self, parser: Lark) -> None:
        self._builder = Builder("", 0)
        self._lock = threading.Lock()  # one declaration at a time: the reductions share the builder
        self._driver = Driver(parser, self._reduction)

    def build(self, chunk: str, path: str, line_offset: int) -> list[s.Decl]:
        """The declarations of `chunk` (its first line is `line_offset + 1` of `path`)."""
        with self._lock:
            self._builder = Builder(path, line_offset)
            try:
                slot = self._driver.parse(chunk)
            except GiveUp:
                raise
            except Exception as err:  # noqa: BLE001 - the usual build reports it, after any syntax error
                raise GiveUp from err
        return list(slot[0])

    def _reduction(self, rule: Rule) -> Reduce:
        """A rule's reduction: what `trees` would make of it, built at once. Each form of rule
        (a `?rule`, a spliced `_rule`, a node) has its own function: a declaration reduces
        about forty times a card, and the tests of the form were a fifth of a reduction."""
        form = shape(rule)
        if form.passes_through:
            return pass_through
        name, kept, lift, plain = form
        extent = _extent_of(rule)
        made = _spliced(kept, plain, extent) if name.startswith("_") else self._node(name, kept, plain, extent)
        return _lifted(kept, plain, extent, made) if lift else made

    def _node(self, name: str, kept: tuple[tuple[int, bool], ...], plain: bool, find: Extent) -> Reduce:
        """The reduction of a rule that makes a node: its Builder method's value (a Lark tree of
        the built children for a rule without one), and how deeply expressions nest in it."""
        method = RULE_METHODS.get(name)
        nests = name in NESTING_RULES
        direct = self

        def reduce(children: list[Any]) -> Any:
            extent = find(children)
            values: list[Any] = []
            depth = 0
            for item in children if plain else _kept(children, kept):
                if type(item) is tuple:
                    values.append(item[0])
                    if item[2] > depth:
                        depth = item[2]
                else:
                    values.append(item)
            if nests:
                depth += nesting(name, len(values))
            if depth > MAX_EXPR_DEPTH:
                raise GiveUp  # the usual build says where
            if method is None:
                return Tree(name, values), extent, depth
            return method(direct._builder, extent, values), extent, depth

        return reduce


def _lifted(kept: tuple[tuple[int, bool], ...], plain: bool, find: Extent, made: Reduce) -> Reduce:
    """The reduction of a `?rule` that is not a plain pass-through: a lone kept child is its
    value, its container widened to the rule's; with more, the rule reduces as it would without
    the `?` (`made`)."""

    def reduce(children: list[Any]) -> Any:
        items = children if plain else _kept(children, kept)
        if len(items) != 1:
            return made(children)
        extent = find(children)
        item = items[0]
        if type(item) is tuple and not (len(children) == 1 and children[0] is item):
            if item[1] is None and extent is not None:
                raise GiveUp  # its tree node would take its own position from this rule's
            return item[0], extent, item[2]  # lifted out of a wider rule: its container widens
        return item

    return reduce


def _spliced(kept: tuple[tuple[int, bool], ...], plain: bool, find: Extent) -> Reduce:
    """The reduction of a `_rule`: its parent takes its children (and works out their depth)."""
    if plain:
        def reduce(children: list[Any]) -> Any:
            return children, find(children), 0
    else:
        def reduce(children: list[Any]) -> Any:
            return _kept(children, kept), find(children), 0
    return reduce


def _kept(children: list[Any], kept: tuple[tuple[int, bool], ...]) -> list[Any]:
    """The children a rule keeps, with each `_rule`'s own children in its place."""
    items: list[Any] = []
    for i, splice in kept:
        if not splice:
            items.append(children[i])
        elif items:
            items += children[i][0]
        else:
            items = children[i][0]  # taken over, as Lark's filter does: a long list grows in place
    return items


def _extent_of(rule: Rule) -> Extent:
    """How a rule's reduction finds its extent. The driver shifts a token for each terminal, so
    where the rule starts or ends with a terminal that end is read off the token; else the
    children are searched for their first or last position."""
    if not rule.expansion:
        return _extent
    starts, ends = rule.expansion[0].is_term, rule.expansion[-1].is_term
    if starts:
        return _token_to_token if ends else _from_token
    return _to_token if ends else _extent


def _token_to_token(children: list[Any]) -> At:
    first, last = children[0], children[-1]
    return first.line, first.column, last.end_line, last.end_column


def _from_token(children: list[Any]) -> At:
    first = children[0]
    for last in reversed(children):
        if type(last) is not tuple:
            return first.line, first.column, last.end_line, last.end_column
        if last[1] is not None:
            return first.line, first.column, last[1][2], last[1][3]
    raise AssertionError("the first child is a token")


def _to_token(children: list[Any]) -> At:
    last = children[-1]
    for first in children:
        if type(first) is not tuple:
            return first.line, first.column, last.end_line, last.end_column
        if first[1] is not None:
            return first[1][0], first[1][1], last.end_line, last.end_column
    raise AssertionError("the last child is a token")


def _extent(children: list[Any]) -> At:
    """Where a node lies: from its first positioned child's container start to its last one's
    end (None when no child has a position)."""
    for first in children:
        if type(first) is not tuple:
            line, column = first.line, first.column
            break
        if first[1] is not None:
            line, column = first[1][0], first[1][1]
            break
    else:
        return None
    for last in reversed(children):
        if type(last) is not tuple:
            return line, column, last.end_line, last.end_column
        if last[1] is not None:
            return line, column, last[1][2], last[1][3]
    raise AssertionError("a child with a start has an end")
