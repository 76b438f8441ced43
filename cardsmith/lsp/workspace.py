"""Documents, the games they belong to, and the builds of those games.

A file belongs to one game: a bundled game when it is one of the library's files; else the game
it adds to with `use GAME`, together with every file under its folder that adds to the same
game; else the game declared in its folder or a folder above (every `.csm` file under that
folder, as `cardsmith check FOLDER` reads it); else it is a game on its own. A library file a
designer's game already holds (opened by a jump to a definition) is read as part of that game.

A build parses (declaration by declaration for open documents, `parsing.py`) and checks every
file of the game as the editor has it; each game keeps its latest build and its last good one
(every file parsed without a syntax error) for hover and definitions while a file is broken.
`build` is called in the server's build thread; what it reads is a `Snapshot` taken before."""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..compiler import syntax as s
from ..compiler.cache import Cache
from ..compiler.check import check
from ..compiler.check_memo import MEMO, Memo
from ..compiler.checked import Checked
from ..compiler.diagnostics import Diagnostic
from ..compiler.library import library_root
from ..compiler.load import SOURCE_SUFFIX, bundled_games, game_files, no_gc, read_sources
from .index import Index, IndexBuilder
from .parsing import IncrementalParser

if TYPE_CHECKING:
    from ..compiler.card_text import TextBook

log = logging.getLogger("cardsmith.lsp")

USE = re.compile(r"^use ([^\n#]*)", re.MULTILINE)
GAME = re.compile(r"^game\s", re.MULTILINE)
SYNTAX = ("E001", "E002", "E003", "E004")  # a declaration that did not parse is missing from the model
MAX_FILES = 2000  # files read from one designer's folder at most
FOLDERS_UP = 6  # folders above a file searched for its game's declaration


def used_game(text: str) -> str | None:
    """The game a file adds to: its first unindented `use GAME` line."""
    found = USE.search(text)
    return found.group(1).strip() or None if found else None


@dataclass(frozen=True)
class GameKey:
    """Which game: `bundled` (the library's `name`), `use` (a designer's folder `root` adding
    to the bundled game `name`), `folder` (a designer's game under `root`) or `file` (one file)."""

    kind: str
    root: str
    name: str = ""

    def __str__(self) -> str:
        if self.kind == "bundled":
            return self.name
        return f"{self.name} + {self.root}" if self.kind == "use" else self.root


@dataclass
class Document:
    """An open document: the client's URI, its path and its text at a version."""

    uri: str
    path: str
    text: str
    version: int | None = None


@dataclass
class Snapshot:
    """What a build reads: every file's text in the game's order, which are open documents
    (and at which version), and problems met gathering them."""

    game: GameKey
    sources: dict[str, str]
    versions: dict[str, int | None]
    diagnostics: list[Diagnostic]


@dataclass
class Build:
    """One check of a game: the sources read, each file's syntax model, the checked model and
    every diagnostic, with how long it took."""

    number: int
    snapshot: Snapshot
    files: list[s.SourceFile]
    checked: Checked
    diagnostics: list[Diagnostic]
    seconds: dict[str, float]
    parsed: int  # declarations or whole files parsed (not remembered)
    _index: Index | None = None
    _book: TextBook | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def broken(self) -> bool:
        """A declaration did not parse (so the model lacks it)."""
        return any(d.code in SYNTAX and d.severity == "error" for d in self.diagnostics)

    def file(self, path: str) -> s.SourceFile | None:
        return next((f for f in self.files if f.path == path), None)

    def index(self, builder: IndexBuilder) -> Index:
        """Where each name is declared and used (built on first use)."""
        with self._lock:
            if self._index is None:
                started = time.perf_counter()
                with no_gc():
                    self._index = builder.build(self.checked, self.files)
                self.seconds["index"] = time.perf_counter() - started
            return self._index

    def book(self) -> TextBook:
        """The card-text writer of this build (templates read on first use)."""
        from ..compiler.card_text import TextBook, template_folders
        from ..compiler.vocabulary import vocabulary
        with self._lock:
            if self._book is None:
                self._book = TextBook(self.checked, vocabulary(self.checked),
                                      template_folders(self.checked, library_root()))
            return self._book


@dataclass
class Game:
    """A game the open documents belong to: its files, its builds and what was published."""

    key: GameKey
    paths: list[str]
    current: Build | None = None
    good: Build | None = None
    published: set[str] = field(default_factory=set)  # files whose last published diagnostics were not empty
    wanted: bool = False  # a build is due
    running: bool = False  # a build is under way

    def builds(self) -> list[Build]:
        """The latest build, then the last good one when it is another."""
        found = [b for b in (self.current, self.good) if b is not None]
        return found[:1] if len(found) == 2 and found[0] is found[1] else found


