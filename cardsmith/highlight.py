"""Syntax highlighting of cardsmith sources (`.csm`) for Pygments: `CardsmithLexer`.

Registered as the Pygments lexer `cardsmith` (aliases `csm`, files `*.csm`) by the package's
`pygments.lexers` entry point, so `pygmentize -l cardsmith FILE.csm` and any Pygments-based tool
colour a game's sources; the rule reference's card gallery shows each card's definition with it.

The keyword lists are the grammar's keywords (`grammar/cardsmith.lark`), sorted by what they do;
`tests/test_highlight.py` fails when the grammar gains a keyword the lexer does not know (or the
lexer keeps one the grammar dropped), and when `BUILTIN_FUNCTIONS` differs from the registry in
`compiler/builtins.py` (kept here as a list: importing the registry imports the runtime, too slow
for a lexer that Pygments may load just to list its lexers). The editor grammar
(`editors/vscode/syntaxes/cardsmith.tmLanguage.json`) gives the same classes; the same test holds
the two against each other on every bundled file.

Every line is one token stream that gives the text back exactly (`stripnl` and `ensurenl` are off
by default), and no bundled source yields an error token."""

from __future__ import annotations

from typing import Any

from pygments.lexer import RegexLexer, bygroups, default, include, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
)

__all__ = ["CardsmithLexer", "KEYWORDS", "BUILTIN_FUNCTIONS"]

# ---- the grammar's keywords, by what they do ---------------------------------------------------

# Start a declaration (at the start of a line); `step` and `when` also inside a line.
DECLARATION_KEYWORDS = (
    "use", "game", "character", "token", "zone", "counter", "flag", "field", "kind", "value",
    "event", "timing", "keyword", "procedure", "step", "when", "instead", "after", "check",
    "action", "card", "scenario", "addendum",
)
# Start a statement or a choice. `number` is one only before `from` (`number from A to B`),
# `pick` only before `NAME in`: elsewhere they are names (a card's `number "NA-01-…"`).
STATEMENT_KEYWORDS = (
    "let", "if", "elif", "else", "for", "while", "repeat", "choose", "option", "once", "move", "put",
    "emit", "modify", "forbid", "reveal", "shuffle", "log", "expect", "return", "break", "pass", "win",
    "lose", "draw_game", "pick", "number", "ask",
)
# The words inside a statement or a label list.
CLAUSE_KEYWORDS = (
    "of", "from", "to", "into", "top", "bottom", "by", "live", "until", "where", "prefer", "optional",
    "passive", "offered", "winner", "section", "doc", "under",
)
OPERATOR_WORDS = ("and", "or", "not", "in")
CONSTANTS = ("true", "false", "none")

KEYWORDS = frozenset(DECLARATION_KEYWORDS + STATEMENT_KEYWORDS + CLAUSE_KEYWORDS + OPERATOR_WORDS + CONSTANTS)

# The built-in functions (compiler/builtins.py's registry); a test keeps the two equal.
BUILTIN_FUNCTIONS = (
    "abs", "addendum_active", "any_picked", "bottom", "braced", "card_ids", "card_prop", "cards",
    "change", "character_prop", "characters", "contains", "count", "expand", "first", "has", "high",
    "index_of", "is_none", "left", "low", "max", "min", "new_card", "new_object", "opponent", "others",
    "owned", "pair", "picked", "player_count", "players", "remove", "right", "roll", "seat", "shift",
    "size", "space", "span", "stop_effects", "top",
)

# ---- the lexical forms of the grammar ----------------------------------------------------------

