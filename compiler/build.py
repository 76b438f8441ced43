"""Build stage: the Lark tree of one declaration → syntax-model dataclasses (`syntax.py`),
each with its span. Expressions nested deeper than MAX_EXPR_DEPTH are refused here, so
later stages never meet a tree too deep for them."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from lark import Token, Tree

from . import syntax as s
from .diagnostics import Diagnostic, did_you_mean
from .limits import MAX_EXPR_DEPTH
from .refs import TYPE_WORDS

At = tuple[int, int, int, int] | None  # where a node lies in its declaration: line, column, end line, end column
LIVE = "live"  # the mark of a `modify … live` (its change worked out at each read)


class BuildError(Exception):
    """A declaration that parses but cannot be built; carries its diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _at(meta: Any) -> At:
    """Where a Lark tree node lies (None: nowhere, for a node of no tokens)."""
    return None if meta.empty else (meta.line, meta.column, meta.end_line, meta.end_column)


def _side(text: str) -> int | None:
    return None if text == "-" else int(text)


# Lark rules that nest an expression one level deeper in the syntax model (and in the
# generated Python); `sum` and `product` add one level per operator.
_EXPR_RULES = frozenset({"or_expr", "and_expr", "not_op", "compare", "neg", "attr", "call",
                         "index", "list_lit", "list_where"})
_CHAIN_RULES = frozenset({"sum", "product"})
_DEPTH = dict.fromkeys(_EXPR_RULES, 1)
NESTING_RULES = _EXPR_RULES | _CHAIN_RULES  # the rules whose nodes count toward the depth


