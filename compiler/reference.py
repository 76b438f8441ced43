"""Rule-reference generation: a numbered Markdown reference from the checked model (Jinja2)."""

from __future__ import annotations

import re
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from ..runtime.display import printable
from . import syntax as s
from .card_text import TextBook, template_folders
from .checked import Checked
from .library import library_root
from .unparse import parameters, unparse
from .vocabulary import vocabulary


class Md(str):
    """Markdown made by this module: printed as it is. Every other value the template
    prints is escaped, so a label cannot add headings, tables, links or HTML."""


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~!])")


def md(text: object) -> Md:
    """Text shown literally in Markdown (one line, special characters escaped)."""
    flat = printable(" ".join(str(text).split("\n")))
    return Md(_MD_SPECIAL.sub(r"\\\1", flat))


def code(text: object) -> Md:
    """Text as a Markdown code span, fenced with more backticks than it holds."""
    flat = printable(" ".join(str(text).split("\n")))
    longest = max((len(run) for run in re.findall("`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return Md(f"{fence}{pad}{flat}{pad}{fence}")


def _finalize(value: object) -> object:
    return value if isinstance(value, Md) or not isinstance(value, str) else md(value)


def _section_key(section: str | None) -> tuple[int, ...]:
    if not section:
        return (9999,)
    return tuple(int(x) for x in re.findall(r"\d+", section)) or (9999,)


def _label(labels: s.Labels, fallback: str) -> str:
    return labels.default or labels.get("en") or fallback


def reference_context(checked: Checked) -> dict[str, Any]:
    """Everything the template shows, taken from the checked model (never the generated code)."""
    sym = checked.symbols
    game = sym.game
    assert game is not None
    zones = [{
        "name": n, "label": _label(z.decl.labels, n) + (f" ({z.decl.labels.get('en')})" if z.decl.labels.get("en") else ""),
        "owner": "each player" if z.per_player else "shared",
        "holds": ", ".join((["cards"] if z.holds_cards else []) + z.tokens) or "—",
        "capacity": z.capacity if z.capacity is not None else ("unlimited supply" if z.supply else "—"),
        "visibility": Md(z.visibility + (f", a card is public while {code(z.reveal_field)}" if z.reveal_field else "")),
    } for n, z in sym.zones.items()]
    counters = [{
        "name": n, "label": _label(c.decl.labels, n), "kept": "each player" if c.per_player else "game",
        "range": "yes/no" if c.flag else (f"{c.low}..{c.high}" if c.low is not None else "any"),
        "start": c.start if c.absent is None else f"{c.start} (counts as {c.absent} for a player without it)",
    } for n, c in sym.counters.items()]
    keywords = [{"name": n, "label": _label(k.labels, n), "condition": unparse(k.expr) if k.expr else None}
                for n, k in sym.keywords.items()]
    characters = [{"name": n, "names": " / ".join(c.labels.all_names()),
                   "details": "; ".join(f"{o.name} {' '.join(o.words())}" for o in c.opts) or "—"}
                  for n, c in sym.characters.items()]
    replacements: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for rep, add in sym.replacements:
        replacements.setdefault((rep.procedure, rep.step), []).append({
            "addendum": _label(sym.addenda[add].labels, add) if add in sym.addenda else "core",
            "label": _label(rep.labels, "the step is done differently"),
            "condition": unparse(rep.cond) if rep.cond else None,
            "kind": "after" if rep.after else "instead",
        })
    for added, add in sym.added_options:
        replacements.setdefault((added.procedure, added.step), []).append({
            "addendum": _label(sym.addenda[add].labels, add) if add in sym.addenda else "core",
            "label": _label(added.option.labels, "one more option"),
            "condition": unparse(added.option.cond) if added.option.cond else None,
            "kind": "option",
        })
    procedures = []
    core_procs = [(n, p) for n, p in sym.procedures.items() if id(p) not in sym.decl_addendum and p.labels.section]
    used: dict[str, int] = {}
    for name, proc in sorted(core_procs, key=lambda np: _section_key(np[1].labels.section)):
        section = str(proc.labels.section)
        used[section] = used.get(section, 0) + 1
        number = section if used[section] == 1 else f"{section}.{used[section]}"
        procedures.append({
            "title": _label(proc.labels, name), "section": section, "number": number,
            "signature": f"{name}({parameters(proc.params, proc.types)})",
            "steps": [{"ident": st.ident, "label": _label(st.labels, "(no description)"),
                       "replacements": replacements.get((name, st.ident), [])} for st in proc.steps],
        })
    addenda = []
    for name, addendum in sorted(sym.addenda.items(), key=lambda kv: _section_key(kv[1].labels.section)):
        hosts = ", ".join(w for o in addendum.props if o.name == "for" for w in o.words()) or "always"
        addenda.append({"title": _label(addendum.labels, name), "section": addendum.labels.section,
                        "number": addendum.labels.section or name,
                        "hosts": hosts, "rules": [_describe_item(item, sym) for item in addendum.items]})
    groups: dict[str, list[dict[str, Any]]] = {}
    vocab = vocabulary(checked)
    book = TextBook(checked, vocab, template_folders(checked, library_root()))
    for ident, card in sym.cards.items():
        props = checked.card_props.get(ident, {})
        owner = next((str(v) for k, v in props.items() if sym.fields.get(k) and sym.fields[k].type == "character"), "other")
        row = _card_row(ident, card, props, sym)
        row["generated"] = [(lang, text) for lang in vocab.languages if (text := book.text(ident, lang))]
        groups.setdefault(owner, []).append(row)
    card_groups = []
    order = list(sym.characters)
    for owner, cards in sorted(groups.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)):
        char = sym.characters.get(owner)
        title = _label(char.labels, owner) if char else owner
        if char and char.labels.get("en"):
            title += f" ({char.labels.get('en')})"
        card_groups.append({"title": title, "cards": cards})
    decision_props = list(game.props) + [o for add in sym.addenda.values() for o in add.props]
    decisions = [" ".join(o.words()) for o in decision_props if o.name == "decision" and o.words()]
    return {"title": _label(game.labels, game.name), "file_count": len(sym.sources), "zones": zones,
            "counters": counters, "keywords": keywords, "characters": characters, "procedures": procedures, "addenda": addenda,
            "card_groups": card_groups, "decisions": decisions}


def _card_row(ident: str, card: s.Entity, props: dict[str, Any], sym: Any) -> dict[str, Any]:
    numbers = []
    kind_bits = []
    for key, value in props.items():
        info = sym.fields.get(key)
        if info is None or value in (None, False, ()) or value == 0 and info.type != "int":
            continue
        if info.type in ("enum",):
            kind_bits.append(str(value))
        elif info.type == "set":
            kind_bits.extend(str(v) for v in value)
        elif info.type == "bool":
            kind_bits.append(_label(info.decl.labels, key))
        elif info.type == "range":
            numbers.append(f"{_label(info.decl.labels, key)} {_range_text(value)}")
        elif info.type in ("pair", "int"):
            numbers.append(f"{_label(info.decl.labels, key)} {value}")
    return {"ident": ident, "name": card.labels.default or ident, "kind": ", ".join(kind_bits),
            "numbers": ", ".join(numbers) or "—", "text": str(props.get("text", "")),
            "invented": bool(props.get("invented")), "note": props.get("note"), "unchecked": props.get("unchecked")}


def _range_text(values: tuple[int, ...]) -> str:
    """`3-5` for a run of values, `1,3,5` for values with gaps, `2` for one value."""
    if len(values) > 1 and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


def _describe_item(item: s.Decl, sym: Any) -> Md:
    """One rule of an addendum as a line of Markdown (user text escaped), led by the paragraph
    number it carries (`section 13-3`), whatever kind of declaration it is."""
    labels = item.option.labels if isinstance(item, s.AddedOption) else getattr(item, "labels", None)
    section = getattr(labels, "section", None)
    text = _describe(item, sym)
    return Md(f"**[{md(str(section))}]** {text}") if section else text


def _describe(item: s.Decl, sym: Any) -> Md:
    if isinstance(item, s.Simple):
        opts = "; ".join(f"{o.name} {' '.join(o.words())}".strip() for o in item.opts)
        zone = sym.zones.get(item.name) if item.what == "zone" else None
        if zone is not None and zone.decl is not item:  # `zone Z: also holds …` in an addendum
            return Md(f"Zone **{md(_label(zone.decl.labels, item.name))}** ({code(item.name)}): {md(opts)}.")
        return Md(f"New {item.what} **{md(_label(item.labels, item.name))}** ({code(item.name)})"
                  f"{': ' + md(opts) if opts else ''}.")
    if isinstance(item, s.Value):
        return Md(f"Derived value **{md(_label(item.labels, item.name))}**: {code(unparse(item.expr))}.")
    if isinstance(item, s.Procedure):
        steps = " ".join(f"({st.ident}) {_label(st.labels, '')}" for st in item.steps if st.ident)
        return Md(f"Procedure **{md(_label(item.labels, item.name))}**: {md(steps)}")
    if isinstance(item, s.Trigger):
        cond = f" if {code(unparse(item.cond))}" if item.cond else ""
        event = sym.events.get(item.event)
        when = _label(event.labels, item.event) if event else item.event
        what = _label(item.labels, "its effect resolves")
        return Md(f"Rule effect — when {md(when)} ({code(item.event)}){cond}: {md(what)}.")
    if isinstance(item, s.Replace):
        cond = f" when {code(unparse(item.cond))}" if item.cond else ""
        verb = "After" if item.after else "Replaces"
        return Md(f"{verb} step {md(item.step)} of {code(item.procedure)}{cond}: {md(_label(item.labels, ''))}")
    if isinstance(item, s.Check):
        return Md(f"State check **{md(_label(item.labels, item.name))}**.")
    if isinstance(item, s.AddedOption):
        cond = f" if {code(unparse(item.option.cond))}" if item.option.cond else ""
        return Md(f"Adds the option **{md(_label(item.option.labels, ''))}** to the menu of step "
                  f"{md(item.step)} of {code(item.procedure)}{cond}.")
    if isinstance(item, s.Entity):
        return Md(f"{item.what.capitalize()} {code(item.name)}.")
    return md(type(item).__name__)


def render_reference(checked: Checked) -> str:
    env = Environment(loader=PackageLoader("cardsmith.compiler", "templates"), undefined=StrictUndefined,
                      autoescape=False, trim_blocks=False, lstrip_blocks=False, keep_trailing_newline=True,
                      finalize=_finalize)
    env.filters["code"] = code
    text = env.get_template("reference.md.j2").render(**reference_context(checked))
    return re.sub(r"\n{3,}", "\n\n", text)
