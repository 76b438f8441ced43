"""Grammar-based fuzzing: programs generated from the grammar and mutations of the bundled
sources never make `check` fail with an internal error, and whatever compiles either plays to
the end or stops with a located rule error. Every input that ever crashed cardsmith is kept
in tests/data/fuzz_corpus/ and replayed here; a new failing input is written there too."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from cardsmith.compiler.load import build_sources, game_files
from cardsmith.compiler.parse import _Indenter, grammar_text
from cardsmith.runtime.session import new_game, play
from cardsmith.runtime.table import draw_picks

CORPUS = Path(__file__).parent / "data" / "fuzz_corpus"
SCALE = int(os.environ.get("CARDSMITH_FUZZ_SCALE", "1"))  # more examples for a long local soak
FUZZED = "fuzzed.csm"


def _keep(sources: dict[str, str]) -> None:
    """Write a failing input into the corpus, so that it is replayed from now on."""
    text = sources[FUZZED]
    name = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    game = next((p.split("/")[-2] for p in sources if p != FUZZED), None)
    header = f"use {game}\n" if game and not text.startswith("use ") else ""
    (CORPUS / f"crash-{name}.csm").write_text(header + text, "utf-8", errors="surrogatepass")


def exercise(sources: dict[str, str], seed: int = 1) -> None:
    """Check the sources; if they compile, play one seeded game. Fails on anything but
    located diagnostics and located rule errors. Files and declarations parsed before at the
    same place with the same text come from the parse cache (the untouched library files of a
    mutated game); every changed declaration is parsed afresh."""
    try:
        result = build_sources(sources, need_model=True)
        for d in result.diagnostics:
            assert d.span.file in sources and d.span.line >= 1, f"unlocated diagnostic {d}"
        if result.ok and result.rules is not None:
            rules = result.rules
            if rules.characters or rules.table.picks == 1:
                picks = draw_picks(rules, rules.table.min_players, seed)
                outcome = play(new_game(rules, picks, seed=seed, log=False))
                assert outcome.error is None or re.search(r"\(at [^)]+\.csm:\d+\)", outcome.error), outcome.error
    except BaseException:
        _keep(sources)
        raise


GRAMMAR = Lark(grammar_text(), parser="lalr", postlex=_Indenter(), maybe_placeholders=False)
PROGRAMS = from_lark(GRAMMAR, explicit={"_INDENT": st.just("    "), "_DEDENT": st.just("")})


@settings(max_examples=150 * SCALE, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(PROGRAMS)
def test_programs_from_the_grammar_never_crash(text: str) -> None:
    exercise({FUZZED: text})


LIBRARY = {game: {str(p): p.read_text("utf-8") for p in game_files(game)} for game in ("sakura", "eatpaint")}
WORDS = ["none", "true", "0", "1", "99", "1000000", "-1", "3/1", "+1/-1", "1-2", "p", "self", "this", "x",
         "(", ")", "[", "]", ":", ",", "and", "not", "if", "for", "break", "return", "once", "pass", '"s"']


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, str]:
    """A bundled game with one of its files changed by a few line and word mutations."""
    game = draw(st.sampled_from(sorted(LIBRARY)))
    files = LIBRARY[game]
    path = draw(st.sampled_from(sorted(files)))
    lines = files[path].split("\n")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "word", "insert"]))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            new = draw(st.sampled_from(WORDS))
            if kind == "word":
                words[k] = new
            else:
                words.insert(k, new)
            lines[i] = " ".join(words)
    # the other scenario files only cost time: no rule reads a scenario
    sources = {p: t for p, t in files.items() if p != path and "/scenarios/" not in p}
    sources[FUZZED] = "\n".join(lines)
    return sources


@settings(max_examples=40 * SCALE, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.integers(0, 1000))
def test_mutated_library_sources_check_and_play_cleanly(sources: dict[str, str], seed: int) -> None:
    exercise(sources, seed)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.csm")), ids=lambda p: p.name)
def test_every_input_that_ever_crashed_is_handled(path: Path) -> None:
    text = path.read_text("utf-8", errors="surrogatepass")
    used = re.match(r"use (\w+)\n", text)
    sources = {str(p): p.read_text("utf-8") for p in game_files(used.group(1))} if used else {}
    sources[FUZZED] = text
    exercise(sources)
