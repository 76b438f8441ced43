"""Formatter: one canonical layout of the language (`cardsmith fmt`; editors call `format_text`).

It works from the tokens the parser itself reads, never from patterns over raw lines. Each
top-level declaration is parsed on its own, as `parse.py` parses it, with a recorder between
the lexer and the indenter; strings, numbers, pairs, ranges, names and ids are those tokens'
text, byte for byte. The grammar folds comments and blank lines into its newline tokens, so
they are read from those tokens' raw text, where they stand in the source.

The stages, one concern each:

- `_read_declaration`: a declaration's text → its tokens as the lexer gave them (with the
  places of the unary minus signs, from the parse tree);
- `_Layout`: those tokens → `Line`s: code with canonical spacing and indentation, trailing
  comments, full-line comments at the level of the block they sit in, blank lines;
- `_compose`: the declarations' lines → the file, with the rules for blank lines;
- `format_text`: parse, lay out, parse the result again and refuse it unless it means exactly
  what the original meant (the syntax models, spans aside, are equal).

The layout: 4 spaces per block level; one space after commas and value colons, around binary
operators, `=` and keywords; none inside brackets, before `( [` of a call or an index, around
`.`, or after a unary minus; a trailing comment two spaces after the code, written `# …`; a
line broken inside brackets (or after `\\`) is kept and indented one level deeper than its
statement per bracket still open; no trailing whitespace; no blank line at the start of a
block, at most one anywhere; top-level declarations one blank line apart, except one-line
declarations the author wrote together (`zone`, `character` lists), which stay together;
comments above a declaration stay with it; one newline at the end of the file. A file's line
ending (LF, or CRLF when its first line ends so) and byte order mark are kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Any

from lark import Token
from lark.exceptions import LarkError
from lark.indenter import DedentError
from lark.lexer import LexerThread
from lark.parser_frontends import PostLexConnector

from .diagnostics import Diagnostic
from .parse import _Indenter, parser, split_items
from .parse_cache import parse_file
from .span import Span

INDENT = "    "
BOM = "\ufeff"
_OPENERS = frozenset("([")
_CLOSERS = frozenset(")]")
_NO_SPACE_BEFORE = frozenset([")", "]", ",", ":", "."])
_NO_SPACE_AFTER = frozenset(["(", "[", "."])
# tokens after which `(` or `[` is a call or an index: the end of an operand
_OPERAND_TYPES = frozenset(["NAME", "INT", "NEGINT", "STRING", "PAIR", "LPAIR", "DELTA", "NUMPATH",
                            "DOTRANGE", "ANGLE"])
_OPERAND_WORDS = frozenset(["true", "false", "none", ")", "]"])


class FormatError(Exception):
    """The text cannot be formatted: it does not parse (`diagnostics` says where), or the
    layout would change what it means (a formatter bug: the text is left as it is)."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.diagnostics: list[Diagnostic] = list(diagnostics or [])


class Kind(Enum):
    """What a laid-out line holds."""

    CODE = "code"
    COMMENT = "comment"
    BLANK = "blank"


@dataclass(frozen=True)
class Line:
    """One output line: its kind, block level (4 spaces each) and text without indentation.
    `opens`: a code line after which a deeper block starts."""

    kind: Kind
    level: int = 0
    text: str = ""
    opens: bool = False

    def render(self) -> str:
        return INDENT * self.level + self.text if self.text else ""


@dataclass(frozen=True)
class Unit:
    """A top-level declaration's lines (`body`) with the comments and blank lines above it
    (`lead`); comments at the end of a file form a unit without a body."""

    lead: tuple[Line, ...]
    body: tuple[Line, ...]


# ---- the public entry point ------------------------------------------------------------


def format_text(text: str, path: str = "<text>") -> str:
    """The canonical layout of a source text. Raises `FormatError` (with the located
    diagnostics) when the text does not parse, or when the layout would change its meaning."""
    before, diags = parse_file(path, text, None)  # remembered in this process, like a build's
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise FormatError(f"{path} does not parse", errors)
    result = _compose(_units(text.removeprefix(BOM)))
    first = text.split("\n", 1)[0]
    if first.endswith("\r") and "\n" in text:  # the file's own line ending is kept
        result = result.replace("\n", "\r\n")
    if text.startswith(BOM):  # and its byte order mark
        result = BOM + result
    if result != text:
        after, diags_after = parse_file(path, result, None)
        if any(d.severity == "error" for d in diags_after) or _meaning(after.items) != _meaning(before.items):
            raise FormatError(f"{path}: formatting would change what the file means (a formatter bug); "
                              "it was left as it is")
    return result


