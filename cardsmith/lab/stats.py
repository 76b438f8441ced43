"""The lab's tables from the games played, added up (`Played`): per pairing, per character,
by turn order, game lengths, per game (when each game's record was kept) and per card; 95%
Wilson intervals; the outliers.

A rate is wins over games (a draw, or a game stopped by a rule error, is won by nobody).
Seats count from 1 here, as players read them. Everything is worked out from counts in a
fixed order, so the same games give the same tables.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..runtime.rules import RuleSet
from .plan import Plan
from .run import CardTally, GameRecord, PairingTally, Played
from .watch import FirstMover

Z = 1.959963984540054  # the normal quantile of a two-sided 95% interval
BAND = 0.15  # a pairing or character is an outlier when its interval lies wholly this far from a fair share
TOP = 10  # cards shown at each end of the chart of win-when-used
MIN_CHARTED_USES = 10  # a card needs this many uses to be charted (when enough cards have them)


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def wilson(wins: int, games: int) -> Interval:
    """The 95% Wilson score interval of a rate of `wins` in `games`."""
    if games == 0:
        return Interval(0.0, 1.0)
    p = wins / games
    denominator = 1 + Z * Z / games
    centre = (p + Z * Z / (2 * games)) / denominator
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / denominator
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # exact at the ends, where rounding would miss them
    high = 1.0 if wins == games else min(1.0, centre + half)
    return Interval(min(low, p), max(high, p))


@dataclass(frozen=True)
class PairingRow:
    """One pairing: each seat's characters (ids and names), results, seat 1's rate."""

    pairing: int
    characters: list[str]  # per seat, `a+b`
    names: list[str]  # per seat, in the game's labels
    games: int
    wins: list[int]  # per seat
    draws: int
    errors: int
    p1_win_rate: float
    p1_ci_low: float
    p1_ci_high: float
    outlier: str  # "above" or "below" the fair band, or ""


@dataclass(frozen=True)
class CharacterRow:
    """One character: games played by a seat holding it (a mirror counts twice) and won."""

    character: str
    name: str
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    outlier: str


@dataclass(frozen=True)
class TurnOrderRow:
    """The seats that moved in turn `moved` (1: first): games and wins."""

    moved: int
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    known_from: str


@dataclass(frozen=True)
class LengthRow:
    """The distribution of one measure of a game's length (nearest-rank percentiles)."""

    measure: str
    games: int
    mean: float
    minimum: int
    p10: int
    p25: int
    median: int
    p75: int
    p90: int
    maximum: int


@dataclass(frozen=True)
class GameRow:
    """One game: which, its seed (`cardsmith play --seed`), table, winner and turn order, length
    and ending."""

    pairing: int
    game: int
    seed: int
    characters: list[str]
    winner: int | None
    first: int
    steps: int
    decisions: int
    ended: str
    cause: str
    error: str


@dataclass(frozen=True)
class CardRow:
    """One card: in how many games a player used it (`used`, once per player per game), how
    many of those that player won, and how many times it was used in all."""

    card: str
    name: str
    used: int
    won: int
    win_rate: float
    ci_low: float
    ci_high: float
    times: int
    outlier: str


@dataclass(frozen=True)
class Outlier:
    """A pairing, character or card whose interval lies wholly above or below its reference."""

    kind: str
    subject: str
    name: str
    games: int
    win_rate: float
    ci_low: float
    ci_high: float
    side: str
    reference: str


@dataclass(frozen=True)
class Matrix:
    """A map of win rates: the rate of the row's side against the column's (None: never met)."""

    title: str
    row_axis: str
    column_axis: str
    rows: list[str]
    columns: list[str]
    rates: list[list[float | None]]
    games: list[list[int]]


@dataclass(frozen=True)
class Summary:
    """The run in numbers."""

    game: str
    label: str
    language: str
    seats: int
    pairings: int
    games_per_pairing: int
    games: int
    seed: int
    policy: str
    chosen: str
    legal: int
    wins: list[int]
    draws: int
    errors: int
    fair: float  # a seat's share of wins when all are equal
    band: Interval
    card_rate: float  # wins over uses of all cards together
    first_known_from: str


@dataclass(frozen=True)
class Results:
    summary: Summary
    pairings: list[PairingRow]
    characters: list[CharacterRow]
    turn_order: list[TurnOrderRow]
    lengths: list[LengthRow]
    games: list[GameRow]  # empty when the games' records were not kept
    cards: list[CardRow]
    outliers: list[Outlier]
    matrix: Matrix
    charted: list[CardRow]  # the cards of the chart, best first
    failed: list[GameRow]  # the games a rule error stopped
    spread: dict[str, dict[int, int]]  # per measure of length: a length → the games that long


