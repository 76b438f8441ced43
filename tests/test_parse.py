"""Parse stage: the grammar is LALR and conflict-free; syntax errors are located and recovered."""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark, Tree

from cardsmith.compiler import span as span_module
from cardsmith.compiler import syntax as s
from cardsmith.compiler.frozen import frozen
from cardsmith.compiler.parse import _Indenter, grammar_text, parse_source
from cardsmith.compiler.unparse import unparse


def test_grammar_builds_strict_lalr() -> None:
    parser = Lark(grammar_text(), parser="lalr", postlex=_Indenter(), strict=True,
                  propagate_positions=True, maybe_placeholders=False)
    assert parser.options.parser == "lalr"


def test_walk_reaches_every_node_through_every_field() -> None:
    """`syntax.walk` skips the fields whose types never hold a node: it must still reach what a
    walk through every field reaches (a designer's goddess: addenda, procedures, cards, scenarios)."""
    from dataclasses import fields
    from pathlib import Path

    def everything(root: object) -> list[int]:
        found, stack = [], [root]
        while stack:
            item = stack.pop()
            if isinstance(item, s.Node):
                found.append(id(item))
                stack.extend(getattr(item, f.name) for f in fields(item))
            elif isinstance(item, (tuple, list)):
                stack.extend(item)
        return sorted(found)

    folder = Path(__file__).resolve().parent.parent / "examples" / "hotaru"
    for path in sorted(folder.glob("*.csm")):
        parsed, diags = parse_source(str(path), path.read_text("utf-8"))
        assert not diags and parsed.items
        assert sorted(map(id, s.walk(parsed.items))) == everything(parsed.items), path.name


def test_a_pruned_walk_gives_pruned_nodes_but_not_what_they_hold() -> None:
    text = 'procedure f(p):\n    if p.ready:\n        p.score = 1 + 2\n'
    parsed, diags = parse_source("x.csm", text)
    assert not diags
    kinds = sorted(type(n).__name__ for n in s.walk(parsed.items, prune=s.EXPRESSIONS))
    assert kinds == ["Assign", "Attr", "Attr", "BinOp", "If", "Procedure", "Step"]   # no Name, no IntLit
    every = [type(n).__name__ for n in s.walk(parsed.items)]
    assert every.count("Name") == 2 and every.count("IntLit") == 2


def test_card_parses_to_frozen_dataclasses_with_spans() -> None:
    text = 'card c1 "斬" en "Slash":\n    range 3-4\n    damage 3/1\n    after_attack:\n        move 1 crystal from dust to self.aura\n'
    f, diags = parse_source("x.csm", text)
    assert diags == []
    (card,) = f.items
    assert isinstance(card, s.Entity) and card.name == "c1"
    assert card.labels.default == "斬" and card.labels.get("en") == "Slash"
    assert [p.name for p in card.props] == ["range", "damage"]
    move = card.blocks[0].body[0]
    assert isinstance(move, s.Move) and move.token == "crystal"
    assert (move.span.line, move.span.col) == (5, 9)


