"""The on-disk caches: private to the user, verified before use, keyed by everything they
depend on; a planted or broken entry is skipped and rebuilt, never run or fatal."""

from __future__ import annotations

import importlib.util
import json
import logging
import marshal
import os
import stat
import tempfile
import types
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cardsmith.compiler import cache as cache_mod
from cardsmith.compiler import load
from cardsmith.compiler.cache import Cache, open_cache
from cardsmith.compiler.check_cache import CheckOutcome, EntryError
from cardsmith.compiler.diagnostics import Diagnostic
from cardsmith.compiler.load import _cache_key, build_sources, entry_payload
from cardsmith.compiler.span import Span
from cardsmith.runtime.rules import SourceMap
from tests.helpers import MINI_GAME

SOURCES = {"mini.csm": MINI_GAME}
NO_MAP = SourceMap.of({}, [])


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("CARDSMITH_CACHE", str(where))
    return where


def _entry(folder: Path) -> Path:
    return folder / f"{_cache_key(SOURCES)}.bin"


def test_the_cache_folder_is_private_and_entries_are_tagged(folder: Path) -> None:
    first = build_sources(SOURCES)
    assert first.ok and not first.from_cache
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "key").stat().st_mode) == 0o600
    assert stat.S_IMODE(_entry(folder).stat().st_mode) == 0o600
    assert build_sources(SOURCES).from_cache
    assert not list(folder.glob(".tmp-*")), "temporary files are renamed or removed"