def nesting(rule: str, children: int) -> int:
    """The levels of expression depth a node of `rule` with so many children adds (a chain
    `a + b + c` one per operator); no path through a declaration may add up to more than
    MAX_EXPR_DEPTH."""
    return _DEPTH.get(rule, 0) or (children // 2 if rule in _CHAIN_RULES else 0)

_ATOM_KINDS = {"NAME": "name", "INT": "int", "STRING": "str", "PAIR": "pair", "LPAIR": "pair", "DELTA": "delta",
               "NUMPATH": "path", "DOTRANGE": "dotrange", "NEGINT": "int"}  # a property's word, by its token


class Builder:
    """Turns the Lark tree into syntax-model dataclasses, bottom-up: the method named after a
    rule is called with where the rule's node lies (`At`) and its built children; a rule
    without a method stays a Lark tree of built children (`optional` and similar keywords).
    `direct.py` calls the same methods during the parse, without a tree.

    The methods are called directly rather than through a Lark `Transformer`: its per-call
    argument wrappers took about a third of the build (a 2,000-card file: 0.28 → 0.19 s)."""

    def __init__(self, path: str, line_offset: int) -> None:
        self.path = path
        self.offset = line_offset
        self.depth = 0

    def transform(self, tree: Tree[Any]) -> Any:
        """Build bottom-up, refusing expressions nested deeper than MAX_EXPR_DEPTH, so later
        stages (and the generated Python) never meet a tree too deep for them. A builder that
        raised is not used again (its depth is left as it was at the error)."""
        rule = tree.data
        children = tree.children
        extra = nesting(rule, len(children))
        if extra:
            self.depth += extra
            if self.depth > MAX_EXPR_DEPTH:
                raise BuildError(Diagnostic(
                    "E004", f"expression nested deeper than {MAX_EXPR_DEPTH} levels", self._span(_at(tree.meta)),
                    hint="split it with `let` variables"))
        built = []
        for child in children:
            built.append(self.transform(child) if type(child) is Tree else child)
        self.depth -= extra
        method = RULE_METHODS.get(rule)
        if method is None:
            return Tree(rule, built, tree.meta)
        return method(self, _at(tree.meta), built)

    # -- helpers --
    def _span(self, at: At) -> s.Span:
        if at is None:
            return s.Span(self.path, self.offset + 1, 1, self.offset + 1, 1)
        line, column, end_line, end_column = at
        return s.Span(self.path, line + self.offset, column, end_line + self.offset, end_column)

    def _tok_span(self, tok: Token) -> s.Span:
        return s.Span(self.path, (tok.line or 1) + self.offset, tok.column or 1,
                      (tok.end_line or tok.line or 1) + self.offset,
                      tok.end_column or (tok.column or 1) + len(tok))

    def _atom(self, tok: Any) -> s.Atom:
        if isinstance(tok, Tree):  # `optional` and similar keyword rules
            tok = tok.children[0]
        kind = _ATOM_KINDS.get(tok.type, "name")
        text = _unquote(str(tok)) if tok.type == "STRING" else str(tok)
        return s.Atom(kind, text, self._tok_span(tok))

    # -- top level --
    def start(self, at: At, children: list[Any]) -> list[s.Decl]:
        return children

    def use_decl(self, at: At, ch: list[Any]) -> s.Use:
        return s.Use(str(ch[0]), self._span(at))

    def _simple(self, what: str, at: At, ch: list[Any]) -> s.Simple:
        name, labels = ch[0], ch[1]
        opts = tuple(ch[2]) if len(ch) > 2 else ()
        return s.Simple(what, str(name), labels, opts, self._span(at), self._tok_span(name))

    def character_decl(self, at: At, ch: list[Any]) -> s.Simple:
        return self._simple("character", at, ch)

    def token_decl(self, at: At, ch: list[Any]) -> s.Simple:
        return self._simple("token", at, ch)

    def zone_decl(self, at: At, ch: list[Any]) -> s.Simple:
        return self._simple("zone", at, ch)

    def counter_decl(self, at: At, ch: list[Any]) -> s.Simple:
        return self._simple(str(ch[0]), at, ch[1:])

    def counter_kw(self, at: At, ch: list[Any]) -> str:
        return str(ch[0])

    def field_decl(self, at: At, ch: list[Any]) -> s.Simple:
        return self._simple("field", at, ch)

    def kind_decl(self, at: At, ch: list[Any]) -> s.Simple:
        return self._simple("kind", at, ch)

    def value_decl(self, at: At, ch: list[Any]) -> s.Value:
        names, types = ch[1]
        return s.Value(str(ch[0]), names, ch[2], ch[3], self._span(at), types)

    def event_decl(self, at: At, ch: list[Any]) -> s.Event:
        names, types = ch[1]
        return s.Event(str(ch[0]), names, ch[2], self._span(at), types)

    def timing_decl(self, at: At, ch: list[Any]) -> s.Timing:
        opts = tuple(ch[3]) if len(ch) > 3 else ()
        names, types = ch[1]
        return s.Timing(str(ch[0]), names, ch[2], opts, self._span(at), types)

    def keyword_decl(self, at: At, ch: list[Any]) -> s.Keyword:
        return s.Keyword(str(ch[0]), ch[1], ch[2] if len(ch) > 2 else None, self._span(at))

    def procedure_decl(self, at: At, ch: list[Any]) -> s.Procedure:
        name, (params, types), labels, body = ch
        if body and isinstance(body[0], s.Step):
            steps = tuple(body)
        else:
            steps = (s.Step("", s.Labels(), tuple(body), self._span(at)),)
        return s.Procedure(str(name), params, labels, steps, self._span(at), types)

    def proc_body(self, at: At, ch: list[Any]) -> list[Any]:
        return ch

    def step(self, at: At, ch: list[Any]) -> s.Step:
        return s.Step(str(ch[0]), ch[1], ch[2], self._span(at))

    def step_id(self, at: At, ch: list[Any]) -> Token:
        return ch[0]  # kept as a token so replacements can point at it

    def trigger_decl(self, at: At, ch: list[Any]) -> s.Trigger:
        name, params = ch[0], ch[1]
        cond = ch[2] if len(ch) == 5 else None
        return s.Trigger(str(name), params, cond, ch[-1], self._span(at), ch[-2], self._tok_span(name))

    def replace_decl(self, at: At, ch: list[Any]) -> s.Replace:
        proc, step = ch[0], ch[1]
        cond = ch[2] if len(ch) == 5 else None
        return s.Replace(str(proc), str(step), cond, ch[-2], ch[-1], self._span(at),
                         self._tok_span(proc), self._tok_span(step))

    def append_decl(self, at: At, ch: list[Any]) -> s.Replace:
        return replace(self.replace_decl(at, ch), after=True)

    def option_decl(self, at: At, ch: list[Any]) -> s.AddedOption:
        proc, step, option = ch
        return s.AddedOption(str(proc), str(step), option, self._span(at), self._tok_span(proc),
                             self._tok_span(step))

    def action_decl(self, at: At, ch: list[Any]) -> s.Action:
        name, labels, player, *rest = ch
        body = rest.pop()
        passive = bool(rest) and isinstance(rest[-1], Tree) and rest[-1].data == "passive"
        if passive:
            rest.pop()
        cond = rest[0] if rest else None
        return s.Action(str(name), labels, str(player), cond, body, self._span(at), passive)

    def check_decl(self, at: At, ch: list[Any]) -> s.Check:
        return s.Check(str(ch[0]), ch[1], ch[2], self._span(at))

    def _entity(self, what: str, at: At, ch: list[Any]) -> s.Entity:
        name, labels, body = ch
        props = tuple([x for x in body if isinstance(x, s.Opt)])
        blocks = tuple([x for x in body if isinstance(x, s.TimingBlock)])
        triggers = tuple([x for x in body if isinstance(x, s.Trigger)])
        return s.Entity(what, str(name), labels, props, blocks, triggers, self._span(at),
                        self._tok_span(name))

    def game_decl(self, at: At, ch: list[Any]) -> s.Entity:
        return self._entity("game", at, ch)

    def card_decl(self, at: At, ch: list[Any]) -> s.Entity:
        return self._entity("card", at, ch)

    def scenario_decl(self, at: At, ch: list[Any]) -> s.Entity:
        return self._entity("scenario", at, ch)

    def addendum_decl(self, at: At, ch: list[Any]) -> s.Addendum:
        name, labels, *rest = ch
        props = tuple(x for x in rest if isinstance(x, s.Opt))
        items = tuple(x for x in rest if not isinstance(x, s.Opt))
        return s.Addendum(str(name), labels, props, items, self._span(at))

    def labels(self, at: At, ch: list[Any]) -> s.Labels:
        default, langs, section, docs = None, [], None, []
        for kind, a, b in ch:
            if kind == "default":
                default = default or a
                if default != a:
                    langs.append(("alt", a))
            elif kind == "lang":
                langs.append((a, b))
            elif kind == "doc":
                docs.append((a, b))
            else:
                section = a
        return s.Labels(default, tuple(langs), section, tuple(docs))

    def label_default(self, at: At, ch: list[Any]) -> tuple[str, str, str]:
        return ("default", _unquote(str(ch[0])), "")

    def label_lang(self, at: At, ch: list[Any]) -> tuple[str, str, str]:
        return ("lang", str(ch[0]), _unquote(str(ch[1])))

    def label_doc(self, at: At, ch: list[Any]) -> tuple[str, str, str]:
        lang = str(ch[0]) if len(ch) == 2 else ""
        return ("doc", lang, _unquote(str(ch[-1])))

    def label_section(self, at: At, ch: list[Any]) -> tuple[str, str, str]:
        return ("section", ch[0], "")

    def section_num(self, at: At, ch: list[Any]) -> str:
        return str(ch[0])

    def params(self, at: At, ch: list[Any]) -> tuple[str, ...]:
        return tuple(str(c) for c in ch if c is not None)

    def decl_params(self, at: At, ch: list[Any]) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
        """A declaration's parameters: their names, and each one's type word (or None)."""
        given = [c for c in ch if c is not None]
        names = tuple(name for name, _ in given)
        types = tuple(word for _, word in given)
        return names, (types if any(types) else ())

    def param(self, at: At, ch: list[Any]) -> tuple[str, str | None]:
        if len(ch) == 1:
            return str(ch[0]), None
        word = str(ch[1])
        if word not in TYPE_WORDS:
            raise BuildError(Diagnostic("E104", f"unknown type {word!r}", self._tok_span(ch[1]),
                                        suggestion=did_you_mean(word, list(TYPE_WORDS)),
                                        hint="types: " + ", ".join(TYPE_WORDS)))
        return str(ch[0]), word

    def opts(self, at: At, ch: list[Any]) -> list[s.Opt]:
        return ch

    def opt(self, at: At, ch: list[Any]) -> s.Opt:
        atoms = tuple([self._atom(t) for t in ch[1:]])
        first = self._tok_span(ch[0])
        last = atoms[-1].span if atoms else first
        span = s.Span(self.path, first.line, first.col, last.end_line, last.end_col)
        return s.Opt(str(ch[0]), atoms, span)

    prop = opt

    def body(self, at: At, ch: list[Any]) -> list[Any]:
        return ch

    def timing_block(self, at: At, ch: list[Any]) -> s.TimingBlock:
        under = str(ch[1]) if len(ch) == 3 else None
        return s.TimingBlock(str(ch[0]), ch[-1], self._span(at), under)

    # -- statements --
    def block(self, at: At, ch: list[Any]) -> tuple[s.Stmt, ...]:
        return tuple(ch)

    def let_stmt(self, at: At, ch: list[Any]) -> s.Let:
        return s.Let(str(ch[0]), ch[1], self._span(at))

    def assign_stmt(self, at: At, ch: list[Any]) -> s.Assign:
        return s.Assign(ch[0], ch[1], self._span(at))

    def aug_stmt(self, at: At, ch: list[Any]) -> s.AugAssign:
        return s.AugAssign(ch[0], str(ch[1].children[0]), ch[2], self._span(at))

    def move_stmt(self, at: At, ch: list[Any]) -> s.Move:
        return ch[0]

    def move_expr(self, at: At, ch: list[Any]) -> s.Move:
        amount, *rest = ch
        token = rest.pop(0) if isinstance(rest[0], Token) else None
        owner = rest.pop(0)[1] if isinstance(rest[0], tuple) else None
        tspan = self._tok_span(token) if token is not None else None
        return s.Move(amount, str(token) if token is not None else None, tspan, owner,
                      rest[0], rest[1], self._span(at))

    def owner_clause(self, at: At, ch: list[Any]) -> tuple[str, Any]:
        return ("of", ch[0])

    def put_stmt(self, at: At, ch: list[Any]) -> s.Put:
        place = str(ch[2].children[0]) if len(ch) > 2 else None
        return s.Put(ch[0], ch[1], place, self._span(at))

    def emit_stmt(self, at: At, ch: list[Any]) -> s.Emit:
        return s.Emit(str(ch[0]), ch[1], self._span(at))

    def modify_stmt(self, at: At, ch: list[Any]) -> s.Modify:
        target, delta, *rest = ch
        live = bool(rest) and rest[0] == LIVE
        if live:
            rest.pop(0)
        until = None
        if rest and isinstance(rest[-1], Token):
            until = str(rest.pop())
        while_ = rest[0] if rest else None
        return s.Modify(target, delta, while_, until, self._span(at), live)

    def modify_live(self, at: At, ch: list[Any]) -> str:
        return LIVE

    def forbid_stmt(self, at: At, ch: list[Any]) -> s.Forbid:
        return s.Forbid(str(ch[0]), ch[1], ch[2] if len(ch) > 2 else None, self._span(at))

    def reveal_stmt(self, at: At, ch: list[Any]) -> s.Reveal:
        return s.Reveal(ch[0], ch[1], self._span(at))

    def shuffle_stmt(self, at: At, ch: list[Any]) -> s.Shuffle:
        return s.Shuffle(ch[0], self._span(at))

    def log_stmt(self, at: At, ch: list[Any]) -> s.Log:
        to = ch.pop()[1] if len(ch) > 1 and isinstance(ch[-1], tuple) else None
        return s.Log(_unquote(str(ch[0])), tuple(ch[1:]), self._span(at), to)

    def log_to(self, at: At, ch: list[Any]) -> tuple[str, Any]:
        return ("to", ch[0])

    def expect_offered(self, at: At, ch: list[Any]) -> s.ExpectOffered:
        return s.ExpectOffered(ch[0], _unquote(str(ch[1])), True, self._span(at))

    def expect_not_offered(self, at: At, ch: list[Any]) -> s.ExpectOffered:
        return s.ExpectOffered(ch[0], _unquote(str(ch[1])), False, self._span(at))

    def expect_winner(self, at: At, ch: list[Any]) -> s.ExpectWinner:
        return s.ExpectWinner(ch[0], self._span(at))

    def expect_stmt(self, at: At, ch: list[Any]) -> s.Expect:
        msg = _unquote(str(ch[1])) if len(ch) > 1 else None
        return s.Expect(ch[0], msg, self._span(at))

    def return_stmt(self, at: At, ch: list[Any]) -> s.Return:
        return s.Return(ch[0] if ch else None, self._span(at))

    def end_stmt(self, at: At, ch: list[Any]) -> s.End:
        reason = _unquote(str(ch[2])) if len(ch) > 2 else None
        return s.End(str(ch[0].children[0]), ch[1], self._span(at), reason)

    def call_stmt(self, at: At, ch: list[Any]) -> s.CallStmt:
        return s.CallStmt(ch[0], self._span(at))

    def pass_stmt(self, at: At, ch: list[Any]) -> s.Pass:
        return s.Pass(self._span(at))

    def break_stmt(self, at: At, ch: list[Any]) -> s.Break:
        return s.Break(self._span(at))

    def if_stmt(self, at: At, ch: list[Any]) -> s.If:
        branches = [(ch[0], ch[1])]
        orelse: tuple[s.Stmt, ...] = ()
        for extra in ch[2:]:
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return s.If(tuple(branches), orelse, self._span(at))

    def elif_clause(self, at: At, ch: list[Any]) -> tuple[str, Any, Any]:
        return ("elif", ch[0], ch[1])

    def else_clause(self, at: At, ch: list[Any]) -> tuple[str, Any]:
        return ("else", ch[0])

    def for_stmt(self, at: At, ch: list[Any]) -> s.For:
        return s.For(str(ch[0]), ch[1], ch[2], self._span(at))

    def while_stmt(self, at: At, ch: list[Any]) -> s.While:
        return s.While(ch[0], ch[1], self._span(at))

    def repeat_stmt(self, at: At, ch: list[Any]) -> s.Repeat:
        return s.Repeat(ch[0], ch[1], self._span(at))

    def menu_stmt(self, at: At, ch: list[Any]) -> s.Menu:
        return s.Menu(ch[0], ch[1], tuple(ch[2:]), self._span(at))

    def option(self, at: At, ch: list[Any]) -> s.Option:
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
        return s.Option(labels, var, iterable, cond, body, self._span(at), passive)

    def once_stmt(self, at: At, ch: list[Any]) -> s.Once:
        name, params, *rest = ch
        body = rest.pop()
        until = None
        if rest and isinstance(rest[-1], Token):
            until = str(rest.pop())
        cond = rest[0] if rest else None
        return s.Once(str(name), params, cond, until, body, self._span(at))

    # -- choices --
    def pick_choice(self, at: At, ch: list[Any]) -> s.Pick:
        var, coll, player, *rest = ch
        labels = rest.pop()
        optional = False
        if rest and isinstance(rest[-1], Tree) and rest[-1].data == "optional":
            optional = True
            rest.pop()
        parts = dict(rest)
        return s.Pick(str(var), coll, player, parts.get("where"), optional, labels, self._span(at),
                      parts.get("prefer"))

    def pick_where(self, at: At, ch: list[Any]) -> tuple[str, Any]:
        return ("where", ch[0])

    def pick_prefer(self, at: At, ch: list[Any]) -> tuple[str, Any]:
        return ("prefer", ch[0])

    def optional(self, at: At, ch: list[Any]) -> Tree[Any]:
        return Tree("optional", [])

    def number_choice(self, at: At, ch: list[Any]) -> s.NumberChoice:
        return s.NumberChoice(ch[0], ch[1], ch[2], ch[3], self._span(at))

    def ask_choice(self, at: At, ch: list[Any]) -> s.Ask:
        return s.Ask(ch[0], ch[1], self._span(at))

    # -- expressions --
    def or_expr(self, at: At, ch: list[Any]) -> s.BoolOp:
        return s.BoolOp("or", tuple(ch), self._span(at))

    def and_expr(self, at: At, ch: list[Any]) -> s.BoolOp:
        return s.BoolOp("and", tuple(ch), self._span(at))

    def not_op(self, at: At, ch: list[Any]) -> s.Not:
        return s.Not(ch[0], self._span(at))

    def compare(self, at: At, ch: list[Any]) -> s.BinOp:
        op = " ".join(str(t) for t in ch[1].children)
        return s.BinOp(op, ch[0], ch[2], self._span(at))

    def _chain(self, at: At, ch: list[Any]) -> Any:
        result = ch[0]
        for i in range(1, len(ch), 2):
            op = str(ch[i].children[0])
            right = ch[i + 1]
            span = self._span(at)
            result = s.BinOp(op, result, right, span)
        return result

    sum = _chain
    product = _chain

    def neg(self, at: At, ch: list[Any]) -> s.Neg:
        return s.Neg(ch[0], self._span(at))

    def attr(self, at: At, ch: list[Any]) -> s.Attr:
        return s.Attr(ch[0], str(ch[1]), self._span(at))

    def call(self, at: At, ch: list[Any]) -> s.Call:
        return s.Call(ch[0], tuple(ch[1]), self._span(at))

    def index(self, at: At, ch: list[Any]) -> s.Index:
        return s.Index(ch[0], ch[1], self._span(at))

    def args(self, at: At, ch: list[Any]) -> list[Any]:
        return [c for c in ch if c is not None]

    def int_lit(self, at: At, ch: list[Any]) -> s.IntLit:
        return s.IntLit(int(ch[0]), self._span(at))

    def str_lit(self, at: At, ch: list[Any]) -> s.StrLit:
        return s.StrLit(_unquote(str(ch[0])), self._span(at))

    def pair_lit(self, at: At, ch: list[Any]) -> s.PairLit:
        text = str(ch[0])
        braced = text.startswith("{")
        left, right = text.strip("{}").split("/")
        return s.PairLit(_side(left), _side(right), braced, self._span(at))

    def delta_lit(self, at: At, ch: list[Any]) -> s.DeltaLit:
        left, right = str(ch[0]).split("/")
        return s.DeltaLit(int(left), int(right), self._span(at))

    def list_where(self, at: At, ch: list[Any]) -> s.ListWhere:
        head, cond = ch
        if not (isinstance(head, s.BinOp) and head.op == "in" and isinstance(head.left, s.Name)):
            raise BuildError(Diagnostic("E001", "a filtered list is written `[x in LIST where COND]`",
                                        self._span(at), hint="name each item, then say which to keep"))
        return s.ListWhere(head.left.ident, head.right, cond, self._span(at))

    def range_lit(self, at: At, ch: list[Any]) -> s.RangeLit:
        text = str(ch[0])
        parts = text.split("..") if ".." in text else text.split("-")
        if len(parts) != 2:
            raise BuildError(Diagnostic("E104", f"{text!r} is not a range like 3-4",
                                         self._span(at), hint="a range has a low and a high end"))
        return s.RangeLit(int(parts[0]), int(parts[1]), self._span(at))

    def zone_label(self, at: At, ch: list[Any]) -> s.ZoneLabel:
        return s.ZoneLabel(str(ch[0])[1:-1], self._span(at))

    def true_lit(self, at: At, ch: list[Any]) -> s.BoolLit:
        return s.BoolLit(True, self._span(at))

    def false_lit(self, at: At, ch: list[Any]) -> s.BoolLit:
        return s.BoolLit(False, self._span(at))

    def none_lit(self, at: At, ch: list[Any]) -> s.NoneLit:
        return s.NoneLit(self._span(at))

    def name(self, at: At, ch: list[Any]) -> s.Name:
        return s.Name(str(ch[0]), self._span(at))

    def list_lit(self, at: At, ch: list[Any]) -> s.ListLit:
        return s.ListLit(tuple(ch[0]), self._span(at))


# rule name -> the Builder method that builds it (every public method is named after a rule)
RULE_METHODS: dict[str, Any] = {name: fn for name, fn in vars(Builder).items()
                          if not name.startswith("_") and name != "transform" and callable(fn)}
