"""The formatter (`compiler/fmt.py`, `cardsmith fmt`): the canonical layout rule by rule, comments
kept, idempotence, refusal of what does not parse or would change meaning, the command line, and
the bundled library already in the layout."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsmith.cli import main
from cardsmith.compiler import fmt
from cardsmith.compiler.fmt import FormatError, format_text
from cardsmith.compiler.library import library_root
from cardsmith.compiler.load import build_sources, resolve_game
from cardsmith.compiler.parse import parse_source, split_items

REPO = Path(__file__).resolve().parent.parent
LIBRARY = sorted(library_root().rglob("*.csm")) + sorted((REPO / "examples").rglob("*.csm"))

# (what is written, its canonical layout), one rule each
CASES = {
    "indentation: 2 spaces, tabs and mixed widths become 4 spaces per level": (
        "card a:\n  range 1-2\n  after_attack:\n\tlet x = 1\n\tif x:\n\t      pass\n",
        "card a:\n    range 1-2\n    after_attack:\n        let x = 1\n        if x:\n            pass\n"),
    "spacing: commas, value colons, operators, =, brackets": (
        "procedure p(a:number,b) \"x\"  en  \"y\"  :\n    let x=-a+f( b )[ 0 ]*(1+2)//3\n"
        "    x+=1\n    if x<=3 and not(x==-1) or x in [1,2]:\n        log \"{}\",x . y,-x\n",
        "procedure p(a: number, b) \"x\" en \"y\":\n    let x = -a + f(b)[0] * (1 + 2) // 3\n"
        "    x += 1\n    if x <= 3 and not (x == -1) or x in [1, 2]:\n        log \"{}\", x.y, -x\n"),
    "unary minus: no space after it, binary minus spaced": (
        "value v \"x\" = - 1 + -(2) - - 3 -f(4)\n",
        "value v \"x\" = -1 + -(2) - -3 - f(4)\n"),
    "options and properties": (
        "zone deck \"牌堆\"  :per player,holds cards ,  hidden\ncharacter c \"c\":number 1,group 派\n",
        "zone deck \"牌堆\": per player, holds cards, hidden\ncharacter c \"c\": number 1, group 派\n"),
    "literals kept byte for byte: CJK strings, pairs, ranges, deltas, numbers, names": (
        "card 斬 \"斬　り  ，\" ja \"【常時】：  3/1\" section 3-1:\n    range 0-10\n    damage -/1\n"
        "    mod +1/-1\n    count -3\n    path 1..4\n    text \"全角　空白  # 不是注释\"\n",
        "card 斬 \"斬　り  ，\" ja \"【常時】：  3/1\" section 3-1:\n    range 0-10\n    damage -/1\n"
        "    mod +1/-1\n    count -3\n    path 1..4\n    text \"全角　空白  # 不是注释\"\n"),
    "blank lines: one between declarations, runs collapse, none at the end": (
        "use sakura\n\n\n\ncard a:\n    range 1-2\ncard b:\n    range 1-2\n\n\n",
        "use sakura\n\ncard a:\n    range 1-2\n\ncard b:\n    range 1-2\n"),
    "blank lines: one-line declarations written together stay together": (
        "zone a \"a\"\nzone b \"b\"\n\n\nzone c \"c\"\ncard d:\n    range 1-2\n",
        "zone a \"a\"\nzone b \"b\"\n\nzone c \"c\"\n\ncard d:\n    range 1-2\n"),
    "blank lines: none at the start of a block, at most one inside": (
        "card a:\n\n    range 1-2\n\n\n\n    after_attack:\n\n        pass\n\n\n        pass\n",
        "card a:\n    range 1-2\n\n    after_attack:\n        pass\n\n        pass\n"),
    "file ends: no blank line at the start, one newline at the end": (
        "\n\n\nuse sakura", "use sakura\n"),
    "trailing comments: two spaces, then '# '": (
        "zone a \"a\"   #hidden\ncard b:    # the card\n    range 1-2# near\n",
        "zone a \"a\"  # hidden\n\ncard b:  # the card\n    range 1-2  # near\n"),
    "full-line comments: re-indented to the block they sit in": (
        "card a:\n  # about range\n  range 1-2\n  after_attack:\n# inside the block\n      pass\n"
        "        # still in the block\n  # back at card level\n  text \"x\"\n",
        "card a:\n    # about range\n    range 1-2\n    after_attack:\n        # inside the block\n        pass\n"
        "        # still in the block\n    # back at card level\n    text \"x\"\n"),
    "comments between declarations go with the one below; headers and the end stay": (
        "#header\n\nuse sakura\ncard a:\n    range 1-2\n    # end of a's block\n# about b\n\ncard b:\n"
        "    range 1-2\n\n\n# the end\n",
        "# header\n\nuse sakura\n\ncard a:\n    range 1-2\n    # end of a's block\n\n# about b\n\ncard b:\n"
        "    range 1-2\n\n# the end\n"),
    "a comment between one-line declarations keeps them together": (
        "zone a \"a\"\n# about b\nzone b \"b\"\n", "zone a \"a\"\n# about b\nzone b \"b\"\n"),
    "comment texts: #! and ## kept, trailing whitespace dropped": (
        "#!keep\n##keep   \n#\nuse sakura\n", "#!keep\n##keep\n#\nuse sakura\n"),
    "line breaks inside brackets kept, one level deeper per bracket": (
        "card a:\n    after_attack:\n        let xs = [1,\n                  f(2,  # two\n  # in brackets\n"
        "                    3),\n   4]\n",
        "card a:\n    after_attack:\n        let xs = [1,\n            f(2,  # two\n                # in brackets\n"
        "                3),\n            4]\n"),
    "a bracket continued at the top level is never at column 0": (
        "value v \"x\" = [1,\n 2\n ]\n",
        "value v \"x\" = [1,\n    2\n    ]\n"),
    "a backslash continuation is kept": (
        "card a:\n    after_attack:\n        let x = 1 +\\\n  2\n",
        "card a:\n    after_attack:\n        let x = 1 + \\\n            2\n"),
    "CRLF line endings and a byte order mark are kept": (
        "\ufeffuse sakura\r\ncard a:\r\n  range 1-2   \r\n",
        "\ufeffuse sakura\r\n\r\ncard a:\r\n    range 1-2\r\n"),
    "an empty file stays empty": ("\n\n  \n", ""),
}


@pytest.mark.parametrize("case", list(CASES))
def test_canonical_layout(case: str) -> None:
    written, canonical = CASES[case]
    assert format_text(written) == canonical
    assert format_text(canonical) == canonical  # idempotent


def test_formatting_keeps_the_syntax_model() -> None:
    for written, canonical in CASES.values():
        assert _meaning(written) == _meaning(canonical)


def test_a_file_that_does_not_parse_is_refused_with_its_diagnostic() -> None:
    text = "card a:\n  range 1-2\ncard b:\n    range = 3\n"
    with pytest.raises(FormatError) as err:
        format_text(text, "bad.csm")
    (diag,) = err.value.diagnostics
    assert diag.code == "E001" and (diag.span.file, diag.span.line) == ("bad.csm", 4)


def test_a_layout_that_changes_the_meaning_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fmt._compose
    monkeypatch.setattr(fmt, "_compose", lambda units: real(units).replace("1-2", "1-3"))
    with pytest.raises(FormatError, match="would change what the file means"):
        format_text("card a:\n  range 1-2\n")


# ---- the bundled library ---------------------------------------------------------------


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_every_bundled_file_is_already_formatted(path: Path) -> None:
    text = path.read_text("utf-8")
    assert format_text(text, str(path)) == text, f"run: cardsmith fmt {path}"


# the library's games, each built from every file it reads: the example adds to Sakura Arms, so
# building it builds every Sakura file too
BUILT = ["eatpaint", "ccs", str(REPO / "examples" / "hotaru")]


def test_the_built_games_cover_every_bundled_file() -> None:
    read = {Path(path).resolve() for target in BUILT for path in resolve_game(target, [])[0]}
    assert read == {p.resolve() for p in LIBRARY}


@pytest.mark.parametrize("target", BUILT, ids=lambda t: Path(t).name)
def test_formatting_does_not_change_the_generated_code(target: str) -> None:
    """Each file of a game laid out otherwise (same lines, other indentation and spacing), then
    formatted: the formatted game compiles to the same Python as the messy one, byte for byte
    (the lines stay where they were, so even the source positions in the code agree)."""
    sources, diags = resolve_game(target, [])
    assert not diags
    rnd = random.Random(Path(target).name)
    messy = {path: _mess_up_file(text, rnd) for path, text in sources.items()}
    assert all(messy[path] != text for path, text in sources.items())
    formatted = {path: format_text(text, path) for path, text in messy.items()}
    assert formatted == sources  # the library is in the canonical layout
    # the library's own files may come parsed from the session's earlier builds; the messy ones never do
    assert _generated(formatted, use_cache=True) == _generated(messy, use_cache=False)


def _mess_up_file(text: str, rnd: random.Random) -> str:
    """A whole file with each declaration messed up, its lines kept where they are."""
    return "".join(_mess_up(chunk, rnd, more_blank_lines=False) if fmt._has_code(chunk) else chunk
                   for chunk in fmt._declarations(text))


def _generated(sources: dict[str, str], use_cache: bool) -> str:
    result = build_sources(sources, use_cache=use_cache, need_model=True)
    assert result.python_source is not None, [d.message for d in result.diagnostics]
    return result.python_source


def _declarations() -> list[str]:
    """Every declaration of a few bundled files (each game and the example), as its own text."""
    picked = [library_root() / "sakura" / "core.csm", library_root() / "eatpaint" / "rules.csm",
              library_root() / "ccs" / "characters.csm", REPO / "examples" / "hotaru" / "hotaru.csm"]
    found = []
    for path in picked:
        if path.is_file():
            found += [chunk for _, chunk in split_items(path.read_text("utf-8"))
                      if not chunk.lstrip().startswith("#")]
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_declarations()), st.randoms(use_true_random=False))
def test_any_layout_of_a_declaration_formats_to_the_same_text(decl: str, rnd: random.Random) -> None:
    canonical = format_text(decl)
    messy = _mess_up(canonical, rnd)
    assert format_text(messy) == canonical
    assert format_text(canonical) == canonical
    assert _meaning(messy) == _meaning(canonical)


def _mess_up(text: str, rnd: random.Random, more_blank_lines: bool = True) -> str:
    """The same tokens laid out differently: other indentation widths (2, 3 spaces or tabs per
    level), more space between tokens and before trailing comments, and (`more_blank_lines`)
    more blank lines where there is one."""
    unit = rnd.choice(["  ", "   ", "\t", "     "])
    tokens, _ = fmt._read_declaration(text)
    out, end = [], 0
    for token in tokens:
        assert token.start_pos is not None and token.end_pos is not None
        out.append(text[end:token.start_pos])
        spaced = out[-1] not in ("", "\n")
        if (token.type != "_NL" or token.value.startswith("#")) and spaced and rnd.random() < 0.5:
            out.append(" " * rnd.randint(1, 3))
        out.append(token.value)
        end = token.end_pos
    messy = "".join(out) + text[end:]
    messy = re.sub(r"(?m)^((?:    )+)", lambda m: unit * (len(m.group(1)) // 4), messy)
    return messy.replace("\n\n", "\n\n\n") if more_blank_lines else messy


def _meaning(text: str) -> object:
    parsed, diags = parse_source("x.csm", text)
    assert not [d for d in diags if d.severity == "error"]
    return fmt._meaning(parsed.items)


# ---- the command line --------------------------------------------------------------------

MESSY = "card a:\n  range 1-2\n"
TIDY = "card a:\n    range 1-2\n"


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "tidy.csm").write_text(TIDY, encoding="utf-8")
    (tmp_path / "sub" / "messy.csm").write_text(MESSY, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a source\n", encoding="utf-8")
    return tmp_path


def _run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["fmt", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_check_lists_what_would_change_and_writes_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    code, out, _ = _run("--check", str(root))
    assert code == 1
    assert f"would reformat {root / 'sub' / 'messy.csm'}" in out and "tidy.csm" not in out
    assert "1 file(s) would be reformatted, 1 already formatted" in out
    assert (root / "sub" / "messy.csm").read_text("utf-8") == MESSY
    assert _run("--check", str(root / "tidy.csm"))[0] == 0


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    code, out, err = _run("--diff", str(root))
    assert code == 0
    assert "-  range 1-2\n+    range 1-2\n" in out and out.startswith("--- ")
    assert "would reformat" in err
    assert (root / "sub" / "messy.csm").read_text("utf-8") == MESSY


def test_fmt_rewrites_files_in_place_and_lists_them(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    code, out, _ = _run(str(root))
    assert code == 0
    assert f"reformatted {root / 'sub' / 'messy.csm'}" in out and "tidy.csm" not in out
    assert (root / "sub" / "messy.csm").read_text("utf-8") == TIDY
    assert (root / "notes.txt").read_text("utf-8") == "not a source\n"
    assert _run("--check", str(root))[0] == 0


def test_a_file_that_does_not_parse_is_reported_and_left_alone(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csm"
    bad.write_text("card a:\n  range = 3\n", encoding="utf-8")
    code, _, err = _run(str(bad))
    assert code == 2
    assert "bad.csm:2:9: error[E001]" in err and "left as it is" in err and "Traceback" not in err
    assert bad.read_text("utf-8") == "card a:\n  range = 3\n"


def test_one_bad_file_does_not_stop_the_others(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "bad.csm").write_text("card a:\n  range = 3\n", encoding="utf-8")
    code, out, _ = _run(str(root))
    assert code == 2
    assert "1 file(s) reformatted, 1 left unchanged" in out
    assert (root / "sub" / "messy.csm").read_text("utf-8") == TIDY


def test_standard_input_is_formatted_to_standard_output() -> None:
    assert _run("-", stdin=MESSY)[:2] == (0, TIDY)
    crlf = CliRunner().invoke(main, ["fmt", "-"], input="\ufeffcard a:\r\n  range 1-2\r\n".encode())
    assert crlf.stdout_bytes == "\ufeffcard a:\r\n    range 1-2\r\n".encode()  # as the bytes came


def test_check_of_standard_input_writes_no_source() -> None:
    assert _run("--check", "-", stdin=MESSY)[:2] == (1, "would reformat <stdin>\n")
    assert _run("--check", "-", stdin=TIDY)[:2] == (0, "")


def test_standard_input_that_does_not_parse_writes_nothing() -> None:
    code, out, err = _run("-", stdin="card a:\n  range = 3\n")
    assert (code, out) == (2, "")
    assert "<stdin>:2:9: error[E001]" in err and "Traceback" not in err


def test_standard_input_is_formatted_alone(tmp_path: Path) -> None:
    code, out, err = _run("-", str(_tree(tmp_path)), stdin=MESSY)
    assert (code, out) == (2, "")
    assert "`-` (standard input) cannot be given with other paths" in err


@pytest.mark.parametrize("kind", ["missing", "fifo", "binary", "folder named .csm"])
def test_bad_inputs_get_a_message_not_a_traceback(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "x.csm"
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(target)
    elif kind == "binary":
        target.write_bytes(b"\xff\xfe\x00card")
    elif kind == "folder named .csm":
        target.mkdir()
        (target / "inner.csm").write_text(MESSY, encoding="utf-8")
    code, _, err = _run("--check", str(target))
    expected = {"missing": "no such file or folder", "fifo": "not a regular file (a FIFO)",
                "binary": "codec can't decode", "folder named .csm": ""}[kind]
    assert "Traceback" not in err and expected in err
    assert code == (1 if kind == "folder named .csm" else 2)  # a folder's sources are formatted


def test_an_unwritable_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "x.csm"
    target.write_text(MESSY, encoding="utf-8")
    target.chmod(0o444)
    if os.access(target, os.W_OK):  # root may write anyway: make the check say no
        monkeypatch.setattr("cardsmith.cmd_fmt.os.access", lambda *a, **k: False)
    code, _, err = _run(str(target))
    assert code == 2 and f"cannot write {target}" in err
    assert target.read_text("utf-8") == MESSY


def test_the_default_is_the_bundled_library(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.cmd_fmt import _files
    monkeypatch.chdir(REPO)
    found = {p.resolve() for p in _files(())}
    assert found == {p.resolve() for p in library_root().rglob("*.csm")}


def test_fmt_has_help() -> None:
    code, out, _ = _run("--help")
    assert code == 0 and "--check" in out and "--diff" in out
