"""What a card text names: keywords, timing markers, numbers and other cards, each with where it
stands in the text, read with a game's vocabulary in every language it declares.

The reading is the same for every game and language:
- a **timing** counts where it is a marker: inside 【…】 or […] (several may share one, split
  by `/`), or a Latin-script name followed by a colon at the start of a sentence
  (`After Attack: …`);
- a **keyword** counts anywhere, the longest spelling first (Latin-script names as whole
  words, spelt as declared: "Return" is a keyword where "return" is a word), but not inside
  a zone's name (the zone "Burnt pile" does not name the keyword "Burnt");
- a **card** counts where its name stands in quotes (「」, 『』, "…", “…”), or anywhere when
  it is written in four or more non-Latin characters (too long to be a word);
- a **number** is a two-sided value (`3/1`, `-/1`), a change (`+1/+0`), a range (`3-4`) or a
  whole number, written with ASCII or full-width digits.

Timing markers inside quotes (『… 【After Hit】 …』, an attack the card makes) belong to what is
quoted: they are marked `quoted`, and say the card has that timing without being held against
it when it has not (the quoted attack may be another card's). Reminder text — a bracketed
stretch that ends its line after a sentence or stands alone on it, "(for example 3-4 becomes
2-3)" — explains a rule and is not read at all: neither its keywords, numbers and markers nor the cards it quotes. So is a
bracket without a list (no commas) that ends its line's last sentence, "… costs 1 less (never
below 0).", unless it ends a keyword's name ("Guarded (Half)").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from .vocabulary import Term, Vocabulary


class Fact(Enum):
    """The kinds of thing a text and a definition are compared on."""

    KEYWORD = "keyword"
    TIMING = "timing"
    NUMBER = "number"
    CARD = "card"


@dataclass(frozen=True, order=True)
class Mention:
    """One thing a text names, with its place in the text (offsets into the original string).
    `quoted`: a timing marker inside a quoted attack the card makes."""

    start: int
    end: int
    fact: Fact
    value: str  # a keyword, timing or card identifier; a number in canonical form
    quoted: bool = False


LONG_NAME = 4  # a card name of this many non-Latin characters is a name even without quotes
QUOTES = {"「": "」", "『": "』", "\"": "\"", "“": "”", "‘": "’"}
_MARKER = re.compile(r"【([^】]*)】|\[([^\]\n]*)\]")
_SIDE = r"(?:\d+|-|X)"
_DELTA = re.compile(r"(?<![0-9A-Za-z/])([+-])(\d+|X)\s*/\s*([+-])(\d+|X)(?![0-9A-Za-z/])")
_PAIR = re.compile(rf"(?<![0-9A-Za-z/+\-])({_SIDE})\s*/\s*({_SIDE})(?![0-9A-Za-z/])")
_RANGE = re.compile(r"(?<![0-9A-Za-z+\-/])(\d+)\s*-\s*(\d+)(?![0-9A-Za-z/])")
_COUNT = re.compile(r"(?<![0-9A-Za-z.+\-/])(\d+)(?![0-9A-Za-z/])")
_REMINDER = re.compile(r"(?m)(?:^|(?<=[。.!?！？]))[ \t]*(\([^()\n]*\))[ \t]*$"  # alone, or after a sentence
                       r"|(\([^()\n,、，]*\))[。.][ \t]*$")  # or a bracket without a list that ends the line's sentence
_SENTENCE_START = re.compile(r"(?:^|[.。!?！？\n]\s*|:\s*)$")


def normalise(text: str) -> tuple[str, list[int]]:
    """The text with full-width forms folded (NFKC, character by character) and, for each
    character of the result, the offset of the original character it came from. A text that is
    already in that form (most are) is its own result: no character of an NFKC text changes
    when folded alone."""
    if "\u2212" not in text and unicodedata.is_normalized("NFKC", text):
        return text, list(range(len(text) + 1))
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        folded = ch if ord(ch) <= 0x7F else "-" if ch == "\u2212" else unicodedata.normalize("NFKC", ch)
        out.append(folded)
        where.extend([i] * len(folded))
    where.append(len(text))
    return "".join(out), where


def canonical_range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def canonical_pair(left: int | None, right: int | None) -> str:
    return f"{'-' if left is None else left}/{'-' if right is None else right}"


def canonical_delta(left: int, right: int) -> str:
    return f"{left:+d}/{right:+d}"


class Scanner:
    """Reads texts with one game's vocabulary (the spellings are sorted once)."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self.scanned: dict[str, tuple[Mention, ...]] = {}
        keywords, timings, cards = (_folded(vocab.spellings(t)) for t in (Term.KEYWORD, Term.TIMING, Term.CARD))
        self.keywords = [(n, i, _latin(n)) for n, i in keywords]
        self.timings = {n.casefold(): i for n, i in timings}
        self.timing_names = [(n, i) for n, i in timings if _latin(n)]
        self.cards = {n.casefold(): i for n, i in cards}
        self.bracketed = [n for n, _ in keywords if n.endswith(")")]  # names whose end a bracket is
        self.long_cards = [(n, i) for n, i in cards if len(n) >= LONG_NAME and not any(c.isascii() for c in n)]
        keyword_names = [n for n, _ in keywords]
        self.zone_names = [n for n, _ in _folded(vocab.spellings(Term.ZONE))
                           if any(k in n and k != n for k in keyword_names)]

    def scan(self, text: str) -> list[Mention]:
        """Every mention in a text, in order (each text read once: the labels of the rules cards
        call are read again for every card that calls them)."""
        known = self.scanned.get(text)
        if known is None:
            known = self.scanned[text] = tuple(self._scan(text))
        return list(known)

    def _scan(self, text: str) -> list[Mention]:
        flat, where = normalise(text)
        taken = [False] * len(flat)
        found: list[tuple[int, int, Fact, str, bool]] = []
        quoted = _quoted_spans(flat)
        for m in _REMINDER.finditer(flat):  # reminder text explains rules; it is not the card's
            group = 1 if m.group(1) is not None else 2
            if not any(flat.endswith(name, 0, m.end(group)) for name in self.bracketed):  # "Guarded (Half)"
                for k in range(m.start(group), m.end(group)):
                    taken[k] = True
        quoted = [(a, b) for a, b in quoted if not taken[a]]

        def take(start: int, end: int, fact: Fact, value: str) -> None:
            found.append((start, end, fact, value, False))
            for k in range(start, end):
                taken[k] = True

        for m in _MARKER.finditer(flat):
            if taken[m.start()]:
                continue
            inside = any(a < m.start() < b for a, b in quoted)
            group = 1 if m.group(1) is not None else 2
            named = False
            for part, at in _parts(m.group(group), m.start(group)):
                name = part.strip().casefold()  # a marker may add words after a colon: 【Lasting: X】
                ident = self.timings.get(name, self.timings.get(name.split(":")[0].strip()))
                named = named or ident is not None
                if ident is not None:
                    found.append((at, at + len(part), Fact.TIMING, ident, inside))
            if group == 1 or named:  # 【…】 is always a marker; […] only when it names a timing
                for k in range(m.start(), m.end()):
                    taken[k] = True
        for name, ident in self.timing_names:
            if name not in flat:  # most names are in no text: no pattern to run
                continue
            for m in re.finditer(rf"(?<![A-Za-z]){re.escape(name)}\s*:", flat):
                if not any(taken[m.start():m.end()]) and _SENTENCE_START.search(flat[:m.start()]) \
                        and not any(a < m.start() < b for a, b in quoted):
                    take(m.start(), m.start() + len(name), Fact.TIMING, ident)
        for a, b in quoted:
            ident = self.cards.get(flat[a + 1:b].strip().casefold())
            if ident is not None:
                take(a + 1, b, Fact.CARD, ident)
        for name, ident in self.long_cards:
            if name not in flat:
                continue
            for m in re.finditer(re.escape(name), flat):
                if not any(taken[m.start():m.end()]):
                    take(m.start(), m.end(), Fact.CARD, ident)
        for name in self.zone_names:  # a keyword inside a longer declared name is not the keyword
            if name not in flat:
                continue
            for m in re.finditer(re.escape(name), flat):
                if not any(taken[m.start():m.end()]):
                    for k in range(m.start(), m.end()):
                        taken[k] = True
        for name, ident, latin in self.keywords:
            if name not in flat:
                continue
            spelt = rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])" if latin else re.escape(name)
            for m in re.finditer(spelt, flat):
                if not any(taken[m.start():m.end()]):
                    take(m.start(), m.end(), Fact.KEYWORD, ident)
        found += [(a, b, Fact.NUMBER, value, False) for a, b, value in _numbers(flat, taken)]
        return sorted(Mention(where[a], where[b], fact, value, quoted) for a, b, fact, value, quoted in found)


