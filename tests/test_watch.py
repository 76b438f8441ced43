"""`cardsmith check --watch`, as a designer runs it: one process that checks again after each
edit of their files, shows what each edit broke or fixed, notices a new file, and stops
cleanly on Ctrl-C."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import DISAGREEING_CARD, MINI_GAME, assert_report

WAIT = 120.0  # seconds a check may take on a loaded machine before the test gives up
CARD = '\ncard coin "金币":\n    power 2\n'


class Watcher:
    """A running `cardsmith check --watch` whose output is read line by line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "cardsmith", "check", *args, "--watch"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def round(self, last: str = "watching ") -> list[str]:
        """The lines of the next report, up to and including the one starting with `last`."""
        got: list[str] = []
        deadline = time.monotonic() + WAIT
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"the watcher ended: {got} {self.stop()}"
            got.append(line)
            if line.startswith(last):
                return got

    def stop(self, interrupt: bool = True) -> tuple[int, str]:
        """Ctrl-C, as a person at the terminal stops it (or, without `interrupt`, the end it
        comes to by itself); the exit code and stderr."""
        if interrupt and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        assert self.proc.stderr is not None
        return self.proc.returncode, self.proc.stderr.read()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "mini"
    folder.mkdir()
    (folder / "mini.csm").write_text(MINI_GAME + CARD, encoding="utf-8")
    return folder


@pytest.fixture
def watcher(game: Path) -> Iterator[Watcher]:
    running = Watcher(str(game))
    yield running
    running.stop()


def _edit(path: Path, text: str) -> None:
    """Write a file and give it a later modification time than the one it had."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 1_000_000_000, before + 1_000_000_000))


def test_each_edit_is_checked_again_until_ctrl_c(game: Path, watcher: Watcher) -> None:
    first = watcher.round()
    assert first[0].endswith("first check")
    assert any(line.startswith("mini: 1 file(s), 1 card(s)") for line in first), first
    assert not any("error[" in line for line in first) and any(line.startswith("0 error(s)") for line in first), first

    source = game / "mini.csm"
    _edit(source, MINI_GAME + CARD.replace("power 2", "power nowhere"))
    broken = watcher.round()
    assert broken[0].endswith("changed: mini.csm"), broken
    assert any(line.startswith(f"{source}:") and "error[" in line for line in broken), broken
    assert any(line.startswith("1 error(s)") for line in broken), broken

    _edit(source, MINI_GAME + CARD)
    fixed = watcher.round()
    assert not any("error[" in line for line in fixed) and any(line.startswith("0 error(s)") for line in fixed), fixed
    assert any(line.startswith("mini: 1 file(s), 1 card(s)") for line in fixed), fixed

    _edit(game / "more.csm", CARD.replace("coin", "gem").replace("金币", "宝石"))
    grown = watcher.round()
    assert grown[0].endswith("changed: more.csm"), grown
    assert any(line.startswith("mini: 2 file(s), 2 card(s)") for line in grown), grown

    (game / "extra").mkdir()  # a folder of the folder target: its sources join the game, and it is watched
    _edit(game / "extra" / "third.csm", CARD.replace("coin", "pearl").replace("金币", "珍珠"))
    deeper = watcher.round()
    assert deeper[0].endswith("changed: extra"), deeper
    assert any(line.startswith("mini: 3 file(s), 3 card(s)") for line in deeper), deeper
    _edit(game / "extra" / "third.csm", CARD.replace("coin", "jade").replace("金币", "玉"))
    inside = watcher.round()  # the next report is this edit's: the change of folders was reported once
    assert inside[0].endswith("changed: third.csm"), inside

    code, err = watcher.stop()
    assert code == 0 and "Traceback" not in err, err


def test_json_gives_one_document_per_check(game: Path) -> None:
    running = Watcher(str(game), "--format", "json")
    try:
        first = json.loads(running.round(last="{")[-1])
        assert_report("watch", first)
        assert first["changed"] == [] and [d for d in first["diagnostics"] if d["severity"] == "error"] == []
        assert [(g["game"], g["files"], g["cards"]) for g in first["games"]] == [("mini", 1, 1)]
        source = game / "mini.csm"
        _edit(source, MINI_GAME + CARD.replace("power 2", "power nowhere"))
        second = json.loads(running.round(last="{")[-1])
        assert_report("watch", second)
        assert second["changed"] == [str(source)]
        errors = [(d["file"], d["line"]) for d in second["diagnostics"] if d["severity"] == "error"]
        assert errors == [(str(source), MINI_GAME.count("\n") + 3)]
    finally:
        code, err = running.stop()
    assert code == 0 and "Traceback" not in err, err


def test_the_card_text_templates_beside_the_sources_are_watched_too(tmp_path: Path) -> None:
    """A designer's `text/` folder of card-text templates, made while watching, is watched: a
    template that does not compile is reported (E117, found while phrasing the suggestion for
    the card whose text disagrees), and fixing it is checked again with the new template."""
    (tmp_path / "d.csm").write_text(DISAGREEING_CARD, encoding="utf-8")
    running = Watcher(str(tmp_path))
    try:
        first = running.round()
        assert any("warning[W201]" in line for line in first) and not any("error[" in line for line in first), first
        (tmp_path / "text").mkdir()
        _edit(tmp_path / "text" / "zh.j2", "{% if %}\n")
        broken = running.round()
        assert any("error[E117]" in line and "zh.j2" in line for line in broken), broken
        _edit(tmp_path / "text" / "zh.j2", "{# the library's phrasing, unchanged #}\n")
        fixed = running.round()
        assert fixed[0].endswith("changed: zh.j2"), fixed
        assert not any("error[" in line for line in fixed) and any("warning[W201]" in line for line in fixed), fixed
    finally:
        code, err = running.stop()
    assert code == 0 and "Traceback" not in err, err


def test_a_watched_folder_that_goes_away_ends_the_watch_with_a_reason(game: Path, watcher: Watcher) -> None:
    watcher.round()
    shutil.rmtree(game)
    gone = watcher.round(last="1 error(s)")
    assert any("error[E005]" in line for line in gone), gone
    code, err = watcher.stop(interrupt=False)
    assert code == 1 and "nothing to watch" in err and "Traceback" not in err, err


@pytest.mark.parametrize(("args", "message"), [
    (("no/such/folder",), "nothing to watch"),
    (("sakura", "--printed", "x.csv"), "--watch cannot be combined with --printed"),
])
def test_a_watch_that_cannot_run_says_why(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "check", *args, "--watch"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=WAIT)
    assert proc.returncode != 0 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
