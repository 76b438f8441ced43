"""The JSON-lines protocol between cardsmith and a program that plays a seat (a bot).

cardsmith writes one JSON object per line to the bot's stdin (our stdout) and reads one per
line back. Every message has a `type`:

- `hello`: once, before anything else: protocol name and version, game, seat, players, and
  `hidden_card`, the word the views and log use in place of a card this seat may not see.
- `choice`: a decision for the bot. `count` options numbered 0..count-1; `options` lists
  their labels when there are at most MAX_LISTED_OPTIONS of them; a `number` choice also
  gives `low` and `high` (option i means the number low + i). `view` is everything the
  seat may see.
- `error`: the last answer was refused; `min` and `max` give the valid range. The same
  choice is asked again (after MAX_BAD_ANSWERS refusals in a row the game is abandoned).
- `game_over`: the result; nothing follows.

The bot answers each `choice` with `{"choice": N}` (a JSON integer; `true` is not one),
optionally with the `id` of the choice it answers. `schema()` gives the JSON Schema of both
directions, published as docs/jsonl-protocol.schema.json.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

PROTOCOL = "cardsmith-jsonl"
VERSION = 1
MAX_BAD_ANSWERS = 20

Value = int | bool | str | list[str] | None


class ZoneView(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A zone as one seat sees it: tokens by kind and, if it holds cards, each card's name
    (or the game's word for a hidden card)."""

    tokens: dict[str, int]
    cards: list[str] | None = None


class PlayerView(msgspec.Struct, forbid_unknown_fields=True):
    """A player's zones, the counters this seat may see, and the characters picked."""

    zones: dict[str, ZoneView]
    counters: dict[str, Value]
    picks: list[str]


class View(msgspec.Struct, forbid_unknown_fields=True):
    """Everything one seat may see at a decision."""

    you: str
    seat: int
    shared: dict[str, ZoneView]
    players: dict[str, PlayerView]
    counters: dict[str, Value]
    log: list[str]
    log_total: int


class Hello(msgspec.Struct, tag="hello", tag_field="type", forbid_unknown_fields=True):
    protocol: str
    version: int
    game: str
    seat: int
    players: int
    hidden_card: str


class Choice(msgspec.Struct, tag="choice", tag_field="type", forbid_unknown_fields=True,
             omit_defaults=True):
    id: int
    player: int
    kind: Literal["pick", "menu", "number", "ask"]
    prompt: str
    count: int
    view: View
    options: list[str] | None = None
    low: int | None = None
    high: int | None = None


class Error(msgspec.Struct, tag="error", tag_field="type", forbid_unknown_fields=True):
    message: str
    min: int
    max: int


class GameOver(msgspec.Struct, tag="game_over", tag_field="type", forbid_unknown_fields=True):
    winner: int | None
    result: str
    steps: int
    decisions: int
    error: str | None = None
    cause: str | None = None  # why the game ended, in the game's words


Message = Hello | Choice | Error | GameOver


class Answer(msgspec.Struct, forbid_unknown_fields=True):
    """What the bot sends back for a choice."""

    choice: int
    id: int | None = None


_encoder = msgspec.json.Encoder()
_answers = msgspec.json.Decoder(Answer, strict=True)


def encode(message: Message) -> str:
    """One line of JSON (no newline)."""
    return _encoder.encode(message).decode()


def decode_answer(line: str) -> Answer:
    """Parse an answer line; raises msgspec.ValidationError or msgspec.DecodeError."""
    return _answers.decode(line)


def schema() -> dict[str, Any]:
    """The JSON Schema of the protocol: messages out (`Message`) and answers in (`Answer`)."""
    outgoing, components = msgspec.json.schema_components([Message, Answer],
                                                          ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cardsmith.invalid/{PROTOCOL}/{VERSION}",
        "title": f"{PROTOCOL} version {VERSION}",
        "description": "Messages cardsmith writes (one JSON object per line) and the answers it reads.",
        "$defs": components,
        "oneOf": [
            {"title": "message", **outgoing[0]},
            {"title": "answer", **outgoing[1]},
        ],
    }