def _meaning(value: object) -> object:
    """A syntax model without its spans: what a file says, not where it says it."""
    if isinstance(value, Span):
        return None
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple(_meaning(getattr(value, f.name)) for f in fields(value)))
    if isinstance(value, tuple | list):
        return tuple(_meaning(v) for v in value)
    return value


# ---- reading a declaration's tokens --------------------------------------------------------


class _Recorder(_Indenter):
    """The parser's own indenter, keeping every token the lexer hands it (newline tokens
    inside brackets too, which the indenter drops)."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens: list[Token] = []

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return super().process(self._keep(stream))

    def _keep(self, stream: Iterator[Token]) -> Iterator[Token]:
        for token in stream:
            self.tokens.append(token)
            yield token


def _read_declaration(chunk: str) -> tuple[list[Token], frozenset[int]]:
    """A declaration's tokens as the parser's contextual lexer read them, and the offsets of
    the minus signs that are unary (a `neg` in the tree; every other `-` is binary)."""
    frontend: Any = parser().parser
    recorder = _Recorder()
    lexer: Any = PostLexConnector(frontend.lexer.lexer, recorder)
    thread = LexerThread.from_text(lexer, chunk)
    try:
        tree = frontend.parser.parse(thread, "start")
    except (LarkError, DedentError) as err:  # the file parsed: this cannot happen
        raise FormatError(f"the formatter cannot read a declaration: {str(err).splitlines()[0]}") from err
    unary = frozenset(t.meta.start_pos for t in tree.iter_subtrees() if t.data == "neg")
    return recorder.tokens, unary


# ---- laying out one declaration -----------------------------------------------------------


def _comment(raw: str) -> str:
    """A comment as written out: `# text` (a space after `#` unless the text starts with one,
    or with `#` or `!`), trailing whitespace dropped."""
    body = raw.rstrip()
    rest = body[1:]
    if rest and not rest[0].isspace() and rest[0] not in "#!":
        return "# " + rest
    return body


def _width(indentation: str) -> int:
    """An indentation's width as the indenter counts it (a tab is four)."""
    return indentation.count(" ") + indentation.count("\t") * _Indenter.tab_len


class _Layout:
    """One declaration's tokens → lines. Tracks the block depth as the indenter does (a stack
    of widths), brackets open, and the statement line being written."""

    def __init__(self, chunk: str, unary: frozenset[int]) -> None:
        self.chunk = chunk
        self.unary = unary
        self.lines: list[Line] = []
        self.widths = [0]  # the indenter's stack: the width of each open block
        self.brackets = 0  # brackets open at this point of the statement
        self.parts: list[str] = []  # the line being written
        self.prev: Token | None = None  # the token before, on this line
        self.continued = False  # the line continues a statement (inside brackets, after `\`)
        self.open_at_start = 0  # brackets open where the line started
        self.closers = 0  # closing brackets the line starts with
        self.leading = True  # the line holds only closing brackets so far

    @property
    def depth(self) -> int:
        return len(self.widths) - 1

    def run(self, tokens: list[Token]) -> list[Line]:
        end = 0
        for token in tokens:
            joined = "\n" in self.chunk[end:token.start_pos]  # a `\` line continuation
            if token.type == "_NL":
                self.newline(token.value)
            else:
                if joined and self.parts:
                    self.parts.append(" \\")
                    self.finish(None, self.depth)
                    self.start_continuation()
                self.add(token)
            end = token.end_pos if token.end_pos is not None else end
        if self.parts:
            self.finish(None, self.depth)
        return self.lines

    def add(self, token: Token) -> None:
        if not self.parts:
            self.closers, self.leading = 0, True
        if self.leading and token.value in _CLOSERS:
            self.closers += 1
        else:
            self.leading = False
        self.parts.append((self.space(token) if self.parts else "") + token.value)
        if token.value in _OPENERS:
            self.brackets += 1
        elif token.value in _CLOSERS:
            self.brackets -= 1
        self.prev = token

    def space(self, token: Token) -> str:
        """What goes between the previous token on the line and this one."""
        prev = self.prev
        assert prev is not None
        if token.value in _NO_SPACE_BEFORE or prev.value in _NO_SPACE_AFTER:
            return ""
        if prev.value == "-" and prev.start_pos in self.unary:
            return ""
        if token.value in _OPENERS and (prev.type in _OPERAND_TYPES or prev.value in _OPERAND_WORDS):
            return ""
        return " "

    def newline(self, value: str) -> None:
        """A newline token: the end of this line (with its trailing comment), then the
        comment and blank lines it holds, then the next line's indentation."""
        segments = [part.rstrip("\r") for part in value.split("\n")]
        trailing = segments[0] if segments[0].startswith("#") else None
        between = segments[1:-1]
        if self.brackets:
            level = self.depth + max(1, self.brackets)
            self.finish(trailing, self.depth)
            for part in between:
                if part.strip():
                    self.lines.append(Line(Kind.COMMENT, level, _comment(part.strip())))
            self.start_continuation()
            return
        width = _width(segments[-1])
        old = list(self.widths)
        if width > self.widths[-1]:
            self.widths.append(width)
        while width < self.widths[-1]:
            self.widths.pop()
        low, high = self.depth, max(self.depth, len(old) - 1)
        self.finish(trailing, len(old) - 1, opens=self.depth > len(old) - 1)
        for part in between:
            stripped = part.strip()
            if not stripped:
                self.lines.append(Line(Kind.BLANK))
                continue
            column = _width(part[:len(part) - len(part.lstrip())])
            by_column = max(i for i, w in enumerate(old) if w <= column)
            self.lines.append(Line(Kind.COMMENT, min(max(by_column, low), high), _comment(stripped)))
        self.continued = False

    def finish(self, comment: str | None, depth: int, opens: bool = False) -> None:
        """Write out the line so far (a newline token with nothing before it writes nothing)."""
        if not self.parts:
            return
        text = "".join(self.parts)
        if comment is not None:
            text += "  " + _comment(comment)
        level = depth + max(1, self.open_at_start - self.closers) if self.continued else depth
        self.lines.append(Line(Kind.CODE, level, text, opens))
        self.parts = []
        self.prev = None

    def start_continuation(self) -> None:
        self.continued = True
        self.open_at_start = self.brackets


