"""The rule reference's own few words — headings, "see", "example", "decision" — in each language
an edition can be written in. A game's words come from its sources; these are only the book's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BookWords:
    """The reference's words in one language. `{…}` marks are filled with str.format."""

    reference: str  # "{game}: rule reference"
    intro: str
    contents: str
    glossary: str
    cards: str
    index: str
    decisions: str  # heading of the decisions that name no rule
    decision: str  # one decision under its rule
    example: str  # a scenario shown as a worked example
    checks: str  # what the example checks
    see: str  # "see" before cross-references
    step: str  # "{number} step {step}"
    addendum: str  # "Addendum {number}: {title}"
    addendum_unnumbered: str  # "Addendum: {title}"
    in_force: str  # "In force when a player hosts {hosts}."
    always: str  # an addendum with no characters
    instead: str  # a step an addendum replaces
    skipped: str  # what a replacement that does nothing a reader sees does to the step
    after: str  # what an addendum adds after a step
    option: str  # an option an addendum adds to a step's menu
    when: str  # "when {condition}"
    effects: str  # heading of the rules' triggers, checks and standing actions
    other_rules: str  # procedures the source gives no number
    invented: str
    note: str
    unchecked: str
    deck: str  # "Deck list"
    copies: str  # "{count}×"
    names: str  # a term's names in each language
    used_in: str
    zone: str
    counter: str
    keyword: str
    timing: str
    token: str
    term: str
    value: str  # a value the rules work out (the hand limit, the current distance)
    number: str  # a card's number
    source: str  # a card's definition as its source file has it
    search: str
    language: str  # the language switcher's heading
    # a glossary term's definition, said from its declaration ({…} filled with str.format)
    each_player: str  # a zone or counter every player has one of
    shared: str  # one for the whole table
    holds_cards: str
    holds: str  # "holds {what}"
    at_most: str  # "at most {n}"
    shown: dict[str, str]  # who sees a zone's cards or a counter: public / owner / hidden
    values: str  # "from {low} to {high}"
    starts: str  # "starts at {value}"
    flag_def: str  # a yes-or-no mark
    supply: str  # a zone that never runs out
    timing_def: str  # "a timing of card effects, printed 【{mark}】"
    timing_unmarked: str  # a timing printed without a marker
    token_def: str  # "a token kind, in {zones}"
    printed: str  # a keyword printed on cards
    list_sep: str  # between items of a list
    clause_sep: str  # between the clauses of a definition


