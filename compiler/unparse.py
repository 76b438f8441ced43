"""Expressions back to source text, for references and messages."""

from __future__ import annotations

from . import syntax as s


def unparse(e: s.Expr) -> str:
    """The source form of an expression (normalised spacing)."""
    if isinstance(e, s.IntLit):
        return str(e.value)
    if isinstance(e, s.StrLit):
        return '"' + e.value.replace('"', '\\"') + '"'
    if isinstance(e, s.BoolLit):
        return "true" if e.value else "false"
    if isinstance(e, s.NoneLit):
        return "none"
    if isinstance(e, s.PairLit):
        text = f"{'-' if e.left is None else e.left}/{'-' if e.right is None else e.right}"
        return "{" + text + "}" if e.braced else text
    if isinstance(e, s.DeltaLit):
        return f"{e.left:+d}/{e.right:+d}"
    if isinstance(e, s.RangeLit):
        return f"{e.low}-{e.high}"
    if isinstance(e, s.ZoneLabel):
        return f"<{e.label}>"
    if isinstance(e, s.Name):
        return e.ident
    if isinstance(e, s.Attr):
        return f"{unparse(e.obj)}.{e.name}"
    if isinstance(e, s.Call):
        return f"{unparse(e.func)}({', '.join(unparse(a) for a in e.args)})"
    if isinstance(e, s.Index):
        return f"{unparse(e.obj)}[{unparse(e.index)}]"
    if isinstance(e, s.BinOp):
        return f"{unparse(e.left)} {e.op} {unparse(e.right)}"
    if isinstance(e, s.BoolOp):
        return f" {e.op} ".join(unparse(v) for v in e.values)
    if isinstance(e, s.Not):
        return f"not {unparse(e.operand)}"
    if isinstance(e, s.Neg):
        return f"-{unparse(e.operand)}"
    if isinstance(e, s.ListLit):
        return "[" + ", ".join(unparse(i) for i in e.items) + "]"
    return "?"
