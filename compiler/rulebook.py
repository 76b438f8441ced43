"""The rule reference as a book: the checked model read into numbered chapters of rules written
as sentences in one language (an edition), with the addenda in their own chapters and under the
steps they change, decisions and worked examples under the rules they concern, a glossary, a card
gallery and an index (`Rulebook`). The Markdown and HTML renderings read only this model.

Prose is written by the card-text writer (`card_text.py`) from each rule's body, through the
game's and the library's templates; a declaration's `doc "…"` replaces the written sentence.
Numbers are the source's: a rule keeps its `section`, its steps are numbered in brackets after
it ("9-2 (i)"), so a step never reads as a subsection; an addendum's paragraphs keep their own
numbers inside its chapter ("§3-2")."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from . import syntax as s
from .card_face import card_face, number_text
from .card_text import MAKERS, CardWriter, TextBook, load_templates, template_folders
from .checked import Checked
from .decisions import Decision, decisions, language_texts
from .library import library_root
from .reference_words import BookWords, book_words
from .refs import Callee, CallRef, CounterRef, FieldRef, WordRef, ZoneRef
from .symbols import CounterInfo, Symbols, ZoneInfo
from .vocabulary import Term as VocabTerm
from .vocabulary import Vocabulary, label_in, vocabulary


@dataclass(frozen=True)
class Ref:
    """A link to a rule: its number as shown and its anchor."""

    number: str
    anchor: str


@dataclass
class Example:
    """A scenario shown as a worked example: what it sets up (its label) and what it checks."""

    title: str
    checks: list[str]


@dataclass
class Note:
    """What an addendum does to a core step, shown under that step."""

    kind: str  # instead / after / option
    addendum: str
    link: Ref | None  # the paragraph in the addendum's chapter
    condition: str
    prose: str


@dataclass
class Rule:
    """A numbered rule (a procedure, a step, an addendum's paragraph, a trigger or a check)."""

    number: str | None
    anchor: str
    title: str
    prose: list[str] = field(default_factory=list)
    steps: list[Rule] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    examples: list[Example] = field(default_factory=list)
    see: list[Ref] = field(default_factory=list)


@dataclass
class Chapter:
    """A chapter: the core rules under one top-level number, an addendum, or the other rules."""

    key: str  # file name / anchor of the chapter
    number: str | None
    title: str
    intro: list[str] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)


@dataclass
class GlossaryTerm:
    """A keyword, timing, zone, counter, token or term with its definition and where it is used."""

    anchor: str
    kind: str
    label: str
    names: list[tuple[str, str]]
    definition: str
    used_in: list[Ref]


@dataclass
class CardEntry:
    """A card of the gallery."""

    anchor: str
    name: str
    names: list[tuple[str, str]]
    number: str | None
    kinds: str
    numbers: list[tuple[str, str]]
    text: str
    texts: list[tuple[str, str]]  # the generated text in the other languages
    designer_text: str
    invented: bool
    note: str | None
    unchecked: str | None
    copies: int
    face: str | None = None  # an SVG drawing of the card
    decisions: list[str] = field(default_factory=list)  # what was decided where the sources leave it open
    source: str = ""  # the card's definition as written in its source file (plain text, never markup)


@dataclass
class CardGroup:
    """The cards of one character (or of none)."""

    anchor: str
    title: str
    cards: list[CardEntry]


@dataclass
class IndexEntry:
    label: str
    kind: str
    page: str  # the chapter key
    anchor: str


@dataclass
class Rulebook:
    """One edition of a game's reference."""

    game: str
    title: str
    language: str
    languages: tuple[str, ...]
    words: BookWords
    chapters: list[Chapter]
    glossary: list[GlossaryTerm]
    groups: list[CardGroup]
    decisions: list[str]
    index: list[IndexEntry] = field(default_factory=list)
    pages: dict[str, str] = field(default_factory=dict)  # anchor -> chapter key (for links between pages)


def section_key(section: str | None) -> tuple[int, ...]:
    if not section:
        return (9999,)
    return tuple(int(x) for x in re.findall(r"\d+", section)) or (9999,)


def _slug(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "-", text).strip("-") or "x"


