"""Expressions back to source text, for references and messages."""

from __future__ import annotations

from . import syntax as s
from .visit import Visitor


class _Unparse(Visitor[str]):
    def visit_IntLit(self, e: s.IntLit) -> str:
        return str(e.value)

    def visit_StrLit(self, e: s.StrLit) -> str:
        return '"' + e.value.replace('"', '\\"') + '"'

    def visit_BoolLit(self, e: s.BoolLit) -> str:
        return "true" if e.value else "false"

    def visit_NoneLit(self, e: s.NoneLit) -> str:
        return "none"

    def visit_PairLit(self, e: s.PairLit) -> str:
        text = f"{'-' if e.left is None else e.left}/{'-' if e.right is None else e.right}"
        return "{" + text + "}" if e.braced else text

    def visit_DeltaLit(self, e: s.DeltaLit) -> str:
        return f"{e.left:+d}/{e.right:+d}"

    def visit_RangeLit(self, e: s.RangeLit) -> str:
        return f"{e.low}-{e.high}"

    def visit_ZoneLabel(self, e: s.ZoneLabel) -> str:
        return f"<{e.label}>"

    def visit_Name(self, e: s.Name) -> str:
        return e.ident

    def visit_Attr(self, e: s.Attr) -> str:
        return f"{self.visit(e.obj)}.{e.name}"

    def visit_Call(self, e: s.Call) -> str:
        return f"{self.visit(e.func)}({', '.join(self.visit(a) for a in e.args)})"

    def visit_Index(self, e: s.Index) -> str:
        return f"{self.visit(e.obj)}[{self.visit(e.index)}]"

    def visit_BinOp(self, e: s.BinOp) -> str:
        level = _precedence(e)  # + - * // % associate to the left; comparisons do not chain
        left = level if e.op in _LEVELS else level + 1
        return f"{self.tight(e.left, left)} {e.op} {self.tight(e.right, level + 1)}"

    def visit_BoolOp(self, e: s.BoolOp) -> str:
        return f" {e.op} ".join(self.tight(v, _precedence(e) + 1) for v in e.values)

    def visit_Not(self, e: s.Not) -> str:
        return f"not {self.tight(e.operand, _precedence(e))}"

    def visit_Neg(self, e: s.Neg) -> str:
        return f"-{self.tight(e.operand, _precedence(e))}"

    def tight(self, e: s.Expr, level: int) -> str:
        """`e` as an operand that must bind at least as tightly as `level`: bracketed if not."""
        text = self.visit(e)
        return f"({text})" if _precedence(e) < level else text

    def visit_ListLit(self, e: s.ListLit) -> str:
        return "[" + ", ".join(self.visit(i) for i in e.items) + "]"

    def visit_ListWhere(self, e: s.ListWhere) -> str:
        return f"[{e.var} in {self.visit(e.items)} where {self.visit(e.cond)}]"


_LEVELS = {"or": 1, "and": 2, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}  # comparisons: 4


def _precedence(e: s.Expr) -> int:
    """How tightly an expression binds, as in the grammar: or < and < not < comparisons < + - <
    * // % < unary minus < everything else."""
    match e:
        case s.BoolOp(op=op) | s.BinOp(op=op):
            return _LEVELS.get(op, 4)
        case s.Not():
            return 3
        case s.Neg():
            return 7
        case _:
            return 8


_UNPARSE = _Unparse()


def unparse(e: s.Expr) -> str:
    """The source form of an expression (normalised spacing)."""
    return _UNPARSE.visit(e)


def parameters(params: tuple[str, ...], types: tuple[str | None, ...] = ()) -> str:
    """`p: player, n` — a declaration's parameters as written, with their declared types."""
    return ", ".join(f"{p}: {types[i]}" if i < len(types) and types[i] else p for i, p in enumerate(params))