class Workspace:
    """Open documents and the games they belong to."""

    def __init__(self, cache: Cache | None) -> None:
        self.parser = IncrementalParser(cache)
        self.indexer = IndexBuilder()
        self.docs: dict[str, Document] = {}  # real path -> open document
        self.games: dict[GameKey, Game] = {}
        self._disk: dict[str, tuple[tuple[int, int], str | None, list[Diagnostic]]] = {}
        self._builds = 0
        self._library = os.path.realpath(library_root())
        self.roots: list[str] = []  # the editor's workspace folders
        self._memos: dict[GameKey, Memo] = {}  # each game's check memo, while another game is checked
        self._memo_of: GameKey | None = None  # the game whose memo the compiler's MEMO holds

    def _above(self, folder: Path) -> list[Path]:
        """A folder and those above it that are inside a workspace folder (at most FOLDERS_UP)."""
        found = [folder]
        for up in folder.parents[:FOLDERS_UP - 1]:
            if not any(str(up) == r or str(up).startswith(r.rstrip(os.sep) + os.sep) for r in self.roots):
                break
            found.append(up)
        return found

    # ---- documents ----

    def open(self, uri: str, path: str, text: str, version: int | None) -> Game:
        real = os.path.realpath(path)
        self.docs[real] = Document(uri, real, text, version)
        game = self.game_for(real)
        if real not in game.paths:
            game.paths = self._paths(game.key)
        return game

    def change(self, path: str, text: str, version: int | None) -> Game | None:
        doc = self.docs.get(os.path.realpath(path))
        if doc is None:
            return None
        doc.text, doc.version = text, version
        return self.game_of(doc.path)

    def close(self, path: str) -> Game | None:
        real = os.path.realpath(path)
        self.docs.pop(real, None)
        self.parser.forget(real)
        return self.game_of(real)

    def saved(self, path: str) -> Game | None:
        """A document was saved: the files of its game are looked for again."""
        game = self.game_of(os.path.realpath(path))
        if game is not None:
            game.paths = self._paths(game.key)
        return game

    def refresh(self, game: Game) -> None:
        """Look for a game's files again (a file joined or left it)."""
        game.paths = self._paths(game.key)

    def uri(self, path: str) -> str:
        """The URI to tell the client for a file: the open document's own, else a file URI."""
        doc = self.docs.get(path) or self.docs.get(os.path.realpath(path))
        return doc.uri if doc is not None else Path(path).absolute().as_uri()

    def text(self, path: str) -> str | None:
        """A file's text as the editor has it (an open document), else as it is on disk."""
        doc = self.docs.get(path)
        if doc is not None:
            return doc.text
        return self._read(path)[0]

    def _read(self, path: str) -> tuple[str | None, list[Diagnostic]]:
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = (-1, -1)
        known = self._disk.get(path)
        if known is not None and known[0] == stamp:
            return known[1], known[2]
        sources, diags = read_sources([Path(path)])
        text = sources.get(path)
        self._disk[path] = (stamp, text, diags)
        return text, diags

    # ---- games ----

    def game_of(self, path: str) -> Game | None:
        """The loaded game a file is read in, if any."""
        real = os.path.realpath(path)
        key = self.key_of(real)
        if key in self.games:
            return self.games[key]
        return next((g for g in self.games.values() if real in g.paths), None)

    def game_for(self, path: str) -> Game:
        """The game a file belongs to, loaded if it is not yet."""
        key = self.key_of(path)
        if key not in self.games:
            if key.kind == "bundled":  # a library file a designer's game already reads
                holder = next((g for g in self.games.values() if g.key.name == key.name and path in g.paths), None)
                if holder is not None:
                    return holder
            self.games[key] = Game(key, self._paths(key))
        return self.games[key]

    def open_games(self) -> list[Game]:
        """The games some open document belongs to."""
        found: dict[GameKey, Game] = {}
        for doc in self.docs.values():
            game = self.game_of(doc.path)
            if game is not None:
                found[game.key] = game
        return list(found.values())

    def drop_unused(self) -> list[Game]:
        """Forget the games no open document belongs to; returns them."""
        keep = {g.key for g in self.open_games()}
        gone = [g for k, g in self.games.items() if k not in keep]
        for game in gone:
            del self.games[game.key]
        return gone

    def key_of(self, path: str) -> GameKey:
        """Which game a file belongs to (see the module's doc)."""
        real = os.path.realpath(path)
        for name in bundled_games():
            if real.startswith(os.path.join(self._library, name) + os.sep):
                return GameKey("bundled", "", name)
        text = self.text(real) or ""
        used = used_game(text)
        folder = Path(real).parent
        if used is not None:
            return GameKey("use", str(self._designer_root(folder, used)), used)
        if GAME.search(text):
            return GameKey("folder", str(folder))
        for up in self._above(folder):
            try:
                declares = any(GAME.search(self.text(str(p)) or "") for p in sorted(up.glob(f"*{SOURCE_SUFFIX}"))[:50])
            except OSError:
                declares = False
            if declares:
                return GameKey("folder", str(up))
        return GameKey("file", real)

    def _designer_root(self, folder: Path, game: str) -> Path:
        """The topmost of a folder and those above it, each holding a file that adds to the game."""
        root = folder
        for up in self._above(folder)[1:]:
            try:
                adds = any(used_game(self.text(str(p)) or "") == game for p in sorted(up.glob(f"*{SOURCE_SUFFIX}"))[:50])
            except OSError:
                adds = False
            if not adds:
                break
            root = up
        return root

    def _paths(self, key: GameKey) -> list[str]:
        """A game's files in the order the compiler reads them: the library's first, then the
        designer's by path."""
        if key.kind == "bundled":
            library = [os.path.realpath(p) for p in game_files(key.name)]
            opened = sorted(p for p in self.docs if p not in library and self.key_of(p) == key)
            return library + opened
        if key.kind == "file":
            own = [key.root]
        else:
            own = self._folder_files(key)
        games = dict.fromkeys(g for g in (used_game(self.text(p) or "") for p in own) if g in bundled_games())
        library = [os.path.realpath(p) for g in games for p in game_files(g)]
        return library + sorted((p for p in own if p not in library), key=lambda p: Path(p).parts)

    def _folder_files(self, key: GameKey) -> list[str]:
        found: list[str] = []
        for p in Path(key.root).rglob(f"*{SOURCE_SUFFIX}"):
            if len(found) >= MAX_FILES:
                log.warning("%s: more than %d source files; the rest are left out", key.root, MAX_FILES)
                break
            found.append(os.path.realpath(p))
        found += [p for p in self.docs if p.startswith(key.root + os.sep) and p not in found]
        if key.kind == "use":  # the files that add to the same game
            found = [p for p in found if used_game(self.text(p) or "") == key.name or p in self.docs
                     and self.key_of(p) == key]
        return found

    # ---- builds ----

    def snapshot(self, game: Game) -> Snapshot:
        """The texts a build of the game reads (taken in the server's thread)."""
        sources: dict[str, str] = {}
        versions: dict[str, int | None] = {}
        diags: list[Diagnostic] = []
        for path in game.paths:
            doc = self.docs.get(path)
            if doc is not None:
                sources[path], versions[path] = doc.text, doc.version
                continue
            text, problems = self._read(path)
            diags += problems
            if text is not None:
                sources[path] = text
        for path, text in sources.items():
            used = used_game(text)
            if used is not None and used not in bundled_games():
                line = next((i for i, ln in enumerate(text.split("\n"), 1) if ln.startswith("use")), 1)
                diags.append(Diagnostic("E107", f"unknown game {used!r}", s.Span(path, line, 5, line, 5 + len(used)),
                                        hint="bundled games: " + ", ".join(bundled_games())))
        return Snapshot(game.key, sources, versions, diags)

    def _use_memo(self, key: GameKey) -> None:
        """Put the game's own check memo in the compiler's (which remembers one game): with
        two games open, checking one does not make the other's next check start afresh."""
        if self._memo_of == key:
            return
        if self._memo_of is not None:
            self._memos[self._memo_of] = MEMO.copy()
        MEMO.load(self._memos.pop(key, Memo()))
        self._memo_of = key

    def forget_memo(self, key: GameKey) -> None:
        """Drop a game's check memo (the game is no longer open; in the build thread)."""
        self._memos.pop(key, None)
        if self._memo_of == key:
            MEMO.load(Memo())
            self._memo_of = None

    def build(self, snap: Snapshot) -> Build:
        """Parse and check a snapshot (in the build thread)."""
        started = time.perf_counter()
        files: list[s.SourceFile] = []
        diags = list(snap.diagnostics)
        parsed = 0
        for path, text in snap.sources.items():
            syntax, found = self.parser.parse(path, text, by_declaration=path in snap.versions)
            parsed += max(self.parser.parsed_declarations, 0)
            files.append(syntax)
            diags.extend(found)
        parsing = time.perf_counter()
        self._use_memo(snap.game)
        with no_gc():
            checked, found = check(files)
        diags.extend(found)
        checking = time.perf_counter()
        self._builds += 1
        return Build(self._builds, snap, files, checked, diags,
                     {"parse": parsing - started, "check": checking - parsing}, parsed)
