"""The printed-text check measured on the real thing: every Sakura card of the library against its
Japanese printed text and printed numbers in ../shared/data/sakura/cards.json (skipped cleanly when
the data is absent), with a floor on how many agree on every timing marker, keyword and number;
and the check catching breakage: a number changed or a keyword dropped in 20 random cards of a
copy of the library is flagged, every one of them."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from cardsmith.compiler import syntax as s
from cardsmith.compiler.checked import Checked
from cardsmith.compiler.load import build_sources, library_root, read_sources
from cardsmith.compiler.printed import Printed, PrintedCheck, Verdict
from cardsmith.compiler.refs import FieldRef

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sakura" / "cards.json"
FLOOR = 0.95  # the share of library cards that must agree fully with print; raise it as it rises
FIELDS = {"range": "range", "damage": "damage", "capacity": "capacity", "cost": "cost"}
REPORT = Path(__file__).resolve().parent.parent / ".pytest_cache" / "sakura_text_agreement.txt"

pytestmark = pytest.mark.skipif(not DATA.is_file(), reason=f"the Sakura card data is not at {DATA}")


def printed_records() -> dict[str, Printed]:
    cards = json.loads(DATA.read_text("utf-8"))["cards"]
    records = {}
    for i, c in enumerate(cards, start=1):
        number = c.get("rule_id") or c["id"]  # cards printed without a rule id (TransForm) go by their list id
        records[number] = Printed(i, number, c.get("text") or "",
                                  {f: str(c[col]) for f, col in FIELDS.items() if c.get(col) not in (None, "")})
    return records


def library_verdicts(checked: Checked) -> list[Verdict]:
    """A verdict for every card of the library that has a printed counterpart (fixtures aside)."""
    records = printed_records()
    judge = PrintedCheck(checked)
    verdicts = []
    for name, props in checked.card_props.items():
        record = records.get(str(props.get("number", "")))
        if record is not None and not props.get("fixture"):
            verdict = judge.verdict(record)
            assert verdict.card == name, (name, verdict.card)
            verdicts.append(verdict)
    return verdicts


def agreement_table(checked: Checked, verdicts: list[Verdict]) -> str:
    groups: dict[str, list[bool]] = {}
    for v in verdicts:
        assert v.card is not None
        groups.setdefault(str(checked.card_props[v.card]["goddess"]), []).append(v.agrees)
    lines = [f"{'goddess':<13} agree cards share"]
    for goddess, agrees in sorted(groups.items()):
        lines.append(f"{goddess:<13} {sum(agrees):>5} {len(agrees):>5} {sum(agrees) / len(agrees):>5.0%}")
    total = sum(v.agrees for v in verdicts)
    lines.append(f"{'all':<13} {total:>5} {len(verdicts):>5} {total / len(verdicts):>5.1%}")
    return "\n".join(lines)


def test_the_librarys_cards_agree_with_their_printed_texts(sakura) -> None:  # type: ignore[no-untyped-def]
    checked = sakura.checked
    verdicts = library_verdicts(checked)
    assert len(verdicts) >= 370  # every card of the library that the data prints
    table = agreement_table(checked, verdicts)
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text("Sakura cards against their printed Japanese text (tests/test_sakura_text.py)\n" + table + "\n",
                      "utf-8")
    share = sum(v.agrees for v in verdicts) / len(verdicts)
    assert share >= FLOOR, table


# ---- breakage ----

def mutations(checked: Checked, name: str) -> list[tuple[s.Span, str]]:
    """Changes to one card that alter what its definition tells a player: a number its blocks
    state, a printed number property, or a keyword property its blocks do not also give."""
    sym = checked.symbols
    card = sym.cards[name]
    props = checked.card_props[name]
    found: list[tuple[s.Span, str]] = []
    body = list(s.walk([*card.blocks, *card.triggers]))
    for node in body:
        match node:
            case s.PairLit(left=int(left), right=right):
                found.append((node.span, f"{left + 1}/{'-' if right is None else right}"))
            case s.DeltaLit(left=left, right=right):
                found.append((node.span, f"{left + 1:+d}/{right:+d}"))
            case s.RangeLit(low=low, high=high) if high < 10:
                found.append((node.span, f"{low}-{high + 1}"))
    inside = {id(n) for n in body}
    given = {ref.field for node, ref in checked.resolution.items() if id(node) in inside and isinstance(ref, FieldRef)}
    for opt in card.props:
        info = sym.fields.get(opt.name)
        if info is not None and info.keyword and props.get(opt.name) is True and opt.name not in given:
            found.append((opt.span, ""))
        elif opt.name in FIELDS and len(opt.atoms) == 1 and opt.atoms[0].kind == "int":
            found.append((opt.span, f"{opt.name} {int(opt.atoms[0].text) + 1}"))
    return found


def apply(text: str, edits: list[tuple[s.Span, str]]) -> str:
    """Replace each one-line span of a source with its new text; an empty one drops the line."""
    lines = text.split("\n")
    dropped = set()
    for span, new in sorted(edits, key=lambda e: (e[0].line, e[0].col), reverse=True):
        if new == "":
            dropped.add(span.line - 1)
        else:
            line = lines[span.line - 1]
            lines[span.line - 1] = line[:span.col - 1] + new + line[span.end_col - 1:]
    return "\n".join(line for i, line in enumerate(lines) if i not in dropped)


def test_the_printed_check_flags_every_card_whose_number_or_keyword_was_broken(sakura, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    checked = sakura.checked
    agreeing = [v.card for v in library_verdicts(checked) if v.agrees and v.card is not None]
    rng = random.Random(20261202)
    rng.shuffle(agreeing)
    chosen: dict[str, tuple[s.Span, str]] = {}
    for name in agreeing:
        options = [m for m in mutations(checked, name) if m[0].line == m[0].end_line]
        if options:
            chosen[name] = rng.choice(options)
        if len(chosen) == 20:
            break
    assert len(chosen) == 20
    copy = tmp_path / "sakura"
    shutil.copytree(library_root() / "sakura", copy)
    by_file: dict[str, list[tuple[s.Span, str]]] = {}
    for span, new in chosen.values():
        by_file.setdefault(span.file, []).append((span, new))
    for file, edits in by_file.items():
        target = copy / Path(file).relative_to(library_root() / "sakura")
        target.write_text(apply(target.read_text("utf-8"), edits), "utf-8")
    sources, _ = read_sources(sorted(copy.rglob("*.csm")))  # the copy is the whole game (no library added)
    broken = build_sources(sources, use_cache=False, need_model=True)
    assert broken.checked is not None and broken.ok, [str(d) for d in broken.diagnostics if d.severity == "error"][:3]
    records = printed_records()
    again = PrintedCheck(broken.checked)
    missed = [name for name in chosen
              if again.verdict(records[str(checked.card_props[name]["number"])]).agrees]
    assert not missed, {name: chosen[name] for name in missed}