class _Builder:
    """Reads one checked game into one edition."""

    def __init__(self, checked: Checked, language: str | None, folders: list[Path] | None = None,
                 faces: bool = False, book: TextBook | None = None) -> None:
        self.c = checked
        self.faces = faces
        self.sym = checked.symbols
        self.vocab: Vocabulary = vocabulary(checked)
        self.lang = language or self.vocab.language
        self.words = book_words(self.lang)
        self.folders = folders if folders is not None else template_folders(checked, library_root())
        self.writer = CardWriter(checked, self.vocab, load_templates(self.folders, self.lang))
        self.writer.rules = True
        self.book = book if book is not None else TextBook(checked, self.vocab, self.folders)
        self.by_proc: dict[str, Ref] = {}  # procedure -> where it is written
        self.by_step: dict[tuple[str, str], Rule] = {}
        self.letters_of: dict[str, dict[str, str]] = {}  # procedure -> the letters its text named locals by
        self.pages: dict[str, str] = {}
        self.uses: dict[tuple[str, str], list[Ref]] = {}  # (kind, name) -> rules that read it
        self.decisions = decisions(self.sym)
        self.card_decisions: dict[str, list[str]] = {}  # card -> the decisions about it
        self._names: list[tuple[str, str]] | None = None  # every name of every card, longest first
        self.pending_see: list[tuple[Rule, set[str], str]] = []  # rules whose cross-references wait
        self.anchors: set[str] = set()
        self.file_addendum: dict[str, str] = {}
        for name, add in self.sym.addenda.items():
            self.file_addendum.setdefault(add.span.file, name)
        self.chapter_titles = _chapter_titles(self.sym, self.lang, self.vocab.language)

    # ---- words ----

    def label(self, labels: s.Labels, fallback: str = "") -> str:
        return self.writer._label(labels, fallback)

    def doc(self, labels: s.Labels) -> str | None:
        return labels.doc(self.lang, self.vocab.language)

    def remark(self, card: s.Entity, prop: str) -> str | None:
        """A card's `note` or `unchecked` in the edition's language, else as first written."""
        opt = card.prop(prop)
        read = language_texts(opt) if opt is not None else None
        if read is None:
            return None
        texts = read[0]
        return next((text for lang, text in texts if (lang or self.vocab.language) == self.lang), texts[0][1])

    def decided(self, d: Decision) -> str:
        """A decision in the edition's language, else as first written."""
        return d.text_in(self.lang, self.vocab.language)

    def prose(self, body: Iterable[s.Stmt], params: tuple[str, ...] = (), types: tuple[str | None, ...] = (),
              scope: dict[str, str] | None = None) -> str:
        """A body as sentences, its parameters named by their kind; the steps of one procedure
        share a `scope`, so a name one step defines reads the same in the steps after it."""
        w = self.writer
        w.locals.append(scope if scope is not None else {})
        try:
            self.bind(params, types)
            return self.settled(w.stmts(body))
        finally:
            w.locals.pop()

    def bind(self, params: tuple[str, ...], types: tuple[str | None, ...]) -> None:
        """Name a rule's parameters in the innermost scope by their kind ('the player', 'the
        second card'), or by the game's phrase for an untyped one (`local_atk`)."""
        w = self.writer
        nth: dict[str, int] = {}
        for i, name in enumerate(params):
            kind = (types[i] if i < len(types) else None) or "value"
            nth[kind] = nth.get(kind, 0) + 1
            named = f"local_{name}"
            w.locals[-1].setdefault(name, w.t(named) if kind == "value" and w.t.has(named)
                                    else w.t("param", kind, nth[kind]))

    def passed_on(self, name: str, proc: s.Procedure) -> set[str]:
        """The names steps of a procedure define for the steps after them to read."""
        steps = [st for st in proc.steps if st.ident]
        passed: set[str] = set()
        for i, st in enumerate(steps):
            defined = self.c.step_names.get((name, st.ident), frozenset())
            if defined:
                passed |= defined & {n.ident for later in steps[i + 1:] for n in s.walk(later.body)
                                     if isinstance(n, s.Name)}
        return passed

    def step_context(self, proc_name: str) -> dict[str, str]:
        """Before writing what an addendum does to a step: the names the procedure's steps pass
        on, said as the procedure's own text says them."""
        w = self.writer
        proc = self.sym.procedures.get(proc_name)
        w.announced = self.passed_on(proc_name, proc) if proc is not None else set()
        w.letters = dict(self.letters_of.get(proc_name, {}))
        return {n: w.variable(n) for n in w.announced}

    def expr(self, e: s.Expr) -> str:
        return self.settled(self.writer.expr(e))

    def settled(self, text: str) -> str:
        """Written text as a rule says it: the template's `rule` macro words what a card's text
        leaves to its context (the attack, the player's choice)."""
        return self.writer.t("rule", text) if text else text

    # ---- the whole book ----

    def build(self) -> Rulebook:
        sym = self.sym
        game = sym.game
        assert game is not None
        title = self.label(game.labels, game.name)
        chapters = self.core_chapters() + self.addendum_chapters() + self.effects_chapter() + self.other_chapter()
        for ch in chapters:
            for rule in _walk(ch.rules):
                self.pages[rule.anchor] = ch.key
            self.pages[ch.key] = ch.key
        self.place_examples(chapters)
        general = self.place_decisions(chapters)
        glossary = self.glossary()
        groups = self.gallery()
        book = Rulebook(game.name, title, self.lang, self.vocab.languages, self.words, chapters, glossary, groups,
                        general, pages=self.pages)
        for t in glossary:
            self.pages[t.anchor] = "glossary"
        for g in groups:
            self.pages[g.anchor] = "cards"
            for card in g.cards:
                self.pages[card.anchor] = "cards"
        book.index = sorted([IndexEntry(t.label, t.kind, "glossary", t.anchor) for t in glossary]
                            + [IndexEntry(c.name, self.words.cards, "cards", c.anchor) for g in groups for c in g.cards],
                            key=lambda e: e.label)
        return book

    # ---- core rules ----

    def home(self, decl: s.Node) -> str | None:
        """The addendum a declaration outside any addendum belongs with: the one declared in its
        file (a character's helper procedures sit beside its addendum)."""
        if id(decl) in self.sym.decl_addendum:
            return self.sym.decl_addendum[id(decl)]
        return self.file_addendum.get(decl.span.file)

    def core_chapters(self) -> list[Chapter]:
        sym = self.sym
        procs = sorted(((n, p) for n, p in sym.procedures.items() if self.home(p) is None and p.labels.section),
                       key=lambda np: (section_key(np[1].labels.section), not any(st.ident for st in np[1].steps)))
        # the state checks, triggers and standing actions of the rules that carry a number stand
        # among the procedures (a check first where both have the same number)
        Make = Callable[[str | None, str], Rule]
        numbered: list[tuple[str, int, str, Make]] = [
            (str(proc.labels.section), 1, name, partial(self.procedure, name, proc))
            for name, proc in procs]
        numbered += [(str(item.labels.section), 0, f"{kind}{i}", partial(self.effect, kind, item))
                     for i, (kind, item) in enumerate(self.core_effects()) if item.labels.section]
        numbered.sort(key=lambda entry: (section_key(entry[0]), entry[1]))
        chapters: dict[str, Chapter] = {}
        seen_numbers: dict[str, Rule] = {}
        for section, _, slug, make in numbered:
            top = re.split(r"[-.]", section)[0]
            chapter = chapters.get(top)
            if chapter is None:
                chapter = chapters[top] = Chapter(f"ch{_slug(top)}", top, "")
            first = seen_numbers.get(section)
            rule = make(None if first else section, f"r{_slug(section)}" if not first else f"r{_slug(section)}-{_slug(slug)}")
            if first is None:
                seen_numbers[section] = rule
                chapter.rules.append(rule)
            else:  # another rule under the same number: a part of that rule, without a number of its own
                first.steps.append(rule)
            if section == top and not chapter.title:
                chapter.title = rule.title
        for ch in chapters.values():
            ch.title = self.chapter_titles.get(str(ch.number), ch.title)
        return list(chapters.values())

    def procedure(self, name: str, proc: s.Procedure, number: str | None, anchor: str,
                  shown: str | None = None) -> Rule:
        """A procedure as a rule: its title, its steps (numbered in brackets after its number)."""
        self.writer.called = set()
        rule = Rule(shown or number, anchor, self.label(proc.labels, ""))
        self.by_proc.setdefault(name, Ref(shown or number or rule.title, anchor))
        doc = self.doc(proc.labels)
        if doc:
            rule.prose.append(doc)
        named = [st for st in proc.steps if st.ident]
        w = self.writer
        w.letters, w.announced = {}, self.passed_on(name, proc)
        scope: dict[str, str] = {}
        if not named:
            if not doc:
                rule.prose += [p for p in [self.prose(proc.steps[0].body, proc.params, proc.types)] if p]
        for st in named:
            num = self.words.step.format(number=shown or number, step=st.ident) if (shown or number) else None
            step = Rule(num, f"{anchor}-s{_slug(st.ident)}", self.label(st.labels, ""))
            text = self.doc(st.labels) or self.prose(st.body, proc.params, proc.types, scope)
            if text:
                step.prose.append(text)
            rule.steps.append(step)
            self.by_step[(name, st.ident)] = step
        self.letters_of[name] = dict(w.letters)
        w.announced = set()
        self.note_uses(proc, Ref(shown or number or rule.title, anchor))
        rule.see = [self.by_proc[n] for n in sorted(self.writer.called) if n in self.by_proc and n != name]
        self.pending_see.append((rule, set(self.writer.called), name))
        for d in self.decisions:
            if d.procedure == name and d.step is None:
                rule.decisions.append(self.decided(d))
            elif d.procedure == name and d.step is not None:
                target = next((st for st in rule.steps if st.anchor == f"{anchor}-s{_slug(d.step)}"), rule)
                target.decisions.append(self.decided(d))
        return rule

    # ---- addenda ----

    def addendum_chapters(self) -> list[Chapter]:
        sym = self.sym
        chapters = []
        for name, add in sorted(sym.addenda.items(), key=lambda kv: section_key(kv[1].labels.section)):
            number = add.labels.section
            shown = f"§{number}" if number else None
            key = f"add{_slug(number or name)}"
            hosts = [self.label(sym.characters[w].labels, w) for o in add.props if o.name == "for"
                     for w in o.words() if w in sym.characters]
            intro = [self.words.in_force.format(hosts="、".join(hosts) if self.lang.startswith(("zh", "ja"))
                                                 else ", ".join(hosts)) if hosts else self.words.always]
            doc = self.doc(add.labels)
            if doc:
                intro.insert(0, doc)
            title = self.label(add.labels, name)
            chapter = Chapter(key, shown, self.words.addendum.format(number=shown, title=title) if shown
                              else self.words.addendum_unnumbered.format(title=title), intro)
            for i, item in enumerate(add.items):
                rule = self.addendum_item(name, number, item, i)
                if rule is not None:
                    chapter.rules.append(rule)
            beside = [(n, p) for n, p in sym.procedures.items() if id(p) not in sym.decl_addendum and self.home(p) == name]
            for j, (pname, proc) in enumerate(sorted(beside, key=lambda np: section_key(np[1].labels.section))):
                sec = proc.labels.section
                chapter.rules.append(self.procedure(pname, proc, sec, f"{key}-p{j}", f"§{sec}" if sec else None))
            for j, (kind, item) in enumerate(self.core_effects(name)):
                sec = item.labels.section
                chapter.rules.append(self.effect(kind, item, f"§{sec}" if sec else None, f"{key}-{kind}{j}"))
            chapters.append(chapter)
        return chapters

    def place_decisions(self, chapters: list[Chapter]) -> list[str]:
        """Each decision that names no rule stands where its text says it belongs: under the
        paragraph whose number it starts with ('5-3: …' in 森罗's chapter), with the card whose
        name it starts with (in the gallery), else at the head of its addendum's chapter; the
        game's own that fit nowhere are returned (the book's list of decisions)."""
        numbered: dict[str | None, dict[str, Rule]] = {}
        heads: dict[str, Chapter] = {}
        for ch in chapters:
            owner = next((n for n, a in self.sym.addenda.items() if ch.key == f"add{_slug(a.labels.section or n)}"), None)
            if owner is not None:
                heads[owner] = ch
            table = numbered.setdefault(owner if owner is not None else None if ch.number else "-", {})
            for numbered_rule in _walk(ch.rules):
                if numbered_rule.number is not None:
                    table.setdefault(numbered_rule.number.lstrip("§"), numbered_rule)
        general: list[str] = []
        placed_heads: dict[str, list[str]] = {}
        for d in self.decisions:
            if d.procedure is not None:
                continue
            text = self.decided(d)
            number = re.match(r"(\d+(?:-\d+)*)\b", d.text)
            card = self.card_named_at_start(d)
            section = self.sym.addenda[d.addendum].labels.section if d.addendum in self.sym.addenda else None
            target = _target(number.group(1), "", [(section, numbered.get(d.addendum, {}))]) if number else None
            if target is not None:
                target.decisions.append(text)
            elif card is not None:
                self.card_decisions.setdefault(card, []).append(text)
            elif d.addendum is not None and d.addendum in heads:
                placed_heads.setdefault(d.addendum, []).append(text)
            else:
                general.append(text)
        for owner, texts in placed_heads.items():
            ch = heads[owner]
            ch.rules[:0] = [Rule(None, f"{ch.key}-d{i}", self.words.decision, [text]) for i, text in enumerate(texts)]
        return general

    def card_named_at_start(self, d: Decision) -> str | None:
        """The card a decision's text starts with, by any of its names ('灯: …', '炼成攻击 while …')."""
        if self._names is None:
            self._names = sorted(((label, card) for card, decl in self.sym.cards.items()
                                  for label in {decl.labels.default, *(text for _, text in decl.labels.langs)} if label),
                                 key=lambda lc: -len(lc[0]))
        for _, text in d.texts:
            for label, card in self._names:
                rest = text[len(label):len(label) + 1]
                if text.startswith(label) and not (rest.isalnum() and rest.isascii()):
                    return card
        return None

    def addendum_item(self, addendum: str, number: str | None, item: s.Decl, index: int) -> Rule | None:
        """One item of an addendum as a rule numbered by its own paragraph number."""
        labels = item.option.labels if isinstance(item, s.AddedOption) else getattr(item, "labels", None)
        section = labels.section if labels is not None else None
        shown = f"§{section}" if section else None
        anchor = f"a{_slug(section)}" if section else f"add{_slug(number or addendum)}-i{index}"
        if anchor in self.anchors:
            anchor = f"{anchor}-{index}"
        self.anchors.add(anchor)
        rule: Rule | None = None
        match item:
            case s.Procedure(name=name):
                rule = self.procedure(name, item, section, anchor, shown)
            case s.Replace():
                rule = self.replacement(item, addendum, shown, anchor)
            case s.AddedOption():
                rule = self.added_option(item, addendum, shown, anchor)
            case s.Trigger():
                rule = self.trigger(item, shown, anchor)
            case s.Check(labels=lab) | s.Action(labels=lab):
                rule = Rule(shown, anchor, self.label(lab, ""), [t for t in [self.doc(lab) or self.prose(item.body)] if t])
            case s.Simple() | s.Value() | s.Keyword() | s.Timing() | s.Event():
                text = self.declaration(item)
                rule = Rule(shown, anchor, self.label(item.labels, ""), [text] if text else [])
            case _:
                return None
        return rule

    def replacement(self, rep: s.Replace, addendum: str, shown: str | None, anchor: str) -> Rule:
        proc = self.sym.procedures.get(rep.procedure)
        params, types = (proc.params, proc.types) if proc else ((), ())
        title = self.label(rep.labels, "")
        scope = self.step_context(rep.procedure)
        text = self.doc(rep.labels) or self.prose(rep.body, params, types, scope)
        self.writer.announced = set()
        if not text:  # nothing a reader sees: a replacement skips the step, an addition says its title
            text = title if rep.after else self.words.skipped
        cond = self.expr(rep.cond) if rep.cond is not None else ""
        rule = Rule(shown, anchor, title, [text] if text else [])
        target = self.by_step.get((rep.procedure, rep.step))
        if target is not None:
            rule.see.append(Ref(target.number or target.title, target.anchor))
            target.notes.append(Note("after" if rep.after else "instead", self.label(self.sym.addenda[addendum].labels),
                                     Ref(shown or title, anchor), cond, text))
        if cond:
            rule.prose.insert(0, self.words.when.format(condition=cond))
        return rule

    def added_option(self, added: s.AddedOption, addendum: str, shown: str | None, anchor: str) -> Rule:
        proc = self.sym.procedures.get(added.procedure)
        params, types = (proc.params, proc.types) if proc else ((), ())
        title = self.label(added.option.labels, "")
        text = self.prose(added.option.body, params, types, self.step_context(added.procedure))
        self.writer.announced = set()
        cond = self.expr(added.option.cond) if added.option.cond is not None else ""
        rule = Rule(shown, anchor, title, [text] if text else [])
        target = self.by_step.get((added.procedure, added.step))
        if target is not None:
            rule.see.append(Ref(target.number or target.title, target.anchor))
            target.notes.append(Note("option", self.label(self.sym.addenda[addendum].labels),
                                     Ref(shown or title, anchor), cond, title))
        return rule

    def trigger(self, trig: s.Trigger, shown: str | None, anchor: str) -> Rule:
        title = self.label(trig.labels, "")
        text = self.doc(trig.labels) or self.settled(self.writer.scoped(self.writer.trigger, trig))
        return Rule(shown, anchor, title or text[:40], [text])

    def declaration(self, item: s.Simple | s.Value | s.Keyword | s.Timing | s.Event) -> str:
        """A sentence for a zone, counter, token, value, keyword or timing an addendum declares."""
        doc = self.doc(item.labels)
        if doc:
            return doc
        match item:
            case s.Value(expr=expr):
                return self.expr(expr)
            case s.Keyword(expr=expr) if expr is not None:
                return self.expr(expr)
        return ""

    # ---- rule effects and other rules ----

    def core_effects(self, home: str | None = None) -> list[tuple[str, s.Trigger | s.Check | s.Action]]:
        """The triggers, state checks and standing actions outside any addendum block: the game's
        own rules, or (given an addendum) those declared in that addendum's file beside it."""
        sym = self.sym
        found: list[tuple[str, s.Trigger | s.Check | s.Action]] = []
        for kind, items in (("t", sym.triggers), ("c", sym.checks), ("a", sym.actions)):
            found += [(kind, item) for item, add in items if add is None and self.home(item) == home]
        return found

    def effect(self, kind: str, item: s.Trigger | s.Check | s.Action, number: str | None, anchor: str) -> Rule:
        """A trigger, state check or standing action as a rule."""
        if isinstance(item, s.Trigger):
            return self.trigger(item, number, anchor)
        return Rule(number, anchor, self.label(item.labels, ""),
                    [t for t in [self.doc(item.labels) or self.prose(item.body)] if t])

    def effects_chapter(self) -> list[Chapter]:
        """The game's effects that carry no number, in a chapter of their own."""
        rules = [self.effect(kind, item, None, f"e-{kind}{i}")
                 for i, (kind, item) in enumerate(self.core_effects()) if not item.labels.section]
        return [Chapter("effects", None, self.words.effects, [], rules)] if rules else []

    def other_chapter(self) -> list[Chapter]:
        sym = self.sym
        rules = [self.procedure(n, p, None, f"o{i}") for i, (n, p) in enumerate(sym.procedures.items())
                 if self.home(p) is None and not p.labels.section]
        self.resolve_see()
        return [Chapter("other", None, self.words.other_rules, [], rules)] if rules else []

    def resolve_see(self) -> None:
        """Cross-references to rules written after the rule that calls them."""
        for rule, called, name in self.pending_see:
            known = {r.anchor for r in rule.see}
            rule.see += [self.by_proc[n] for n in sorted(called) if n in self.by_proc and n != name
                         and self.by_proc[n].anchor not in known]
        self.pending_see = []

    # ---- uses, examples ----

    def note_uses(self, node: object, where: Ref) -> None:
        for n in s.walk(node):
            match self.c.resolution.get(n):
                case ZoneRef(zone, _):
                    key = ("zone", zone)
                case CounterRef(counter, _):
                    key = ("counter", counter)
                case FieldRef(name) if name in self.vocab.names[VocabTerm.KEYWORD]:
                    key = ("keyword", name)
                case CallRef(Callee.KEYWORD, name, _):
                    key = ("keyword", name)
                case CallRef(Callee.TIMING, name, _):
                    key = ("timing", name)
                case WordRef(word) if word in self.sym.tokens:
                    key = ("token", word)
                case _:
                    continue
            refs = self.uses.setdefault(key, [])
            if where not in refs:
                refs.append(where)

    def place_examples(self, chapters: list[Chapter]) -> None:
        """Each scenario under the rule its section names (its `section`, or the numbers in its
        name): an addendum's paragraph when it seats that addendum's characters, else the core's."""
        core: dict[str, Rule] = {}
        addenda: dict[str, dict[str, Rule]] = {}
        for ch in chapters:
            for rule in _walk(ch.rules):
                if rule.number is None:
                    continue
                if ch.key.startswith("add"):
                    addenda.setdefault(ch.key, {})[rule.number.lstrip("§")] = rule
                else:
                    core.setdefault(rule.number, rule)
        hosted: dict[str, str] = {}  # character -> its addendum
        chapter_of: dict[str, str] = {}  # addendum -> its chapter
        for name, add in self.sym.addenda.items():
            chapter_of[name] = f"add{_slug(add.labels.section or name)}"
            for o in add.props:
                if o.name == "for":
                    for w in o.words():
                        hosted[w] = name
        for name, scen in self.sym.scenarios.items():
            seated = [w for p in scen.props if p.name == "players" for a in p.atoms for w in a.text.split("/")]
            tables = [(self.sym.addenda[hosted[c]].labels.section, addenda.get(chapter_of[hosted[c]], {}))
                      for c in seated if c in hosted] + [(None, core)]
            target = _target(scen.labels.section, name, tables)
            if target is not None:
                target.examples.append(Example(self.label(scen.labels, ""), self.checks(scen)))

    def checks(self, scen: s.Entity) -> list[str]:
        """What a scenario checks, in order: each `expect`'s message where it is written in the
        edition's script, else its condition in the edition's words (an English note never
        stands in a Chinese book); the names its blocks define read as they do in the rules."""
        w = self.writer
        w.letters, w.announced = {}, set()
        seats = {f"p{i}": f"P{i}" for i in range(1, 11)}  # a scenario's players, as the rulings name them
        w.locals.append(seats)
        found: list[tuple[tuple[int, int], str]] = []
        try:
            for block in scen.blocks:
                for st in block.body:
                    if isinstance(st, s.Let):
                        made = _made(st.value)  # a card it makes reads as that card
                        if made is not None:
                            w.locals[-1][st.name] = self.expr(made)
                        else:
                            w.st_Let(st)
                for node in s.walk(block.body):
                    if isinstance(node, s.Expect):
                        said = node.message if node.message and _same_script(node.message, self.lang) else ""
                        said = said or self.expr(node.cond)
                        if said:
                            found.append(((node.span.line, node.span.col), said))
        finally:
            w.locals.pop()
        return [text for _, text in sorted(found)]

    # ---- glossary ----

    def glossary(self) -> list[GlossaryTerm]:
        sym, vocab = self.sym, self.vocab
        terms: list[GlossaryTerm] = []

        def add(kind: str, name: str, labels: s.Labels, definition: str) -> None:
            names = [(lang, n) for lang in vocab.languages if (n := label_in(labels, lang, vocab.language))]
            terms.append(GlossaryTerm(f"g-{kind}-{len(terms)}", getattr(self.words, kind), self.label(labels, name),
                                      names, self.doc(labels) or definition, self.uses.get((kind, name), [])))

        for name, info in sym.fields.items():
            if info.keyword:
                add("keyword", name, info.decl.labels, self.words.printed)
        for name, kw in sym.keywords.items():
            add("keyword", name, kw.labels, self.expr(kw.expr) if kw.expr is not None else "")
        for name, timing in sym.timings.items():
            add("timing", name, timing.labels, self.timing_definition(name))
        for name, zone in sym.zones.items():
            add("zone", name, zone.decl.labels, self.zone_definition(zone))
        for name, counter in sym.counters.items():
            if counter.visibility == "public":
                add("counter", name, counter.decl.labels, self.counter_definition(counter))
        for name, token in sym.tokens.items():
            add("token", name, token.labels, self.token_definition(name))
        for name, kind in sym.kinds.items():
            add("term", name, kind.labels, "")
        for name, value in sym.values.items():  # an addendum's own values are rules of its chapter
            if id(value) not in sym.decl_addendum:
                add("value", name, value.labels, self.value_definition(value))
        return sorted(terms, key=lambda t: t.label)

    # ---- definitions said from declarations ----

    def _clauses(self, parts: list[str]) -> str:
        return self.words.clause_sep.join(p for p in parts if p)

    def zone_definition(self, zone: ZoneInfo) -> str:
        """Whose the zone is, what it holds and how much, who sees it."""
        words = self.words
        held = [self.label(self.sym.tokens[t].labels, t) for t in zone.tokens if t in self.sym.tokens]
        holds = words.holds_cards if zone.holds_cards else words.holds.format(what=words.list_sep.join(held)) if held else ""
        return self._clauses([words.each_player if zone.per_player else words.shared, holds,
                              words.at_most.format(n=zone.capacity) if zone.capacity is not None else "",
                              words.supply if zone.supply else words.shown.get(zone.visibility, "")])

    def counter_definition(self, counter: CounterInfo) -> str:
        """Whose the counter is, its values and start."""
        words = self.words
        start = counter.start
        shown_start = ("" if start in (None, 0, False) or isinstance(start, bool)
                       else words.starts.format(value=self.writer.word(str(start)) if isinstance(start, str) else start))
        return self._clauses([words.each_player if counter.per_player else words.shared,
                              words.flag_def if counter.flag else
                              words.values.format(low=counter.low, high=counter.high)
                              if counter.low is not None and counter.high is not None else "",
                              shown_start])

    def value_definition(self, value: s.Value) -> str:
        """A value: what it is worked out from, said with its parameters named by their kind."""
        doc = self.doc(value.labels)
        if doc:
            return doc
        w = self.writer
        w.letters, w.announced = {}, set()
        w.locals.append({})
        try:
            self.bind(value.params, value.types)
            return self.expr(value.expr)
        finally:
            w.locals.pop()

    def timing_definition(self, name: str) -> str:
        """A timing: the marker cards print its effects under."""
        mark = self.vocab.mark(name)
        if mark is None:
            return self.words.timing_unmarked
        return self.words.timing_def.format(mark=self.t_section(mark))

    def t_section(self, timing: str) -> str:
        """A timing's marker as cards print it (the game's `section` macro, without a body)."""
        return self.writer.t("section", self.vocab.label(VocabTerm.TIMING, timing, self.lang), "").strip()

    def token_definition(self, name: str) -> str:
        """A token kind: the zones that hold it."""
        zones = [self.label(z.decl.labels, n) for n, z in self.sym.zones.items() if name in z.tokens]
        return self.words.token_def.format(zones=self.words.list_sep.join(zones)) if zones else ""

    # ---- cards ----

    def gallery(self) -> list[CardGroup]:
        sym, c, vocab = self.sym, self.c, self.vocab
        groups: dict[str, list[CardEntry]] = {}
        owner_field = next((n for n, f in sym.fields.items() if f.type == "character"), None)
        numbers = [n for n, f in sym.fields.items() if f.type in ("int", "pair", "range")]
        kinds = [n for n, f in sym.fields.items() if f.type in ("enum", "set")]
        keys = {card: key for key, card in vocab.card_keys.items()}
        for i, (name, card) in enumerate(sym.cards.items()):
            props = c.card_props.get(name, {})
            if props.get("fixture"):
                continue
            owner = str(props.get(owner_field, "")) if owner_field else ""
            shown_numbers = [(self.label(sym.fields[n].decl.labels, n), text) for n in numbers
                             if props.get(n) not in (None, 0, ()) and (text := number_text(props[n])) is not None]
            kind_words = [self.writer.word(str(w)) for n in kinds if props.get(n)
                          for w in (props[n] if isinstance(props[n], tuple) else (props[n],))]
            texts = self.book.texts(name)
            groups.setdefault(owner, []).append(CardEntry(
                f"c{i}", vocab.label(VocabTerm.CARD, name, self.lang),
                [(lang, n) for lang in vocab.languages if (n := label_in(card.labels, lang, vocab.language))],
                keys.get(name), " · ".join(kind_words), shown_numbers, texts.get(self.lang, ""),
                [(lang, t) for lang, t in texts.items() if lang != self.lang and t],
                str(props.get("text", "")), bool(props.get("invented")), self.remark(card, "note"),
                self.remark(card, "unchecked"),
                int(props.get("copies", 1)),
                card_face(c, vocab, self.book, name, self.lang) if self.faces else None,
                self.card_decisions.get(name, []), card_source(sym, card)))
        order = list(sym.characters)
        result = []
        for owner, cards in sorted(groups.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)):
            char = sym.characters.get(owner)
            title = self.label(char.labels, owner) if char else self.words.cards
            result.append(CardGroup(f"g{_slug(owner) if owner else 'none'}", title, cards))
        return result