BOOK_WORDS: dict[str, BookWords] = {
    "en": BookWords(
        reference="{game}: rule reference", intro="Generated from the checked rule source. Rules carry the "
        "numbers their source gives them; the steps of a rule are numbered in brackets after it.",
        contents="Contents", glossary="Glossary", cards="Cards", index="Index",
        decisions="Decisions where the sources are unclear", decision="Decision", example="Example",
        checks="checks", see="see", step="{number} ({step})", addendum="Addendum {number}: {title}", addendum_unnumbered="Addendum: {title}",
        in_force="In force when a player hosts {hosts}.", always="Always in force.",
        instead="instead of this step", skipped="the step is not carried out", after="after this step", option="one more choice in this step",
        when="when {condition}", effects="Effects of the rules", other_rules="Other rules",
        invented="invented", note="Note", unchecked="text not checked", deck="Deck list", copies="{count}×",
        names="Names", used_in="Used in", zone="zone", counter="counter", keyword="keyword", timing="timing",
        token="token", value="value", term="term", number="Number", source="Definition", search="Search", language="Language",
        each_player="each player has one", shared="one for the whole table", holds_cards="holds cards",
        holds="holds {what}", at_most="at most {n}", shown={"public": "seen by everyone", "owner": "seen by its player only",
        "hidden": "seen by nobody"}, values="from {low} to {high}", starts="starts at {value}", flag_def="a mark a player has or not",
        supply="a supply that never runs out", timing_def="a timing of card effects, printed {mark}",
        timing_unmarked="a timing of card effects, printed without a marker", token_def="a kind of token, placed in {zones}",
        printed="a keyword printed on cards", list_sep=", ", clause_sep="; "),
    "zh": BookWords(
        reference="{game}：规则参考", intro="由检查过的规则源生成。规则带有其来源所给的编号；规则的步骤以括号编号。",
        contents="目录", glossary="术语表", cards="卡牌", index="索引", decisions="来源不明确之处的决定",
        decision="决定", example="例", checks="检查", see="见", step="{number}（{step}）",
        addendum="追加规则 {number}：{title}", addendum_unnumbered="追加规则：{title}", in_force="当有玩家寄宿{hosts}时生效。", always="总是生效。",
        instead="代替此步骤", skipped="不进行此步骤", after="在此步骤之后", option="此步骤中多一个选项", when="当{condition}时",
        effects="规则的效果", other_rules="其他规则", invented="自创", note="注", unchecked="文字未检查",
        deck="牌组", copies="{count}张", names="名称", used_in="用于", zone="区域", counter="计数",
        keyword="关键字", timing="时机", token="指示物", value="数值", term="术语", number="编号", source="定义", search="搜索", language="语言",
        each_player="每位玩家各有一个", shared="全场共用一个", holds_cards="放置卡牌", holds="放置{what}",
        at_most="最多{n}个", shown={"public": "所有人可见", "owner": "仅其玩家可见", "hidden": "无人可见"},
        values="取值{low}到{high}", starts="初始为{value}", flag_def="玩家有或没有的标记", supply="取之不尽的供应区",
        timing_def="卡牌效果的时机，印作{mark}", timing_unmarked="卡牌效果的时机，不印标记", token_def="一种指示物，放在{zones}",
        printed="印在卡牌上的关键字", list_sep="、", clause_sep="；"),
    "zh-Hant": BookWords(
        reference="{game}：規則參考", intro="由檢查過的規則源生成。規則帶有其來源所給的編號；規則的步驟以括號編號。",
        contents="目錄", glossary="術語表", cards="卡牌", index="索引", decisions="來源不明確之處的決定",
        decision="決定", example="例", checks="檢查", see="見", step="{number}（{step}）",
        addendum="追加規則 {number}：{title}", addendum_unnumbered="追加規則：{title}", in_force="當有玩家寄宿{hosts}時生效。", always="總是生效。",
        instead="代替此步驟", skipped="不進行此步驟", after="在此步驟之後", option="此步驟中多一個選項", when="當{condition}時",
        effects="規則的效果", other_rules="其他規則", invented="自創", note="註", unchecked="文字未檢查",
        deck="牌組", copies="{count}張", names="名稱", used_in="用於", zone="區域", counter="計數",
        keyword="關鍵字", timing="時機", token="指示物", value="數值", term="術語", number="編號", source="定義", search="搜尋", language="語言",
        each_player="每位玩家各有一個", shared="全場共用一個", holds_cards="放置卡牌", holds="放置{what}",
        at_most="最多{n}個", shown={"public": "所有人可見", "owner": "僅其玩家可見", "hidden": "無人可見"},
        values="取值{low}到{high}", starts="初始為{value}", flag_def="玩家有或沒有的標記", supply="取之不盡的供應區",
        timing_def="卡牌效果的時機，印作{mark}", timing_unmarked="卡牌效果的時機，不印標記", token_def="一種指示物，放在{zones}",
        printed="印在卡牌上的關鍵字", list_sep="、", clause_sep="；"),
    "ja": BookWords(
        reference="{game}：ルールリファレンス", intro="検査済みのルールソースから生成。各ルールはソースが与える番号を持ち、"
        "ルールの手順は括弧で番号付けされる。",
        contents="目次", glossary="用語集", cards="カード", index="索引", decisions="出典が不明確な箇所の決定",
        decision="決定", example="例", checks="確認", see="参照", step="{number}（{step}）",
        addendum="追加ルール {number}：{title}", addendum_unnumbered="追加ルール：{title}", in_force="プレイヤーが{hosts}を宿すときに有効。", always="常に有効。",
        instead="この手順の代わりに", skipped="この手順は行わない", after="この手順の後に", option="この手順の選択肢がひとつ増える",
        when="{condition}とき", effects="ルールの効果", other_rules="その他のルール", invented="創作",
        note="注", unchecked="テキスト未検査", deck="デッキ", copies="{count}枚", names="名前", used_in="使用箇所",
        zone="領域", counter="カウンター", keyword="キーワード", timing="タイミング", token="トークン", value="値", term="用語",
        number="番号", source="定義", search="検索", language="言語",
        each_player="各プレイヤーにひとつずつ", shared="全体でひとつ", holds_cards="カードを置く", holds="{what}を置く",
        at_most="最大{n}個", shown={"public": "全員が見られる", "owner": "そのプレイヤーだけが見られる", "hidden": "誰も見られない"},
        values="{low}から{high}まで", starts="初期値{value}", flag_def="プレイヤーが持つか持たないかの印", supply="尽きることのない供給元",
        timing_def="カードの効果のタイミング、{mark}と印刷される", timing_unmarked="カードの効果のタイミング、印なしで印刷される",
        token_def="トークンの一種、{zones}に置かれる", printed="カードに印刷されるキーワード", list_sep="、", clause_sep="。"),
}


def book_words(language: str) -> BookWords:
    """The reference's words in a language (English for one it does not know)."""
    return BOOK_WORDS.get(language, BOOK_WORDS["en"])