def numbers_in(text: str) -> set[str]:
    """The numbers a text states, in canonical form (a prompt's or option label's)."""
    flat, _ = normalise(text)
    return {value for _, _, value in _numbers(flat, [False] * len(flat))}


def _numbers(flat: str, taken: list[bool]) -> list[tuple[int, int, str]]:
    """Changes, two-sided values, ranges and whole numbers in a folded text, outside what is
    taken (marking what they take)."""
    found = []
    for pattern, value in ((_DELTA, _delta_value), (_PAIR, _pair_value), (_RANGE, _range_value),
                           (_COUNT, _count_value)):
        for m in pattern.finditer(flat):
            if any(taken[m.start():m.end()]):
                continue
            canonical = value(m)
            for k in range(m.start(), m.end()):
                taken[k] = True
            if canonical is not None:
                found.append((m.start(), m.end(), canonical))
    return found


def _folded(names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Names folded like the texts they are looked for in, longest first."""
    return sorted(((_fold(n), i) for n, i in names), key=lambda p: -len(p[0]))


@lru_cache(maxsize=16384)
def _fold(name: str) -> str:
    """A name folded like texts are (remembered: every check of a game folds its names again)."""
    return normalise(name)[0]


def _latin(name: str) -> bool:
    return bool(re.search(r"[A-Za-z]", name)) and name.isascii()


def _parts(content: str, offset: int) -> list[tuple[str, int]]:
    """The names in one 【…】 marker (`On play/After hit` holds two), with their offsets."""
    parts = []
    at = offset
    for part in content.split("/"):
        parts.append((part, at))
        at += len(part) + 1
    return parts


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """(open, close) offsets of every quoted stretch (the outermost of nested quotes)."""
    spans = []
    stack: list[tuple[str, int]] = []
    for i, ch in enumerate(text):
        if stack and ch == QUOTES[stack[-1][0]]:
            _, at = stack.pop()
            if not stack:
                spans.append((at, i))
        elif ch in QUOTES:
            stack.append((ch, i))
    return spans


def _delta_value(m: re.Match[str]) -> str | None:
    if "X" in (m.group(2), m.group(4)):
        return None
    return canonical_delta(int(m.group(1) + m.group(2)), int(m.group(3) + m.group(4)))


def _pair_value(m: re.Match[str]) -> str | None:
    left, right = m.group(1), m.group(2)
    if "X" in (left, right) or (left == "-" and right == "-"):
        return None
    return canonical_pair(None if left == "-" else int(left), None if right == "-" else int(right))


def _range_value(m: re.Match[str]) -> str | None:
    low, high = int(m.group(1)), int(m.group(2))
    return canonical_range(low, high) if low <= high else None


def _count_value(m: re.Match[str]) -> str | None:
    return str(int(m.group(1)))