@pytest.mark.parametrize("module", [s, span_module], ids=["syntax", "span"])
def test_every_model_record_takes_its_fields_as_a_frozen_dataclass_does(module: object) -> None:
    """`@frozen`'s quicker `__init__`: the fields in order, by position or name, with their
    defaults, and nothing else."""
    records = [c for c in vars(module).values() if isinstance(c, type) and dataclasses.is_dataclass(c)
               and c.__module__ == module.__name__]  # type: ignore[attr-defined]
    assert len(records) > (60 if module is s else 0)
    for cls in records:
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [(p.name, p.default) for p in params] == [
            (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
            for f in dataclasses.fields(cls)], cls


def test_a_frozen_record_behaves_as_a_frozen_dataclass() -> None:
    @frozen
    class Quick:
        name: str
        count: int = 2
        tags: tuple[str, ...] = ()

    @dataclasses.dataclass(frozen=True)
    class Plain:
        name: str
        count: int = 2
        tags: tuple[str, ...] = ()

    made = [Quick("a"), Quick("a", 3), Quick(name="a", tags=("x",)), Quick("a", count=3, tags=("x",))]
    twins = [Plain("a"), Plain("a", 3), Plain(name="a", tags=("x",)), Plain("a", count=3, tags=("x",))]
    for quick, plain in zip(made, twins, strict=True):
        assert dataclasses.astuple(quick) == dataclasses.astuple(plain)
        assert repr(quick).removeprefix(type(quick).__qualname__) == repr(plain).removeprefix(type(plain).__qualname__)
    assert made[1] == Quick("a", 3) and hash(made[1]) == hash(Quick("a", 3)) and made[0] != made[1]
    assert dataclasses.replace(made[0], count=5) == Quick("a", 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].count = 4  # type: ignore[misc]
    with pytest.raises(TypeError, match="name"):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", 1, (), "extra")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="colour"):
        Quick("a", colour=1)  # type: ignore[call-arg]


def test_frozen_refuses_what_its_init_would_not_make() -> None:
    with pytest.raises(TypeError, match="default factory"):
        @frozen
        class Listed:
            items: list[int] = dataclasses.field(default_factory=list)
    with pytest.raises(TypeError, match="left out of __init__"):
        @frozen
        class Derived:
            value: int = dataclasses.field(default=0, init=False)
    with pytest.raises(TypeError, match="__post_init__"):
        @frozen
        class Checked:
            value: int

            def __post_init__(self) -> None:
                pass


def test_every_broken_declaration_is_reported_and_the_rest_is_kept() -> None:
    text = ("card a:\n    type = 3\n"       # broken
            "card b:\n    range 1-2\n"      # fine
            "procedure p(:\n    pass\n"     # broken
            "card c:\n    damage 1/1\n")    # fine
    f, diags = parse_source("x.csm", text)
    assert [d.code for d in diags] == ["E001", "E001"]
    assert [d.span.line for d in diags] == [2, 5]
    assert [i.name for i in f.items if isinstance(i, s.Entity)] == ["b", "c"]


def test_full_width_punctuation_gets_a_specific_hint() -> None:
    f, diags = parse_source("x.csm", 'card a "一閃"：\n    range 3\n')
    (d,) = diags
    assert d.code == "E002" and d.span.line == 1 and d.span.col == 12
    assert "：" in d.message and d.hint and ":" in d.hint


def test_deep_nesting_is_a_diagnostic_not_a_crash() -> None:
    expr = "(" * 500 + "1" + ")" * 500
    f, diags = parse_source("x.csm", f"value v = {expr}\n")
    assert [d.code for d in diags] == ["E004"]


def test_deep_indentation_is_a_diagnostic_not_a_crash() -> None:
    lines = ["procedure p:"]
    for depth in range(1, 120):
        lines.append("    " * depth + "if true:")
    lines.append("    " * 120 + "pass")
    f, diags = parse_source("x.csm", "\n".join(lines) + "\n")
    assert diags and all(d.code == "E004" for d in diags)


def test_huge_input_is_refused_with_a_diagnostic() -> None:
    f, diags = parse_source("x.csm", "# x\n" * 2_000_000)
    assert [d.code for d in diags] == ["E004"]


def test_bad_indentation_is_located() -> None:
    f, diags = parse_source("x.csm", "procedure p:\n        pass\n      pass\n")
    assert [(d.code, d.message, d.span.line) for d in diags] == [("E003", "inconsistent indentation", 1)]


@pytest.mark.parametrize(("written", "shown"), [
    ("(a or b) and c", "(a or b) and c"),
    ("a or b and c", "a or b and c"),
    ("not (a and b)", "not (a and b)"),
    ("(a - b) - c", "a - b - c"),
    ("a - (b - c)", "a - (b - c)"),
    ("a * (b + c)", "a * (b + c)"),
    ("-(a + b)", "-(a + b)"),
    ("(a == b) == c", "(a == b) == c"),
    ("(a in b) and not c", "a in b and not c"),
])
def test_an_expression_is_shown_with_the_brackets_its_meaning_needs(written: str, shown: str) -> None:
    """References print conditions back as source: `(a or b) and c` must not lose its brackets."""
    def value(text: str) -> s.Expr:
        parsed, problems = parse_source("v.csm", f'value v "值" = {text}\n')
        assert problems == []
        (decl,) = parsed.items
        assert isinstance(decl, s.Value)
        return decl.expr
    assert unparse(value(written)) == shown
    assert unparse(value(shown)) == shown  # shown text reads back as the same expression


def _same_tree(ours: object, lark_s: object, where: str) -> None:
    """The same node, children and position (every attribute of Lark's meta, and every token's)."""
    from lark import Token, Tree
    assert type(ours) is type(lark_s), where
    if isinstance(ours, Tree) and isinstance(lark_s, Tree):
        assert ours.data == lark_s.data and vars(ours.meta) == vars(lark_s.meta), where
        assert len(ours.children) == len(lark_s.children), where
        for i, (a, b) in enumerate(zip(ours.children, lark_s.children, strict=True)):
            _same_tree(a, b, f"{where}/{ours.data}[{i}]")
    elif isinstance(ours, Token) and isinstance(lark_s, Token):
        position = ("type", "line", "column", "end_line", "end_column", "start_pos", "end_pos")
        assert ours == lark_s and [getattr(ours, k) for k in position] == [getattr(lark_s, k) for k in position], where
    else:
        assert ours == lark_s, where


def _corpus() -> list[tuple[str, str]]:
    """Every declaration of the bundled games, the example, the diagnostics and the fuzz corpus."""
    from pathlib import Path

    from cardsmith.compiler.parse import split_items
    root = Path(__file__).resolve().parent.parent
    paths = sorted([*(root / "cards").rglob("*.csm"), *(root / "examples").rglob("*.csm"),
                    *(root / "tests" / "data").rglob("*.csm")])
    assert len(paths) > 80
    return [(f"{path.name}:{start}", chunk) for path in paths
            for start, chunk in split_items(path.read_text("utf-8", errors="replace"))]


def _outcome(parse: Callable[[str], object], chunk: str) -> object:
    try:
        return parse(chunk)
    except Exception as err:  # noqa: BLE001 - the same failure is expected of both
        return (type(err).__name__, str(err))


def test_one_call_per_reduction_builds_the_trees_lark_builds() -> None:
    """`trees.install` replaces Lark's chain of tree-building wrappers, and `lalr.Driver` its
    lexing and parsing loop: on every declaration of the corpus, the trees, their positions and
    containers, and the errors are those of Lark's parser left as Lark builds it."""
    from cardsmith.compiler.parse import _build_parser, driver, parse_tree, parser
    ours, lark_s = parser(), _build_parser(strict=False)
    assert {reduce.__module__ for reduce in ours._callbacks.values()} == {"cardsmith.compiler.trees"}
    fast = driver()
    assert fast is not None, "the installed Lark is run by its own loop: lalr.Driver no longer fits it"
    corpus = _corpus()
    driven = 0
    for where, chunk in corpus:
        expected = _outcome(lark_s.parse, chunk)
        _same_tree(_outcome(parse_tree, chunk), expected, where)
        _same_tree(_outcome(ours.parse, chunk), expected, where)
        driven += isinstance(_outcome(fast.parse, chunk), Tree)
    assert len(corpus) > 2000 and driven > 2000


def test_the_driver_finishes_only_what_lark_finishes() -> None:
    """Declarations cut, doubled or spliced at every kind of place: where the driver finishes a
    parse, Lark finishes it with the same tree; where Lark fails, the driver gives up (and the
    caller's error is Lark's)."""
    from cardsmith.compiler.lalr import GiveUp
    from cardsmith.compiler.parse import _build_parser, driver
    fast, lark_s = driver(), _build_parser(strict=False)
    assert fast is not None
    corpus = [chunk for _, chunk in _corpus()]
    rng = random.Random(16)
    tallies = {"both finish": 0, "both fail": 0}
    for _ in range(3000):
        chunk = _mutated(corpus, rng)
        expected = _outcome(lark_s.parse, chunk)
        try:
            got = fast.parse(chunk)
        except GiveUp:
            assert not isinstance(expected, Tree), chunk
            tallies["both fail"] += 1
        else:
            _same_tree(got, expected, repr(chunk))
            tallies["both finish"] += 1
    assert min(tallies.values()) > 500, tallies


def _built(chunk: str) -> object:
    """What the usual build (Lark's tree, then the Builder) makes of a declaration, or its error."""
    from cardsmith.compiler.build import Builder
    from cardsmith.compiler.parse import parse_tree
    return _outcome(lambda text: list(Builder("f.csm", 6).transform(parse_tree(text))), chunk)


def _mutated(corpus: list[str], rng: random.Random) -> str:
    """A declaration cut, doubled or spliced at a random place."""
    pieces = ["\n", "    ", "\t", "(", ")", "[", "]", ":", ",", "-", "#", '"', "\\\n", "1/2", "if ", "x", "not ", " + 1"]
    chunk = rng.choice(corpus)
    at, to = sorted(rng.randrange(len(chunk) + 1) for _ in range(2))
    return rng.choice([chunk[:at] + chunk[to:], chunk[:at] + rng.choice(pieces) + chunk[at:],
                       chunk[:to] + chunk[at:to] + chunk[to:], chunk[:at] + rng.choice(corpus)])


def test_the_model_built_during_the_parse_is_the_model_built_from_the_tree() -> None:
    """`direct.Direct` builds each node as its rule is reduced: on every declaration of the
    corpus it makes the same syntax model, spans included, as the Builder makes of Lark's tree."""
    from cardsmith.compiler.lalr import GiveUp
    from cardsmith.compiler.parse import direct
    fast = direct()
    assert fast is not None
    finished = 0
    for where, chunk in _corpus():
        try:
            got = fast.build(chunk, "f.csm", 6)
        except GiveUp:
            continue
        assert got == _built(chunk), where
        finished += 1
    assert finished > 2500


def test_the_model_built_during_the_parse_accepts_only_what_the_tree_build_accepts() -> None:
    """Mutated declarations: where the usual parse or build fails, the direct build gives up
    (the caller then reports the usual error); where it finishes, its model is the usual one."""
    from cardsmith.compiler.lalr import GiveUp
    from cardsmith.compiler.parse import direct
    fast = direct()
    assert fast is not None
    corpus = [chunk for _, chunk in _corpus()]
    rng = random.Random(61)
    tallies = {"same model": 0, "both fail": 0, "left to the tree build": 0}
    for _ in range(3000):
        chunk = _mutated(corpus, rng)
        expected = _built(chunk)
        try:
            got = fast.build(chunk, "f.csm", 6)
        except GiveUp:
            tallies["left to the tree build" if isinstance(expected, list) else "both fail"] += 1
        else:
            assert got == expected, repr(chunk)
            tallies["same model"] += 1
    assert tallies["same model"] > 500 and tallies["both fail"] > 500, tallies
    assert tallies["left to the tree build"] < 30, tallies  # a well-formed declaration is seldom left


@pytest.mark.parametrize("chunk", [
    "procedure f(x: widget) \"f\":\n    return x\n    )\n",  # a Builder error before a syntax error
    "procedure f(x: widget) \"f\":\n    return x\n",  # a Builder error alone
    "value v \"v\" = " + "not " * 60 + "x\n",  # nested too deeply
    "value v \"v\" = " + " + ".join(["1"] * 120) + "\n",  # a chain too long
])
def test_what_the_direct_build_gives_up_on_is_reported_as_before(chunk: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A declaration the direct build gives up on gets the diagnostics the tree build gives,
    in the same order and at the same place."""
    from cardsmith.compiler import parse
    with_direct = parse_source("f.csm", chunk)[1]
    monkeypatch.setattr(parse, "direct", lambda: None)
    assert with_direct == parse_source("f.csm", chunk)[1] and with_direct


def test_parse_source_builds_without_a_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """A well-formed file is parsed by the direct build alone: no Lark tree is made."""
    from pathlib import Path

    from cardsmith.compiler import parse

    def no_tree(chunk: str) -> object:
        raise AssertionError("a tree was made")
    monkeypatch.setattr(parse, "parse_tree", no_tree)
    path = Path(__file__).resolve().parent.parent / "cards" / "sakura" / "core.csm"
    parsed, problems = parse_source(str(path), path.read_text("utf-8"))
    assert problems == [] and len(parsed.items) > 50


@given(st.text(alphabet='([)]\n \t1023"#a:\\', max_size=400))
@settings(max_examples=400, deadline=None)
def test_the_limits_shortcut_agrees_with_the_full_scan(chunk: str) -> None:
    """`_prescan` skips the token-by-token scan of a declaration with too few lines, brackets
    and digits in a row to pass a limit: on any text, it says what the full scan says."""
    from cardsmith.compiler.parse import _prescan, _scan_limits
    assert _prescan("f.csm", 3, chunk) == _scan_limits("f.csm", 3, chunk)


@pytest.mark.parametrize("chunk", ["card a:\n" + "    x(" * 33 + "\n", "card a:\n    x 1000000000001\n",
                                   "card a:\n" + "".join(f"{'    ' * i}if x:\n" for i in range(1, 27))])
def test_the_limits_shortcut_lets_each_limit_through(chunk: str) -> None:
    """A declaration past each limit is reported (the shortcut does not hide it)."""
    from cardsmith.compiler.parse import _prescan
    found = _prescan("f.csm", 1, chunk)
    assert found is not None and found.code in {"E004", "E104"}


def test_the_driver_leaves_to_lark_what_it_does_not_run() -> None:
    """A parser without the indentation post-lexer is not driven at all; a state whose lexer
    retypes a case-insensitive keyword gives up (Lark parses) only where that state reads."""
    from cardsmith.compiler.lalr import Driver, GiveUp, Unsupported
    from cardsmith.compiler.parse import _Indenter
    from cardsmith.compiler.trees import install
    grammar = '''start: (stmt _NL)*
stmt: "say" item | "(" NAME ")"
item: "go"i | NAME
NAME: /[a-z]+/
_NL: /\\n[ \\t]*/
%declare _INDENT _DEDENT
%ignore " "
'''
    options = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}
    with pytest.raises(Unsupported):
        Driver(install(Lark(grammar, **options)))  # type: ignore[arg-type]
    lark_s = install(Lark(grammar, postlex=_Indenter(), **options))  # type: ignore[arg-type]
    driver = Driver(lark_s)
    with pytest.raises(GiveUp):
        driver.parse("say go\n")  # after `say`, a state reads NAME and the keyword GO (flag i)
    assert lark_s.parse("say GO\n").children[0].children[0].data == "item"
    _same_tree(driver.parse("(x)\n(y)\n"), lark_s.parse("(x)\n(y)\n"), "a state without the keyword")


def test_the_driver_takes_the_spaces_after_a_token_only_where_nothing_else_starts_with_them() -> None:
    """The loop takes the ignored spaces after a token itself, unless some terminal could
    start with a space: then every space is scanned as Lark scans it."""
    from cardsmith.compiler.lalr import Driver
    from cardsmith.compiler.parse import driver
    from cardsmith.compiler.trees import install
    fast = driver()
    assert fast is not None and fast._spaces == frozenset(" \t")
    grammar = '''start: (stmt _NL)*
stmt: "say" NAME ARROW?
ARROW: " ->"
NAME: /[a-z]+/
_NL: /\\n[ \\t]*/
%declare _INDENT _DEDENT
%ignore " "
'''
    options = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}
    lark_s = install(Lark(grammar, postlex=_Indenter(), **options))  # type: ignore[arg-type]
    arrows = Driver(lark_s)
    assert arrows._spaces == frozenset()
    text = "say  x ->\nsay y\n"
    _same_tree(arrows.parse(text), lark_s.parse(text), "a terminal that starts with a space")


@pytest.mark.parametrize(("expression", "starts", "not_starts"), [
    ("abc", "a", "bA "),
    ("(?i:a)b", "aA", "b"),
    ("[\t ]+", " \t", "\na"),
    ("[^x]", "a \n", "x"),
    (r"(?!\d)\w+", "a_字9", " -"),  # the look-ahead is not read: it rules nothing out
    ("a?b|c", "abc", "d"),
    (r"\b(x)\1", "x", "y"),
    ("x*", "xy \n", ""),  # may be empty: may start anywhere
    (r"(a)\1", "a", "b"),
    ("(a)?(?(1)x|y)", "ayx", ""),  # a conditional group: not read
])
def test_what_a_match_may_start_with(expression: str, starts: str, not_starts: str) -> None:
    from cardsmith.compiler.first_chars import may_start
    assert all(may_start(expression, frozenset(char)) for char in starts)
    assert not any(may_start(expression, frozenset(char)) for char in not_starts)


@pytest.mark.parametrize(("expression", "chars"), [
    ("[\t ]+", frozenset(" \t")), ("x", frozenset("x")), ("(?:[a-c])y", frozenset("abc")),
    ("a|b", frozenset("ab")), ("ab|cd", None), ("x*", None), (r"\w", None), ("[^a]", None), ("(?i:x)", None), ("[\x00-\uffff]", None),
])
def test_the_characters_a_match_starts_with(expression: str, chars: frozenset[str] | None) -> None:
    from cardsmith.compiler.first_chars import first_chars
    assert first_chars(expression) == chars


_SOME_EXPRESSIONS = ["abc", "(?i:ab)c", "[\t ]+", "[^x]+", r"(?!\d)\w+", "a?b|c", "x*y", "(?:a|)b", r"\\[\t ]*\r?\n",
                     r'"(?:[^"\\\n]|\\.)*"', r"(?:(?:\r?\n[\t ]*|#[^\n]*))+", r"[+-][0-9]+\/[+-][0-9]+", "(?=a)[ab]",
                     "(?>a|b)c", "a{0}b", "(?s:.)"]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_match_starts_with_a_character_the_reading_allows(data: st.DataObject) -> None:
    """Whatever an expression matches, `may_start` allows its first character, and
    `first_chars` (where it gives a list) holds it; this grammar's terminals included."""
    import re

    from cardsmith.compiler.first_chars import first_chars, may_start
    from cardsmith.compiler.parse import parser
    expression = data.draw(st.sampled_from(_SOME_EXPRESSIONS + [t.pattern.to_regexp() for t in parser().terminals]))
    text = data.draw(st.text(alphabet=" \t\n\r\\\"#ab_xyzAB09+-/.<>=字", min_size=1, max_size=8))
    match = re.match(expression, text)
    if match is None:
        return
    first = match.group()[:1] or text[0]  # an empty match could be followed by anything
    assert may_start(expression, frozenset(first))
    chars = first_chars(expression)
    assert chars is None or (match.group() and first in chars)
