"""Parse stage: source text → syntax model, with per-declaration error recovery.

A file is cut into top-level declarations (each starts at column 0). Each one is parsed
by the LALR parser on its own, so a broken card yields a diagnostic and the rest of the
file is still read.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import marshal
import re
import sys
from functools import lru_cache
from importlib import resources
from typing import Any

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.grammar import Rule
from lark.indenter import DedentError, Indenter
from lark.lexer import TerminalDef

from ..runtime.limits import MAX_NUMBER
from . import syntax as s
from .cache import open_cache
from .diagnostics import Diagnostic

log = logging.getLogger("cardsmith.cache")

MAX_FILE_BYTES = 4_000_000
MAX_BRACKETS = 32      # ( and [ open at once
MAX_BLOCKS = 24        # indented blocks inside one declaration
MAX_EXPR_DEPTH = 48    # operators and calls inside one another (a chain `a + b + c` counts 2)

FULLWIDTH = {
    "：": ":", "，": ",", "（": "(", "）": ")", "＝": "=", "＋": "+", "－": "-", "＜": "<",
    "＞": ">", "　": "a space", "“": '"', "”": '"', "；": ";", "．": ".", "／": "/",
}

TOKEN_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COLON": '":"',
    "LPAR": '"("', "RPAR": '")"', "COMMA": '","', "EQUAL": '"="', "$END": "end of input",
}


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_text() -> str:
    """The bundled grammar source."""
    return resources.files("cardsmith.grammar").joinpath("cardsmith.lark").read_text("utf-8")


@lru_cache(maxsize=1)
def parser(strict: bool = False) -> Lark:
    """The LALR parser, built once per process. Its tables are kept in the verified
    per-user cache (`cache.py`), never in a shared folder."""
    if strict:
        return _build_parser(strict=True)
    cache = open_cache()
    key = hashlib.sha256(b"\0".join([importlib.util.MAGIC_NUMBER, sys.version.encode(),
                                      lark.__version__.encode(), grammar_text().encode()]))
    entry = f"grammar-{key.hexdigest()}.bin"
    if cache is not None:
        payload = cache.read(entry)
        if payload is not None:
            try:
                return Lark.__new__(Lark)._load(marshal.loads(payload), postlex=_Indenter())
            except Exception as err:  # noqa: BLE001 - a bad entry is rebuilt, never fatal
                log.warning("cache entry %s skipped and rebuilt: %s", entry, type(err).__name__)
    built = _build_parser(strict=False)
    if cache is not None:
        data, memo = built.memo_serialize([TerminalDef, Rule])
        data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
        cache.write(entry, marshal.dumps({"data": data, "memo": memo}))
    return built


def _build_parser(strict: bool) -> Lark:
    return Lark(grammar_text(), parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=False, strict=strict)


_TOP = re.compile(r"^[^\s#]")
# what the pre-scan looks at: strings and comments (skipped), brackets, numbers, line starts
_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[(\[]|[)\]]|(?<!\w)[0-9]+|\n[ \t]*')
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def split_items(text: str) -> list[tuple[int, str]]:
    """Cut a file into (first line number, text) chunks, one per top-level declaration."""
    chunks: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if _TOP.match(line) or not chunks:
            chunks.append((number, [line]))
        else:
            chunks[-1][1].append(line)
    result = []
    for start, chunk in chunks:
        body = "\n".join(chunk)
        if body.strip():
            result.append((start, body if body.endswith("\n") else body + "\n"))
    return result


def parse_source(path: str, text: str) -> tuple[s.SourceFile, list[Diagnostic]]:
    """Parse one file, returning its syntax model and every syntax diagnostic found."""
    diags: list[Diagnostic] = []
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        diags.append(Diagnostic("E004", f"file is larger than {MAX_FILE_BYTES} bytes",
                                s.Span(path, 1, 1, 1, 2), hint="split the library into several files"))
        return s.SourceFile(path, text, ()), diags
    text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark is accepted and ignored
    diags.extend(_bidi_warnings(path, text))
    items: list[s.Decl] = []
    for start, chunk in split_items(text):
        if chunk.lstrip().startswith("#") and not _has_code(chunk):
            continue
        problem = _prescan(path, start, chunk)
        if problem:
            diags.append(problem)
            continue
        try:
            tree = parser().parse(chunk)
            built = _Builder(path, start - 1).transform(tree)
            items.extend(built)
        except UnexpectedInput as err:
            diags.append(_syntax_diagnostic(path, start - 1, chunk, err))
        except DedentError as err:
            diags.append(Diagnostic("E003", "inconsistent indentation", _first_span(path, start, chunk),
                                    hint=str(err).split("\n")[0]))
        except _BuildError as err:
            diags.append(err.diagnostic)
        except VisitError as err:
            inner = err.orig_exc
            if isinstance(inner, _BuildError):
                diags.append(inner.diagnostic)
            elif isinstance(inner, RecursionError):
                diags.append(Diagnostic("E004", "declaration is nested too deeply",
                                        _first_span(path, start, chunk)))
            else:
                raise
        except RecursionError:
            diags.append(Diagnostic("E004", "declaration is nested too deeply",
                                    _first_span(path, start, chunk)))
        except LarkError as err:  # any other parser failure is still a located diagnostic
            diags.append(Diagnostic("E001", f"cannot parse this declaration: {str(err).splitlines()[0]}",
                                    _first_span(path, start, chunk)))
    return s.SourceFile(path, text, tuple(items)), diags


def _bidi_warnings(path: str, text: str) -> list[Diagnostic]:
    """W204 for each bidirectional control character: it can make code read differently
    from how it runs (the "Trojan Source" attack)."""
    found = []
    for match in BIDI_CONTROLS.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
        found.append(Diagnostic(
            "W204", f"bidirectional control character U+{ord(match.group()):04X}",
            s.Span(path, line, col, line, col + 1), severity="warning",
            hint="it can make the source read differently from how it runs; remove it"))
    return found


def _has_code(chunk: str) -> bool:
    return any(line.strip() and not line.strip().startswith("#") for line in chunk.split("\n"))


def _first_span(path: str, start: int, chunk: str) -> s.Span:
    first = chunk.split("\n", 1)[0]
    return s.Span(path, start, 1, start, max(len(first), 1) + 1)


def _prescan(path: str, start: int, chunk: str) -> Diagnostic | None:
    """Limits checked before parsing: bracket nesting, block nesting (indentation levels,
    however wide) and the size of written numbers. Strings and comments are skipped."""
    brackets = 0
    levels = [0]
    line = start
    line_start = 0
    for match in _SCAN.finditer(chunk):
        token = match.group()
        first = token[0]
        if first == "\n":
            line += 1
            line_start = match.start() + 1
            rest = chunk[match.end():match.end() + 1]
            if brackets or rest in ("", "\n", "\r", "#"):
                continue  # inside brackets, or a blank or comment line: no block change
            width = token.count(" ") + token.count("\t") * _Indenter.tab_len
            while width < levels[-1]:
                levels.pop()
            if width > levels[-1]:
                levels.append(width)
                if len(levels) - 1 > MAX_BLOCKS:
                    return _limit(path, line, 1, f"blocks nested deeper than {MAX_BLOCKS} levels",
                                  "move the inner part into a procedure")
        elif first in "([":
            brackets += 1
            if brackets > MAX_BRACKETS:
                col = match.start() - line_start + 1
                return _limit(path, line, col, f"brackets nested deeper than {MAX_BRACKETS} levels",
                              "flatten the expression with `let` variables")
        elif first in ")]":
            brackets = max(brackets - 1, 0)
        elif first.isdigit() and (len(token) > len(str(MAX_NUMBER)) or int(token) > MAX_NUMBER):
            col = match.start() - line_start + 1
            return Diagnostic("E104", f"number larger than {MAX_NUMBER:,}", s.Span(
                path, line, col, line, col + len(token)), hint="numbers in rules are small")
    return None


def _limit(path: str, line: int, col: int, message: str, hint: str) -> Diagnostic:
    return Diagnostic("E004", message, s.Span(path, line, col, line, col + 1), hint=hint)


def _syntax_diagnostic(path: str, offset: int, chunk: str, err: UnexpectedInput) -> Diagnostic:
    line = (err.line if isinstance(err.line, int) and err.line > 0 else 1)
    col = (err.column if isinstance(err.column, int) and err.column > 0 else 1)
    lines = chunk.split("\n")
    text_line = lines[line - 1] if 0 < line <= len(lines) else ""
    span = s.Span(path, line + offset, col, line + offset, col + 1)
    if isinstance(err, UnexpectedCharacters):
        ch = text_line[col - 1] if 0 < col <= len(text_line) else "?"
        if ch in FULLWIDTH:
            return Diagnostic("E002", f"full-width character {ch!r} outside a string", span,
                              hint=f"write {FULLWIDTH[ch]} instead: punctuation is ASCII")
        return Diagnostic("E002", f"unexpected character {ch!r}", span,
                          hint="names are letters/digits/_, strings are in double quotes")
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END" or isinstance(err, UnexpectedEOF):
            what = "end of input"
        elif tok.type == "_DEDENT":
            what = "end of block"
        elif tok.type == "_INDENT":
            what = "an indented block"
        elif tok.type == "_NL":
            what = "end of line"
        else:
            what = repr(str(tok))
            if isinstance(tok.line, int) and isinstance(tok.column, int):
                end = tok.end_column if isinstance(tok.end_column, int) else tok.column + 1
                span = s.Span(path, tok.line + offset, tok.column, tok.line + offset, end)
        expected = sorted(_describe(t) for t in (err.expected or set()))
        hint = "expected " + ", ".join(expected[:8]) + (" …" if len(expected) > 8 else "")
        return Diagnostic("E001", f"unexpected {what}", span, hint=hint)
    return Diagnostic("E001", "unexpected end of input", span)


def _describe(terminal: str) -> str:
    if terminal in TOKEN_WORDS:
        return TOKEN_WORDS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
        if pattern.type == "str":
            return f'"{pattern.value}"'
    except (KeyError, AttributeError):
        pass
    return terminal.lower()


class _BuildError(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _side(text: str) -> int | None:
    return None if text == "-" else int(text)


# Lark rules that nest an expression one level deeper in the syntax model (and in the
# generated Python); `sum` and `product` add one level per operator.
_EXPR_RULES = frozenset({"or_expr", "and_expr", "not_op", "compare", "neg", "attr", "call",
                         "index", "list_lit"})
_CHAIN_RULES = frozenset({"sum", "product"})


@v_args(meta=True)
class _Builder(Transformer[Token, Any]):
    """Turns the Lark tree into syntax-model dataclasses."""

    def __init__(self, path: str, line_offset: int) -> None:
        super().__init__()
        self.path = path
        self.offset = line_offset
        self.depth = 0

    def _transform_tree(self, tree: Tree[Any]) -> Any:
        """Build bottom-up, refusing expressions nested deeper than MAX_EXPR_DEPTH, so later
        stages (and the generated Python) never meet a tree too deep for them."""
        extra = (len(tree.children) // 2 if tree.data in _CHAIN_RULES
                 else 1 if tree.data in _EXPR_RULES else 0)
        self.depth += extra
        try:
            if self.depth > MAX_EXPR_DEPTH:
                raise _BuildError(Diagnostic(
                    "E004", f"expression nested deeper than {MAX_EXPR_DEPTH} levels", self._span(tree.meta),
                    hint="split it with `let` variables"))
            return super()._transform_tree(tree)
        finally:
            self.depth -= extra

    # -- helpers --
    def _span(self, meta: Any) -> s.Span:
        if getattr(meta, "empty", True):
            return s.Span(self.path, self.offset + 1, 1, self.offset + 1, 1)
        return s.Span(self.path, meta.line + self.offset, meta.column,
                      meta.end_line + self.offset, meta.end_column)

    def _tok_span(self, tok: Token) -> s.Span:
        return s.Span(self.path, (tok.line or 1) + self.offset, tok.column or 1,
                      (tok.end_line or tok.line or 1) + self.offset,
                      tok.end_column or (tok.column or 1) + len(tok))

    def _atom(self, tok: Any) -> s.Atom:
        if isinstance(tok, Tree):  # `optional` and similar keyword rules
            tok = tok.children[0]
        kind = {"NAME": "name", "INT": "int", "STRING": "str", "PAIR": "pair", "LPAIR": "pair",
                "DELTA": "delta", "NUMPATH": "path", "DOTRANGE": "dotrange",
                "NEGINT": "int"}.get(tok.type, "name")
        text = _unquote(str(tok)) if tok.type == "STRING" else str(tok)
        return s.Atom(kind, text, self._tok_span(tok))

    # -- top level --
    def start(self, meta: Any, children: list[Any]) -> list[s.Decl]:
        return children

    def use_decl(self, meta: Any, ch: list[Any]) -> s.Use:
        return s.Use(str(ch[0]), self._span(meta))

    def _simple(self, what: str, meta: Any, ch: list[Any]) -> s.Simple:
        name, labels = ch[0], ch[1]
        opts = tuple(ch[2]) if len(ch) > 2 else ()
        return s.Simple(what, str(name), labels, opts, self._span(meta), self._tok_span(name))

    def character_decl(self, meta: Any, ch: list[Any]) -> s.Simple:
        return self._simple("character", meta, ch)

    def token_decl(self, meta: Any, ch: list[Any]) -> s.Simple:
        return self._simple("token", meta, ch)

    def zone_decl(self, meta: Any, ch: list[Any]) -> s.Simple:
        return self._simple("zone", meta, ch)

    def counter_decl(self, meta: Any, ch: list[Any]) -> s.Simple:
        return self._simple(str(ch[0]), meta, ch[1:])

    def counter_kw(self, meta: Any, ch: list[Any]) -> str:
        return str(ch[0])

    def field_decl(self, meta: Any, ch: list[Any]) -> s.Simple:
        return self._simple("field", meta, ch)

    def kind_decl(self, meta: Any, ch: list[Any]) -> s.Simple:
        return self._simple("kind", meta, ch)

    def value_decl(self, meta: Any, ch: list[Any]) -> s.Value:
        return s.Value(str(ch[0]), ch[1], ch[2], ch[3], self._span(meta))

    def event_decl(self, meta: Any, ch: list[Any]) -> s.Event:
        return s.Event(str(ch[0]), ch[1], ch[2], self._span(meta))

    def timing_decl(self, meta: Any, ch: list[Any]) -> s.Timing:
        opts = tuple(ch[3]) if len(ch) > 3 else ()
        return s.Timing(str(ch[0]), ch[1], ch[2], opts, self._span(meta))

    def keyword_decl(self, meta: Any, ch: list[Any]) -> s.Keyword:
        return s.Keyword(str(ch[0]), ch[1], ch[2] if len(ch) > 2 else None, self._span(meta))

    def procedure_decl(self, meta: Any, ch: list[Any]) -> s.Procedure:
        name, params, labels, body = ch
        if body and isinstance(body[0], s.Step):
            steps = tuple(body)
        else:
            steps = (s.Step("", s.Labels(), tuple(body), self._span(meta)),)
        return s.Procedure(str(name), params, labels, steps, self._span(meta))

    def proc_body(self, meta: Any, ch: list[Any]) -> list[Any]:
        return ch

    def step(self, meta: Any, ch: list[Any]) -> s.Step:
        return s.Step(str(ch[0]), ch[1], ch[2], self._span(meta))

    def step_id(self, meta: Any, ch: list[Any]) -> Token:
        return ch[0]  # kept as a token so replacements can point at it

    def trigger_decl(self, meta: Any, ch: list[Any]) -> s.Trigger:
        name, params = ch[0], ch[1]
        cond = ch[2] if len(ch) == 5 else None
        return s.Trigger(str(name), params, cond, ch[-1], self._span(meta), ch[-2], self._tok_span(name))

    def replace_decl(self, meta: Any, ch: list[Any]) -> s.Replace:
        proc, step = ch[0], ch[1]
        cond = ch[2] if len(ch) == 5 else None
        return s.Replace(str(proc), str(step), cond, ch[-2], ch[-1], self._span(meta),
                         self._tok_span(proc), self._tok_span(step))

    def action_decl(self, meta: Any, ch: list[Any]) -> s.Action:
        name, labels, player = str(ch[0]), ch[1], str(ch[2])
        cond = ch[3] if len(ch) == 5 else None
        return s.Action(name, labels, player, cond, ch[-1], self._span(meta))

    def check_decl(self, meta: Any, ch: list[Any]) -> s.Check:
        return s.Check(str(ch[0]), ch[1], ch[2], self._span(meta))

    def _entity(self, what: str, meta: Any, ch: list[Any]) -> s.Entity:
        name, labels, body = ch
        props = tuple(x for x in body if isinstance(x, s.Opt))
        blocks = tuple(x for x in body if isinstance(x, s.TimingBlock))
        triggers = tuple(x for x in body if isinstance(x, s.Trigger))
        return s.Entity(what, str(name), labels, props, blocks, triggers, self._span(meta),
                        self._tok_span(name))

    def game_decl(self, meta: Any, ch: list[Any]) -> s.Entity:
        return self._entity("game", meta, ch)

    def card_decl(self, meta: Any, ch: list[Any]) -> s.Entity:
        return self._entity("card", meta, ch)

    def scenario_decl(self, meta: Any, ch: list[Any]) -> s.Entity:
        return self._entity("scenario", meta, ch)

    def addendum_decl(self, meta: Any, ch: list[Any]) -> s.Addendum:
        name, labels, *rest = ch
        props = tuple(x for x in rest if isinstance(x, s.Opt))
        items = tuple(x for x in rest if not isinstance(x, s.Opt))
        return s.Addendum(str(name), labels, props, items, self._span(meta))

    def labels(self, meta: Any, ch: list[Any]) -> s.Labels:
        default, langs, section = None, [], None
        for kind, a, b in ch:
            if kind == "default":
                default = default or a
                if default != a:
                    langs.append(("alt", a))
            elif kind == "lang":
                langs.append((a, b))
            else:
                section = a
        return s.Labels(default, tuple(langs), section)

    def label_default(self, meta: Any, ch: list[Any]) -> tuple[str, str, str]:
        return ("default", _unquote(str(ch[0])), "")

    def label_lang(self, meta: Any, ch: list[Any]) -> tuple[str, str, str]:
        return ("lang", str(ch[0]), _unquote(str(ch[1])))

    def label_section(self, meta: Any, ch: list[Any]) -> tuple[str, str, str]:
        return ("section", ch[0], "")

    def section_num(self, meta: Any, ch: list[Any]) -> str:
        return str(ch[0])

    def params(self, meta: Any, ch: list[Any]) -> tuple[str, ...]:
        return tuple(str(c) for c in ch if c is not None)

    def opts(self, meta: Any, ch: list[Any]) -> list[s.Opt]:
        return ch

    def opt(self, meta: Any, ch: list[Any]) -> s.Opt:
        atoms = tuple(self._atom(t) for t in ch[1:])
        first = self._tok_span(ch[0])
        last = atoms[-1].span if atoms else first
        span = s.Span(self.path, first.line, first.col, last.end_line, last.end_col)
        return s.Opt(str(ch[0]), atoms, span)

    prop = opt

    def body(self, meta: Any, ch: list[Any]) -> list[Any]:
        return ch

    def timing_block(self, meta: Any, ch: list[Any]) -> s.TimingBlock:
        return s.TimingBlock(str(ch[0]), ch[1], self._span(meta))

    # -- statements --
    def block(self, meta: Any, ch: list[Any]) -> tuple[s.Stmt, ...]:
        return tuple(ch)

    def let_stmt(self, meta: Any, ch: list[Any]) -> s.Let:
        return s.Let(str(ch[0]), ch[1], self._span(meta))

    def assign_stmt(self, meta: Any, ch: list[Any]) -> s.Assign:
        return s.Assign(ch[0], ch[1], self._span(meta))

    def aug_stmt(self, meta: Any, ch: list[Any]) -> s.AugAssign:
        return s.AugAssign(ch[0], str(ch[1].children[0]), ch[2], self._span(meta))

    def move_stmt(self, meta: Any, ch: list[Any]) -> s.Move:
        return ch[0]

    def move_expr(self, meta: Any, ch: list[Any]) -> s.Move:
        amount, *rest = ch
        token = rest.pop(0) if isinstance(rest[0], Token) else None
        owner = rest.pop(0)[1] if isinstance(rest[0], tuple) else None
        tspan = self._tok_span(token) if token is not None else None
        return s.Move(amount, str(token) if token is not None else None, tspan, owner,
                      rest[0], rest[1], self._span(meta))

    def owner_clause(self, meta: Any, ch: list[Any]) -> tuple[str, Any]:
        return ("of", ch[0])

    def put_stmt(self, meta: Any, ch: list[Any]) -> s.Put:
        place = str(ch[2].children[0]) if len(ch) > 2 else None
        return s.Put(ch[0], ch[1], place, self._span(meta))

    def emit_stmt(self, meta: Any, ch: list[Any]) -> s.Emit:
        return s.Emit(str(ch[0]), ch[1], self._span(meta))

    def modify_stmt(self, meta: Any, ch: list[Any]) -> s.Modify:
        target, delta, *rest = ch
        until = None
        if rest and isinstance(rest[-1], Token):
            until = str(rest.pop())
        while_ = rest[0] if rest else None
        return s.Modify(target, delta, while_, until, self._span(meta))

    def forbid_stmt(self, meta: Any, ch: list[Any]) -> s.Forbid:
        return s.Forbid(str(ch[0]), ch[1], ch[2] if len(ch) > 2 else None, self._span(meta))

    def reveal_stmt(self, meta: Any, ch: list[Any]) -> s.Reveal:
        return s.Reveal(ch[0], ch[1], self._span(meta))

    def shuffle_stmt(self, meta: Any, ch: list[Any]) -> s.Shuffle:
        return s.Shuffle(ch[0], self._span(meta))

    def log_stmt(self, meta: Any, ch: list[Any]) -> s.Log:
        to = ch.pop()[1] if len(ch) > 1 and isinstance(ch[-1], tuple) else None
        return s.Log(_unquote(str(ch[0])), tuple(ch[1:]), self._span(meta), to)

    def log_to(self, meta: Any, ch: list[Any]) -> tuple[str, Any]:
        return ("to", ch[0])

    def expect_stmt(self, meta: Any, ch: list[Any]) -> s.Expect:
        msg = _unquote(str(ch[1])) if len(ch) > 1 else None
        return s.Expect(ch[0], msg, self._span(meta))

    def return_stmt(self, meta: Any, ch: list[Any]) -> s.Return:
        return s.Return(ch[0] if ch else None, self._span(meta))

    def end_stmt(self, meta: Any, ch: list[Any]) -> s.End:
        reason = _unquote(str(ch[2])) if len(ch) > 2 else None
        return s.End(str(ch[0].children[0]), ch[1], self._span(meta), reason)

    def call_stmt(self, meta: Any, ch: list[Any]) -> s.CallStmt:
        return s.CallStmt(ch[0], self._span(meta))

    def pass_stmt(self, meta: Any, ch: list[Any]) -> s.Pass:
        return s.Pass(self._span(meta))

    def break_stmt(self, meta: Any, ch: list[Any]) -> s.Break:
        return s.Break(self._span(meta))

    def if_stmt(self, meta: Any, ch: list[Any]) -> s.If:
        branches = [(ch[0], ch[1])]
        orelse: tuple[s.Stmt, ...] = ()
        for extra in ch[2:]:
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return s.If(tuple(branches), orelse, self._span(meta))

    def elif_clause(self, meta: Any, ch: list[Any]) -> tuple[str, Any, Any]:
        return ("elif", ch[0], ch[1])

    def else_clause(self, meta: Any, ch: list[Any]) -> tuple[str, Any]:
        return ("else", ch[0])

    def for_stmt(self, meta: Any, ch: list[Any]) -> s.For:
        return s.For(str(ch[0]), ch[1], ch[2], self._span(meta))

    def while_stmt(self, meta: Any, ch: list[Any]) -> s.While:
        return s.While(ch[0], ch[1], self._span(meta))

    def repeat_stmt(self, meta: Any, ch: list[Any]) -> s.Repeat:
        return s.Repeat(ch[0], ch[1], self._span(meta))

    def menu_stmt(self, meta: Any, ch: list[Any]) -> s.Menu:
        return s.Menu(ch[0], ch[1], tuple(ch[2:]), self._span(meta))

    def option(self, meta: Any, ch: list[Any]) -> s.Option:
        labels, *rest = ch
        body = rest.pop()
        passive = bool(rest) and isinstance(rest[0], Tree) and rest[0].data == "passive"
        if passive:
            rest = rest[1:]
        var = iterable = cond = None
        if rest and isinstance(rest[0], Token):
            var, iterable = str(rest[0]), rest[1]
            rest = rest[2:]
        if rest:
            cond = rest[0]
        return s.Option(labels, var, iterable, cond, body, self._span(meta), passive)

    def once_stmt(self, meta: Any, ch: list[Any]) -> s.Once:
        name, params, *rest = ch
        body = rest.pop()
        until = None
        if rest and isinstance(rest[-1], Token):
            until = str(rest.pop())
        cond = rest[0] if rest else None
        return s.Once(str(name), params, cond, until, body, self._span(meta))

    # -- choices --
    def pick_choice(self, meta: Any, ch: list[Any]) -> s.Pick:
        var, coll, player, *rest = ch
        labels = rest.pop()
        optional = False
        if rest and isinstance(rest[-1], Tree) and rest[-1].data == "optional":
            optional = True
            rest.pop()
        where = rest[0] if rest else None
        return s.Pick(str(var), coll, player, where, optional, labels, self._span(meta))

    def optional(self, meta: Any, ch: list[Any]) -> Tree[Any]:
        return Tree("optional", [])

    def number_choice(self, meta: Any, ch: list[Any]) -> s.NumberChoice:
        return s.NumberChoice(ch[0], ch[1], ch[2], ch[3], self._span(meta))

    def ask_choice(self, meta: Any, ch: list[Any]) -> s.Ask:
        return s.Ask(ch[0], ch[1], self._span(meta))

    # -- expressions --
    def or_expr(self, meta: Any, ch: list[Any]) -> s.BoolOp:
        return s.BoolOp("or", tuple(ch), self._span(meta))

    def and_expr(self, meta: Any, ch: list[Any]) -> s.BoolOp:
        return s.BoolOp("and", tuple(ch), self._span(meta))

    def not_op(self, meta: Any, ch: list[Any]) -> s.Not:
        return s.Not(ch[0], self._span(meta))

    def compare(self, meta: Any, ch: list[Any]) -> s.BinOp:
        op = " ".join(str(t) for t in ch[1].children)
        return s.BinOp(op, ch[0], ch[2], self._span(meta))

    def _chain(self, meta: Any, ch: list[Any]) -> Any:
        result = ch[0]
        for i in range(1, len(ch), 2):
            op = str(ch[i].children[0])
            right = ch[i + 1]
            span = self._span(meta)
            result = s.BinOp(op, result, right, span)
        return result

    sum = _chain
    product = _chain

    def neg(self, meta: Any, ch: list[Any]) -> s.Neg:
        return s.Neg(ch[0], self._span(meta))

    def attr(self, meta: Any, ch: list[Any]) -> s.Attr:
        return s.Attr(ch[0], str(ch[1]), self._span(meta))

    def call(self, meta: Any, ch: list[Any]) -> s.Call:
        return s.Call(ch[0], tuple(ch[1]), self._span(meta))

    def index(self, meta: Any, ch: list[Any]) -> s.Index:
        return s.Index(ch[0], ch[1], self._span(meta))

    def args(self, meta: Any, ch: list[Any]) -> list[Any]:
        return [c for c in ch if c is not None]

    def int_lit(self, meta: Any, ch: list[Any]) -> s.IntLit:
        return s.IntLit(int(ch[0]), self._span(meta))

    def str_lit(self, meta: Any, ch: list[Any]) -> s.StrLit:
        return s.StrLit(_unquote(str(ch[0])), self._span(meta))

    def pair_lit(self, meta: Any, ch: list[Any]) -> s.PairLit:
        text = str(ch[0])
        braced = text.startswith("{")
        left, right = text.strip("{}").split("/")
        return s.PairLit(_side(left), _side(right), braced, self._span(meta))

    def delta_lit(self, meta: Any, ch: list[Any]) -> s.DeltaLit:
        left, right = str(ch[0]).split("/")
        return s.DeltaLit(int(left), int(right), self._span(meta))

    def range_lit(self, meta: Any, ch: list[Any]) -> s.RangeLit:
        text = str(ch[0])
        parts = text.split("..") if ".." in text else text.split("-")
        if len(parts) != 2:
            raise _BuildError(Diagnostic("E104", f"{text!r} is not a range like 3-4",
                                         self._span(meta), hint="a range has a low and a high end"))
        return s.RangeLit(int(parts[0]), int(parts[1]), self._span(meta))

    def zone_label(self, meta: Any, ch: list[Any]) -> s.ZoneLabel:
        return s.ZoneLabel(str(ch[0])[1:-1], self._span(meta))

    def true_lit(self, meta: Any, ch: list[Any]) -> s.BoolLit:
        return s.BoolLit(True, self._span(meta))

    def false_lit(self, meta: Any, ch: list[Any]) -> s.BoolLit:
        return s.BoolLit(False, self._span(meta))

    def none_lit(self, meta: Any, ch: list[Any]) -> s.NoneLit:
        return s.NoneLit(self._span(meta))

    def name(self, meta: Any, ch: list[Any]) -> s.Name:
        return s.Name(str(ch[0]), self._span(meta))

    def list_lit(self, meta: Any, ch: list[Any]) -> s.ListLit:
        return s.ListLit(tuple(ch[0]), self._span(meta))
