"""Load stage: find a game's sources, run parse → check → generate, compile and cache by hash.

`build_game` is the one entry point: it returns the RuleSet, or the diagnostics that
stopped it. The compiled code object is cached (marshal, in the verified per-user cache of
`cache.py`) under a hash of the interpreter, Lark, the compiler, the grammar and every
source, so an unchanged library reloads without parsing.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.util
import marshal
import os
import stat
import sys
import types
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import span as s
from .cache import Cache, open_cache, warn
from .diagnostics import Diagnostic
from .library import grammar_text, library_root, package_folder
from .limits import MAX_FILE_BYTES

if TYPE_CHECKING:
    from ..runtime.rules import RuleSet, Scenarios, SourceMap
    from .checked import Checked

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


def bundled_games() -> list[str]:
    root = library_root()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob(f"*{SOURCE_SUFFIX}")))


def game_files(game: str) -> list[Path]:
    folder = library_root() / game
    return sorted(folder.rglob(f"*{SOURCE_SUFFIX}"))


def _lark_release() -> bytes:
    """Which Lark parses: its `__init__`, which carries its version (read, not imported: a
    cached game is loaded without the parser)."""
    spec = importlib.util.find_spec("lark")
    return Path(spec.origin).read_bytes() if spec is not None and spec.origin else b""


@lru_cache(maxsize=1)
def _compiler_fingerprint() -> bytes:
    """What a cached build depends on besides the sources: the grammar, the compiler and the
    runtime, and the interpreter and Lark versions (marshalled code is only valid for the
    Python that wrote it)."""
    h = hashlib.sha256()
    parts = [importlib.util.MAGIC_NUMBER, sys.version.encode(), _lark_release(), grammar_text().encode()]
    for package in ("cardsmith.compiler", "cardsmith.runtime"):
        folder = package_folder(package)
        for name in sorted(n for n in os.listdir(folder) if n.endswith(".py")):  # listdir: glob costs more
            with open(folder / name, "rb") as module:
                parts += [name.encode(), module.read()]
    for part in parts:
        h.update(len(part).to_bytes(8, "big") + part)
    return h.digest()


def _cache_key(sources: dict[str, str]) -> str:
    """A name for the build of these sources: every part is length-prefixed, so no two
    different source sets share one."""
    h = hashlib.sha256(_compiler_fingerprint())
    for path in sources:  # in order: the order of the files is the order of their declarations
        for part in (path.encode(), sources[path].encode("utf-8", "surrogatepass")):
            h.update(len(part).to_bytes(8, "big") + part)
    return h.hexdigest()


def read_sources(paths: list[Path]) -> tuple[dict[str, str], list[Diagnostic]]:
    """Read regular files as UTF-8 (without blocking on a FIFO or reading a device); anything
    else becomes an E005 diagnostic."""
    sources: dict[str, str] = {}
    diags: list[Diagnostic] = []
    for p in paths:
        try:
            sources[str(p)] = _read_regular(p)
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            diags.append(Diagnostic("E005", f"cannot read {p}: {reason}", s.Span(str(p), 1, 1, 1, 1)))
    return sources, diags


def _read_regular(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(0, f"not a regular file ({_file_kind(info.st_mode)})")
        if info.st_size > MAX_FILE_BYTES:
            raise OSError(0, f"larger than {MAX_FILE_BYTES} bytes")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(MAX_FILE_BYTES + 1).decode("utf-8")
    finally:
        os.close(fd)


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


def build_sources(sources: dict[str, str], use_cache: bool = True, need_model: bool = False) -> BuildResult:
    """Build a game from source texts (path → text).

    `use_cache`: read and write the compiled-library cache. `need_model`: the caller needs
    the checked model and the generated source (a reference, `build`, `check`), which the
    cache does not hold, so the sources are parsed and checked even when a cached build
    exists (and the cache is still written)."""
    cache = open_cache() if use_cache else None
    entry = f"{_cache_key(sources)}.bin"
    if cache is not None and not need_model:
        rules = _load_cached(cache, entry)
        if rules is not None:
            return BuildResult(rules, [], sources, from_cache=True)
    with no_gc():
        return _build(sources, cache, entry)


@contextmanager
def no_gc() -> Iterator[None]:
    """No garbage collections meanwhile: a game's model is hundreds of thousands of objects
    that all live on, and collecting them again and again would take longer than the work."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def parse_and_check(sources: dict[str, str], cache: Cache | None) -> tuple[Checked, list[Diagnostic]]:
    """The first half of a build: parse (each file once: `parse_cache`) and check; no code is
    generated. In one process, what did not change since the last call is not parsed or
    checked again (`parse_cache`, `check_memo`)."""
    from . import syntax
    from .check import check
    from .parse import parse_source
    from .parse_cache import parse_file
    files: list[syntax.SourceFile] = []
    diags: list[Diagnostic] = []
    for path, text in sources.items():
        parsed, parse_diags = parse_file(path, text, cache) if cache is not None else parse_source(path, text)
        files.append(parsed)
        diags.extend(parse_diags)
    checked, check_diags = check(files)
    return checked, diags + check_diags


