"""The pygls server: LSP messages in, answers out; what it answers comes from the modules beside it.

Every build, and every request that reads a build, runs on one worker thread (the compiler's
check memo is not thread-safe), so requests are answered in turn with builds. A change starts
its game's build after a pause in typing (`debounce`); a request about a file whose latest
text has not been built yet builds it first, so an answer never speaks of an older text. The
diagnostics of a build are published for the game's files that are open or that have (or
had) diagnostics, and for a card-text template beside them that a diagnostic is located in,
except the bundled library's files nobody opened."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..compiler.cache import Cache
from ..compiler.diagnostics import Diagnostic
from ..compiler.fmt import FormatError
from ..compiler.library import library_root
from ..compiler.span import Span
from .completion import Completer
from .diagnostics import Explanations, convert
from .formatting import format_edits
from .hover import Describer
from .index import Index, Occurrence
from .positions import TextLines
from .symbols import document_symbols, workspace_symbols
from .workspace import Build, Game, GameKey, Workspace

log = logging.getLogger("cardsmith.lsp")
T = TypeVar("T")
DEBOUNCE = 0.25  # seconds without a change before a build starts
MAX_WAIT_BUILDS = 4  # builds a request waits for at most (the text may change meanwhile)


class RequestFailed(JsonRpcException):
    """A request that was understood but cannot be answered (LSP's RequestFailed)."""

    CODE = -32803


class _Expected(logging.Filter):
    """Keeps out of the log the traceback pygls writes for a RequestFailed (the client is told)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], RequestFailed))


def uri_path(uri: str) -> str | None:
    """The file a `file:` URI names (None for another scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if os.name == "nt" and path.startswith("/") and path[2:3] == ":":
        path = path[1:]
    return os.path.realpath(path)


class CardsmithServer(LanguageServer):
    """The language server; see the module's doc."""

    def __init__(self, cache: Cache | None, debounce: float = DEBOUNCE) -> None:
        super().__init__("cardsmith", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.ws = Workspace(cache)
        self.explanations = Explanations()
        self.debounce = debounce
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardsmith-build")
        self.timers: dict[GameKey, asyncio.TimerHandle] = {}
        self.tasks: dict[GameKey, asyncio.Task[None]] = {}

    # ---- positions ----

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the client ("utf-16", "utf-8" or "utf-32")."""
        agreed = self.workspace.position_encoding
        return str(getattr(agreed, "value", agreed) or "utf-16")

    def lines(self, path: str, build: Build | None = None) -> TextLines:
        """A file's lines: as the build read it, else as the editor has it."""
        text = build.snapshot.sources.get(path) if build is not None else None
        if text is None:
            text = self.ws.text(path) or ""
        return TextLines(text, self.encoding)

    def locate(self, span: Span, build: Build | None = None) -> lsp.Location | None:
        if not span.file or span.line < 1 or not os.path.isabs(span.file):
            return None
        return lsp.Location(self.ws.uri(span.file), self.lines(span.file, build).range(span))

    # ---- builds ----

    async def on_worker(self, fn: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    def schedule(self, game: Game, delay: float) -> None:
        """Build a game after a pause (a pending build of it starts the pause again)."""
        old = self.timers.pop(game.key, None)
        if old is not None:
            old.cancel()
        self.timers[game.key] = asyncio.get_running_loop().call_later(delay, self.start, game.key)

    def start(self, key: GameKey) -> asyncio.Task[None] | None:
        """Start a build of a game now, or after the one under way."""
        self.timers.pop(key, None)
        game = self.ws.games.get(key)
        if game is None:
            return None
        if game.running:
            game.wanted = True
            return self.tasks.get(key)
        game.running, game.wanted = True, False
        task = asyncio.get_running_loop().create_task(self._build(game))
        self.tasks[key] = task
        return task

    async def _build(self, game: Game) -> None:
        snap = self.ws.snapshot(game)
        try:
            build = await self.on_worker(self.ws.build, snap)
        except Exception:  # noqa: BLE001 - a compiler bug is logged; the server goes on
            log.exception("building %s failed", game.key)
            build = None
        finally:
            game.running = False
        if build is not None and self.ws.games.get(game.key) is game:
            game.current = build
            if not build.broken:
                game.good = build
            log.info("built %s #%d in %.0f ms (parse %.0f ms, %d declarations; check %.0f ms)", game.key,
                     build.number, 1000 * (build.seconds["parse"] + build.seconds["check"]),
                     1000 * build.seconds["parse"], build.parsed, 1000 * build.seconds["check"])
            self.publish(game, build)
        if game.wanted:
            self.start(game.key)

    def stale(self, game: Game) -> bool:
        """Some open document of the game is not in its latest build as the editor has it."""
        if game.current is None:
            return True
        built = game.current.snapshot
        return any(built.versions.get(p, -1) != doc.version or built.sources.get(p) != doc.text
                   for p, doc in self.ws.docs.items() if p in game.paths)

    async def ready(self, path: str) -> Game | None:
        """The game of a file, built from its latest text (None: the file is not a source the
        server knows or can read)."""
        game = self.ws.game_of(path)
        if game is None:
            if path not in self.ws.docs and (not path.endswith(".csm") or self.ws.text(path) is None):
                return None
            game = self.ws.game_for(path)
        return await self.built(game)

    async def built(self, game: Game) -> Game | None:
        """A game once its latest text is built (None: no build of it succeeded)."""
        for _ in range(MAX_WAIT_BUILDS):
            if not game.running and not self.stale(game):
                break
            task = self.tasks.get(game.key) if game.running else self.start(game.key)
            if task is not None:
                await asyncio.shield(task)
        return game if game.current is not None else None

    def publish(self, game: Game, build: Build) -> None:
        """Each file's diagnostics: the game's sources, and other files a diagnostic is located
        in (a card-text template beside the sources); a file whose diagnostics went is cleared."""
        by_file: dict[str, list[lsp.Diagnostic]] = {}
        library = os.path.realpath(library_root()) + os.sep
        for d in self._unique(build.diagnostics):
            path = d.span.file
            if path in build.snapshot.sources or os.path.isabs(path) and os.path.isfile(path):
                lines = self.lines(path, build)
                by_file.setdefault(path, []).append(
                    convert(d, lines, self.explanations, lambda sp: self.locate(sp, build)))
        others = [p for p in {*by_file, *game.published} if p not in build.snapshot.sources]
        for path in [*build.snapshot.sources, *sorted(others)]:
            shown = by_file.get(path, [])
            opened = path in self.ws.docs
            if not opened and path.startswith(library) or not (opened or shown or path in game.published):
                continue
            version = build.snapshot.versions.get(path)
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(self.ws.uri(path), shown, version=version))
            if shown:
                game.published.add(path)
            else:
                game.published.discard(path)

    @staticmethod
    def _unique(diags: list[Diagnostic]) -> list[Diagnostic]:
        seen: set[tuple[str, str, Span]] = set()
        kept = []
        for d in diags:
            key = (d.code, d.message, d.span)
            if key not in seen:
                seen.add(key)
                kept.append(d)
        return kept

    def clear(self, path: str) -> None:
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(self.ws.uri(path), []))

    # ---- what requests read ----

    def occurrence(self, game: Game, path: str, position: lsp.Position) -> tuple[Build, Index, Occurrence] | None:
        """The name at a position, in the latest build that has one there (the last good
        build when the latest lacks a declaration that does not parse)."""
        for build in game.builds():
            index = build.index(self.ws.indexer)
            line, col = self.lines(path, build).line_col(position)
            occ = index.at(path, line, col)
            if occ is not None:
                return build, index, occ
        return None


def timed(name: str, started: float) -> None:
    log.debug("%s answered in %.1f ms", name, 1000 * (time.perf_counter() - started))


def create_server(cache: Cache | None, debounce: float = DEBOUNCE) -> CardsmithServer:
    """The server with its handlers."""
    server = CardsmithServer(cache, debounce)
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_Expected())

    def path_of(uri: str) -> str:
        found = uri_path(uri)
        if found is None:  # an unsaved buffer: a file of its own
            return os.path.realpath(os.path.join(os.getcwd(), ".unsaved", Path(urlparse(uri).path).name or "untitled"))
        return found

    # ---- documents ----

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: CardsmithServer, params: lsp.InitializedParams) -> None:
        roots = [uri_path(folder.uri) for folder in ls.workspace.folders.values()]
        if ls.workspace.root_uri:
            roots.append(uri_path(ls.workspace.root_uri))
        ls.ws.roots = sorted({r for r in roots if r is not None})

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CardsmithServer, params: lsp.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        game = ls.ws.open(doc.uri, path_of(doc.uri), doc.text, doc.version)
        ls.schedule(game, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CardsmithServer, params: lsp.DidChangeTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        text = ls.workspace.get_text_document(params.text_document.uri).source
        before = ls.ws.game_of(path)
        game = ls.ws.change(path, text, params.text_document.version)
        if game is None:
            return
        if ls.ws.key_of(path) != game.key:  # its `use` line now names another game
            game = ls.ws.open(params.text_document.uri, path, text, params.text_document.version)
            if before is not None and before is not game:
                ls.ws.refresh(before)
                ls.schedule(before, ls.debounce)
        ls.schedule(game, ls.debounce)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CardsmithServer, params: lsp.DidSaveTextDocumentParams) -> None:
        game = ls.ws.saved(path_of(params.text_document.uri))
        if game is not None:
            ls.schedule(game, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CardsmithServer, params: lsp.DidCloseTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        uri = ls.ws.uri(path)
        game = ls.ws.close(path)
        for gone in ls.ws.drop_unused():
            timer = ls.timers.pop(gone.key, None)
            if timer is not None:
                timer.cancel()
            ls.worker.submit(ls.ws.forget_memo, gone.key)
            for published in gone.published - {path}:
                ls.clear(published)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))
        if game is not None and game.key in ls.ws.games:
            ls.schedule(game, ls.debounce)

    # ---- requests ----

    async def answer(name: str, uri: str, fn: Callable[[Game, str], T]) -> T | None:
        """Run a request's work on the worker once the file's game is built; a failure is
        logged and told as RequestFailed, never as a traceback."""
        started = time.perf_counter()
        path = path_of(uri)
        game = await server.ready(path)
        if game is None:
            return None
        try:
            return await server.on_worker(fn, game, path)
        except JsonRpcException:
            raise
        except Exception as err:  # noqa: BLE001
            log.exception("%s failed", name)
            raise RequestFailed(f"cardsmith: {name} failed: {type(err).__name__}: {err}") from None
        finally:
            timed(name, started)

    async def answer_at(name: str, document: lsp.TextDocumentIdentifier, position: lsp.Position,
                        fn: Callable[[Build, Index, Occurrence], T | None]) -> T | None:
        """`answer` for a request about the name at a position: no answer where there is none."""
        def work(game: Game, path: str) -> T | None:
            found = server.occurrence(game, path, position)
            return fn(*found) if found is not None else None
        return await answer(name, document.uri, work)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: CardsmithServer, params: lsp.HoverParams) -> lsp.Hover | None:
        def work(build: Build, index: Index, occ: Occurrence) -> lsp.Hover | None:
            text = Describer(build, index).hover(occ.symbol, occ)
            if text is None:
                return None
            here = ls.lines(occ.span.file, build).range(occ.span)
            return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text), here)
        return await answer_at("hover", params.text_document, params.position, work)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: CardsmithServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        def work(build: Build, index: Index, occ: Occurrence) -> list[lsp.Location] | None:
            decl = index.definition(occ)
            where = ls.locate(decl.span, build) if decl is not None else None
            return [where] if where is not None else None
        return await answer_at("definition", params.text_document, params.position, work)

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: CardsmithServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        def work(build: Build, index: Index, occ: Occurrence) -> list[lsp.Location] | None:
            symbol = occ.symbol
            if symbol.kind == "local":
                decl = index.definition(occ)
                symbol = decl.symbol if decl is not None else symbol
            keep = params.context.include_declaration
            places = [ls.locate(o.span, build) for o in index.occurrences(symbol) if keep or not o.declaration]
            unique = {(p.uri, p.range.start.line, p.range.start.character): p for p in places if p is not None}
            return list(unique.values())
        return await answer_at("references", params.text_document, params.position, work)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=["."], resolve_provider=False))
    async def completion(ls: CardsmithServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        def work(game: Game, path: str) -> lsp.CompletionList | None:
            build = game.builds()[-1]  # the last good build: the names of every declaration
            describer = Describer(build, build.index(ls.ws.indexer))
            lines = TextLines(ls.ws.text(path) or "", ls.encoding)
            return lsp.CompletionList(is_incomplete=False,
                                      items=Completer(describer).items(lines, params.position, path))
        return await answer("completion", params.text_document.uri, work)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(ls: CardsmithServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        def work(game: Game, path: str) -> list[lsp.DocumentSymbol] | None:
            assert game.current is not None
            syntax = game.current.file(path)
            if syntax is None:
                return None
            return document_symbols(syntax.items, ls.lines(path, game.current))
        return await answer("document symbols", params.text_document.uri, work)

    @server.feature(lsp.WORKSPACE_SYMBOL)
    async def workspace_symbol(ls: CardsmithServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.WorkspaceSymbol]:
        found: list[lsp.WorkspaceSymbol] = []
        for game in ls.ws.open_games():
            ready = await ls.built(game)
            build = ready.builds()[-1] if ready is not None else None
            if build is not None:
                index = await ls.on_worker(build.index, ls.ws.indexer)
                found += workspace_symbols(index, params.query, partial(ls.locate, build=build), str(game.key))
        return found

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: CardsmithServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        path = path_of(params.text_document.uri)
        text = ls.ws.docs[path].text if path in ls.ws.docs else None
        if text is None:
            return None
        try:
            return format_edits(text, path, ls.encoding)
        except FormatError as err:
            first = err.diagnostics[0] if err.diagnostics else None
            where = f" (line {first.span.line}: {first.message})" if first is not None else ""
            raise RequestFailed(f"cardsmith: cannot format {Path(path).name}: {err}{where}") from None
        except Exception as err:  # noqa: BLE001 - a formatter bug is told, never a traceback
            log.exception("formatting failed")
            raise RequestFailed(f"cardsmith: formatting failed: {type(err).__name__}: {err}") from None

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: CardsmithServer, *args: object) -> None:
        for timer in ls.timers.values():
            timer.cancel()
        ls.timers.clear()
        ls.worker.shutdown(wait=False, cancel_futures=True)

    return server
