"""`cardsmith new`: a minimal playable game to start from."""

from __future__ import annotations

import re
from pathlib import Path

import click

from .common import fail, out_folder, write

GAME = '''# {name}: a game of your own. `cardsmith check {folder}` checks it, `cardsmith play {folder}`
# plays it, `cardsmith scenarios {folder}` runs its tests, `cardsmith ref {folder}` writes its
# rule reference. The language: docs/LANGUAGE.md (`cardsmith ref --language`).

game {name} "{name}":
    players 2
    start play_game
    first_mover turn_player
    decision "Write here each choice you make where your rules are not clear yet."

token point "分" en "point"

zone bank "库" en "Bank": shared, holds point, supply
zone score "得分" en "Score": per player, holds point
zone deck "牌堆" en "Deck": per player, holds cards, hidden
zone hand "手牌" en "Hand": per player, holds cards, owner
zone played "已出" en "Played": per player, holds cards

counter turn_player "回合玩家": global, starts none

character first "先手" en "First": colour red
character second "后手" en "Second": colour blue

field owner_of "所属": character
field power "力量" en "Power": int, default 1

timing on_play "打出时"
event played_card(p, c) "打出了一张牌"

procedure play_game "一局" section 1:
    step 1 "准备：每人4张牌，洗牌，抽2张":
        for p in players():
            for id in card_ids():
                repeat 2:
                    new_card(id, p, p.deck)
            shuffle p.deck
            repeat 2:
                draw(p)
        turn_player = seat(0)
    step 2 "轮流进行回合，先得5分者胜":
        while true:
            take_turn(turn_player)
            turn_player = opponent(turn_player)

procedure draw(p) "抽一张牌" section 2:
    if count(p.deck) > 0:
        put top(p.deck) into p.hand

procedure take_turn(p) "回合" section 3:
    step 1 "抽一张牌":
        log "{{}} 的回合", p
        draw(p)
    step 2 "打出一张手牌或不打":
        choose for p "打出哪张牌？":
            option "打出" for c in cards(p.hand):
                put c into p.played
                log "{{}} 打出 {{}}", p, c
                c.on_play()
                emit played_card(p, c)
            option "不打" passive:
                pass
    step 3 "得分够5分就赢；双方都无牌可打则平局":
        if count(p.score) >= 5:
            win p "先得5分"
        if count(p.hand) + count(p.deck) == 0 and count(opponent(p).hand) + count(opponent(p).deck) == 0:
            draw_game none "牌都用完了"

card spark "火花" en "Spark":
    owner_of first
    power 2
    text "Play: score 2."
    on_play:
        move this.power point from bank to self.score

card ember "余烬" en "Ember":
    owner_of second
    text "Play: score 1, and 1 more if your opponent has more points."
    on_play:
        move 1 point from bank to self.score
        if count(opponent(self).score) > count(self.score):
            move 1 point from bank to self.score
'''

SCENARIOS = '''# Scenarios of {name}: tests written in the language (files of a game's folder belong to it).

scenario spark_scores_two "火花得2分":
    players first vs second
    script p1 "打出"
    run:
        new_card(spark, p1, p1.hand)
        new_card(ember, p2, p2.hand)
        take_turn(p1)
        expect count(p1.score) == 2 "Spark scores its power"
'''


@click.command()
@click.argument("name")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=".", show_default=True,
              help="The folder to create the game's folder in.")
def new(name: str, out_dir: str) -> None:
    """Write a minimal playable game NAME (a folder with the rules, two cards and a scenario)
    that passes `check`, `play` and `scenarios` as it is: a start for a game of your own."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        fail(f"{name!r}: a game's name is letters, digits and _, starting with a letter")
    folder = Path(out_dir) / name
    if folder.exists():
        fail(f"{folder} exists already: choose another name or --out")
    out_folder(folder)
    write(folder / "game.csm", GAME.format(name=name, folder=folder))
    write(folder / "scenarios.csm", SCENARIOS.format(name=name))
    click.echo(f"wrote {folder}/game.csm and {folder}/scenarios.csm; next: cardsmith play {folder}")