# each table of `Results` by its name (the attribute, and the files' name), with its row type
TABLES: dict[str, type] = {"pairings": PairingRow, "characters": CharacterRow, "turn_order": TurnOrderRow,
                           "lengths": LengthRow, "games": GameRow, "cards": CardRow, "outliers": Outlier}


def tabulate(rules: RuleSet, plan: Plan, played: Played, policy: str) -> Results:
    """Every table of the run, from its games added up in the plan's order and the cards used."""
    seats = plan.seats
    fair = 1 / seats
    band = Interval(max(0.0, fair - BAND), min(1.0, fair + BAND))
    names = {c: str(props.get("label", c)) for c, props in rules.characters.items()}
    tallies = [played.pairings.get(p.index, PairingTally(0, [0] * seats)) for p in plan.pairings]
    pairings = _pairings(plan, tallies, names, band)
    characters = _characters(rules, plan, tallies, names, band)
    cards, card_rate = _cards(rules, played.cards)
    known_from = FirstMover.of(rules).known_from
    wins = [sum(t.wins[s] for t in tallies) for s in range(seats)]
    summary = Summary(rules.game, rules.label, rules.language, seats, len(plan.pairings), plan.games,
                      played.games, plan.seed, policy, plan.chosen, plan.legal, wins,
                      sum(t.draws for t in tallies), sum(t.errors for t in tallies), fair, band, card_rate,
                      known_from)
    outliers = [*(Outlier("pairing", str(p.pairing), " vs ".join(p.names), p.games, p.p1_win_rate,
                           p.p1_ci_low, p.p1_ci_high, p.outlier, _band_words(band)) for p in pairings if p.outlier),
                *(Outlier("character", c.character, c.name, c.games, c.win_rate, c.ci_low, c.ci_high,
                           c.outlier, _band_words(band)) for c in characters if c.outlier),
                *(Outlier("card", c.card, c.name, c.used, c.win_rate, c.ci_low, c.ci_high, c.outlier,
                           f"the {percent(card_rate)} of all cards") for c in cards if c.outlier)]
    spread = {"steps": played.steps, "decisions": played.decisions}
    return Results(summary, pairings, characters, _turn_order(played, known_from), _lengths(spread),
                   _games(plan, played.records or []), cards, outliers, _matrix(rules, plan, tallies, names),
                   _charted(cards), _games(plan, played.failed), spread)


def percent(rate: float) -> str:
    """A rate as people read it: `52.5%`, `35%`."""
    text = f"{100 * rate:.1f}"
    return (text.removesuffix(".0")) + "%"


def _band_words(band: Interval) -> str:
    return f"the fair band {percent(band.low)}–{percent(band.high)}"


def _side(ci: Interval, low: float, high: float) -> str:
    return "above" if ci.low > high else "below" if ci.high < low else ""


def _pairings(plan: Plan, tallies: Sequence[PairingTally], names: dict[str, str],
              band: Interval) -> list[PairingRow]:
    rows = []
    for pairing, t in zip(plan.pairings, tallies, strict=True):
        ci = wilson(t.wins[0], t.games)
        rows.append(PairingRow(pairing.index + 1, ["+".join(seat) for seat in pairing.seats],
                               ["+".join(names[c] for c in seat) for seat in pairing.seats], t.games, list(t.wins),
                               t.draws, t.errors, _rate(t.wins[0], t.games), ci.low, ci.high,
                               _side(ci, band.low, band.high)))
    return rows


def _characters(rules: RuleSet, plan: Plan, tallies: Sequence[PairingTally], names: dict[str, str],
                band: Interval) -> list[CharacterRow]:
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for pairing, t in zip(plan.pairings, tallies, strict=True):
        for s, chosen in enumerate(pairing.seats):
            for c in chosen:
                played[c] = played.get(c, 0) + t.games
                won[c] = won.get(c, 0) + t.wins[s]
    rows = []
    for c in rules.characters:
        if played.get(c):
            ci = wilson(won[c], played[c])
            rows.append(CharacterRow(c, names[c], played[c], won[c], _rate(won[c], played[c]), ci.low, ci.high,
                                     _side(ci, band.low, band.high)))
    return rows


def _turn_order(played: Played, known_from: str) -> list[TurnOrderRow]:
    rows = []
    for moved, wins in enumerate(played.moved):
        ci = wilson(wins, played.games)
        rows.append(TurnOrderRow(moved + 1, played.games, wins, _rate(wins, played.games), ci.low, ci.high,
                                 known_from))
    return rows


def _lengths(spread: dict[str, dict[int, int]]) -> list[LengthRow]:
    rows = []
    for measure, counts in spread.items():
        lengths = sorted(counts)
        games = sum(counts.values())
        p10, p25, median, p75, p90 = (nearest_rank(counts, lengths, games, q) for q in (0.1, 0.25, 0.5, 0.75, 0.9))
        rows.append(LengthRow(measure, games, sum(n * counts[n] for n in lengths) / games, lengths[0],
                              p10, p25, median, p75, p90, lengths[-1]))
    return rows


