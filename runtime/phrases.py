"""The few words the engine itself says to players — the answers of a yes/no question, the
option that picks nothing, the terminal's headings and help, the replay page's — in each language a game
can declare with `language CODE`. A game's own words (zones, prompts, cards) come from its
sources; these are only the engine's."""

from __future__ import annotations

from msgspec import Struct


class Phrases(Struct, frozen=True):
    """The engine's words in one language. `{…}` marks are filled with str.format."""

    yes: str
    no: str
    none: str  # the option that picks nothing
    hidden_card: str  # a card the reader may not see (unless the game names it with `hidden_card`)
    you: str
    game: str  # heading of the game-wide counters and zones
    changes: str  # heading of what happened since the seat's last decision
    earlier: str  # "{count} earlier lines"
    nothing_new: str
    hidden: str  # "{count} hidden"
    choose_number: str  # "a number from {low} to {high}"
    help: str  # the commands at the prompt
    log_heading: str
    won: str  # "{player} wins" (a team: the players joined by `, `)
    lost: str  # "{player} loses"
    drawn: str
    because: str  # "{result}: {cause}"
    over: str  # heading of the end of the game
    replay_public: str  # whose replay page: the public's
    replay_seat: str  # whose replay page: "{player}"'s
    replay_start: str  # the replay's first step, before any event
    replay_step: str
    replay_decision: str
    replay_options: str
    replay_options_hidden: str  # "only {player} saw the options"
    replay_log: str
    replay_keys: str  # the keys that move through a replay


PHRASES: dict[str, Phrases] = {
    "en": Phrases(
        yes="yes", no="no", none="(none)", hidden_card="(hidden card)", you="you", game="table", changes="since your last decision",
        earlier="… {count} earlier line(s): type l to read the whole log", nothing_new="nothing new",
        hidden="{count} hidden", choose_number="type a number from {low} to {high}",
        help="a number: choose it · b: the board again · l: the whole log · ?: this help · q: leave the game",
        log_heading="the log as you saw it", won="{player} wins", lost="{player} loses",
        drawn="the game is drawn", because="{result}: {cause}", over="game over",
        replay_public="public view: what every player may see", replay_seat="as {player} sees it",
        replay_start="before the first event", replay_step="step", replay_decision="decision",
        replay_options="options", replay_options_hidden="only {player} saw the options", replay_log="log",
        replay_keys="← → one event · PageUp PageDown ten · Home End the first and the last"),
    "zh": Phrases(
        yes="是", no="否", none="（不选）", hidden_card="（暗牌）", you="你", game="场上", changes="自你上次决定以来",
        earlier="……还有更早的 {count} 行：输入 l 查看全部记录", nothing_new="没有新的变化",
        hidden="{count} 张未公开", choose_number="请输入 {low} 到 {high} 之间的数字",
        help="数字：选择该项 · b：再看一次盘面 · l：全部记录 · ?：本帮助 · q：离开游戏",
        log_heading="你所见的全部记录", won="{player} 获胜", lost="{player} 败北", drawn="平局",
        because="{result}：{cause}", over="游戏结束",
        replay_public="公开视角：所有玩家都能看到的内容", replay_seat="{player} 的视角",
        replay_start="第一个事件之前", replay_step="步", replay_decision="决定", replay_options="选项",
        replay_options_hidden="只有 {player} 看到了选项", replay_log="记录",
        replay_keys="← → 一个事件 · PageUp PageDown 十个 · Home End 第一个和最后一个"),
    "zh-Hant": Phrases(
        yes="是", no="否", none="（不選）", hidden_card="（暗牌）", you="你", game="場上", changes="自你上次決定以來",
        earlier="……還有更早的 {count} 行：輸入 l 查看全部記錄", nothing_new="沒有新的變化",
        hidden="{count} 張未公開", choose_number="請輸入 {low} 到 {high} 之間的數字",
        help="數字：選擇該項 · b：再看一次盤面 · l：全部記錄 · ?：本說明 · q：離開遊戲",
        log_heading="你所見的全部記錄", won="{player} 獲勝", lost="{player} 敗北", drawn="平局",
        because="{result}：{cause}", over="遊戲結束",
        replay_public="公開視角：所有玩家都能看到的內容", replay_seat="{player} 的視角",
        replay_start="第一個事件之前", replay_step="步", replay_decision="決定", replay_options="選項",
        replay_options_hidden="只有 {player} 看到了選項", replay_log="記錄",
        replay_keys="← → 一個事件 · PageUp PageDown 十個 · Home End 第一個和最後一個"),
    "ja": Phrases(
        yes="はい", no="いいえ", none="（選ばない）", hidden_card="（非公開のカード）", you="あなた", game="場", changes="前回の選択から",
        earlier="……それより前の {count} 行：l で全記録を表示", nothing_new="変化なし",
        hidden="非公開 {count} 枚", choose_number="{low} から {high} までの数字を入力してください",
        help="数字：選ぶ · b：盤面をもう一度 · l：全記録 · ?：このヘルプ · q：ゲームをやめる",
        log_heading="あなたが見た全記録", won="{player} の勝利", lost="{player} の敗北", drawn="引き分け",
        because="{result}：{cause}", over="ゲーム終了",
        replay_public="公開情報：全プレイヤーが見られるもの", replay_seat="{player} から見た盤面",
        replay_start="最初の出来事の前", replay_step="ステップ", replay_decision="選択", replay_options="選択肢",
        replay_options_hidden="選択肢は {player} だけが見た", replay_log="記録",
        replay_keys="← → 一つずつ · PageUp PageDown 十ずつ · Home End 最初と最後"),
}
DEFAULT_LANGUAGE = "en"


def phrases(language: str) -> Phrases:
    """The engine's words in a language (English for one it does not know)."""
    return PHRASES.get(language, PHRASES[DEFAULT_LANGUAGE])
