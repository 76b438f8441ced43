"""A person playing at a real (pseudo-)terminal: the board, the options, the commands at the
prompt and the end of the game, in the game's own language."""

from __future__ import annotations

import re
import sys

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect is a dev dependency: run `make test`")

PROMPT = re.compile(r"\[(\d+)-(\d+), \?\] > ")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Seat:
    """cardsmith playing a seat at a pseudo-terminal of 50×120 characters."""

    def __init__(self, *args: str) -> None:
        self.child = pexpect.spawn(sys.executable, ["-m", "cardsmith", "play", *args, "--agent", "terminal"],
                                   dimensions=(50, 120), encoding="utf-8", timeout=60,
                                   env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"})
        self.screens: list[str] = []

    def prompt(self) -> bool:
        """Wait for the next prompt (True) or the end of the program (False); keep what was shown."""
        found = self.child.expect([PROMPT, pexpect.EOF])
        self.raw = (self.child.before or "") + (self.child.after if found == 0 else "")
        self.screens.append(ANSI.sub("", self.raw).replace("\r\n", "\n"))
        return found == 0

    def type(self, text: str) -> None:
        self.child.sendline(text)

    @property
    def text(self) -> str:
        return "".join(self.screens)


def test_a_whole_game_at_a_terminal() -> None:
    seat = Seat("sakura", "--seed", "3", "--p1", "himika,yurina", "--p2", "tokoyo,himika")
    assert seat.prompt()
    assert "\x1b[" in seat.raw, "a real terminal gets colour"
    first = seat.screens[-1]
    assert "散樱乱武 新幕 · P1" in first and "P1 绯弥香+摇波 (你)" in first
    assert re.search(r"构筑候选 +22 +シュート · ラピッドファイア", first), "the seat sees its own candidates"
    for command, shows in (("?", "b：再看一次盘面"), ("b", "P1 绯弥香+摇波 (你)"), ("l", "你所见的全部记录"),
                           ("x", "请输入 1 到 14 之间的数字"), ("99", "请输入 1 到 14 之间的数字")):
        seat.type(command)
        assert seat.prompt()
        assert shows in seat.screens[-1], command
    decisions = 0
    while True:
        seat.type("1")
        if not seat.prompt():
            break
        decisions += 1
    seat.child.close()
    assert seat.child.exitstatus == 0
    text = seat.text
    assert decisions + 1 == 56, "seed 3 asks P1 56 times; P2 is a random agent"
    # the board as the game's own words: areas with their crystals, the distance, counts that changed
    assert re.search(r"距离 +\d+ +樱花结晶 ×\d+", text) and re.search(r"装 +\d+ +樱花结晶 ×\d+", text)
    assert re.search(r"手牌 +\d+ \(-1\)", text) and re.search(r"牌库 +\d+ \(\+1\)", text)
    assert re.search(r"\d+ 张未公开", text), "the other's hidden cards are only counted"
    assert "   1) 是\n   2) 否" in text and ") yes" not in text and ") no" not in text
    assert "价格" not in text, "nobody plays Akina, so her price is shown to nobody"
    assert "自你上次决定以来" in text and "earlier" not in text
    assert re.search(r"游戏结束 ─+╮\n│ P1 败北：命归零", text)
    assert "seed 3: himika+yurina vs tokoyo+himika: P1 loses" in text


def test_leaving_at_the_terminal_abandons_the_game() -> None:
    seat = Seat("eatpaint", "--seed", "3")
    assert seat.prompt()
    seat.type("q")
    assert not seat.prompt()
    seat.child.close()
    assert seat.child.exitstatus == 2 and "the player at the terminal left the game" in seat.text
