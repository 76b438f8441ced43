"""The language server driven as an editor drives it: `cardsmith lsp` in a subprocess, spoken to
in JSON-RPC over its stdin and stdout by the small client below, on a designer's file that adds
to the bundled sakura game (one session for the module: the first check of the game is the
slow part). Positions are LSP positions: UTF-16 code units, so a character outside the Basic
Multilingual Plane counts two."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardsmith.compiler.builtins import BUILTINS
from cardsmith.compiler.fmt import format_text
from cardsmith.compiler.library import library_root
from tests.helpers import DISAGREEING_CARD

TIMEOUT = 180.0  # seconds: the first check of the sakura game parses it from scratch

MY_CARDS = """\
use sakura

# 🌸 a designer's cards
card my_slash "斩击" en "My Slash":
    goddess yurina
    number "X-01"
    type atack
    range 3-4
    damage 3/1

card my_choice "选择" en "My Choice":
    goddess yurina
    number "X-02"
    type attack
    range 2
    damage 1/1
    after_attack:
        choose for self "选择" en "Choose":
            option "🌸𠀀 加一" if resolve:
                my_bonus(self)
            option "不" en "No":
                pass

procedure my_bonus(p) "加成" en "Bonus":
    gain_vigor(p, 1)
"""
BROKEN = "card oops \"x\":\n    type (((\n"


class Client:
    """A minimal LSP client: requests and notifications out, responses and notifications in
    (read by a thread)."""

    def __init__(self, cwd: Path, log: Path) -> None:
        self._log = log.open("wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "cardsmith", "lsp", "--stdio", "--verbose"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                     cwd=cwd, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
        self._next = 0
        self._responses: dict[int, dict[str, Any]] = {}
        self.notifications: list[dict[str, Any]] = []
        self._ready = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        while True:
            length = 0
            while True:
                header = self.proc.stdout.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(self.proc.stdout.read(length).decode("utf-8"))
            with self._ready:
                if "id" in message and "method" not in message:
                    self._responses[message["id"]] = message
                elif "id" not in message:
                    self.notifications.append(message)
                self._ready.notify_all()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self.send({"method": method, "params": params or {}})

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request and wait for its whole response (`result` or `error`)."""
        self._next += 1
        number = self._next
        self.send({"id": number, "method": method, "params": params or {}})
        with self._ready:
            if not self._ready.wait_for(lambda: number in self._responses, TIMEOUT):
                raise TimeoutError(method)
            return self._responses.pop(number)

    def result(self, method: str, params: dict[str, Any]) -> Any:
        response = self.call(method, params)
        assert "error" not in response, response
        return response["result"]

    def diagnostics(self, uri: str, version: int | None = None) -> list[dict[str, Any]]:
        """The first diagnostics published for a document (at a version) not taken yet."""
        def found() -> dict[str, Any] | None:
            return next((n for n in self.notifications if n["method"] == "textDocument/publishDiagnostics"
                         and n["params"]["uri"] == uri
                         and (version is None or n["params"].get("version") == version)), None)
        with self._ready:
            if not self._ready.wait_for(lambda: found() is not None, TIMEOUT):
                raise TimeoutError(f"diagnostics of {uri}")
            message = found()
            assert message is not None
            self.notifications.remove(message)
            return list(message["params"]["diagnostics"])

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(30)
        self._log.close()
        return code


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("lsp")
    (root / "design").mkdir()
    (root / "loose").mkdir()
    mine = root / "design" / "my_cards.csm"
    mine.write_text(MY_CARDS, "utf-8")
    broken = root / "loose" / "broken.csm"
    broken.write_text(BROKEN, "utf-8")
    client = Client(root, root / "server.log")
    init = client.result("initialize", {
        "processId": os.getpid(), "rootUri": root.as_uri(),
        "capabilities": {"general": {"positionEncodings": ["utf-16"]},
                         "textDocument": {"hover": {"contentFormat": ["markdown"]},
                                          "documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}}})
    client.notify("initialized")
    client.notify("textDocument/didOpen", {"textDocument": {"uri": mine.as_uri(), "languageId": "cardsmith",
                                                           "version": 1, "text": MY_CARDS}})
    state = {"client": client, "init": init, "uri": mine.as_uri(), "broken": broken.as_uri(), "root": root,
             "opened": client.diagnostics(mine.as_uri(), 1)}
    yield state
    response = client.call("shutdown")
    client.notify("exit")
    assert response["result"] is None
    assert client.close() == 0


def at(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


def span(line: int, start: int, end: int, end_line: int | None = None) -> dict[str, Any]:
    return {"start": at(line, start), "end": at(line if end_line is None else end_line, end)}


def library_line(file: str, pattern: str) -> int:
    """The 0-based line of a library file that matches a pattern."""
    lines = (library_root() / file).read_text("utf-8").split("\n")
    return next(i for i, line in enumerate(lines) if re.match(pattern, line))


def test_initialize_says_what_the_server_offers(session: dict[str, Any]) -> None:
    caps = session["init"]["capabilities"]
    assert session["init"]["serverInfo"]["name"] == "cardsmith"
    assert caps["positionEncoding"] == "utf-16"
    assert caps["textDocumentSync"]["change"] == 2  # incremental
    for provider in ("hoverProvider", "definitionProvider", "referencesProvider", "documentSymbolProvider",
                     "workspaceSymbolProvider", "documentFormattingProvider"):
        assert caps[provider], provider
    assert caps["completionProvider"]["triggerCharacters"] == ["."]


def test_the_broken_card_is_diagnosed_with_its_code(session: dict[str, Any]) -> None:
    (diag,) = session["opened"]
    assert diag["range"] == span(6, 4, 14)
    assert diag["code"] == "E104"
    assert diag["severity"] == 1
    assert diag["source"] == "cardsmith"
    assert diag["message"] == "type must be one of attack, action, enhance, variable\ndid you mean `attack`?"
    assert diag["data"]["explanation"].startswith("E104")


def test_hover_on_a_name_after_characters_outside_the_bmp(session: dict[str, Any]) -> None:
    # `            option "🌸𠀀 加一" if resolve:`: `resolve` is character 30, UTF-16 unit 32
    hover = session["client"].result("textDocument/hover", {"textDocument": {"uri": session["uri"]},
                                                            "position": at(18, 35)})
    assert hover["range"] == span(18, 32, 39)
    assert hover["contents"]["kind"] == "markdown"
    assert hover["contents"]["value"].startswith("**keyword** `resolve` — 决死 · ja 決死 · en Resolve\n\n"
                                                 "```\nkeyword resolve ")


def test_hover_on_a_card_shows_its_definition_and_text(session: dict[str, Any]) -> None:
    hover = session["client"].result("textDocument/hover", {"textDocument": {"uri": session["uri"]},
                                                            "position": at(10, 7)})
    text = hover["contents"]["value"]
    assert hover["range"] == span(10, 5, 14)
    assert text.startswith("**card** `my_choice` — 选择 · en My Choice\n\n"
                           "goddess yurina · number X-02 · type attack · range 2 · damage 1 1")
    assert "fills: `after_attack` (攻击后)" in text
    assert "generated text:\n\n- **zh** 【攻击后】" in text


def test_definition_jumps_into_the_library(session: dict[str, Any]) -> None:
    found = session["client"].result("textDocument/definition", {"textDocument": {"uri": session["uri"]},
                                                                 "position": at(18, 33)})
    core = library_root() / "sakura" / "core.csm"
    line = library_line("sakura/core.csm", r"keyword resolve ")
    assert found == [{"uri": core.resolve().as_uri(), "range": span(line, 8, 15)}]


def test_definition_and_references_of_a_designers_procedure(session: dict[str, Any]) -> None:
    client, uri = session["client"], session["uri"]
    found = client.result("textDocument/definition", {"textDocument": {"uri": uri}, "position": at(19, 18)})
    assert found == [{"uri": uri, "range": span(23, 10, 18)}]
    refs = client.result("textDocument/references", {"textDocument": {"uri": uri}, "position": at(23, 12),
                                                     "context": {"includeDeclaration": True}})
    assert sorted((r["uri"], r["range"]["start"]["line"], r["range"]["start"]["character"]) for r in refs) == \
        [(uri, 19, 16), (uri, 23, 10)]
    uses = client.result("textDocument/references", {"textDocument": {"uri": uri}, "position": at(23, 12),
                                                     "context": {"includeDeclaration": False}})
    assert uses == [{"uri": uri, "range": span(19, 16, 24)}]


def test_references_of_a_library_keyword_span_the_game(session: dict[str, Any]) -> None:
    refs = session["client"].result("textDocument/references", {
        "textDocument": {"uri": session["uri"]}, "position": at(18, 33), "context": {"includeDeclaration": True}})
    core = (library_root() / "sakura" / "core.csm").resolve().as_uri()
    places = {(r["uri"], r["range"]["start"]["line"], r["range"]["start"]["character"]) for r in refs}
    assert (session["uri"], 18, 32) in places
    assert (core, library_line("sakura/core.csm", r"keyword resolve "), 8) in places
    yurina = library_root() / "sakura" / "yurina.csm"
    assert sum(1 for p in places if p[0] == yurina.resolve().as_uri()) == \
        len(re.findall(r"\bresolve\b", _code(yurina)))


def _code(path: Path) -> str:
    """A file's text without its comments and strings (where a name is not a use)."""
    return "\n".join(re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("#", 1)[0])
                     for line in path.read_text("utf-8").split("\n"))


def test_completion_of_a_one_of_fields_values(session: dict[str, Any]) -> None:
    found = session["client"].result("textDocument/completion", {"textDocument": {"uri": session["uri"]},
                                                                 "position": at(13, 9)})
    assert [(i["label"], i["kind"]) for i in found["items"]] == \
        [("attack", 20), ("action", 20), ("enhance", 20), ("variable", 20)]
    assert found["items"][0]["detail"] == "value of type"


def test_completion_in_a_card_offers_fields_and_the_games_timings(session: dict[str, Any]) -> None:
    found = session["client"].result("textDocument/completion", {"textDocument": {"uri": session["uri"]},
                                                                 "position": at(16, 4)})
    timings = {i["label"]: i for i in found["items"] if i["kind"] == 23}  # Event
    declared = {m for f in (library_root() / "sakura").rglob("*.csm")
                for m in re.findall(r"^\s*timing\s+(\w+)", f.read_text("utf-8"), re.MULTILINE)}
    assert set(timings) == declared
    assert timings["after_attack"]["insertText"] == "after_attack:"
    assert timings["after_attack"]["detail"] == "timing · 攻击后 · ja 攻撃後 · en After Attack"
    fields = {i["label"] for i in found["items"] if i["kind"] == 5}  # Field
    assert {"goddess", "type", "range", "damage"} <= fields


def test_completion_in_an_expression_offers_builtins_with_signatures(session: dict[str, Any]) -> None:
    found = session["client"].result("textDocument/completion", {"textDocument": {"uri": session["uri"]},
                                                                 "position": at(24, 4)})
    items = {(i["label"], i["kind"]): i for i in found["items"]}
    assert items[("count", 3)]["detail"] == BUILTINS["count"].signature
    assert items[("p", 6)]["detail"] == "local"  # the procedure's parameter
    assert items[("my_bonus", 3)]["detail"] == "procedure · 加成 · en Bonus"
    assert ("while", 14) in items


def test_document_symbols_outline_the_file(session: dict[str, Any]) -> None:
    found = session["client"].result("textDocument/documentSymbol", {"textDocument": {"uri": session["uri"]}})
    outline = [(s["name"], s["kind"], s["selectionRange"], [c["name"] for c in s.get("children") or []])
               for s in found]
    assert outline == [("my_slash", 5, span(3, 5, 13), []),
                       ("my_choice", 5, span(10, 5, 14), ["after_attack"]),
                       ("my_bonus", 12, span(23, 10, 18), [])]


def test_workspace_symbols_find_declarations_of_the_game(session: dict[str, Any]) -> None:
    found = session["client"].result("workspace/symbol", {"query": "my_bonus"})
    mine = [s for s in found if s["name"] == "my_bonus"]
    assert mine == [{"name": "my_bonus", "kind": 12, "containerName": "sakura + " + str(
        (session["root"] / "design").resolve()) + " (procedure)",
        "location": {"uri": session["uri"], "range": span(23, 10, 18)}}]
    core = [s for s in session["client"].result("workspace/symbol", {"query": "after_attack"})
            if s["name"] == "after_attack"]
    line = library_line("sakura/core.csm", r"timing after_attack\b")
    assert [s["location"]["range"] for s in core] == [span(line, 7, 19)]


def test_formatting_gives_the_canonical_layout_in_one_edit(session: dict[str, Any]) -> None:
    client = session["client"]
    messy = MY_CARDS.removeprefix("use sakura\n\n").replace("    range 3-4", "    range   3-4  ") \
        .replace("gain_vigor(p, 1)", "gain_vigor( p,1 )")
    uri = (session["root"] / "loose" / "messy.csm").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cardsmith",
                                                           "version": 1, "text": messy}})
    edits = client.result("textDocument/formatting", {"textDocument": {"uri": uri},
                                                      "options": {"tabSize": 4, "insertSpaces": True}})
    # the lines from the first to the last that change (5 and 22), and no others
    assert [e["range"] for e in edits] == [span(5, 0, 0, end_line=23)]
    assert apply(messy, edits) == format_text(messy, "messy.csm") == MY_CARDS.removeprefix("use sakura\n\n")
    assert client.result("textDocument/formatting", {
        "textDocument": {"uri": session["uri"]}, "options": {"tabSize": 4, "insertSpaces": True}}) == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def apply(text: str, edits: list[dict[str, Any]]) -> str:
    """Text edits applied (ASCII or BMP text: one UTF-16 unit a character)."""
    lines = text.split("\n")

    def offset(pos: dict[str, int]) -> int:
        return sum(len(line) + 1 for line in lines[:pos["line"]]) + pos["character"]
    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[:offset(edit["range"]["start"])] + edit["newText"] + text[offset(edit["range"]["end"]):]
    return text


def test_a_malformed_document_is_diagnosed_and_not_formatted(session: dict[str, Any]) -> None:
    client, uri = session["client"], session["broken"]
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cardsmith",
                                                           "version": 1, "text": BROKEN}})
    codes = [(d["code"], d["range"]["start"]["line"]) for d in client.diagnostics(uri, 1)]
    assert codes[0][0].startswith("E00")
    response = client.call("textDocument/formatting", {"textDocument": {"uri": uri},
                                                       "options": {"tabSize": 4, "insertSpaces": True}})
    assert response["error"]["code"] == -32803
    assert response["error"]["message"].startswith("cardsmith: cannot format broken.csm:")
    assert client.result("textDocument/hover", {"textDocument": {"uri": uri}, "position": at(1, 6)}) is None
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri) == []


