"""Diagnostics: located problems with codes, hints and suggestions, rendered for people or tools."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..runtime.display import printable
from .span import Span, source_lines

# code -> (title, long explanation). `cardsmith explain CODE` prints these.
CODES: dict[str, tuple[str, str]] = {
    "E001": ("syntax error", "The parser met a token it did not expect here. The caret shows where "
             "reading stopped; the hint lists what the grammar allows at that point. Each "
             "top-level declaration is parsed on its own, so one broken card does not hide "
             "problems in the others."),
    "E002": ("unexpected character", "A character that is not part of the language appeared "
             "outside a string. Full-width punctuation (：，（）＝) is a common cause: keywords and "
             "punctuation are ASCII, only names and strings may use other scripts."),
    "E003": ("bad indentation", "Blocks are delimited by indentation. A line is indented in a way "
             "that matches no enclosing block."),
    "E004": ("input too large or too deeply nested", "The source exceeds a safety limit (size "
             "or nesting depth). Split it into smaller declarations."),
    "E005": ("unreadable file", "The file could not be read or is not valid UTF-8."),
    "E101": ("unknown name", "A name is used that is not declared anywhere in the rule set, "
             "the addenda, the parameters or the local variables in scope."),
    "E102": ("duplicate declaration", "Two declarations of the same kind share a name. Names "
             "must be unique per kind within a game."),
    "E103": ("unknown option", "A declaration carries an option the language does not know for "
             "that kind of declaration."),
    "E104": ("bad option value", "An option or card property has a value of the wrong shape, "
             "for example a word where a number is needed."),
    "E105": ("unknown procedure step", "An addendum replaces a step that the procedure does not "
             "have. Steps are referred to by the identifier written after `step`."),
    "E106": ("wrong number of arguments", "A procedure, value, event or function is called with "
             "a different number of arguments than it declares."),
    "E107": ("unknown game", "`use NAME` names a game that is not in the library."),
    "E108": ("missing game", "Every file must belong to a game: declare one with `game`, or "
             "start the file with `use GAME` to add to a bundled game."),
    "E110": ("type mismatch", "A value of one type is used where another is required, for "
             "example a zone where a number is expected."),
    "E111": ("not assignable", "Only counters, flags, object fields and local variables can be "
             "assigned to."),
    "E112": ("misplaced break or return", "`return` with a value has no meaning in a `once` block, "
             "which runs on its own when its event happens. "
             "`break` leaves the innermost while, for, repeat or the menu "
             "loop; it has no meaning elsewhere."),
    "E113": ("unknown card property", "A card or scenario property is not a declared field and "
             "not one of the built-in properties."),
    "E114": ("unknown timing", "A card block is labelled with a timing that the game does not "
             "declare with `timing`."),
    "E115": ("missing card property", "A card lacks a property that its game requires."),
    "E116": ("replacement leaves a name undefined", "A step replacement runs instead of the step it "
             "replaces, so the names that step defines with `let` are only defined if the "
             "replacement defines them too. A later step of the procedure uses one that this "
             "replacement does not define."),
    "W201": ("card text disagrees with definition", "The card's text is read for the keywords (in "
             "every language and spelling the game declares), timing markers (【…】 or `Name:`), "
             "numbers (3/1, +1/+0, 3-4, 2) and quoted card names it mentions, and compared with the "
             "definition both ways: what the text names must be in the definition, and the "
             "definition's keywords, timings, two-sided values, changes, ranges, token counts and "
             "other cards must be in the text. The suggestion is the text generated from the "
             "definition. A game makes these errors with `text_check error` (or turns them off "
             "with `text_check off`)."),
    "E117": ("card-text template error", "A card-text template (text/LANG.j2 beside a game's "
             "sources, or the library's) could not be read or rendered, or lacks a macro the "
             "card text needs. It is reported on the template's line where it fails to compile or "
             "raises; where no template line is known (a macro given the wrong number of values), "
             "on the game's declaration."),
    "W202": ("unused declaration", "A declaration is never referred to."),
    "W203": ("variable changed later", "A `once` block assigns a variable of the block around it. "
             "The `once` block runs when its event happens, after the block around it has "
             "finished, so the change is seen only by other `once` blocks that read the variable."),
    "W204": ("bidirectional control character", "The source holds a Unicode character that "
             "changes the direction of text (U+202A-U+202E, U+2066-U+2069, …). Editors show the "
             "text reordered, so a line can read differently from how it runs (the \"Trojan "
             "Source\" attack). Remove it; write right-to-left text without control characters."),
}


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a source file."""

    code: str
    message: str
    span: Span
    hint: str | None = None
    suggestion: str | None = None
    severity: str = "error"

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code, "severity": self.severity, "message": self.message,
            "file": self.span.file, "line": self.span.line, "col": self.span.col,
            "end_line": self.span.end_line, "end_col": self.span.end_col,
            "hint": self.hint, "suggestion": self.suggestion,
        }


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt word, if any is close enough."""
    import difflib  # here: only a misspelling needs it (a clean check starts faster)
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return matches[0] if matches else None


def display_width(text: str) -> int:
    """Terminal columns taken by text: wide and full-width characters take two."""
    import unicodedata  # here: only a diagnostic shown with its source line needs it
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def render(diag: Diagnostic, lines: list[str] | None) -> str:
    """Render a diagnostic as `file:line:col: severity[CODE]: message`, source line, caret, hint.

    Everything taken from a source is passed through `printable`, so a source cannot send
    control sequences to the reader's terminal."""
    out = [printable(f"{diag.span}: {diag.severity}[{diag.code}]: {diag.message}")]
    if lines and 1 <= diag.span.line <= len(lines):
        line = lines[diag.span.line - 1]
        start = max(diag.span.col - 1, 0)
        if diag.span.end_line == diag.span.line and diag.span.end_col > diag.span.col:
            marked = line[start: diag.span.end_col - 1]
        else:
            marked = line[start: start + 1] or " "
        gutter = f"{diag.span.line:>5} | "
        out.append(gutter + _shown(line))
        out.append(" " * (len(gutter) + display_width(_shown(line[:start])))
                   + "^" * max(display_width(_shown(marked)), 1))
    if diag.suggestion and (" " in diag.suggestion or len(diag.suggestion) > 40):
        out.append(printable(f"      = suggestion: {diag.suggestion}"))
    elif diag.suggestion:
        out.append(printable(f"      = did you mean `{diag.suggestion}`?"))
    if diag.hint:
        out.append(printable(f"      = hint: {diag.hint}"))
    return "\n".join(out)


def _shown(source: str) -> str:
    """A piece of a source line as printed: tabs as four spaces, control characters escaped."""
    return printable(source.replace("\t", "    "))


def render_all(diags: list[Diagnostic], sources: dict[str, str]) -> str:
    """Render every diagnostic followed by a one-line summary."""
    cache: dict[str, list[str]] = {}
    parts = []
    for d in diags:
        if d.span.file not in cache:
            cache[d.span.file] = source_lines(sources.get(d.span.file, ""))
        parts.append(render(d, cache[d.span.file]))
    errors = sum(1 for d in diags if d.severity == "error")
    warnings = len(diags) - errors
    parts.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n\n".join(parts)


def to_json(diags: list[Diagnostic]) -> str:
    """Diagnostics as a JSON document for tools."""
    import json  # here: only `--format json` needs it
    return json.dumps({"diagnostics": [d.to_json() for d in diags]}, ensure_ascii=False, indent=2)


def explain(code: str) -> str | None:
    """The long explanation of a diagnostic code, or None when the code is unknown."""
    entry = CODES.get(code.upper())
    if entry is None:
        return None
    title, text = entry
    return f"{code.upper()}: {title}\n\n{text}"
