"""Bots play whole games over JSON lines, in a subprocess, the way a real bot would; every
line cardsmith writes is checked against the published schema."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cardsmith.runtime.protocol import schema

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "jsonl-protocol.schema.json"
VALIDATOR = jsonschema.Draft202012Validator(schema())


def test_the_published_schema_is_current() -> None:
    assert json.loads(SCHEMA_FILE.read_text("utf-8")) == schema(), \
        "docs/jsonl-protocol.schema.json is stale: run `cardsmith schema > docs/jsonl-protocol.schema.json`"


class Bot:
    """A bot on the other end of the pipes: validates every line, answers at random."""

    def __init__(self, args: list[str], seed: int) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "cardsmith", "play", *args, "--agent", "jsonl"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8")
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "cardsmith closed its output early: " + (self.proc.stderr.read() if self.proc.stderr else "")
        message = json.loads(line)
        VALIDATOR.validate(message)
        self.messages.append(message)
        return message

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def play(self) -> dict[str, Any]:
        """Answer every choice until the game is over; return the game_over message."""
        hello = self.read()
        assert hello["type"] == "hello" and hello["version"] == 1
        while True:
            message = self.read()
            if message["type"] == "game_over":
                break
            assert message["type"] == "choice", message
            self.send(json.dumps({"choice": self.rng.randrange(message["count"]), "id": message["id"]}))
        out, err = self.proc.communicate(timeout=60)
        assert out == "", f"stdout carried more than the protocol: {out[:200]!r}"
        assert self.proc.returncode == 0, err
        assert "Traceback" not in err
        self.stderr = err
        return message


GAMES = [("sakura", 2, 1), ("sakura", 2, 2), ("eatpaint", 2, 1), ("eatpaint", 2, 2),
         ("ccs", 2, 1), ("ccs", 6, 4), ("ccs", 10, 7)]


@pytest.mark.parametrize(("game", "players", "seat"), GAMES)
def test_a_bot_plays_a_whole_game(game: str, players: int, seat: int) -> None:
    bot = Bot([game, "--seed", str(players * 10 + seat), "--players", str(players), "--seat", str(seat)],
              seed=seat)
    over = bot.play()
    choices = [m for m in bot.messages if m["type"] == "choice"]
    assert choices, "the bot was never asked anything"
    assert all(m["player"] == seat - 1 and m["view"]["seat"] == seat - 1 for m in choices)
    assert over["error"] is None and over["result"] and over["decisions"] >= len(choices)
    assert over["result"] in bot.stderr  # the summary went to stderr, for people


def test_a_bots_view_never_shows_cards_it_may_not_see() -> None:
    bot = Bot(["sakura", "--seed", "5", "--seat", "2"], seed=5)
    bot.play()
    hidden = bot.messages[0]["hidden_card"]
    assert hidden == "（暗牌）", "Sakura is a Chinese game and names no word of its own"
    hands_seen = 0
    for m in bot.messages:
        if m["type"] != "choice":
            continue
        view = m["view"]
        other = next(name for name in view["players"] if name != view["you"])
        for zone in ("hand", "deck", "covered"):
            assert set(view["players"][other]["zones"][zone].get("cards", [])) <= {hidden}
        assert set(view["players"][view["you"]]["zones"]["deck"].get("cards", [])) <= {hidden}
        hands_seen += bool(view["players"][other]["zones"]["hand"].get("cards"))
    assert hands_seen, "the other hand held cards at some decision"


def test_bad_answers_get_errors_with_the_valid_range() -> None:
    bot = Bot(["sakura", "--seed", "3"], seed=0)
    bot.read()
    choice = bot.read()
    count = choice["count"]
    for bad in ['{"choice": true}', '{"choice": "1"}', '{"choice": 1.0}', f'{{"choice": {count}}}',
                '{"choice": -1}', '{"pick": 0}', 'not json', '[0]', '{"choice": 0, "id": 99}']:
        bot.send(bad)
        error = bot.read()
        assert error["type"] == "error" and (error["min"], error["max"]) == (0, count - 1), bad
    bot.send('{"choice": 0}')
    assert bot.read()["type"] == "choice"
    bot.proc.kill()
    bot.proc.communicate()


def test_a_bot_that_never_answers_properly_is_dropped() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "play", "sakura", "--agent", "jsonl"],
                          input="{\"choice\": true}\n" * 50, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "abandoned" in proc.stderr and "Traceback" not in proc.stderr
    kinds = [json.loads(line)["type"] for line in proc.stdout.splitlines()]
    assert kinds[:2] == ["hello", "choice"] and kinds.count("error") == 20


def test_a_bot_that_hangs_up_ends_the_game_cleanly() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardsmith", "play", "ccs", "--agent", "jsonl"],
                          input='{"choice": 0}\n', capture_output=True, text=True, timeout=120)
    assert proc.returncode == 130 and "input closed" in proc.stderr and "Traceback" not in proc.stderr
    for line in proc.stdout.splitlines():
        VALIDATOR.validate(json.loads(line))