def nearest_rank(counts: dict[int, int], lengths: Sequence[int], games: int, q: float) -> int:
    """The nearest-rank `q` percentile of `games` lengths, `counts[n]` of them `n` long
    (`lengths`: those that occur, in order): the smallest length that at least ⌈q·games⌉ games
    reach or fall under."""
    rank = max(1, math.ceil(q * games))
    seen = 0
    for n in lengths:
        seen += counts[n]
        if seen >= rank:
            return n
    return lengths[-1]


def _games(plan: Plan, records: Sequence[GameRecord]) -> list[GameRow]:
    tables: dict[int, list[str]] = {}  # a pairing's table, shared by its games
    for r in records:
        if r.pairing not in tables:
            tables[r.pairing] = ["+".join(seat) for seat in plan.pairings[r.pairing].seats]
    return [GameRow(r.pairing + 1, r.game + 1, r.seed, tables[r.pairing],
                    None if r.winner is None else r.winner + 1, r.first + 1, r.steps, r.decisions, r.ended,
                    r.cause or "", r.error or "") for r in records]


def _cards(rules: RuleSet, tally: CardTally) -> tuple[list[CardRow], float]:
    overall = _rate(sum(tally.won.values()), sum(tally.used.values()))
    rows = []
    for i, ident in enumerate(rules.cards):
        used = tally.used.get(i, 0)
        if used:
            won = tally.won.get(i, 0)
            ci = wilson(won, used)
            rows.append(CardRow(ident, rules.cards[ident].name, used, won, _rate(won, used), ci.low, ci.high,
                                tally.times[i], _side(ci, overall, overall)))
    return rows, overall


def _charted(cards: list[CardRow]) -> list[CardRow]:
    """The cards of the chart: the TOP best and TOP worst by win-when-used among those used
    often enough (all used cards when fewer than that many are)."""
    often = [c for c in cards if c.used >= MIN_CHARTED_USES]
    pool = sorted(often if len(often) >= 2 * TOP else cards, key=lambda c: (-c.win_rate, -c.used, c.card))
    return pool if len(pool) <= 2 * TOP else pool[:TOP] + pool[-TOP:]


def _matrix(rules: RuleSet, plan: Plan, tallies: Sequence[PairingTally], names: dict[str, str]) -> Matrix:
    """Seat 1's rate in each pairing when every table is two seats of one character each;
    otherwise each character's side against each other character's side."""
    if plan.seats == 2 and all(len(seat) == 1 for p in plan.pairings for seat in p.seats):
        firsts = _in_order(rules, (p.seats[0][0] for p in plan.pairings))
        seconds = _in_order(rules, (p.seats[1][0] for p in plan.pairings))
        pairing_of = {(p.seats[0][0], p.seats[1][0]): p.index for p in plan.pairings}
        none = PairingTally(0, [0] * plan.seats)
        tally = {p.index: t for p, t in zip(plan.pairings, tallies, strict=True)}
        rates = [[None if (a, b) not in pairing_of else _rate(tally[pairing_of[a, b]].wins[0],
                                                               tally[pairing_of[a, b]].games)
                  for b in seconds] for a in firsts]
        games = [[tally.get(pairing_of.get((a, b), -1), none).games for b in seconds] for a in firsts]
        return Matrix("Seat 1's win rate in each pairing", "P1", "P2", [names[a] for a in firsts],
                      [names[b] for b in seconds], rates, games)
    met: dict[tuple[str, str], int] = {}
    beat: dict[tuple[str, str], int] = {}
    for pairing, counted in zip(plan.pairings, tallies, strict=True):
        if not counted.games:
            continue
        for s, mine in enumerate(pairing.seats):
            for t, theirs in enumerate(pairing.seats):
                if s != t:
                    for a in mine:
                        for b in theirs:
                            met[a, b] = met.get((a, b), 0) + counted.games
                            beat[a, b] = beat.get((a, b), 0) + counted.wins[s]
    present = _in_order(rules, (c for p in plan.pairings for seat in p.seats for c in seat))
    return Matrix("Win rate of a side with the row's character against a side with the column's",
                  "character", "against", [names[a] for a in present], [names[b] for b in present],
                  [[_rate(beat[a, b], met[a, b]) if (a, b) in met else None for b in present] for a in present],
                  [[met.get((a, b), 0) for b in present] for a in present])


def _in_order(rules: RuleSet, characters: Iterable[str]) -> list[str]:
    """These characters once each, in the order the game declares them."""
    wanted = set(characters)
    return [c for c in rules.characters if c in wanted]


def _rate(wins: int, games: int) -> float:
    return wins / games if games else 0.0
