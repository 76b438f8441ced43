"""One loop that runs Lark's LALR tables over a declaration: lexing, indentation, parsing.

Lark reads a text through three generators stacked on one another (the contextual lexer, the
indentation post-lexer, the parser's token loop) with several method calls per token at each
level; that machinery was 60% of a parse. `Driver` runs the same things in one function: the
parse table, each state's scanner (the same compiled expressions, tried in the same order),
the same keyword retyping, the same indentation rule and the same tree-building callbacks;
the ignored spaces after a token are taken at once where only they can start with a space. It
only finishes a parse that Lark finishes, with the same tree. At the first thing off the
successful path (a character no terminal matches, a token the state does not expect, an
inconsistent dedent) it raises `GiveUp`, and the caller asks Lark, whose error is then Lark's
own (tests/test_parse.py compares the two on every bundled declaration and on mutated ones).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from lark import Lark, Token
from lark.grammar import Rule
from lark.indenter import Indenter
from lark.lexer import PatternStr, UnlessCallback
from lark.parsers.lalr_analysis import Shift

from .first_chars import first_chars, may_start
from .trees import Reduce, pass_through

Reduction = tuple[int, Reduce, str]  # a rule's size, callback and name
Action = int | str | Reduction  # shift to a state; reduce a rule whose tree is its one child (its name); reduce
# one state's scanner: its expressions, ignored and newline-bearing terminals, keyword retyping
Scan = tuple[tuple[re.Pattern[str], ...], frozenset[str], frozenset[str], dict[str, dict[str, str]]]

_new_token = str.__new__


class GiveUp(Exception):
    """The text is off the path the driver runs; Lark's own parse says what is wrong."""


class Unsupported(Exception):
    """The parser uses a Lark feature the driver does not run: the driver is then not made,
    or, for a feature of one state's lexer, gives up wherever that state reads a token."""


