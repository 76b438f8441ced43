"""Load stage: find a game's sources, run parse → check → generate, compile and cache by hash.

`build_game` is the one entry point: it returns the RuleSet, or the diagnostics that
stopped it. The compiled code object is cached (marshal) under a hash of the compiler,
the grammar and every source, so an unchanged library reloads without parsing.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..runtime.rules import RuleSet
from . import syntax as s
from .check import Checked, check
from .diagnostics import Diagnostic
from .generate import generate
from .parse import grammar_text, parse_source

SOURCE_SUFFIX = ".csm"


@dataclass
class BuildResult:
    """What a build produced: rules (None on errors), diagnostics, sources, checked model."""

    rules: RuleSet | None
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    checked: Checked | None = None
    python_source: str | None = None
    from_cache: bool = False
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.rules is not None and not any(d.severity == "error" for d in self.diagnostics)


def library_root() -> Path:
    """The bundled card library (works from a checkout and from an installed package)."""
    return Path(str(resources.files("cardsmith.cards")))


def bundled_games() -> list[str]:
    root = library_root()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob(f"*{SOURCE_SUFFIX}")))


def game_files(game: str) -> list[Path]:
    folder = library_root() / game
    return sorted(folder.rglob(f"*{SOURCE_SUFFIX}"))


def cache_dir() -> Path:
    base = os.environ.get("CARDSMITH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "cardsmith")
    return Path(base)


@lru_cache(maxsize=1)
def _compiler_fingerprint() -> bytes:
    """A hash of the grammar, the compiler and the runtime: a cached build is only reused by
    the same code that made it."""
    h = hashlib.sha256(grammar_text().encode())
    package = Path(__file__).parent.parent
    for folder in ("compiler", "runtime"):
        for path in sorted((package / folder).glob("*.py")):
            h.update(path.name.encode() + path.read_bytes())
    return h.digest()


def read_sources(paths: list[Path]) -> tuple[dict[str, str], list[Diagnostic]]:
    """Read files as UTF-8; unreadable ones become E005 diagnostics."""
    sources: dict[str, str] = {}
    diags: list[Diagnostic] = []
    for p in paths:
        try:
            sources[str(p)] = p.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as err:
            diags.append(Diagnostic("E005", f"cannot read file: {err.__class__.__name__}: {err}",
                                    s.Span(str(p), 1, 1, 1, 1)))
    return sources, diags


def build_sources(sources: dict[str, str], use_cache: bool = True, want_model: bool = False) -> BuildResult:
    """Build a game from source texts (path → text)."""
    key = hashlib.sha256(_compiler_fingerprint())
    for path in sorted(sources):
        key.update(path.encode() + b"\0" + sources[path].encode() + b"\0")
    digest = key.hexdigest()
    cache_file = cache_dir() / f"{digest}.bin"
    if use_cache and not want_model and cache_file.exists():
        try:
            payload = marshal.loads(cache_file.read_bytes())
            rules = _exec(payload["code"], payload["line_map"])
            return BuildResult(rules, [], sources, from_cache=True)
        except (ValueError, EOFError, KeyError, TypeError):
            pass  # a damaged cache entry is rebuilt
    files: list[s.SourceFile] = []
    diags: list[Diagnostic] = []
    for path, text in sources.items():
        parsed, parse_diags = parse_source(path, text)
        files.append(parsed)
        diags.extend(parse_diags)
    checked, check_diags = check(files)
    diags.extend(check_diags)
    if any(d.severity == "error" for d in diags):
        return BuildResult(None, diags, sources, checked)
    python_source, line_map = generate(checked)
    code = compile(python_source, f"<cardsmith:{checked.symbols.game.name if checked.symbols.game else '?'}>", "exec")
    if use_cache:
        try:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(".tmp")
            tmp.write_bytes(marshal.dumps({"code": code, "line_map": line_map}))
            tmp.replace(cache_file)
        except OSError:
            pass  # caching is an optimisation only
    rules = _exec(code, line_map)
    cards = len(checked.symbols.cards)
    return BuildResult(rules, diags, sources, checked, python_source, stats={"cards": cards})


def _exec(code: Any, line_map: dict[int, tuple[str, int]]) -> RuleSet:
    namespace: dict[str, Any] = {"__name__": "cardsmith_generated"}
    exec(code, namespace)  # noqa: S102 - code generated by our own compiler
    rules: RuleSet = namespace["build_rules"]()
    rules.line_map = dict(line_map)
    return rules


def resolve_inputs(paths: list[str]) -> tuple[dict[str, str], list[Diagnostic]]:
    """Sources for `check`/`build` arguments: game names, folders or files.

    A file that starts with `use GAME` is checked together with that bundled game."""
    collected: list[Path] = []
    diags: list[Diagnostic] = []
    for arg in paths:
        p = Path(arg)
        if not p.exists() and arg in bundled_games():
            collected.extend(game_files(arg))
        elif p.is_dir():
            collected.extend(sorted(p.rglob(f"*{SOURCE_SUFFIX}")))
        elif p.is_file():
            collected.append(p)
        else:
            diags.append(Diagnostic("E005", f"no such file, folder or bundled game: {arg}",
                                    s.Span(arg, 1, 1, 1, 1), hint="bundled games: " + ", ".join(bundled_games())))
    sources, read_diags = read_sources(collected)
    diags.extend(read_diags)
    for path, text in list(sources.items()):
        game = _used_game(text)
        if game is None:
            continue
        if game not in bundled_games():
            line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("use"))
            diags.append(Diagnostic("E107", f"unknown game {game!r}", s.Span(path, line, 5, line, 5 + len(game)),
                                    hint="bundled games: " + ", ".join(bundled_games())))
            continue
        extra, more = read_sources(game_files(game))
        diags.extend(more)
        for k, v in extra.items():
            sources.setdefault(k, v)
    return sources, diags


def _used_game(text: str) -> str | None:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("use ") and not line.startswith((" ", "\t")):
            return stripped[4:].split("#")[0].strip()
    return None


def build_game(game: str, use_cache: bool = True, want_model: bool = False) -> BuildResult:
    """Build a bundled game by name."""
    sources, diags = read_sources(game_files(game))
    result = build_sources(sources, use_cache=use_cache, want_model=want_model)
    result.diagnostics[:0] = diags
    return result
