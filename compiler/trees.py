"""Lark's tree building for the LALR parser, one call per reduction.

Lark builds each node through a chain of wrappers (position propagation, then the child
filter, then the expansion of `?rule`s with one child, then the tree), each a Python call,
and propagates positions with a dozen `getattr`s with defaults. Parsing is most of a cold
build, and this chain was over a third of the parse. `install()` puts in its place one
function per grammar rule that makes the same tree with the same positions, attribute for
attribute (tests/test_parse.py compares the two on the whole bundled library).

Positions follow Lark's rule: a node starts where its first child's *container* starts and
ends where its last child's container ends. A container is the extent a node had before it
was lifted into its parent (a `?rule` reduced to its only child, or a `_rule` spliced into
its parent), so a node's span covers the keywords and brackets the tree dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from lark import Lark, Token, Tree
from lark.grammar import Rule, Terminal
from lark.tree import Meta

Reduce = Callable[[list[Any]], Any]

_new = object.__new__


def install(parser: Lark) -> Lark:
    """Replace the parser's tree-building callbacks with one function per rule. A Lark laid out
    otherwise than the 1.x releases keeps its own tree building: the same trees, built slower."""
    callbacks = getattr(parser, "_callbacks", None)  # the dict the LALR parser calls
    if not isinstance(callbacks, dict):
        return parser
    try:
        ours = {rule: _reduce(rule) for rule in callbacks}
    except AttributeError:
        return parser
    callbacks.update(ours)
    return parser


class Shape(NamedTuple):
    """What a rule's reduction does with its children, as Lark's tree building does it."""

    name: str  # the node's name (the rule's, or its alias)
    kept: tuple[tuple[int, bool], ...]  # the children kept, each with whether it is a `_rule` to splice
    lift: bool  # a `?rule`: a lone kept child is its tree
    plain: bool  # every child is kept as it is

    @property
    def passes_through(self) -> bool:
        """A `?rule` of one kept symbol: its tree is that symbol's, as it is."""
        return self.lift and self.plain and len(self.kept) == 1


def shape(rule: Rule) -> Shape:
    keep_tokens = rule.options.keep_all_tokens
    kept = tuple((i, not sym.is_term and sym.name.startswith("_")) for i, sym in enumerate(rule.expansion)
                 if keep_tokens or not (isinstance(sym, Terminal) and sym.filter_out))
    return Shape(str(rule.alias or rule.options.template_source or rule.origin.name), kept,
                 bool(rule.options.expand1 and not rule.alias),
                 len(kept) == len(rule.expansion) and not any(splice for _, splice in kept))


def _reduce(rule: Rule) -> Reduce:
    """The callback of one rule: keep the children the grammar keeps (splicing `_rule`s),
    lift a lone child of a `?rule`, else make the tree; then set positions."""
    name, kept, lift, plain = form = shape(rule)
    if form.passes_through:
        return pass_through

    def reduce(children: list[Any]) -> Any:
        kept_children = children if plain else _filter(children, kept)
        if lift and len(kept_children) == 1:
            node = kept_children[0]
            if type(node) is Tree and not (len(children) == 1 and children[0] is node):
                _place(node, children)  # lifted out of a wider rule or a spliced `_rule`
            return node
        return Tree(name, kept_children, _meta(children))

    return reduce


def pass_through(children: list[Any]) -> Any:
    """The callback of a `?rule` of one kept symbol: its tree is that symbol's, as it is."""
    return children[0]


def _filter(children: list[Any], kept: Sequence[tuple[int, bool]]) -> list[Any]:
    """Lark's child filter for LALR without placeholders (a spliced first child's list is
    reused, as Lark does)."""
    filtered: list[Any] = []
    for i, splice in kept:
        if splice:
            if filtered:
                filtered += children[i].children
            else:
                filtered = children[i].children
        else:
            filtered.append(children[i])
    return filtered


def _meta(children: list[Any]) -> Meta | None:
    """A new node's positions: its own and its container's, from its first and last
    positioned children (None, as Lark leaves it, when no child has a position)."""
    first = _start(children)
    if first is None:
        return None
    last = _end(children)
    meta: Any = _new(Meta)  # what Meta() makes, without the call to its __init__
    meta.empty = False
    meta.line, meta.column, meta.start_pos = first
    meta.end_line, meta.end_column, meta.end_pos = last
    meta.container_line, meta.container_column, meta.container_start_pos = first
    meta.container_end_line, meta.container_end_column, meta.container_end_pos = last
    return meta  # type: ignore[no-any-return]


def _place(node: Tree[Any], children: list[Any]) -> None:
    """Set a node's container from its first and last positioned children, and its own start
    and end too unless it has them (a node lifted out of a wider rule keeps its own)."""
    first = _start(children)
    if first is None:
        return
    last = _end(children)
    meta: Any = node.meta  # Lark sets its position attributes dynamically
    if meta.empty:
        meta.line, meta.column, meta.start_pos = first
        meta.end_line, meta.end_column, meta.end_pos = last
        meta.empty = False
    meta.container_line, meta.container_column, meta.container_start_pos = first
    meta.container_end_line, meta.container_end_column, meta.container_end_pos = last


def _start(children: list[Any]) -> tuple[int, int, int] | None:
    for child in children:
        if type(child) is Tree:
            meta: Any = child._meta  # None or empty: no position
            if meta is not None and not meta.empty:
                return meta.container_line, meta.container_column, meta.container_start_pos
        elif isinstance(child, Token):
            return child.line, child.column, child.start_pos  # type: ignore[return-value]
    return None


def _end(children: list[Any]) -> tuple[int, int, int]:
    for child in reversed(children):
        if type(child) is Tree:
            meta: Any = child._meta
            if meta is not None and not meta.empty:
                return meta.container_end_line, meta.container_end_column, meta.container_end_pos
        elif isinstance(child, Token):
            return child.end_line, child.end_column, child.end_pos  # type: ignore[return-value]
    raise AssertionError("a child with a start has an end")