# ---- the file ---------------------------------------------------------------------------


def _units(text: str) -> list[Unit]:
    """A file's declarations, each with the comments above it."""
    units: list[Unit] = []
    lead: list[Line] = []
    for chunk in _declarations(text):
        if not _has_code(chunk):  # comments before the first declaration
            lead += _comment_lines(chunk)
            continue
        tokens, unary = _read_declaration(chunk)
        lines = _Layout(chunk, unary).run(tokens)
        cut = max(i for i, line in enumerate(lines) if line.kind is Kind.CODE or line.level > 0) + 1
        units.append(Unit(tuple(lead), tuple(lines[:cut])))
        lead = lines[cut:]
    if any(line.kind is Kind.COMMENT for line in lead):
        units.append(Unit(tuple(lead), ()))
    return units


def _declarations(text: str) -> Iterator[str]:
    """The file cut where `parse.py` cuts it (`split_items`), each piece with every line up to
    the next, blank lines at its end included."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the end of the last line, not a line
    starts = [start for start, _ in split_items(text)] + [len(lines) + 1]
    for start, end in zip(starts, starts[1:], strict=False):
        yield "\n".join(lines[start - 1:end - 1]) + "\n"


def _has_code(chunk: str) -> bool:
    return any(line.strip() and not line.strip().startswith("#") for line in chunk.split("\n"))


def _comment_lines(chunk: str) -> list[Line]:
    return [Line(Kind.COMMENT, 0, _comment(line.strip())) if line.strip() else Line(Kind.BLANK)
            for line in chunk.removesuffix("\n").split("\n")]


def _compose(units: list[Unit]) -> str:
    """The file: each unit after one blank line (none between one-line declarations the
    author wrote together), its comments, then its lines."""
    out: list[str] = []
    before: Unit | None = None
    for unit in units:
        lead = list(unit.lead)
        apart = bool(lead) and lead[0].kind is Kind.BLANK
        while lead and lead[0].kind is Kind.BLANK:
            lead.pop(0)
        if before is not None and (apart or len(before.body) > 1 or len(unit.body) > 1):
            out.append("")
        out += _block(lead + list(unit.body))
        before = unit
    return "\n".join(out) + "\n" if out else ""


def _block(lines: list[Line]) -> list[str]:
    """Lines written out: runs of blank lines become one, none at the start of a block or at
    the end."""
    out: list[str] = []
    blank = False
    opened = False
    for line in lines:
        if line.kind is Kind.BLANK:
            blank = bool(out) and not opened
            continue
        if blank:
            out.append("")
        out.append(line.render())
        blank = False
        opened = line.kind is Kind.CODE and line.opens
    return out
