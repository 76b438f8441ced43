"""Parse stage: source text → syntax model, with per-declaration error recovery.

A file is cut into top-level declarations (each starts at column 0). Each one is parsed
by the LALR parser on its own, so a broken card yields a diagnostic and the rest of the
file is still read.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import re
import sys
from functools import lru_cache
from typing import Any

import lark
from lark import Lark
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)
from lark.grammar import Rule
from lark.indenter import DedentError, Indenter
from lark.lexer import TerminalDef

from ..runtime.limits import MAX_NUMBER
from . import syntax as s
from .build import Builder, BuildError
from .cache import open_cache, warn
from .diagnostics import Diagnostic
from .direct import Direct
from .lalr import Driver, GiveUp, Unsupported
from .library import grammar_text
from .limits import MAX_BLOCKS, MAX_BRACKETS, MAX_FILE_BYTES
from .trees import install

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


@lru_cache(maxsize=1)
def parser(strict: bool = False) -> Lark:
    """The LALR parser, built once per process. Its tables are kept in the verified
    per-user cache (`cache.py`), never in a shared folder."""
    if strict:
        return install(_build_parser(strict=True))
    cache = open_cache()
    key = hashlib.sha256(b"\0".join([importlib.util.MAGIC_NUMBER, sys.version.encode(),
                                      lark.__version__.encode(), grammar_text().encode()]))
    entry = f"grammar-{key.hexdigest()}.bin"
    if cache is not None:
        payload = cache.read(entry)
        if payload is not None:
            try:
                loaded = Lark.__new__(Lark)._load(marshal.loads(payload), postlex=_Indenter())
            except Exception as err:  # noqa: BLE001 - a bad entry is rebuilt, never fatal
                warn("cache entry %s skipped and rebuilt: %s", entry, type(err).__name__)
            else:
                return install(loaded)
    built = _build_parser(strict=False)
    if cache is not None:
        data, memo = built.memo_serialize([TerminalDef, Rule])
        data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
        cache.write(entry, marshal.dumps({"data": data, "memo": memo}))
    return install(built)


@lru_cache(maxsize=1)
def driver() -> Driver | None:
    """The one-loop driver of the parser's tables, or None for a Lark laid out otherwise
    (then Lark's own loop parses: the same trees, slower)."""
    try:
        return Driver(parser())
    except Unsupported:
        return None


@lru_cache(maxsize=1)
def direct() -> Direct | None:
    """The parse that builds the syntax model as it reduces, or None where the driver does not
    run (then every declaration is parsed into a tree and built from it)."""
    try:
        return Direct(parser())
    except Unsupported:
        return None


def parse_tree(chunk: str) -> Any:
    """A declaration's tree: by the driver, or by Lark when the driver gives up (a syntax
    error, reported as Lark reports it)."""
    fast = driver()
    if fast is not None:
        try:
            return fast.parse(chunk)
        except GiveUp:
            pass
    return parser().parse(chunk)


def _build_parser(strict: bool) -> Lark:
    """Lark's parser as Lark builds it (`parser()` then installs our tree building)."""
    return Lark(grammar_text(), parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=False, strict=strict)


_TOP = re.compile(r"^[^\s#]")
# what the pre-scan looks at: strings and comments (skipped), brackets, numbers, line starts
_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[(\[]|[)\]]|(?<!\w)[0-9]+|\n[ \t]*')
_LONG_NUMBER = re.compile(f"[0-9]{{{len(str(MAX_NUMBER))},}}")  # as many digits as the limit has, or more
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


Chunks = dict[tuple[str, int, str], tuple[list[s.Decl], list[Diagnostic]]]  # (path, line, text) -> built


def parse_source(path: str, text: str, chunks: Chunks | None = None) -> tuple[s.SourceFile, list[Diagnostic]]:
    """Parse one file, returning its syntax model and every syntax diagnostic found. With
    `chunks`, each top-level declaration already parsed at the same place with the same text is
    taken from there (the same objects: an edit to one card leaves the others as they were)."""
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
        known = chunks.get((path, start, chunk)) if chunks is not None else None
        if known is None:
            known = _parse_chunk(path, start, chunk)
            if chunks is not None:
                chunks[(path, start, chunk)] = known
        items.extend(known[0])
        diags.extend(known[1])
    return s.SourceFile(path, text, tuple(items)), diags


def _parse_chunk(path: str, start: int, chunk: str) -> tuple[list[s.Decl], list[Diagnostic]]:
    """One top-level declaration (its first line is `start`): what it builds into, or the
    located diagnostic that stopped it."""
    diags: list[Diagnostic] = []
    problem = _prescan(path, start, chunk)
    if problem:
        return [], [problem]
    fast = direct()
    if fast is not None:
        try:
            return fast.build(chunk, path, start - 1), diags
        except GiveUp:
            pass  # parsed into a tree and built from it, which reports what stopped it
    try:
        tree = parse_tree(chunk)
        return list(Builder(path, start - 1).transform(tree)), diags
    except UnexpectedInput as err:
        diags.append(_syntax_diagnostic(path, start - 1, chunk, err))
    except DedentError as err:
        diags.append(Diagnostic("E003", "inconsistent indentation", _first_span(path, start, chunk),
                                hint=str(err).split("\n")[0]))
    except BuildError as err:
        diags.append(err.diagnostic)
    except RecursionError:
        diags.append(Diagnostic("E004", "declaration is nested too deeply",
                                _first_span(path, start, chunk)))
    except LarkError as err:  # any other parser failure is still a located diagnostic
        diags.append(Diagnostic("E001", f"cannot parse this declaration: {str(err).splitlines()[0]}",
                                _first_span(path, start, chunk)))
    return [], diags


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
    if (chunk.count("\n") <= MAX_BLOCKS and chunk.count("(") + chunk.count("[") <= MAX_BRACKETS
            and not _LONG_NUMBER.search(chunk)):
        return None  # too few lines, brackets and digits in a row to pass any limit
    return _scan_limits(path, start, chunk)


def _scan_limits(path: str, start: int, chunk: str) -> Diagnostic | None:
    """`_prescan`'s check, token by token."""
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
