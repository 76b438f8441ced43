"""The language reference and a game's API, written from the compiler's own registries: the
syntax nodes' descriptions, the option tables, the built-in registry and the diagnostic codes
(`cardsmith ref --language`, docs/LANGUAGE.md); and what the cards of one game can use
(`cardsmith ref GAME --api`)."""

from __future__ import annotations

from typing import Any

from . import syntax as s
from .builtins import BUILTINS
from .check import TIMING_OPTIONS
from .checked import Checked
from .collect import COUNTER_OPTIONS, FIELD_OPTIONS, FIELD_TYPES, TOKEN_OPTIONS, ZONE_OPTIONS
from .diagnostics import CODES
from .props import CARD_BUILTIN_PROPS, GAME_PROPS, SCENARIO_PROPS
from .refs import TYPE_WORDS
from .unparse import parameters


def _doc(kind: type) -> str:
    return " ".join((kind.__doc__ or "").split())


def _table(rows: list[tuple[str, str]], head: tuple[str, str]) -> list[str]:
    lines = [f"| {head[0]} | {head[1]} |", "|---|---|"]
    lines += ["| " + a + " | " + b.replace("|", "\\|") + " |" for a, b in rows]
    return lines + [""]


def _options(title: str, table: dict[str, str]) -> list[str]:
    return [f"**{title}**", ""] + _table([(f"`{k}`", v) for k, v in table.items()], ("option", "meaning"))


def language_reference() -> str:
    """The whole language, as Markdown."""
    out = ["# The cardsmith language", "",
           "Written by `cardsmith ref --language` from the compiler itself (the syntax nodes, the",
           "option tables, the built-in registry and the diagnostics), so it cannot drift from what",
           "the compiler accepts. Keywords are ASCII; names and strings may be in any script; blocks",
           "are indented; `#` starts a comment.", ""]
    out += ["## Declarations", ""]
    out += _table([(f"`{k.__name__}`", _doc(k)) for k in s.Decl.__args__], ("node", "form"))  # type: ignore[attr-defined]
    out += ["One-line declarations (`character`, `token`, `zone`, `counter`/`flag`, `field`, `kind`) take",
            "`NAME \"label\" [LANG \"label\" …]: options`:", ""]
    out += _options("zone", ZONE_OPTIONS) + _options("counter and flag", COUNTER_OPTIONS)
    out += _options("token", TOKEN_OPTIONS) + _options("field types", FIELD_TYPES)
    out += _options("field options", FIELD_OPTIONS) + _options("timing", TIMING_OPTIONS)
    out += ["Parameters of a `procedure`, `value`, `event` or `timing` may declare a type",
            "(`procedure hit(p: player, dmg: pair)`): every call, `emit` and block is then checked",
            "against it, and the body knows it. The type words:", ""]
    out += _table([(f"`{word}`", t.article) for word, t in TYPE_WORDS.items()], ("type", "its values"))
    out += ["A `character` takes any options (`number 7`), read with `character_prop(c, \"number\")`.", ""]
    out += ["## Properties", "",
            "`decision` may stand in the `game` block and in an `addendum`; `note` in a card.", ""]
    out += _options("game", GAME_PROPS)
    out += ["**card**: a line for each declared field (`power 2`, `reach 3-4`, `split 2/1`), and:", ""]
    out += _table([(f"`{k}`", v) for k, v in CARD_BUILTIN_PROPS.items()], ("property", "meaning"))
    out += [f"A card's blocks: `TIMING:` fills one of the game's timings; {_doc(s.TimingBlock)}", ""]
    out += _options("scenario", SCENARIO_PROPS)
    out += ["## Statements", ""]
    out += _table([(f"`{k.__name__}`", _doc(k)) for k in s.Stmt.__args__], ("node", "form"))  # type: ignore[attr-defined]
    out += ["Choices stand on the right of `let` or `return`:", ""]
    out += _table([(f"`{k.__name__}`", _doc(k)) for k in s.Choice.__args__], ("node", "form"))  # type: ignore[attr-defined]
    out += ["## Expressions", ""]
    out += _table([(f"`{k.__name__}`", _doc(k)) for k in s.Expr.__args__], ("node", "form"))  # type: ignore[attr-defined]
    out += ["## Built-in functions", ""]
    out += _table([(f"`{b.signature}`", b.doc) for b in sorted(BUILTINS.values(), key=lambda b: b.name)],
                  ("signature", "what it gives"))
    out += ["## Diagnostics", "", "`cardsmith explain CODE` prints the long explanation.", ""]
    out += _table([(f"`{code}`", title) for code, (title, _) in sorted(CODES.items())], ("code", "problem"))
    return "\n".join(out).rstrip() + "\n"


def game_api(checked: Checked) -> str:
    """What the cards of one game can use, as Markdown."""
    sym = checked.symbols
    game = sym.game
    title = (game.labels.default or game.name) if game is not None else "?"
    out = [f"# {title}: what cards can use", "",
           f"Written by `cardsmith ref {game.name if game else '?'} --api` from the checked game.", ""]

    def label(decl: Any) -> str:
        labels = getattr(decl, "labels", None)
        return " / ".join(labels.all_names()) if labels is not None else ""

    def params(decl: Any) -> str:
        return f"({parameters(decl.params, decl.types)})" if getattr(decl, "params", ()) else ""

    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("Zones", [(f"`{n}`", f"{label(z.decl)}; {'each player' if z.per_player else 'shared'}; "
                    f"{z.visibility}") for n, z in sym.zones.items()]),
        ("Counters and flags", [(f"`{n}`", f"{label(c.decl)}; {'each player' if c.per_player else 'game'}")
                                for n, c in sym.counters.items()]),
        ("Fields", [(f"`{n}`", f"{label(f.decl)}; {f.type}" + (f": {' '.join(f.choices)}" if f.choices else ""))
                    for n, f in sym.fields.items()]),
        ("Tokens", [(f"`{n}`", label(t)) for n, t in sym.tokens.items()]),
        ("Timings", [(f"`{n}{params(t)}`", label(t)) for n, t in sym.timings.items()]),
        ("Events", [(f"`{n}{params(e)}`", label(e)) for n, e in sym.events.items()]),
        ("Keywords", [(f"`{n}`", label(k)) for n, k in sym.keywords.items()]),
        ("Values", [(f"`{n}{params(v)}`", label(v)) for n, v in sym.values.items()]),
        ("Procedures", [(f"`{n}{params(p)}`", label(p)) for n, p in sym.procedures.items()]),
        ("Characters", [(f"`{n}`", label(c)) for n, c in sym.characters.items()]),
    ]
    for heading, rows in sections:
        if rows:
            out += [f"## {heading}", ""] + _table(rows, ("name", "what it is"))
    return "\n".join(out).rstrip() + "\n"