def _build(sources: dict[str, str], cache: Cache | None, entry: str) -> BuildResult:
    """Parse and check, generate and compile; cache the code."""
    # the compiler proper is loaded only when something is compiled (a cached game needs none of it)
    from ..runtime.rules import GENERATED_PREFIX, SourceMap
    from .generate import GenerateError, generate
    checked, diags = parse_and_check(sources, cache)
    if any(d.severity == "error" for d in diags):
        return BuildResult(None, diags, sources, checked)
    source_map = SourceMap.of({}, [])
    try:
        python_source, source_map = generate(checked)
        name = GENERATED_PREFIX + (checked.symbols.game.name if checked.symbols.game else "?") + ">"
        code, scenarios = (compile(part, name, "exec") for part in split_scenarios(python_source))
    except GenerateError as err:
        return BuildResult(None, diags + [_too_complex(err.span)], sources, checked)
    except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError) as err:
        lineno = getattr(err, "lineno", None) or 0
        mapped = [src for n, src in source_map.entries() if n <= lineno]
        where = s.Span(mapped[-1][0], mapped[-1][1], 1, mapped[-1][1], 2) if mapped else \
            s.Span(next(iter(sources), "<input>"), 1, 1, 1, 2)
        return BuildResult(None, diags + [_too_complex(where)], sources, checked)
    if cache is not None:
        cache.write(entry, entry_payload(code, scenarios, source_map))
    rules = _exec(code, scenarios, source_map)
    cards = len(checked.symbols.cards)
    return BuildResult(rules, diags, sources, checked, python_source, stats={"cards": cards})


def _too_complex(span: s.Span) -> Diagnostic:
    return Diagnostic("E004", "this declaration is too complex to compile", span,
                      hint="split it into smaller procedures or `let` steps")


def split_scenarios(python_source: str) -> tuple[str, str]:
    """A generated module as two sources, the rules and the scenarios below them, each to be
    compiled alone; the scenarios' source starts with blank lines, so that both keep the line
    numbers of the whole (and its source map)."""
    from .generate import SCENARIOS_BELOW
    cut = python_source.index("\n" + SCENARIOS_BELOW + "\n") + 1
    return python_source[:cut], "\n" * python_source.count("\n", 0, cut) + python_source[cut:]


def entry_payload(code: types.CodeType, scenarios: types.CodeType, source_map: SourceMap) -> bytes:
    """A compiled game as the cache holds it: its code, its scenarios' code (marshalled apart, to
    be read only when a scenario runs) and its source map, the map's line numbers as raw integer
    arrays (quick to read back)."""
    return marshal.dumps({"code": code, "scenarios": marshal.dumps(scenarios), "paths": source_map.paths,
                          "at": source_map.at.tobytes(), "files": source_map.files.tobytes(),
                          "source_lines": source_map.source_lines.tobytes(), "decls": source_map.decls})


def _load_cached(cache: Cache, entry: str) -> RuleSet | None:
    """The rules of a verified cache entry, or None (with a warning) when it cannot be used."""
    from ..runtime.rules import SourceMap
    payload = cache.read(entry)
    if payload is None:
        return None
    try:
        data = marshal.loads(payload)
        code, scenarios, paths, decls = data["code"], data["scenarios"], data["paths"], data["decls"]
        at, files, lines = (array("i", data[key]) for key in ("at", "files", "source_lines"))
        if not isinstance(code, types.CodeType) or not isinstance(scenarios, bytes) or not isinstance(paths, list) \
                or not isinstance(decls, list) or not len(at) == len(files) == len(lines) \
                or not all(0 <= f < len(paths) for f in set(files)):
            raise TypeError("unexpected entry layout")
        return _exec(code, scenarios, SourceMap(paths, at, files, lines, decls))
    except Exception as err:  # noqa: BLE001 - a bad entry of any kind is rebuilt, never fatal
        warn("cache entry %s skipped and rebuilt: %s: %s", entry, type(err).__name__, err)
        return None


def _exec(code: types.CodeType, scenarios: types.CodeType | bytes, source_map: SourceMap) -> RuleSet:
    """Run a compiled game's code; its scenarios' code (or their marshalled bytes) runs in the
    same namespace when the rules are first asked for a scenario."""
    namespace: dict[str, Any] = {"__name__": "cardsmith_generated"}
    exec(code, namespace)  # noqa: S102 - code generated by our own compiler
    rules: RuleSet = namespace["build_rules"]()
    rules.source_map = source_map
    rules.scenario_loader = partial(_scenarios, scenarios, namespace)
    return rules


def _scenarios(code: types.CodeType | bytes, namespace: dict[str, Any]) -> Scenarios:
    exec(marshal.loads(code) if isinstance(code, bytes) else code, namespace)  # noqa: S102 - as in _exec
    scenarios: Scenarios = namespace["build_scenarios"]()
    return scenarios


