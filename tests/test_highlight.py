"""Syntax highlighting: the Pygments lexer (`cardsmith/highlight.py`) and the editor grammar
(`editors/vscode/syntaxes/cardsmith.tmLanguage.json`) against the language's own grammar and
against each other.

- Every bundled source lexes without an error token, and its tokens give the file back exactly.
- The lexer's keywords are exactly the keyword terminals of `grammar/cardsmith.lark`, and its
  built-in functions exactly the registry of `compiler/builtins.py`, so neither can drift.
- The TextMate grammar is checked without Oniguruma (no Node, no network): its regexes keep to
  the syntax Oniguruma and Python's `re` read alike (a test refuses the constructs where they
  differ or that `re` lacks, such as `\\G`, `\\h`, `\\p{…}`, `(?<name>…)`, POSIX brackets), so they
  compile with `re`; a small TextMate tokenizer written here (leftmost match, ties to the first
  rule, a rule's `end` before its patterns, as vscode-textmate does) then colours every bundled
  file, and each character must get the same class as from the Pygments lexer (scopes mapped to
  Pygments token types by `TEXTMATE_CLASSES`). A kitchen-sink source that the real parser accepts
  uses every keyword of the grammar, each of which must come out as a keyword from both.
- The reference's stylesheet gives a colour to every token class the lexer gives a bundled
  source (but plain names, operators, punctuation and spaces); tests/test_site.py checks the
  gallery's highlighted, escaped card definitions.
- The editor extension's JSON files parse and say what VS Code needs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from pygments.lexers import get_lexer_by_name
from pygments.token import (
    STANDARD_TYPES,
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
    _TokenType,
)

from cardsmith.highlight import BUILTIN_FUNCTIONS, KEYWORDS, CardsmithLexer

ROOT = Path(__file__).resolve().parent.parent
VSCODE = ROOT / "editors" / "vscode"
TM_GRAMMAR = VSCODE / "syntaxes" / "cardsmith.tmLanguage.json"
SITE_STYLE = ROOT / "compiler" / "templates" / "site" / "style.css"
SOURCES = sorted([*ROOT.glob("cards/**/*.csm"), *ROOT.glob("examples/**/*.csm")])


def tokens(text: str) -> list[tuple[_TokenType, str]]:
    return list(CardsmithLexer().get_tokens(text))


@cache
def grammar_keywords() -> frozenset[str]:
    """The keyword terminals of the grammar: its anonymous string terminals that are words."""
    from lark.lexer import PatternStr

    from cardsmith.compiler.parse import parser

    return frozenset(t.pattern.value for t in parser().terminals
                     if isinstance(t.pattern, PatternStr) and re.fullmatch(r"[a-z_]+", t.pattern.value))


# ---- the Pygments lexer -----------------------------------------------------------------------


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_source_lexes_without_error_and_gives_itself_back(path: Path) -> None:
    text = path.read_text("utf-8")
    found = tokens(text)
    assert "".join(value for _, value in found) == text
    errors = [(text[:sum(len(v) for _, v in found[:i])].count("\n") + 1, value)
              for i, (kind, value) in enumerate(found) if kind in Error]
    assert not errors, errors[:10]


def test_the_bundled_sources_are_all_there() -> None:
    names = {p.name for p in SOURCES}
    assert len(SOURCES) > 30 and {"core.csm", "rules.csm", "hotaru.csm"} <= names


def test_the_lexer_knows_exactly_the_grammars_keywords() -> None:
    grammar = grammar_keywords()
    assert len(grammar) > 60
    assert not grammar - KEYWORDS, f"keywords of the grammar the lexer does not know: {sorted(grammar - KEYWORDS)}"
    assert not KEYWORDS - grammar, f"keywords of the lexer the grammar has not: {sorted(KEYWORDS - grammar)}"


def test_the_lexer_knows_exactly_the_registrys_built_ins() -> None:
    from cardsmith.compiler.builtins import BUILTINS

    assert sorted(BUILTIN_FUNCTIONS) == sorted(BUILTINS)


SNIPPET = '''use sakura
# ユリナ
card yurina_n2 "一闪" ja "一閃" en "Brandish":
    number "NA-01-yurina-O-N-2"
    range 3-4
    damage -/1
    text "【常時】決死 \\"+1/+0\\""
    constant:
        modify atk.damage by +1/+0 while count(self.life) <= 3
'''


def test_a_snippet_lexes_as_expected() -> None:
    found = [(kind, value) for kind, value in tokens(SNIPPET) if kind not in Whitespace]
    strings = String.Double
    assert found == [
        (Keyword.Declaration, "use"), (Name.Namespace, "sakura"),
        (Comment.Single, "# ユリナ"),
        (Keyword.Declaration, "card"), (Name.Class, "yurina_n2"),
        (strings, '"'), (strings, "一闪"), (strings, '"'),
        (Name.Tag, "ja"), (strings, '"'), (strings, "一閃"), (strings, '"'),
        (Name.Tag, "en"), (strings, '"'), (strings, "Brandish"), (strings, '"'), (Punctuation, ":"),
        # a card id is a string, the card's number a property (not the `number from` choice)
        (Name.Attribute, "number"), (strings, '"'), (strings, "NA-01-yurina-O-N-2"), (strings, '"'),
        (Name.Attribute, "range"), (Number, "3-4"),
        (Name.Attribute, "damage"), (Number, "-/1"),
        # CJK brackets inside a string stay string; escapes are escapes
        (Name.Attribute, "text"), (strings, '"'), (strings, "【常時】決死 "), (String.Escape, '\\"'),
        (strings, "+1/+0"), (String.Escape, '\\"'), (strings, '"'),
        (Name.Decorator, "constant"), (Punctuation, ":"),
        (Keyword, "modify"), (Name, "atk"), (Punctuation, "."), (Name, "damage"), (Keyword, "by"),
        (Number, "+1/+0"), (Keyword, "while"), (Name.Builtin, "count"), (Punctuation, "("),
        (Name, "self"), (Punctuation, "."), (Name, "life"), (Punctuation, ")"), (Operator, "<="),
        (Number.Integer, "3"),
    ]


def test_declarations_name_their_kind_and_options_are_attributes() -> None:
    text = ('zone hand "手牌": per player, holds cards, owner\n'
            'timing after_attack(atk: card) "攻击后": mark none\n'
            'procedure deal(p: player, n) "发":\n'
            '    step start "开始":\n'
            '        let n = number from 1 to 3 for p "几"\n'
            '        log "{} 抽了 {}", p, n\n'
            'event drawn(p)\n'
            'keyword resolve "决死" = true\n'
            'addendum extra "追加" section 22-1:\n'
            '    instead of deal step start when n > 1:\n'
            '        emit drawn(seat(0))\n')
    kinds: dict[str, _TokenType] = {}
    for kind, value in tokens(text):
        kinds.setdefault(value, kind)  # as first met
    assert kinds["hand"] is Name.Variable.Global and kinds["per"] is Name.Attribute
    assert kinds["holds"] is Name.Attribute and kinds["owner"] is Name.Attribute and kinds["player"] is Name
    assert kinds["after_attack"] is Name.Decorator and kinds["atk"] is Name.Variable
    assert kinds["card"] is Keyword.Type and kinds["mark"] is Name.Attribute and kinds["none"] is Keyword.Constant
    assert kinds["deal"] is Name.Function and kinds["start"] is Name.Label and kinds["number"] is Keyword
    assert kinds["{}"] is String.Interpol and kinds["drawn"] is Name.Function and kinds["resolve"] is Name.Constant
    assert kinds["extra"] is Name.Namespace and kinds["22-1"] is Number and kinds["instead"] is Keyword.Declaration
    assert kinds["seat"] is Name.Builtin and kinds["when"] is Keyword.Declaration


# Token classes the reference's card gallery leaves in the text's own colour.
PLAIN_CLASSES = {"n", "o", "p", "w"}


def test_the_sites_stylesheet_colours_every_class_the_lexer_gives_the_bundled_sources() -> None:
    used = {STANDARD_TYPES[kind] for path in SOURCES for kind, _ in tokens(path.read_text("utf-8"))}
    styled = set(re.findall(r"\.csm \.([a-z0-9]+)\b", SITE_STYLE.read_text("utf-8")))
    assert PLAIN_CLASSES <= used and not PLAIN_CLASSES & styled
    assert not used - PLAIN_CLASSES - styled, sorted(used - PLAIN_CLASSES - styled)


def test_the_lexer_is_registered_with_pygments() -> None:
    """pyproject.toml declares the entry point, so an install (`make`) registers the lexer."""
    assert any(ep.name == "cardsmith" for ep in entry_points(group="pygments.lexers"))
    lexer = get_lexer_by_name("cardsmith")
    assert isinstance(lexer, CardsmithLexer) and isinstance(get_lexer_by_name("csm"), CardsmithLexer)


# ---- the TextMate grammar, without Oniguruma ----------------------------------------------------

# TextMate scope (the longest prefix that matches) → the Pygments token type of the same class
TEXTMATE_CLASSES: dict[str, _TokenType] = {
    "comment.line.number-sign": Comment.Single,
    "string.quoted.double": String.Double,
    "punctuation.definition.string": String.Double,
    "constant.character.escape": String.Escape,
    "constant.other.placeholder": String.Interpol,
    "string.other.zone-label": String.Other,
    "constant.numeric.integer": Number.Integer,
    "constant.numeric": Number,
    "storage.type.declaration": Keyword.Declaration,
    "storage.type.parameter": Keyword.Type,
    "keyword.control": Keyword,
    "keyword.other": Keyword,
    "keyword.operator.word": Operator.Word,
    "keyword.operator": Operator,
    "constant.language": Keyword.Constant,
    "support.function.builtin": Name.Builtin,
    "entity.name.function.decorator": Name.Decorator,
    "entity.name.function": Name.Function,
    "entity.name.type.class": Name.Class,
    "entity.name.namespace": Name.Namespace,
    "entity.name.variable.global": Name.Variable.Global,
    "variable.other.constant": Name.Constant,
    "entity.name.label": Name.Label,
    "entity.other.attribute-name": Name.Attribute,
    "entity.name.tag": Name.Tag,
    "variable.parameter": Name.Variable,
    "punctuation": Punctuation,
}

# Regex syntax where Oniguruma and Python's re differ, or that re lacks: kept out of the grammar.
NOT_COMMON = {
    r"\G (start of the search)": re.compile(r"(?<!\\)(?:\\\\)*\\G"),
    r"\h \H \R \X \K \A \z \Z \O \y \Y \g \k": re.compile(r"(?<!\\)(?:\\\\)*\\[hHRXKAzZOyYgk]"),
    r"\p{…} \P{…}": re.compile(r"(?<!\\)(?:\\\\)*\\[pP]\{"),
    "(?<name>…) named groups": re.compile(r"\(\?<[A-Za-z]"),
    "(?>…) atomic groups, (?~…) absence": re.compile(r"\(\?[>~]"),
    "inline flags": re.compile(r"\(\?[imxsu-]+[):]"),
    "possessive quantifiers": re.compile(r"(?<!\\)[*+?}]\+"),
    "POSIX brackets, class intersection": re.compile(r"\[:[a-z]+:\]|&&"),
}


@cache
def _scope_class(scope: str) -> _TokenType | None:
    base = scope.removesuffix(".cardsmith")
    best = max((p for p in TEXTMATE_CLASSES if base == p or base.startswith(p + ".")), key=len, default=None)
    return TEXTMATE_CLASSES[best] if best is not None else None


@dataclass
class _Frame:
    """An open begin/end rule."""

    rule: dict[str, Any]
    end: re.Pattern[str]
    names: list[str] = field(default_factory=list)


class TextMate:
    """A TextMate tokenizer for the subset the grammar uses (match, begin/end, captures,
    includes), line by line as editors run it: at each point the rule whose regex matches
    leftmost wins, ties go to the first rule, and an open rule's `end` is tried before its
    patterns."""

    def __init__(self, grammar: dict[str, Any]) -> None:
        self.grammar = grammar
        self.repository: dict[str, Any] = grammar.get("repository", {})
        self.compiled: dict[str, re.Pattern[str]] = {}
        self.flat: dict[int, list[dict[str, Any]]] = {}

    def regex(self, source: str) -> re.Pattern[str]:
        if source not in self.compiled:
            self.compiled[source] = re.compile(source)
        return self.compiled[source]

    def rules(self, patterns: list[dict[str, Any]]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for p in patterns:
            if "include" in p:
                target = p["include"]
                item = self.grammar if target == "$self" else self.repository[target.removeprefix("#")]
                found += self.rules([item] if "match" in item or "begin" in item else item["patterns"])
            else:
                found.append(p)
        return found

    def flat_rules(self, rule: dict[str, Any]) -> list[dict[str, Any]]:
        """The rules inside `rule` (or the grammar's own), includes expanded once."""
        if id(rule) not in self.flat:
            self.flat[id(rule)] = self.rules(rule.get("patterns", []))
        return self.flat[id(rule)]

    def classes(self, text: str) -> list[_TokenType | None]:
        """The class of every character of `text` (None where no scope says one)."""
        scopes: list[list[str]] = [[] for _ in text]
        stack: list[_Frame] = []
        offset = 0
        for line in text.splitlines(keepends=True):
            if not line.endswith("\n"):
                line += "\n"  # as editors feed a line
            self._line(line, offset, scopes, stack)
            offset += len(line)
        result: list[_TokenType | None] = []
        for names in scopes:
            kinds = [k for k in map(_scope_class, names) if k is not None]
            result.append(kinds[-1] if kinds else None)
        return result[:len(text)]

    def _line(self, line: str, offset: int, scopes: list[list[str]], stack: list[_Frame]) -> None:
        def mark(start: int, end: int, names: list[str]) -> None:
            for i in range(offset + start, min(offset + end, len(scopes))):
                scopes[i].extend(names)

        def captured(m: re.Match[str], caps: dict[str, Any], names: list[str]) -> None:
            for group, spec in sorted(caps.items(), key=lambda kv: int(kv[0])):
                if m.group(int(group)) is not None:
                    mark(m.start(int(group)), m.end(int(group)), names + [spec["name"]])

        def outer() -> list[str]:
            return [n for f in stack for n in f.names]

        searched: dict[re.Pattern[str], re.Match[str] | None] = {}

        def search(regex: re.Pattern[str]) -> re.Match[str] | None:
            """The regex's first match at `pos` or after; one found from an earlier point still
            holds if it starts here or later (and no match then means none now)."""
            if regex in searched:
                before = searched[regex]
                if before is None or before.start() >= pos:
                    return before
            searched[regex] = regex.search(line, pos)
            return searched[regex]

        pos = 0
        while pos < len(line):
            frame = stack[-1] if stack else None
            patterns = self.flat_rules(frame.rule if frame else self.grammar)
            best: tuple[re.Match[str], dict[str, Any] | None] | None = None
            for rule in [None, *patterns]:
                if rule is None:
                    if frame is None:
                        continue
                    m = search(frame.end)
                else:
                    m = search(self.regex(rule.get("match", rule.get("begin", ""))))
                if m is not None and (best is None or m.start() < best[0].start()):
                    best = (m, rule)
            if best is None:
                mark(pos, len(line), outer())
                return
            m, rule = best
            mark(pos, m.start(), outer())
            if rule is None:
                assert frame is not None
                mark(m.start(), m.end(), outer())
                captured(m, frame.rule.get("endCaptures", {}), outer())
                stack.pop()
            elif "match" in rule:
                assert m.end() > m.start(), f"empty match of {rule['match']!r}"
                names = outer() + ([rule["name"]] if "name" in rule else [])
                mark(m.start(), m.end(), names)
                captured(m, rule.get("captures", {}), names)
            else:
                assert m.end() > m.start(), f"empty begin of {rule['begin']!r}"
                stack.append(_Frame(rule, self.regex(rule["end"]), [rule["name"]] if "name" in rule else []))
                mark(m.start(), m.end(), outer())
                captured(m, rule.get("beginCaptures", {}), outer())
            pos = m.end()


@cache
def tm_grammar() -> dict[str, Any]:
    grammar: dict[str, Any] = json.loads(TM_GRAMMAR.read_text("utf-8"))
    return grammar


def _regexes(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k in ("match", "begin", "end")] + \
            [r for k, v in node.items() if k not in ("match", "begin", "end") for r in _regexes(v)]
    if isinstance(node, list):
        return [r for item in node for r in _regexes(item)]
    return []


def _scopes(node: Any) -> list[str]:
    if isinstance(node, dict):
        return ([node["name"]] if isinstance(node.get("name"), str) and node is not tm_grammar() else []) + \
            [s for v in node.values() for s in _scopes(v)]
    if isinstance(node, list):
        return [s for item in node for s in _scopes(item)]
    return []


def test_the_textmate_grammar_keeps_to_regexes_both_engines_read_alike() -> None:
    regexes = _regexes(tm_grammar())
    assert len(regexes) > 40
    for source in regexes:
        for what, pattern in NOT_COMMON.items():
            assert not pattern.search(source), f"{what} in {source!r}"
        re.compile(source)
        lookbehinds = re.findall(r"\(\?<[=!]", source)
        assert not lookbehinds or not re.search(r"\(\?<[=!][^)]*[*+?{]", source), \
            f"a lookbehind of varying length in {source!r}"


def test_every_scope_of_the_textmate_grammar_has_a_class() -> None:
    grammar = tm_grammar()
    assert grammar["scopeName"] == "source.cardsmith"
    scopes = _scopes(grammar)
    assert scopes and all(s.endswith(".cardsmith") for s in scopes)
    assert not [s for s in scopes if _scope_class(s) is None]


def _compare(text: str, textmate: list[_TokenType | None] | None = None) -> list[tuple[int, int, str, Any, Any]]:
    """Where the two highlighters disagree: (line, column, character, Pygments, TextMate); the
    TextMate classes are the tokenizer's here unless given."""
    pygments_classes: list[_TokenType] = []
    for kind, value in tokens(text):
        pygments_classes += [kind] * len(value)
    if textmate is None:
        textmate = TextMate(tm_grammar()).classes(text)
    differences = []
    for i, ch in enumerate(text):
        if ch.isspace():
            continue
        mine = pygments_classes[i]
        theirs = textmate[i] if textmate[i] is not None else Name
        if mine is not theirs:
            line = text.count("\n", 0, i) + 1
            differences.append((line, i - text.rfind("\n", 0, i), ch, mine, theirs))
    return differences


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_textmate_grammar_colours_every_bundled_source_as_the_lexer_does(path: Path) -> None:
    differences = _compare(path.read_text("utf-8"))
    assert not differences, differences[:10]


# Every keyword of the grammar in a place where the parser takes it as one.
KITCHEN_SINK = '''use sink
# a comment
game sink "水槽" en "Sink" doc en "A game." section 1:
    players 2
    start play

character hero "英雄": number 1
token chip "筹码"
zone bank "银行": shared, holds chip, supply, max 5
counter score "分数": per player, range 0..9, starts -1
flag ready "准备": per player
field power "力量": pair, default {3/1}
kind blob "团"
value doubled(n: number) "双倍" = n * 2 // 1 % 3
event scored(p) "得分"
timing on_play(target) "打出时": mark none
keyword fierce "猛烈" = count(self.purse) >= 4

procedure play(p: player) "一局" section 9-4:
    step 1 "开始":
        let c = pick c in cards(p.hand) for p where c.power != none prefer true optional "选"
        let n = number from 1 to 3 for p "几"
        let yes = ask p "要吗"
        if yes and not false or n in [1, 2] or n not in [3]:
            move 2 chip of p from bank to p.purse
        elif n == 2:
            put c into p.hand top
        else:
            put c into p.hand bottom
        for q in players():
            emit scored(q)
        while n > 0:
            n -= 1
            break
        repeat 2:
            pass
        choose for p "选一个":
            option "甲" passive for x in [1] if true:
                modify c.power by +1/-1 live while true until scored
            option "乙":
                forbid chip from p.purse while ready
        reveal c to p
        shuffle p.hand
        once when scored(q) if q == p until scored:
            log "{} 得分", q to p
        win p "赢"
        lose p "输"
        draw_game none
        return
    step 2 "结束":
        return <手牌>

when scored(p) if true "得分时":
    pass

check tidy "整理":
    pass

action rest "休息" for p if true passive:
    pass

addendum extra "追加" section 22:
    for hero
    instead of play step 1 when true "代替":
        pass
    after play step 1 "之后":
        pass
    in play step 1 option "丙" for c in [1] if true:
        pass

card spark "火花":
    power 3/-
    on_play under constant:
        pass

scenario demo "演示":
    run:
        expect true "真"
        expect offered p1 "甲"
        expect not offered p1 "乙"
        expect winner p1
'''


def test_the_kitchen_sink_parses_and_both_highlighters_show_every_grammar_keyword_as_one() -> None:
    """The TextMate grammar's keyword rules match every keyword of the grammar, and so does the
    lexer: each in a place where the parser takes it as a keyword."""
    from cardsmith.compiler.parse import parse_source

    _, diagnostics = parse_source("sink.csm", KITCHEN_SINK)
    assert not diagnostics, [str(d) for d in diagnostics]

    def keyword_like(kind: _TokenType | None) -> bool:
        return kind is not None and (kind in Keyword or kind in Operator.Word)

    by_lexer = {value for kind, value in tokens(KITCHEN_SINK) if keyword_like(kind)}
    textmate = TextMate(tm_grammar()).classes(KITCHEN_SINK)
    by_textmate = {m.group() for m in re.finditer(r"(?<!\w)[a-z_]+(?!\w)", KITCHEN_SINK)
                   if all(keyword_like(textmate[i]) for i in range(m.start(), m.end()))}
    assert not grammar_keywords() - by_lexer, sorted(grammar_keywords() - by_lexer)
    assert not grammar_keywords() - by_textmate, sorted(grammar_keywords() - by_textmate)
    assert not _compare(KITCHEN_SINK)


HOSTILE = 'card x "</script><script>alert(1)</script>" en "【攻撃後】〈x〉 \\\\":\n    text "unclosed\n'


def test_a_string_with_a_hostile_or_broken_text_stays_a_string_in_both() -> None:
    text = HOSTILE
    assert "".join(v for _, v in tokens(text)) == text
    assert not [v for k, v in tokens(text) if k in Error]
    assert not _compare(text)


# ---- the TextMate grammar in VS Code's own engine -----------------------------------------------

VSCODE_ENGINE = VSCODE / "test" / "tokenize.js"


def vscode_classes(texts: list[str]) -> list[list[_TokenType | None]]:
    """The class of every character of each text as VS Code's TextMate engine (vscode-textmate on
    Oniguruma) colours it, through `editors/vscode/test/tokenize.js`; skips without Node or the
    extension's development dependencies."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the TextMate grammar is checked by the tokenizer above only")
    if not all((VSCODE / "node_modules" / p / "package.json").is_file() for p in ("vscode-textmate", "vscode-oniguruma")):
        pytest.skip("vscode-textmate is not installed: run `npm install` in editors/vscode to check the grammar "
                    "with VS Code's own engine")
    run = subprocess.run([node, str(VSCODE_ENGINE)], input=json.dumps(texts), capture_output=True, text=True,
                         encoding="utf-8", timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    found: list[list[list[Any]]] = json.loads(run.stdout)
    result = []
    for text, spans in zip(texts, found, strict=True):
        classes: list[_TokenType | None] = [None] * len(text)
        for start, length, scopes in spans:
            kinds = [k for k in map(_scope_class, scopes) if k is not None]
            classes[start:start + length] = [kinds[0] if kinds else None] * length
        result.append(classes)
    return result


def test_vscodes_engine_colours_every_bundled_source_as_the_lexer_does() -> None:
    texts = [path.read_text("utf-8") for path in SOURCES] + [KITCHEN_SINK, HOSTILE]
    names = [str(path.relative_to(ROOT)) for path in SOURCES] + ["KITCHEN_SINK", "HOSTILE"]
    differences = {name: found[:5] for name, text, classes in zip(names, texts, vscode_classes(texts), strict=True)
                   if (found := _compare(text, classes))}
    assert not differences, differences


# ---- the VS Code extension ---------------------------------------------------------------------


def test_the_extension_files_parse_and_contribute_the_language() -> None:
    package = json.loads((VSCODE / "package.json").read_text("utf-8"))
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "cardsmith" and language["extensions"] == [".csm"]
    (grammar,) = package["contributes"]["grammars"]
    assert grammar["language"] == "cardsmith" and grammar["scopeName"] == tm_grammar()["scopeName"]
    assert (VSCODE / grammar["path"]).resolve() == TM_GRAMMAR
    assert (VSCODE / package["main"]).is_file()
    setting = package["contributes"]["configuration"]["properties"]["cardsmith.server.command"]
    assert setting["default"] == ["cardsmith", "lsp"]
    assert "vscode-languageclient" in package["dependencies"]
    script = (VSCODE / package["main"]).read_text("utf-8")
    assert "vscode-languageclient/node" in script and "server.command" in script

    config = json.loads((VSCODE / language["configuration"]).read_text("utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert ["(", ")"] in config["brackets"] and ["[", "]"] in config["brackets"]
    assert any(pair["open"] == '"' and pair["close"] == '"' for pair in config["autoClosingPairs"])
    increase = re.compile(config["indentationRules"]["increaseIndentPattern"])
    decrease = re.compile(config["indentationRules"]["decreaseIndentPattern"])
    for opens in ('card x "斩" en "Slash":', "    after_attack:", '    step 1 "a: b":  # c', "        else:"):
        assert increase.search(opens), opens
    for not_opening in ('    text "After Attack: 1"', "    # a comment:", "    move 1 x from a to b"):
        assert not increase.search(not_opening), not_opening
    assert decrease.search("        else:") and decrease.search("    elif x:") and not decrease.search("    if x:")