NAME = r"[^\W\d]\w*"  # the grammar's NAME: /(?!\d)\w+/, in any script
_SIDE = r"(?:[0-9]+|-)"
PAIR = rf"{_SIDE}/{_SIDE}"  # 3/1, -/1, 3/-
LPAIR = rf"\{{{_SIDE}/{_SIDE}\}}"  # {3/1}
DELTA = r"[+-][0-9]+/[+-][0-9]+"  # +1/-1
NUMPATH = r"[0-9]+(?:-[0-9]+)+"  # a range 3-4, a section 9-4-2
DOTRANGE = r"[0-9]+\.\.[0-9]+"  # players 2..10
STRING = r'"(?:[^"\\\n]|\\.)*"'
ANGLE = r"<[^<>\s]+>"  # a zone by its label: <手牌>

# what may follow a property's name on its line: atoms only (a statement has an operator or a bracket)
_ATOM = rf"(?:{NAME}|{DELTA}|{LPAIR}|{PAIR}|{DOTRANGE}|{NUMPATH}|-?[0-9]+|{STRING})"
_PROPERTY_REST = rf"(?=(?:[ \t]+{_ATOM})*[ \t]*(?:#[^\n]*)?$)"
# keywords that start a line, so a line starting with one is no property
_NOT_A_PROPERTY = rf"(?!(?:{'|'.join(sorted(KEYWORDS - {'number'}, key=len, reverse=True))})\b)"

_WS = r"([ \t]*)"
_WS1 = r"([ \t]+)"


def _rule(pattern: str, action: Any, *after: str) -> tuple[str, Any] | tuple[str, Any, Any]:
    return (pattern, action, tuple(after)) if after else (pattern, action)


