"""The compiler's diagnostics as LSP diagnostics.

Each keeps its code, its severity (W202's unused declaration is also tagged unnecessary, which
editors fade) and `source: "cardsmith"`; the hint and the suggestion follow the message on lines
of their own. There is no web page to link a code to, so its long explanation
(`cardsmith explain CODE`) travels with it: in `data.explanation`, and as the `codeDescription`
link and a related information: a Markdown file written once into the user's private cache
folder (`explain/CODE.md`), which an editor opens beside the source. A hint
that says where a first declaration is (E102) becomes related information at that place."""

from __future__ import annotations

import logging
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types as lsp

from ..compiler.cache import cache_root, open_cache
from ..compiler.diagnostics import Diagnostic, explain
from ..compiler.span import Span
from .positions import TextLines

log = logging.getLogger("cardsmith.lsp")

SOURCE = "cardsmith"
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "info": lsp.DiagnosticSeverity.Information}
UNNECESSARY = frozenset({"W202"})
_AT = re.compile(r"\bat (\S+?):(\d+):(\d+)")


class Explanations:
    """The long explanation of each code, and the file URI it is written to (None when the
    cache folder cannot be used)."""

    def __init__(self, folder: Path | None = None) -> None:
        if folder is None and open_cache() is not None:  # a folder checked to be private
            folder = cache_root() / "explain"
        self.folder = folder
        self._uris: dict[str, str | None] = {}

    def text(self, code: str) -> str | None:
        return explain(code)

    def uri(self, code: str) -> str | None:
        if code not in self._uris:
            self._uris[code] = self._write(code)
        return self._uris[code]

    def _write(self, code: str) -> str | None:
        text = explain(code)
        if text is None or self.folder is None:
            return None
        title, _, body = text.partition("\n\n")
        page = f"# {title}\n\n{body}\n\n(`cardsmith explain {code}` prints this.)\n"
        path = self.folder / f"{code}.md"
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not path.is_file() or path.read_text("utf-8") != page:
                fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{code}-")
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(page)
                os.replace(tmp, path)
        except OSError as err:
            log.warning("cannot write the explanation of %s: %s", code, err)
            return None
        return path.as_uri()


def convert(d: Diagnostic, lines: TextLines, explanations: Explanations,
            locate: Callable[[Span], lsp.Location | None]) -> lsp.Diagnostic:
    """One diagnostic for the client; `locate` turns another place a hint names into a location."""
    message = d.message
    if d.suggestion and (" " in d.suggestion or len(d.suggestion) > 40):
        message += f"\nsuggestion: {d.suggestion}"
    elif d.suggestion:
        message += f"\ndid you mean `{d.suggestion}`?"
    if d.hint:
        message += f"\nhint: {d.hint}"
    here = lines.range(d.span)
    related: list[lsp.DiagnosticRelatedInformation] = []
    for file, line, col in _AT.findall(d.hint or ""):
        where = locate(Span(file, int(line), int(col), int(line), int(col)))
        if where is not None:
            related.append(lsp.DiagnosticRelatedInformation(where, "the first one is here"))
    explanation = explanations.text(d.code)
    uri = explanations.uri(d.code)
    data: dict[str, str] = {"explanation": explanation} if explanation else {}
    data |= {k: v for k, v in (("hint", d.hint), ("suggestion", d.suggestion)) if v}
    if explanation and uri is not None:
        related.append(lsp.DiagnosticRelatedInformation(lsp.Location(uri, lsp.Range(lsp.Position(0, 0),
                                                                                      lsp.Position(0, 0))),
                                                        explanation.replace("\n\n", " — ", 1)))
    return lsp.Diagnostic(
        range=here, message=message, severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Hint),
        code=d.code, code_description=lsp.CodeDescription(href=uri) if uri is not None else None,
        source=SOURCE, tags=[lsp.DiagnosticTag.Unnecessary] if d.code in UNNECESSARY else None,
        related_information=related or None, data=data or None)