def test_requests_about_an_unknown_file_answer_nothing(session: dict[str, Any]) -> None:
    uri = (session["root"] / "missing.csm").as_uri()
    client = session["client"]
    assert client.result("textDocument/hover", {"textDocument": {"uri": uri}, "position": at(0, 0)}) is None
    assert client.result("textDocument/definition", {"textDocument": {"uri": uri}, "position": at(0, 0)}) is None
    assert client.result("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) is None
    assert client.result("textDocument/formatting", {"textDocument": {"uri": uri},
                                                     "options": {"tabSize": 4, "insertSpaces": True}}) is None


def test_an_edit_is_checked_again_and_the_error_goes(session: dict[str, Any]) -> None:
    client, uri = session["client"], session["uri"]
    started = time.perf_counter()
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"range": span(6, 9, 14), "text": "attack"}]})
    assert client.diagnostics(uri, 2) == []
    assert time.perf_counter() - started < 30
    hover = client.result("textDocument/hover", {"textDocument": {"uri": uri}, "position": at(3, 6)})
    assert "type attack" in hover["contents"]["value"]


def test_a_broken_card_text_template_is_diagnosed_in_the_template(tmp_path: Path) -> None:
    """A designer's `text/zh.j2` that does not compile is reported on the template's own line
    (E117, met while phrasing the suggestion for a card whose text disagrees), not on the
    library's game line; once fixed, the next build clears it."""
    mine = tmp_path / "d.csm"
    mine.write_text(DISAGREEING_CARD, "utf-8")
    (tmp_path / "text").mkdir()
    template = tmp_path / "text" / "zh.j2"
    template.write_text("{# fine so far #}\n{% if %}\n", "utf-8")
    client = Client(tmp_path, tmp_path / "server.log")
    try:
        client.result("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized")
        client.notify("textDocument/didOpen", {"textDocument": {"uri": mine.as_uri(), "languageId": "cardsmith",
                                                               "version": 1, "text": DISAGREEING_CARD}})
        assert [d["code"] for d in client.diagnostics(mine.as_uri(), 1)] == ["W201"]
        (broken,) = client.diagnostics(template.as_uri())
        assert broken["code"] == "E117" and broken["range"]["start"] == at(1, 0), broken
        template.write_text("{# the library's phrasing, unchanged #}\n", "utf-8")
        client.notify("textDocument/didChange", {"textDocument": {"uri": mine.as_uri(), "version": 2},
                                                 "contentChanges": [{"text": DISAGREEING_CARD + "\n"}]})
        assert [d["code"] for d in client.diagnostics(mine.as_uri(), 2)] == ["W201"]
        assert client.diagnostics(template.as_uri()) == []
    finally:
        client.call("shutdown")
        client.notify("exit")
        assert client.close() == 0