def test_the_grammar_tables_never_go_to_the_shared_temp_folder(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.compiler.parse import parser
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    for _ in range(2):  # build, then load from the cache
        parser.cache_clear()
        assert parser().parse("use x\n") is not None
    assert list(shared.iterdir()) == []
    assert [p.name for p in folder.glob("grammar-*.bin")]


def test_a_planted_entry_is_never_run(folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    build_sources(SOURCES)
    marker = folder.parent / "pwned"
    evil = compile(f"open({str(marker)!r}, 'w').write('x')", "<evil>", "exec")
    for payload in (entry_payload(evil, evil, NO_MAP),
                    marshal.dumps({"code": f"open({str(marker)!r}, 'w')", "paths": [], "at": b"", "files": b"",
                                   "source_lines": b"", "decls": []})):
        _entry(folder).write_bytes(b"\0" * 32 + payload)
        with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
            again = build_sources(SOURCES)
        assert again.ok and not again.from_cache
        assert not marker.exists()
        assert "not written by this user's cardsmith" in caplog.text


def test_a_verified_entry_whose_code_raises_is_rebuilt(folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    build_sources(SOURCES)
    store = open_cache()
    assert store is not None
    broken = compile("raise RuntimeError('bad entry')", "<broken>", "exec")
    store.write(_entry(folder).name, entry_payload(broken, broken, NO_MAP))
    with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
        again = build_sources(SOURCES)
    assert again.ok and not again.from_cache and "RuntimeError" in caplog.text
    assert build_sources(SOURCES).from_cache  # the rebuild replaced the entry


def _map_fields(source_map: SourceMap) -> dict[str, object]:
    return {"paths": source_map.paths, "at": source_map.at.tobytes(), "files": source_map.files.tobytes(),
            "source_lines": source_map.source_lines.tobytes(), "decls": source_map.decls}


@pytest.mark.parametrize("damage", ["arrays of unequal length", "a file index past the paths",
                                    "a negative file index", "a ragged array", "an old layout",
                                    "scenarios that are not marshalled code"])
def test_a_verified_entry_that_does_not_hold_together_is_rebuilt(folder: Path, damage: str,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """Even an entry this user's cardsmith wrote is read defensively: a source map that does
    not hold together, or scenarios that are not marshalled code, is a miss (the game is
    rebuilt), never a crash when an error is reported or a scenario is run."""
    first = build_sources(SOURCES)
    assert first.rules is not None
    store = open_cache()
    assert store is not None
    data = marshal.loads(store.read(_entry(folder).name) or b"")
    good = _map_fields(first.rules.source_map)
    assert data == {"code": data["code"], "scenarios": data["scenarios"], **good}, \
        "the entry holds the code, the scenarios' code and the whole map"
    assert isinstance(marshal.loads(data["scenarios"]), types.CodeType)
    two_lines = SourceMap.of({7: ("a.csm", 1), 9: ("a.csm", 2)}, [])
    bad = {**good, **_map_fields(two_lines)}
    if damage == "arrays of unequal length":
        bad["at"] = two_lines.at.tobytes()[:4]
    elif damage == "a file index past the paths":
        bad["paths"] = []
    elif damage == "a negative file index":
        bad["files"] = SourceMap.of({7: ("a.csm", 1), 9: ("a.csm", 2)}, []).files.tobytes()[:4] + b"\xff" * 4
    elif damage == "a ragged array":
        bad["source_lines"] = b"\x01\x02\x03"
    elif damage == "an old layout":
        bad = {"lines": {7: ("a.csm", 1)}, "decls": []}
    scenarios = data["code"] if damage == "scenarios that are not marshalled code" else data["scenarios"]
    kept = {"code": data["code"], "scenarios": scenarios}
    store.write(_entry(folder).name, marshal.dumps({**kept, **bad}))
    with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
        again = build_sources(SOURCES)
    assert again.ok and not again.from_cache
    assert "skipped and rebuilt" in caplog.text
    assert build_sources(SOURCES).from_cache


@pytest.mark.parametrize("kind", ["folder", "fifo", "dangling link", "truncated"])
def test_entries_that_are_not_files_are_skipped(folder: Path, kind: str, caplog: pytest.LogCaptureFixture) -> None:
    build_sources(SOURCES)
    entry = _entry(folder)
    entry.unlink()
    if kind == "folder":
        entry.mkdir()
    elif kind == "fifo":
        os.mkfifo(entry)
    elif kind == "dangling link":
        entry.symlink_to(folder / "nowhere")
    else:
        entry.write_bytes(b"short")
    with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
        again = build_sources(SOURCES)   # a FIFO must not block this read
    assert again.ok and not again.from_cache
    assert "skipped" in caplog.text


def test_a_folder_others_can_write_turns_the_cache_off(folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder.mkdir(mode=0o700)
    os.chmod(folder, 0o777)
    with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
        result = build_sources(SOURCES)
        assert result.ok and not build_sources(SOURCES).from_cache
    assert "can be written by other users" in caplog.text
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(os.getuid() != 0, reason="changing a folder's owner needs root")
def test_a_folder_of_another_user_turns_the_cache_off(folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder.mkdir(mode=0o700)
    os.chown(folder, 12345, 12345)
    with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
        assert open_cache() is None
    assert "belongs to another user" in caplog.text


def test_a_key_others_can_read_is_refused(folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert open_cache() is not None
    os.chmod(folder / "key", 0o644)
    with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
        assert open_cache() is None
    assert "can be read by other users" in caplog.text


def test_an_entry_written_with_another_key_is_refused(folder: Path) -> None:
    store = open_cache()
    assert store is not None
    Cache(folder, b"k" * 32).write("x.bin", b"payload")
    assert store.read("x.bin") is None
    store.write("x.bin", b"payload")
    assert store.read("x.bin") == b"payload"


def test_the_key_covers_the_interpreter_and_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _cache_key(SOURCES)
    load._compiler_fingerprint.cache_clear()
    monkeypatch.setattr(importlib.util, "MAGIC_NUMBER", b"\x00\x00\r\n")
    try:
        assert _cache_key(SOURCES) != before
        load._compiler_fingerprint.cache_clear()
        monkeypatch.undo()
        monkeypatch.setattr(load, "_lark_release", lambda: b'__version__ = "0.0.1"')
        assert _cache_key(SOURCES) != before
    finally:
        monkeypatch.undo()
        load._compiler_fingerprint.cache_clear()
    assert _cache_key(SOURCES) == before


def test_different_source_sets_never_share_a_key() -> None:
    one = {"a.csm": "x\0b.csm\0y"}
    two = {"a.csm": "x", "b.csm": "y"}
    assert _cache_key(one) != _cache_key(two)


def test_the_cache_root_defaults_to_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDSMITH_CACHE", raising=False)
    root = cache_mod.cache_root()
    assert "cardsmith" in root.parts and not str(root).startswith(tempfile.gettempdir())


def test_check_remembers_what_it_found_until_a_source_or_template_changes(folder: Path, tmp_path: Path) -> None:
    """`check` of unchanged sources answers from the cache with the same diagnostics; a changed
    file or a changed card-text template (W201's suggestions come from it) is checked again."""
    from click.testing import CliRunner

    from cardsmith.cli import main
    game = tmp_path / "mine"
    game.mkdir()
    source = game / "game.csm"
    source.write_text(MINI_GAME + '\ncounter spare "备用": range 0..9\n', "utf-8")  # unused: W202

    def check() -> str:
        result = CliRunner().invoke(main, ["check", str(game)])
        assert result.exit_code == 0, result.output
        return result.output

    remembered = "(unchanged since the last check)"
    first = check()
    again = check()
    assert "W202" in first and remembered not in first and remembered in again
    assert first.split("\nmini:")[0] == again.split("\nmini:")[0]  # the same diagnostics, rendered alike
    source.write_text(source.read_text("utf-8") + '\ncounter spare2 "备用2": range 0..9\n', "utf-8")
    changed = check()
    assert remembered not in changed and changed.count("W202") == first.count("W202") + 1
    assert remembered in check()
    (game / "text").mkdir()
    (game / "text" / "zh.j2").write_text("{% macro yes() %}对{% endmacro %}\n", "utf-8")
    assert remembered not in check()


def test_a_build_parses_only_the_files_that_changed(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsed files are remembered by content (in the process and in the cache): a second
    build parses nothing, an edited file alone is parsed again, and the game is the same."""
    from cardsmith.compiler import parse_cache
    parsed: list[str] = []
    real = parse_cache.parse_source

    def counting(path: str, text: str, chunks: object = None) -> parse_cache.Parsed:
        parsed.append(path)
        return real(path, text)

    monkeypatch.setattr(parse_cache, "parse_source", counting)
    monkeypatch.setattr(parse_cache, "_MEMORY", {})
    sources = {"mini.csm": MINI_GAME, "more.csm": "use mini\ncounter extra \"额外\": range 0..3\n"}
    first = build_sources(sources, need_model=True)
    assert first.ok and sorted(parsed) == ["mini.csm", "more.csm"]
    parsed.clear()
    parse_cache._MEMORY.clear()  # a new process: only the on-disk entries are left
    again = build_sources(sources, need_model=True)
    assert parsed == [] and again.python_source == first.python_source
    edited = {**sources, "more.csm": sources["more.csm"] + "counter other \"其他\": range 0..3\n"}
    build_sources(edited, need_model=True)
    assert parsed == ["more.csm"]


def test_a_damaged_syntax_entry_is_parsed_again(folder: Path, caplog: pytest.LogCaptureFixture,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.compiler import parse_cache
    monkeypatch.setattr(parse_cache, "_MEMORY", {})
    assert build_sources(SOURCES).ok
    entries = list(folder.glob("syntax-*.pkl"))
    assert len(entries) == 1
    entries[0].write_bytes(b"\0" * 40 + b"not what was written")
    parse_cache._MEMORY.clear()
    (folder / f"{_cache_key(SOURCES)}.bin").unlink()  # make the build compile again
    with caplog.at_level(logging.WARNING, logger="cardsmith.cache"):
        assert build_sources(SOURCES).ok
    assert "not written by this user's cardsmith" in caplog.text


def test_the_command_line_shows_a_cache_warning_on_stderr(folder: Path) -> None:
    """The command line sets up its `warning: …` lines only when the first warning comes (a run
    with nothing to say does not import `logging`); the warning reaches stderr, once however often
    the cache is opened."""
    import subprocess
    import sys
    folder.mkdir(mode=0o700)
    os.chmod(folder, 0o777)
    done = subprocess.run([sys.executable, "-m", "cardsmith", "check", "eatpaint"], capture_output=True, text=True,
                          env={**os.environ, "CARDSMITH_CACHE": str(folder)}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [f"warning: cache disabled: {folder} can be written by other users (chmod 700 it)"]


def test_a_quiet_check_does_not_import_logging(folder: Path) -> None:
    import subprocess
    import sys
    probe = "import sys; from cardsmith.cli import main; main(['check', 'eatpaint'], standalone_mode=False); " \
            "print('logging' in sys.modules)"
    for _ in range(2):  # the first run fills the cache, the second reads it
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              env={**os.environ, "CARDSMITH_CACHE": str(folder)}, check=False)
        assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False"


_TEXT = st.text(max_size=12)
_WHOLE = st.integers(0, 10**6)
_DIAGNOSTICS = st.builds(
    Diagnostic, _TEXT, _TEXT, st.builds(Span, _TEXT, _WHOLE, _WHOLE, _WHOLE, _WHOLE),
    st.none() | _TEXT, st.none() | _TEXT, st.sampled_from(["error", "warning"]))
_OUTCOMES = st.builds(CheckOutcome, st.lists(_DIAGNOSTICS, max_size=4), st.none() | _TEXT, _WHOLE, _WHOLE, _WHOLE)


@given(_OUTCOMES)
def test_a_check_outcome_reads_back_as_written(outcome: CheckOutcome) -> None:
    assert CheckOutcome.decode(outcome.encode()) == outcome


def _accepts(key: str, value: object) -> bool:
    """Whether an entry's field may hold this value."""
    if key in ("code", "message", "file", "severity"):
        return isinstance(value, str)
    if key in ("hint", "suggestion", "game"):
        return value is None or isinstance(value, str)
    if key == "diagnostics":
        return value == []
    return type(value) is int and value >= 0


@given(_OUTCOMES, st.data())
def test_an_entry_of_another_shape_is_refused_never_half_read(outcome: CheckOutcome, data: st.DataObject) -> None:
    """Any change to the shape of an entry — a field missing, added, or holding a value of
    another type — is an EntryError (the check runs again), never another exception."""
    document = json.loads(outcome.encode())
    record = data.draw(st.sampled_from([document, *document["diagnostics"]]))
    key = data.draw(st.sampled_from(sorted(record)))
    change = data.draw(st.sampled_from(["drop", "add", "retype"]))
    if change == "drop":
        del record[key]
    elif change == "add":
        record[key + "_extra"] = 1
    else:
        record[key] = data.draw(st.sampled_from([1.5, True, [], {}, -1, "1", None]))
        assume(not _accepts(key, record[key]))
    with pytest.raises(EntryError):
        CheckOutcome.decode(json.dumps(document).encode())


@pytest.mark.parametrize("payload", [b"", b"\xff\xfe", b"[1, 2]", b"null", b"{" * 100_000, b'{"diagnostics": 1}'])
def test_an_entry_that_is_not_an_outcome_is_refused(payload: bytes) -> None:
    with pytest.raises(EntryError):
        CheckOutcome.decode(payload)