class Driver:
    """Lark's LALR parser of one grammar with an indentation post-lexer, run in one loop."""

    def __init__(self, parser: Lark, reduce_for: Callable[[Rule], Reduce] | None = None) -> None:
        """`reduce_for` gives each rule's reduction (default: the parser's own tree building).
        A reduction that is `trees.pass_through` is run as a move of the state alone."""
        try:
            frontend: Any = parser.parser
            tables: Any = frontend.parser.parser
            connector: Any = frontend.lexer
            contextual: Any = connector.lexer
            indenter: Any = connector.postlexer
            start = parser.options.start[0]
            self._start: int = tables.parse_table.start_states[start]
            self._end: int = tables.parse_table.end_states[start]
            states = tables.parse_table.states
            callbacks = tables.callbacks
            lexers = contextual.lexers
        except (AttributeError, KeyError, IndexError, TypeError) as err:
            raise Unsupported(f"an unfamiliar Lark layout ({err})") from err
        if any(isinstance(key, str) for key in callbacks):
            raise Unsupported("terminal callbacks")
        self._indenter(indenter)
        rules = frozenset(rule.origin.name for rule in callbacks)
        if reduce_for is not None:
            callbacks = {rule: reduce_for(rule) for rule in callbacks}
        self._table = {state: self._actions(row, callbacks, rules) for state, row in states.items()}
        if self._table[self._end]:
            raise Unsupported("actions in the end state")
        self._table[self._end] = {"$END": self._end}  # accept: shift the end of input in place
        self._scans = _Scans(lexers)
        self._spaces, self._space = _spaces(lexers)
        self._chains: dict[tuple[int, int, str], int] = {}  # see `_units`

    def _indenter(self, indenter: Any) -> None:
        if not isinstance(indenter, Indenter) or any(
                getattr(type(indenter), name) is not getattr(Indenter, name)
                for name in ("process", "_process", "handle_NL")):
            raise Unsupported("a post-lexer other than Lark's Indenter")
        self._nl: str = indenter.NL_type
        self._opens = frozenset(indenter.OPEN_PAREN_types)
        self._closes = frozenset(indenter.CLOSE_PAREN_types)
        self._indent: str = indenter.INDENT_type
        self._dedent: str = indenter.DEDENT_type
        self._tab: int = indenter.tab_len

    def _actions(self, row: dict[str, tuple[Any, Any]], callbacks: dict[Rule, Reduce],
                 rules: frozenset[str]) -> dict[str, Action]:
        """A state's actions and gotos; a token's shift into the end state (which Lark refuses)
        is left out."""
        actions: dict[str, Action] = {}
        for symbol, (kind, arg) in row.items():
            if kind is Shift:
                if symbol in rules or arg != self._end:
                    actions[symbol] = arg
            elif callbacks[arg] is pass_through and len(arg.expansion) == 1:
                actions[symbol] = str(arg.origin.name)  # a plain str (Lark may hold a Token)
            else:
                actions[symbol] = (len(arg.expansion), callbacks[arg], arg.origin.name)
        return actions

    def parse(self, text: str) -> Any:
        """The tree Lark would build for `text`, or `GiveUp`."""
        table, scans, nl, chains = self._table, self._scans, self._nl, self._chains
        spaces, space = self._spaces, self._space
        opens, closes = self._opens, self._closes
        states = [self._start]
        values: list[Any] = []

        def feed(token: Token | None, kind: str) -> None:
            while True:
                action = table[states[-1]].get(kind)
                if type(action) is str:  # the value stays; the state moves past its one symbol
                    key = (states[-2], states[-1], kind)
                    top = chains.get(key)
                    if top is None:
                        top = self._units(key)
                    states[-1] = top
                    action = table[top].get(kind)
                if type(action) is int:
                    states.append(action)
                    values.append(token)
                    return
                if action is None:
                    raise GiveUp
                reduction: Reduction = action  # type: ignore[assignment]  # (type() is does not narrow)
                size, reduce, origin = reduction
                if size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                else:
                    children = []
                values.append(reduce(children))
                states.append(table[states[-1]][origin])  # type: ignore[arg-type]  # a goto

        pos, line, line_start, end = 0, 1, 0, len(text)
        parens = 0
        indents = [0]
        last: Token | None = None
        while pos < end:
            patterns, ignore, newlines, keywords = scans[states[-1]]
            for pattern in patterns:
                match = pattern.match(text, pos)
                if match:
                    break
            else:
                raise GiveUp
            value = match.group()
            kind: str = match.lastgroup  # type: ignore[assignment]  # every group is named
            start, first_line, column = pos, line, pos - line_start + 1
            pos = match.end()
            if kind in newlines:
                breaks = value.count("\n")
                if breaks:
                    line += breaks
                    line_start = start + value.rindex("\n") + 1
            if kind in ignore:
                continue
            if kind in keywords:
                kind = keywords[kind].get(value, kind)
            token = last = _new_token(Token, value)
            token.type, token.value, token.start_pos = kind, value, start
            token.line, token.column = first_line, column
            token.end_line, token.end_column, token.end_pos = line, pos - line_start + 1, pos
            while pos < end and text[pos] in spaces:  # what every scanner would match next and drop
                after = space.match(text, pos)  # type: ignore[union-attr]  # (spaces is empty without it)
                if after is None:
                    break
                pos = after.end()
            if kind == nl:
                if not parens:
                    feed(token, kind)
                    self._indentation(token, indents, feed)
                continue
            feed(token, kind)
            if kind in opens:
                parens += 1
            elif kind in closes:
                parens -= 1
                if parens < 0:
                    raise GiveUp
        while len(indents) > 1:  # blocks still open at the end close on the last token read
            if last is None:
                raise GiveUp
            indents.pop()
            feed(_borrowing(self._dedent, "", last), self._dedent)
        feed(None, "$END")
        if states[-2:] != [self._end, self._end]:
            raise GiveUp  # the end of input was shifted short of the start rule (Lark refuses it)
        return values[-2]

    def _units(self, key: tuple[int, int, str]) -> int:
        """The state a run of one-child reductions leads to (each moves the top state alone)
        before the token is shifted or reduced otherwise. It depends only on the state below,
        the top and the token's kind (`key`), so it is worked out once and kept in `_chains`:
        an expression's atom climbs eight or nine levels of precedence this way."""
        below, top, kind = key
        table = self._table
        action = table[top].get(kind)
        while type(action) is str:
            top = cast(int, table[below][action])  # a goto
            action = table[top].get(kind)
        self._chains[key] = top
        return top

    def _indentation(self, newline: Token, indents: list[int], feed: Callable[[Token, str], None]) -> None:
        """The indent or dedents a line break opens onto, as Lark's `Indenter` gives them."""
        if "\n" not in newline:
            raise GiveUp
        spaces = newline.rsplit("\n", 1)[1]
        width = spaces.count(" ") + spaces.count("\t") * self._tab
        if width > indents[-1]:
            indents.append(width)
            feed(_borrowing(self._indent, spaces, newline), self._indent)
            return
        while width < indents[-1]:
            indents.pop()
            feed(_borrowing(self._dedent, spaces, newline), self._dedent)
        if width != indents[-1]:
            raise GiveUp