def test_an_index_built_again_after_an_edit_is_the_index_built_afresh() -> None:
    """The index reuses what each unchanged name meant at the last build (the same node with the
    same resolution, replayed from the check memo): after a card edit it lists exactly the
    occurrences an index built from nothing lists."""
    from cardsmith.compiler import check_memo
    from cardsmith.compiler.load import game_files
    from cardsmith.lsp.index import Index, IndexBuilder
    from cardsmith.lsp.workspace import Workspace

    def listed(index: Index) -> set[tuple[object, ...]]:
        return {(o.span, o.symbol, o.declaration) for occs in index.uses.values() for o in occs}

    path = next(str(p) for p in game_files("eatpaint") if p.name == "cards_inks.csm")
    text = Path(path).read_text("utf-8")
    edited = text.replace("    pack ink_red\n", "    pack ink_red\n    # edited\n", 1)  # the cards below move
    assert edited != text
    ws = Workspace(None)
    game = ws.open(Path(path).as_uri(), path, text, 1)
    ws.build(ws.snapshot(game)).index(ws.indexer)
    ws.change(path, edited, 2)
    again = ws.build(ws.snapshot(game))
    check_memo.MEMO.load(check_memo.Memo())  # the fresh index reads a fresh check
    fresh = Workspace(None)
    fresh_game = fresh.open(Path(path).as_uri(), path, edited, 1)
    afresh = fresh.build(fresh.snapshot(fresh_game))
    assert not again.diagnostics
    assert listed(again.index(ws.indexer)) == listed(afresh.index(IndexBuilder()))
    assert {"local", "card", "zone", "procedure"} <= {symbol.kind for symbol in again.index(ws.indexer).uses}