class CardsmithLexer(RegexLexer):
    """Pygments lexer for cardsmith game sources (`.csm`)."""

    name = "cardsmith"
    aliases = ["cardsmith", "csm"]
    filenames = ["*.csm"]
    mimetypes = ["text/x-cardsmith"]

    def __init__(self, **options: Any) -> None:
        # the token values give the source back as it is: no newline added or stripped
        options.setdefault("stripnl", False)
        options.setdefault("ensurenl", False)
        super().__init__(**options)

    tokens = {
        "root": [
            # ---- what only starts a line
            _rule(rf"^{_WS}(game|use|addendum){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Namespace)),
            _rule(rf"^{_WS}(card){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Class)),
            _rule(rf"^{_WS}(character|kind){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Class), "declaration"),
            _rule(rf"^{_WS}(zone|counter|flag|field|token){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Variable.Global), "declaration"),
            _rule(rf"^{_WS}(timing){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Decorator), "declaration", "parameters"),
            _rule(rf"^{_WS}(procedure|value|event){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Function), "parameters"),
            _rule(rf"^{_WS}(check|action|scenario){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Function)),
            _rule(rf"^{_WS}(keyword){_WS1}({NAME})",
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Constant)),
            _rule(rf"^{_WS}(when){_WS1}({NAME})",  # a rule trigger: the event it answers
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Function), "parameters"),
            _rule(rf"^{_WS}(instead){_WS1}(of){_WS1}({NAME})",  # an addendum's replacement of a step
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Keyword, Whitespace, Name.Function)),
            _rule(rf"^{_WS}(after|in){_WS1}({NAME})(?=[ \t]+step\b)",  # an addition to a step
                  bygroups(Whitespace, Keyword.Declaration, Whitespace, Name.Function)),
            # a block of a card under a timing (`on_enter:`, `usable under constant:`)
            _rule(rf"^{_WS}{_NOT_A_PROPERTY}({NAME})(?:{_WS1}(under){_WS1}({NAME}))?{_WS}(:)(?=[ \t]*(?:#[^\n]*)?$)",
                  bygroups(Whitespace, Name.Decorator, Whitespace, Keyword, Whitespace, Name.Decorator,
                           Whitespace, Punctuation)),
            # a property line (`kind spell`, `power 2/1`, `seats 2..10`, `hidden`)
            _rule(rf"^{_WS}{_NOT_A_PROPERTY}({NAME}){_PROPERTY_REST}", bygroups(Whitespace, Name.Attribute)),
            (r"\n", Whitespace),
            include("inline"),
        ],
        "inline": [
            (r"[ \t]+", Whitespace),
            (r"(\\)([ \t]*\r?\n)", bygroups(Punctuation, Whitespace)),  # a line continued
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (DELTA, Number),
            (LPAIR, Number),
            (PAIR, Number),
            (DOTRANGE, Number),
            (NUMPATH, Number),
            (r"[0-9]+", Number.Integer),
            (ANGLE, String.Other),
            (rf"(\.)([ \t]*)({NAME})", bygroups(Punctuation, Whitespace, Name)),  # an attribute: never a keyword
            # names that the keywords before them say what they are
            (rf"\b(step){_WS1}({NAME}|[0-9]+)", bygroups(Keyword.Declaration, Whitespace, Name.Label)),
            (rf"\b(once){_WS1}(when){_WS1}({NAME})",
             bygroups(Keyword, Whitespace, Keyword.Declaration, Whitespace, Name.Function), "parameters"),
            (rf"\b(emit|until){_WS1}({NAME})", bygroups(Keyword, Whitespace, Name.Function)),
            (rf"\b(forbid){_WS1}({NAME})", bygroups(Keyword, Whitespace, Name.Variable.Global)),
            (rf"\b(pick){_WS1}({NAME}){_WS1}(in)\b", bygroups(Keyword, Whitespace, Name, Whitespace, Operator.Word)),
            (r"\bnumber(?=[ \t]+from\b)", Keyword),
            (words(BUILTIN_FUNCTIONS, prefix=r"\b", suffix=r"\b(?=[ \t]*\()"), Name.Builtin),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(OPERATOR_WORDS, prefix=r"\b", suffix=r"\b"), Operator.Word),
            (words(("step", "when"), prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(tuple(k for k in STATEMENT_KEYWORDS + CLAUSE_KEYWORDS if k not in ("number", "pick")),
                   prefix=r"\b", suffix=r"\b"), Keyword),
            (r"\b[a-z]{2}\b(?=[ \t]+\")", Name.Tag),  # the language of the label that follows: en "Slash"
            (rf"{NAME}(?=[ \t]*\()", Name.Function),  # a call of a procedure or value
            (NAME, Name),
            (r"==|!=|<=|>=|\+=|-=|//|[-+*%<>=]", Operator),
            (r"[()\[\],:]", Punctuation),
        ],
        "string": [
            (r'"', String.Double, "#pop"),
            (r"\\.", String.Escape),
            (r"\{\}", String.Interpol),  # where a log line puts a value
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r"\n", String.Double, "#pop"),  # an unclosed string ends with its line (as the grammar's)
        ],
        # a declaration's line: its labels, then options after `:` (`per player, holds cards`)
        "declaration": [
            (r"\n", Whitespace, "#pop"),
            (rf"(:)([ \t]*)({NAME})", bygroups(Punctuation, Whitespace, Name.Attribute), ("#pop", "options")),
            (r":", Punctuation, ("#pop", "options")),
            include("inline"),
        ],
        "options": [
            (r"\n", Whitespace, "#pop"),
            (rf"(,)([ \t]*)({NAME})", bygroups(Punctuation, Whitespace, Name.Attribute)),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (NAME, Name),  # an option's values are names, even where they spell a keyword (`one of …`)
            include("inline"),
        ],
        # the parameters after a declared name, if any: `(atk: card, n)`
        "parameters": [
            (r"([ \t]*)(\()", bygroups(Whitespace, Punctuation), ("#pop", "parameter_list")),
            default("#pop"),
        ],
        "parameter_list": [
            (r"\)", Punctuation, "#pop"),
            (rf"({NAME})([ \t]*)(:)([ \t]*)({NAME})",
             bygroups(Name.Variable, Whitespace, Punctuation, Whitespace, Keyword.Type)),
            (NAME, Name.Variable),
            (r",", Punctuation),
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            default("#pop"),
        ],
    }