def card_source(sym: Symbols, card: s.Entity) -> str:
    """A card's definition as its source file has it: the lines of its span, from its keyword to
    its last line of code (the blank lines and the comments at its own level or outside it that
    follow it lead to the next declaration and are left out), unindented when it stands inside
    an addendum. Empty when the file's text is not at hand."""
    span = card.span
    text = sym.sources.get(span.file)
    if not text or span.line < 1:
        return ""
    lines = s.source_lines(text)[span.line - 1:span.end_line]
    if not lines:
        return ""
    if span.end_line > span.line and len(lines) == span.end_line - span.line + 1:
        lines[-1] = lines[-1][:max(span.end_col - 1, 0)]  # the span ends inside (or at the start of) this line
    indent = span.col - 1
    while lines and (not lines[-1].strip() or
                     lines[-1].lstrip().startswith("#") and len(lines[-1]) - len(lines[-1].lstrip()) <= indent):
        lines.pop()
    if not lines:
        return ""
    return "\n".join(line if line[:indent].strip() else line[indent:] for line in lines) + "\n"


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _same_script(text: str, language: str) -> bool:
    """Whether a text is written in the script of an edition's language: Latin words (two, or
    one without CJK) make a Latin text, CJK without Latin words a zh or ja one; a mixed text
    (`フルバースト is 全力`) is neither."""
    words, cjk = len(re.findall(r"[A-Za-z]{2,}", text)), bool(_CJK.search(text))
    if language.startswith(("zh", "ja")):
        return cjk and not words
    return words >= 2 or words >= 1 and not cjk


