"""What happened in a game, in order, as records tools can read (`play --events FILE`).

Each record is one JSON object with a `type`:

- `log`: a line the rules wrote (`log "…"`);
- `tokens`: tokens moved (`count`, `token`, `source`, `dest`, `by`: the card whose effect moved them);
- `card`: a card moved between places;
- `counter`: a counter declared `logged` changed (`before`, `after`);
- `field`: a card's field declared `logged` changed (`card`, `field`, `before`, `after`);
- `choice`: a player decided (`seat`, `kind`, `prompt`, `option` index, `label`; `forced`
  when the menu had only that option);
- `end`: the game ended (`winner`, `result`, `cause`).

Every record carries `n` (its position) and `text` (the line people read). Records honour
hidden information like log lines do: a seat that may not see a card reads the game's word
for a hidden card in its place. Places are `zone` names with their `owner` (`P1`, …, or
null for a shared zone), or a `card` for tokens on a card.
"""

from __future__ import annotations

from typing import Any

import msgspec

EVENTS_VERSION = 1


class Place(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    zone: str | None = None
    owner: str | None = None
    card: str | None = None


class Said(msgspec.Struct, tag="log", tag_field="type", forbid_unknown_fields=True):
    n: int
    text: str


class TokensMoved(msgspec.Struct, tag="tokens", tag_field="type", forbid_unknown_fields=True):
    n: int
    text: str
    count: int
    token: str
    source: Place
    dest: Place
    by: str | None = None


class CardMoved(msgspec.Struct, tag="card", tag_field="type", forbid_unknown_fields=True):
    n: int
    text: str
    card: str
    source: Place | None
    dest: Place


class CounterChanged(msgspec.Struct, tag="counter", tag_field="type", forbid_unknown_fields=True):
    n: int
    text: str
    counter: str
    player: str | None
    before: Any
    after: Any


class FieldChanged(msgspec.Struct, tag="field", tag_field="type", forbid_unknown_fields=True):
    n: int
    text: str
    card: str
    field: str
    before: Any
    after: Any


class Chose(msgspec.Struct, tag="choice", tag_field="type", forbid_unknown_fields=True):
    n: int
    text: str
    seat: int
    kind: str
    prompt: str
    option: int
    label: str
    forced: bool = False


class Ended(msgspec.Struct, tag="end", tag_field="type", forbid_unknown_fields=True):
    n: int
    text: str
    winner: int | None
    result: str
    cause: str | None


Event = Said | TokensMoved | CardMoved | CounterChanged | FieldChanged | Chose | Ended

_encoder = msgspec.json.Encoder()


def encode(event: Event) -> str:
    return _encoder.encode(event).decode()


def schema() -> dict[str, Any]:
    """The JSON Schema of one line of an events file."""
    (root,), components = msgspec.json.schema_components([Event], ref_template="#/$defs/{name}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://cardsmith.invalid/events/{EVENTS_VERSION}",
            "title": f"cardsmith game events version {EVENTS_VERSION}",
            "description": "One JSON object per line: what happened in a game, in order.",
            "$defs": components, **root}