def _borrowing(kind: str, value: str, where: Token) -> Token:
    """What `Token.new_borrow_pos` makes (a token placed where another is), without its two
    calls: indentation makes several tokens a line."""
    token = _new_token(Token, value)
    token.type, token.value = kind, value
    token.start_pos, token.line, token.column = where.start_pos, where.line, where.column
    token.end_line, token.end_column, token.end_pos = where.end_line, where.end_column, where.end_pos
    return token


class _Scans(dict[int, Scan]):
    """Each parser state's scanner, made when the state first reads a token: compiling the
    scanners' expressions is most of the driver's set-up, and a small file meets few states.
    States that share a Lark lexer share one scanner."""

    def __init__(self, lexers: dict[int, Any]) -> None:
        super().__init__()
        self._lexers = lexers
        self._made: dict[int, Scan] = {}

    def __missing__(self, state: int) -> Scan:
        lexer = self._lexers[state]
        scan = self._made.get(id(lexer))
        if scan is None:
            try:
                scan = _scan(lexer)
            except Unsupported as err:  # this state's lexing is Lark's to do
                raise GiveUp from err
            self._made[id(lexer)] = scan
        self[state] = scan
        return scan


def _scan(lexer: Any) -> Scan:
    """A state's scanner; keyword retyping (Lark's `UnlessCallback`) becomes a lookup."""
    try:
        scanner = lexer.scanner  # built on first use
        patterns, callbacks = tuple(scanner._mres), lexer.callback
        ignore, newlines = lexer.ignore_types, lexer.newline_types
    except AttributeError as err:  # a Lark whose lexers are laid out otherwise
        raise Unsupported(f"an unfamiliar Lark lexer ({err})") from err
    if callbacks.keys() & ignore:
        raise Unsupported("a callback on an ignored terminal")
    keywords: dict[str, dict[str, str]] = {}
    for name, callback in callbacks.items():
        if type(callback) is not UnlessCallback:
            raise Unsupported(f"a lexer callback on {name}")
        words: dict[str, str] = {}
        for terminal in callback.scanner.terminals:
            pattern = terminal.pattern
            if type(pattern) is not PatternStr or pattern.flags:
                raise Unsupported(f"keyword {terminal.name} is not a plain string")
            words.setdefault(pattern.value, terminal.name)
        keywords[name] = words
    return patterns, ignore, newlines, keywords


def _spaces(lexers: dict[int, Any]) -> tuple[frozenset[str], re.Pattern[str] | None]:
    """The ignored terminals (spaces, say) the loop may take right after a token, as the
    characters they start with and one expression for them; none (an empty set) unless it is
    sure that wherever such a terminal matches, every state's scanner would match it next and
    drop it: it is ignored in every state, holds no line break, cannot match empty, starts
    with one of a short list of characters, and no other terminal of any state may start with
    one of those (`first_chars`). About a third of a declaration's scans were the spaces
    between its words, each a turn of the loop through a state's whole list of terminals."""
    states = list({id(lexer): lexer for lexer in lexers.values()}.values())
    try:
        patterns = {t.name: t.pattern for lexer in states for t in lexer.terminals}
        terminals = {name: pattern.to_regexp() for name, pattern in patterns.items()}
        ignored = frozenset.intersection(*(frozenset(lexer.ignore_types) for lexer in states))
        newlines = frozenset().union(*(lexer.newline_types for lexer in states))
        flags = {lexer.g_regex_flags for lexer in states}
    except (AttributeError, TypeError):  # a Lark whose lexers are laid out otherwise
        return frozenset(), None
    if len(flags) != 1:
        return frozenset(), None
    (flag,) = flags
    taken: dict[str, str] = {}
    starts: frozenset[str] = frozenset()
    for name, expression in terminals.items():
        chars = first_chars(expression, flag) if name in ignored and name not in newlines else None
        if chars is None:
            continue
        if chars & starts:  # two that could match at one place: which comes first would matter
            return frozenset(), None
        taken[name] = expression
        starts |= chars
    if not taken or any(_may_start(patterns[name], terminals[name], starts, flag)
                        for name in terminals if name not in taken):
        return frozenset(), None
    return starts, re.compile("|".join(f"(?:{expression})" for expression in taken.values()), flag)


def _may_start(pattern: Any, expression: str, chars: frozenset[str], flags: int) -> bool:
    """Whether a terminal may start with one of `chars` (a plain word is read at once)."""
    if type(pattern) is PatternStr and not pattern.flags and not flags & re.IGNORECASE:
        return pattern.value[:1] in chars or not pattern.value
    return may_start(expression, chars, flags)
