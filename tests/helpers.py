"""Helpers for tests: build a small game from text and collect its diagnostics."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import jsonschema

from cardsmith.check_report import schema as report_schema
from cardsmith.compiler.card_text import TextBook
from cardsmith.compiler.checked import Checked
from cardsmith.compiler.diagnostics import Diagnostic
from cardsmith.compiler.load import BuildResult, build_game, build_sources
from cardsmith.compiler.reference import render_markdown
from cardsmith.compiler.rulebook import Rulebook, rulebook, text_book
from cardsmith.compiler.vocabulary import vocabulary
from cardsmith.runtime.game import Game
from cardsmith.runtime.rules import RuleSet
from cardsmith.runtime.session import GameResult, new_game, play

# random games per game in `make test`; `make soak` plays many more (CARDSMITH_RANDOM_GAMES)
RANDOM_GAMES = int(os.environ.get("CARDSMITH_RANDOM_GAMES", "300"))

MINI_GAME = '''
game mini "迷你":
    players 2
    start play

token chip "筹码"
zone bank "银行": shared, holds chip, supply
zone pot "奖池": shared, holds chip, max 5
zone purse "钱包": per player, holds chip, max 3
zone hand "手牌": per player, holds cards, owner
counter score "分数": per player, range 0..9
field power "力量": int, default 0
timing on_play(target) "打出时"
event scored(p) "得分"

procedure play "一局":
    step 1 "发筹码":
        for p in players():
            move 2 chip from bank to p.purse
    step 2 "结束":
        lose seat(0)'''


# A complete tiny game whose start procedure runs a body given by the test.
GAME = '''game hostile "敌意":
    players 2
    start main

token chip "筹码"
zone bank "银行": shared, holds chip, supply
zone purse "钱包": per player, holds chip
counter score "分数": per player
event tick(p) "滴答"

procedure main "一局":
    step 1 "运行":
{body}
    step 2 "结束":
        lose seat(0)
'''


def tiny_game(body: str) -> str:
    """A whole game whose first step runs `body` (indented for you), then player 1 loses."""
    return GAME.format(body="\n".join("        " + line for line in body.strip("\n").split("\n")))


@cache
def built(game: str) -> BuildResult:
    """A bundled game built once per test session (from its sources, with its checked model)."""
    result = build_game(game, use_cache=False, need_model=True)
    assert result.ok and result.rules is not None and result.checked is not None, \
        [str(d) for d in result.diagnostics if d.severity == "error"]
    return result


class Bundled:
    """A bundled game for a test module: built on first use, during a test (not at import),
    and shared by every module of the session."""

    def __init__(self, game: str) -> None:
        self.game = game

    @property
    def result(self) -> BuildResult:
        return built(self.game)

    @property
    def rules(self) -> RuleSet:
        assert self.result.rules is not None
        return self.result.rules

    @property
    def checked(self) -> Checked:
        assert self.result.checked is not None
        return self.result.checked


def languages(game: str) -> tuple[str, ...]:
    """The languages of a bundled game's editions, its own first."""
    return vocabulary(Bundled(game).checked).languages


@cache
def edition(game: str, language: str | None = None) -> Rulebook:
    """One edition of a bundled game's reference (its own language by default), built once per
    test process: a Sakura edition takes seconds, and many tests read the same ones. The
    editions of a game share one TextBook, as the site's do."""
    if language is None:
        return edition(game, languages(game)[0])
    return rulebook(Bundled(game).checked, language, book=_text_book(game))


@cache
def _text_book(game: str) -> TextBook:
    return text_book(Bundled(game).checked)


@cache
def reference_markdown(game: str, language: str | None = None) -> str:
    """One edition of a bundled game's reference as Markdown (`cardsmith ref`'s output)."""
    return render_markdown(edition(game, language))


def build_text(text: str, path: str = "test.csm", with_mini: bool = True) -> BuildResult:
    sources = {"mini.csm": MINI_GAME} if with_mini else {}
    sources[path] = text
    return build_sources(sources, use_cache=False, need_model=True)


def problems(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics other than W202: test snippets declare what they test without using it."""
    return [d for d in diags if d.code != "W202"]


def codes(diags: list[Diagnostic]) -> list[str]:
    """The codes of `problems(diags)`, in order."""
    return [d.code for d in problems(diags)]


def assert_replays_exactly(rules: RuleSet, picks: list[list[str]], seed: int, other_seed: int) -> None:
    """Same seed → the same log, the same hash after every step and the same final state;
    another seed → another game."""
    first = play(new_game(rules, picks, seed=seed, trace=True))
    second = play(new_game(rules, picks, seed=seed, trace=True))
    assert first.error is None, first.error
    assert first.log == second.log and first.hashes == second.hashes
    assert first.final_hash == second.final_hash
    other = play(new_game(rules, picks, seed=other_seed, trace=True))
    assert other.hashes != first.hashes


def play_to_the_end(game: Game) -> GameResult:
    """Play a game and assert it finished without a rule error."""
    result = play(game)
    picks = [p.picks for p in game.players]
    assert result.error is None, f"seed {game.seed} {picks}: {result.error}"
    assert result.reason != "unfinished", f"seed {game.seed} {picks} did not finish"
    return result


# A small game with labels in three languages, keywords with aliases and every timing option, for
# the card-text tests (reading, checking, generating and printed-text checks).
TEXT_GAME = '''game words "词" ja "言葉" en "Words":
    players 2
    language zh
    start main

token chip "筹码" ja "チップ" en "chip"
zone bank "银行" ja "銀行" en "Bank": shared, holds chip, supply
zone purse "钱包" ja "財布" en "Purse": per player, holds chip
field power "力量" ja "パワー" en "Power": pair
field swift "迅捷" ja "迅速" ja "速攻" en "Swift": bool, keyword
field guarded "守护" ja "守護" ja "守護（強）" en "Guarded": bool, keyword
field half_guarded "半守护" ja "守護（半）" en "Guarded (Half)": bool, keyword, form_of guarded
field sealed "封印" en "Sealed": bool, under lasting
field code "编号": text
timing on_play "打出时" ja "使用時" en "On play": mark none
timing after_hit(atk) "命中后" ja "命中後" en "After Hit"
timing lasting "持续中" ja "継続中" en "Lasting": covers active
timing boost(atk) "增强" en "Boost": mark after_hit
event hit(p) "命中"
value active(c) = c.sealed == false
keyword fierce "猛烈" ja "猛烈" en "Fierce" = count(self.purse) >= 4

procedure main "一局":
    step 1 "结束":
        lose seat(0)

card spark "火花" ja "火花" en "Spark":
    code "W-1"
    power 2/1
    swift
'''


def assert_report(which: str, document: Any) -> None:
    """A JSON document `cardsmith check` wrote is valid against its published schema
    (`cardsmith schema check|watch|printed`)."""
    jsonschema.Draft202012Validator(report_schema(which)).validate(document)


# A designer's file on the Sakura library with one card whose text disagrees with its
# definition (W201): the card-text templates are used for its suggestion.
DISAGREEING_CARD = """use sakura

card tw_a1 "试刃" en "Test Blade":
    goddess yurina
    number "NA-01-tw-O-N-1"
    type attack
    range 3-4
    damage 2/1
    invented
    text "【攻击后】获得1樱花结晶。"
"""