def _made(value: object) -> s.Expr | None:
    """The definition `new_card(CARD, …)` and the like make their value from (named first)."""
    if isinstance(value, s.Call) and isinstance(value.func, s.Name) and value.func.ident in MAKERS and value.args:
        return value.args[0]
    return None


def _walk(rules: list[Rule]) -> Iterable[Rule]:
    for rule in rules:
        yield rule
        yield from _walk(rule.steps)


def _target(section: str | None, name: str, tables: list[tuple[str | None, dict[str, Rule]]]) -> Rule | None:
    """The rule a scenario's section (or the longest run of numbers in its name) names. A number
    under a seated character's addendum (`shinra_5_1_…` seats 森罗, whose addendum is §5) is that
    addendum's paragraph, or the nearest one above it, never the core rule that shares the number."""
    candidates = [section] if section else []
    for run in re.findall(r"(?<![A-Za-z0-9])\d+(?:_\d+)+", name):  # `oboro_3_3_…` names 3-3
        parts = run.split("_")
        candidates += ["-".join(parts[:k]) for k in range(len(parts), 1, -1)]
    for wanted in candidates:
        owners = [table for number, table in tables if number is not None and wanted.split("-")[0] == number]
        for table in owners:
            near = [key for key in table if wanted == key or wanted.startswith(key + "-")]
            if wanted in table or near:
                return table[max(near, key=len)]
        if owners:
            continue
        for _, table in tables:
            if wanted in table:
                return table[wanted]
    return None


def _chapter_titles(sym: Symbols, language: str, own: str) -> dict[str, str]:
    """`chapter N "title" [LANG "title" …]` lines of the game block: the title of each chapter."""
    titles: dict[str, str] = {}
    game = sym.game
    for opt in game.props if game is not None else ():
        if opt.name != "chapter" or len(opt.atoms) < 2:
            continue
        atoms = list(opt.atoms)
        number, default = atoms[0].text, atoms[1].text
        chosen = default if language == own else None
        for lang, text in zip(atoms[2::2], atoms[3::2], strict=False):
            if lang.text == language:
                chosen = text.text
        titles[number] = chosen or default
    return titles


def rulebook(checked: Checked, language: str | None = None, faces: bool = False,
             book: TextBook | None = None) -> Rulebook:
    """One edition of the game's reference (the game's own language by default); with `faces`,
    each card of the gallery carries its face drawn as SVG. Editions of one game given the same
    `book` (`text_book`) write each card's text once between them."""
    return _Builder(checked, language, faces=faces, book=book).build()


def text_book(checked: Checked) -> TextBook:
    """The card texts of a game in every language, to share between its editions."""
    return TextBook(checked, vocabulary(checked), template_folders(checked, library_root()))