def resolve_inputs(paths: list[str]) -> tuple[dict[str, str], list[Diagnostic]]:
    """Sources for `check`/`build` arguments: game names, folders or files.

    A file that starts with `use GAME` is checked together with that bundled game."""
    collected: list[Path] = []
    diags: list[Diagnostic] = []
    joined: set[str] = set()  # the bundled games whose files are in already (each read once)
    for arg in paths:
        p = Path(arg)
        if not p.exists() and arg in bundled_games():
            collected.extend(game_files(arg))
            joined.add(arg)
        elif p.is_dir():
            found = sorted(p.rglob(f"*{SOURCE_SUFFIX}"))
            if not found:
                diags.append(Diagnostic("E005", f"no {SOURCE_SUFFIX} source files in the folder {arg}",
                                        s.Span(arg, 1, 1, 1, 1)))
            collected.extend(found)
        elif p.exists():
            collected.append(p)  # read_sources says what is wrong with a FIFO or a device
        else:
            diags.append(Diagnostic("E005", f"no such file, folder or bundled game: {arg}",
                                    s.Span(arg, 1, 1, 1, 1), hint="bundled games: " + ", ".join(bundled_games())))
    sources, read_diags = read_sources(collected)
    diags.extend(read_diags)
    sources = _once_each(sources)
    named_games = set(joined)
    for path, text in list(sources.items()):
        game = _used_game(text)
        if game is None or game in joined:
            continue
        if game not in bundled_games():
            line = _use_line(text)
            diags.append(Diagnostic("E107", f"unknown game {game!r}", s.Span(path, line, 5, line, 5 + len(game)),
                                    hint="bundled games: " + ", ".join(bundled_games())))
            continue
        joined.add(game)
        library, more = read_sources(game_files(game))
        diags.extend(more)
        sources = {**library, **sources}  # the game's own files first, then the designer's
    return (_once_each(sources) if joined != named_games else sources), diags  # in order again if a game was added


def resolve_game(target: str, extra: list[str]) -> tuple[dict[str, str], list[Diagnostic]]:
    """The sources of a game and a designer's additions to it: `target` is a bundled game's
    name, a game folder of the designer's, or a file that starts with `use GAME`; `extra`
    are more files or folders, each of which must add to that same game. A file that is
    already part of the sources (the library's own, named another way) is read once."""
    sources, diags = resolve_inputs([target, *extra])
    games = {g for g in (_used_game(t) for t in sources.values()) if g is not None}
    if target in bundled_games() and not Path(target).exists():
        games.add(target)
    if len(games) > 1:
        for path, text in sources.items():
            used = _used_game(text)
            if used is not None and used != (target if target in bundled_games() else used):
                line = _use_line(text)
                diags.append(Diagnostic("E107", f"this file adds to {used!r}, not to {target!r}",
                                        s.Span(path, line, 1, line, 5 + len(used))))
    return _once_each(sources), diags


def _once_each(sources: dict[str, str]) -> dict[str, str]:
    """Sources with each file once, whatever path named it (under the designer's relative
    path when there is one), in one order however they were named: the bundled library's
    files in the library's order, then the others by path. The order of the files is the
    order of the declarations, and so of the cards."""
    named: dict[str, str] = {}
    folders: dict[str, str] = {}  # each folder's real path, resolved once
    for path in sources:
        real = _real_path(path, folders)
        if real not in named or os.path.isabs(named[real]) and not os.path.isabs(path):
            named[real] = path
    root = os.path.realpath(library_root()) + os.sep
    order = sorted(named, key=lambda real: (not real.startswith(root), real.split(os.sep)))
    return {named[real]: sources[named[real]] for real in order}


def _real_path(path: str, folders: dict[str, str]) -> str:
    """`os.path.realpath(path)`, resolving each folder once (`folders` remembers them): a file that
    is not itself a link is its real folder joined with its name."""
    if os.path.islink(path):
        return os.path.realpath(path)
    folder, name = os.path.split(os.path.abspath(path))
    if folder not in folders:
        folders[folder] = os.path.realpath(folder)
    return os.path.join(folders[folder], name)


def _use_line(text: str) -> int:
    return next((i for i, ln in enumerate(s.source_lines(text), 1) if ln.startswith("use")), 1)


def _used_game(text: str) -> str | None:
    """The game a file adds to: its first unindented `use GAME` line (lines end at \\n only).
    Found with `str.find`: a multi-line pattern searched over a whole library is slower."""
    if text.startswith("use "):
        at = 0
    elif (before := text.find("\nuse ")) >= 0:
        at = before + 1
    else:
        return None
    end = text.find("\n", at)
    line = text[at + 4:] if end < 0 else text[at + 4:end]
    return line.split("#")[0].strip()


def build_target(target: str, extra: list[str], use_cache: bool = True, need_model: bool = False) -> BuildResult:
    """Build a game and a designer's additions (see `resolve_game`)."""
    sources, diags = resolve_game(target, extra)
    if not sources:
        return BuildResult(None, diags, sources)
    result = build_sources(sources, use_cache=use_cache, need_model=need_model)
    result.diagnostics[:0] = diags
    return result


def build_game(game: str, use_cache: bool = True, need_model: bool = False) -> BuildResult:
    """Build a bundled game by name."""
    sources, diags = read_sources(game_files(game))
    result = build_sources(sources, use_cache=use_cache, need_model=need_model)
    result.diagnostics[:0] = diags
    return result
