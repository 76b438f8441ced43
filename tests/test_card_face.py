"""Card faces (compiler/card_face.py): every card of every game drawn as one well-formed SVG in
every language, its name and numbers in their places, hostile text escaped, a designer's own
face template beside their files, a broken template reported without a traceback, and the faces
in the HTML card gallery."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardsmith.cli import main
from cardsmith.compiler.card_face import SVG_NS, card_face, describe
from cardsmith.compiler.card_text import TextBook, template_folders
from cardsmith.compiler.library import library_root
from cardsmith.compiler.load import bundled_games
from cardsmith.compiler.vocabulary import vocabulary
from tests.helpers import build_text, built

ROOT = Path(__file__).resolve().parent.parent
HOTARU = ROOT / "examples" / "hotaru"


def _book(game: str) -> tuple[object, object, TextBook]:
    checked = built(game).checked
    assert checked is not None
    vocab = vocabulary(checked)
    return checked, vocab, TextBook(checked, vocab, template_folders(checked, library_root()))


def _texts(svg: str) -> str:
    """Every text the drawing shows, joined."""
    root = ET.fromstring(svg)
    return " ".join("".join(t.itertext()) for t in root.iter(f"{{{SVG_NS}}}text"))


@pytest.mark.parametrize("game", bundled_games())
def test_every_card_of_every_game_is_one_svg_with_its_name_and_numbers(game: str) -> None:
    checked, vocab, book = _book(game)
    for language in vocab.languages:  # type: ignore[attr-defined]
        for name in checked.symbols.cards:  # type: ignore[attr-defined]
            svg = card_face(checked, vocab, book, name, language)  # type: ignore[arg-type]
            root = ET.fromstring(svg)
            assert root.tag == f"{{{SVG_NS}}}svg" and "viewBox" in root.attrib, name
            shown = _texts(svg).replace(" ", "")
            face = describe(checked, vocab, book, name, language)  # type: ignore[arg-type]
            assert face.name.replace(" ", "")[:4] in shown, (game, language, name, face.name)
            for number in face.numbers:
                assert number.text.replace(" ", "") in shown, (game, language, name, number)


def test_the_same_card_gives_the_same_face() -> None:
    checked, vocab, book = _book("sakura")
    name = next(iter(checked.symbols.cards))  # type: ignore[attr-defined]
    first = card_face(checked, vocab, book, name, "ja")  # type: ignore[arg-type]
    assert card_face(checked, vocab, book, name, "ja") == first  # type: ignore[arg-type]


def test_hostile_names_and_texts_are_escaped_by_the_template_engine() -> None:
    result = build_text('card evil "<script>alert(1)</script>" en "a & b ]]> <svg onload=alert(2)>":\n'
                        '    power 2\n')
    checked = result.checked
    assert checked is not None, [str(d) for d in result.diagnostics]
    vocab = vocabulary(checked)
    book = TextBook(checked, vocab, template_folders(checked, library_root()))
    svg = card_face(checked, vocab, book, "evil", vocab.language)
    root = ET.fromstring(svg)  # still well-formed
    assert not [e for e in root.iter() if e.tag.split("}")[-1] in ("script", "foreignObject")]
    assert not any(k.startswith("on") for e in root.iter() for k in e.attrib)
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def _designer_copy(tmp_path: Path, template: str) -> Path:
    folder = tmp_path / "hotaru"
    shutil.copytree(HOTARU, folder)
    (folder / "text").mkdir(exist_ok=True)
    (folder / "text" / "card.svg.j2").write_text(template, "utf-8")
    return folder


def test_a_designers_face_template_beside_their_files_draws_their_cards(tmp_path: Path) -> None:
    folder = _designer_copy(tmp_path, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                      '<text>mine: {{ card.name }}</text></svg>')
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["ref", "sakura", str(folder), "--format", "html", "--out", str(out)])
    assert result.exit_code == 0, result.output
    gallery = (out / "zh" / "cards.html").read_text("utf-8")
    assert "mine: " in gallery and "萤" in gallery


@pytest.mark.parametrize(("template", "reason"), [
    ("{% if %}", "card.svg.j2:1"),
    ("<svg>{{ card.nothing_here }}</svg>", "card"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><text>{{ card.name }}</svg>', "not well-formed"),
    ('<!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>', "declarations"),
    ("<html/>", "not an <svg> element"),
    ("{{ card.__class__.__mro__ }}", "card"),
])
def test_a_broken_face_template_is_a_clear_error(tmp_path: Path, template: str, reason: str) -> None:
    folder = _designer_copy(tmp_path, template)
    result = CliRunner().invoke(main, ["ref", "sakura", str(folder), "--format", "html",
                                       "--out", str(tmp_path / "site")])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert reason in result.output and "card.svg.j2" in result.output, result.output


def test_the_html_gallery_shows_a_face_for_every_card(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["ref", "eatpaint", "--format", "html", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    checked = built("eatpaint").checked
    assert checked is not None
    shown = [n for n in checked.symbols.cards if not checked.card_props.get(n, {}).get("fixture")]
    gallery = (tmp_path / "zh-Hant" / "cards.html").read_text("utf-8")
    assert gallery.count('<div class="face"><svg') == len(shown)
