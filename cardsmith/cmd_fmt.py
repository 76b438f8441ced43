"""`cardsmith fmt`: card sources rewritten in the language's one canonical layout
(`compiler/fmt.py`), or checked against it."""

from __future__ import annotations

import difflib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from .common import fail, say
from .compiler.diagnostics import render_all
from .compiler.fmt import FormatError, format_text
from .compiler.library import library_root
from .compiler.load import SOURCE_SUFFIX, read_sources
from .runtime.display import printable

# exit codes
WOULD_CHANGE = 1  # --check: some file is not in the canonical layout
FAILED = 2  # a file does not parse, or a path cannot be read or written

STDIN = "-"
STDIN_NAME = "<stdin>"  # how diagnostics name standard input


@dataclass(frozen=True)
class Formatted:
    """One file's text as read and in the canonical layout (None: it could not be formatted)."""

    path: Path
    text: str
    layout: str | None

    @property
    def changed(self) -> bool:
        return self.layout is not None and self.layout != self.text


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--check", is_flag=True,
              help="Write nothing: list the files that would change, and exit 1 if any would.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Write nothing: print what would change as a unified diff (the list of files "
                   "goes to stderr).")
def fmt(paths: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Lay out card sources in the canonical layout, rewriting them in place.

    PATHS are files or folders (every *.csm file in a folder and below). Without PATHS, the
    bundled card library is formatted (it is kept in the layout, so this changes nothing unless
    it was edited); name your own files or folders to format them. `-` reads a source from
    standard input and writes it formatted to standard output.

    Only the layout changes: indentation (4 spaces a level), spacing between tokens, blank lines
    and the space around comments. Strings, names, numbers and comments' words are kept, and a
    file that does not parse is never rewritten: its diagnostics are printed.

    Exits 1 with --check when a file would change; 2 when a file does not parse or a path cannot
    be read or written."""
    if STDIN in paths:
        if len(paths) > 1:
            fail("`-` (standard input) cannot be given with other paths", FAILED)
        sys.exit(_format_stdin(check, show_diff))
    tell = say(to_stderr=show_diff)
    status = 0
    changed = unchanged = 0
    for path in _files(paths):
        done = _format(path)
        if done is None or done.layout is None:
            status = FAILED
            continue
        if not done.changed:
            unchanged += 1
            continue
        changed += 1
        if show_diff:
            click.echo(_diff(done), nl=False)
        if check or show_diff:
            tell(f"would reformat {path}")
        elif _write(path, done.layout):
            tell(f"reformatted {path}")
        else:
            changed -= 1
            status = FAILED
    if check or show_diff:
        tell(f"{changed} file(s) would be reformatted, {unchanged} already formatted")
        if check and changed:
            status = max(status, WOULD_CHANGE)
    else:
        tell(f"{changed} file(s) reformatted, {unchanged} left unchanged")
    sys.exit(status)


def _format_stdin(check: bool, show_diff: bool) -> int:
    """`cardsmith fmt -`: standard input formatted to standard output (with --check, nothing is
    written; with --diff, the diff is). Returns the exit code; on an error nothing is written."""
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as err:
        fail(f"cannot read standard input: {err}", FAILED)
    done = _formatted(Path(STDIN_NAME), text)
    if done.layout is None:
        return FAILED
    if show_diff:
        click.echo(_diff(done), nl=False)
    elif not check:
        sys.stdout.buffer.write(done.layout.encode("utf-8"))
    if check and done.changed:
        say(to_stderr=show_diff)(f"would reformat {STDIN_NAME}")
        return WOULD_CHANGE
    return 0


def _files(paths: tuple[str, ...]) -> list[Path]:
    """The source files named: files as given, folders' *.csm files (sorted, each file once).
    A path that does not exist stops the command before anything is written."""
    roots = [Path(p) for p in paths] or [_shown_path(library_root())]
    missing = [str(p) for p in roots if not p.exists() and not p.is_symlink()]
    if missing:
        fail(f"no such file or folder: {', '.join(missing)}", FAILED)
    found: list[Path] = []
    seen: set[Path] = set()
    for root in roots:
        inside = sorted(p for p in root.rglob(f"*{SOURCE_SUFFIX}") if not p.is_dir()) if root.is_dir() else [root]
        for path in inside:
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                found.append(path)
    return found


def _shown_path(path: Path) -> Path:
    """A path relative to the working folder when it is inside it (the library in a checkout)."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _format(path: Path) -> Formatted | None:
    """Read and format one file; a problem is reported on stderr (None: unreadable)."""
    sources, diags = read_sources([path])
    if diags:
        for diag in diags:
            click.echo(printable(f"error: {diag.message}"), err=True)
        return None
    return _formatted(path, sources[str(path)])


def _formatted(path: Path, text: str) -> Formatted:
    """A text and its layout; when it has none (it does not parse), the reason is on stderr."""
    try:
        return Formatted(path, text, format_text(text, str(path)))
    except FormatError as err:
        if err.diagnostics:
            click.echo(render_all(err.diagnostics, {str(path): text}), err=True)
            click.echo(printable(f"error: {path} does not parse: left as it is"), err=True)
        else:
            click.echo(printable(f"error: {err}"), err=True)
        return Formatted(path, text, None)


def _diff(done: Formatted) -> str:
    """The change as a unified diff (control characters other than tabs shown as escapes)."""
    assert done.layout is not None
    lines = difflib.unified_diff(done.text.splitlines(keepends=True), done.layout.splitlines(keepends=True),
                                 f"{done.path}", f"{done.path} (formatted)")
    return "".join("\t".join(printable(part) for part in line.rstrip("\r\n").split("\t")) + "\n"
                   for line in lines)


def _write(path: Path, text: str) -> bool:
    """Rewrite a file in place (the same file: its links and permissions stay); False, with a
    message, when it cannot be written."""
    try:
        if not os.access(path, os.W_OK):
            raise PermissionError(0, "not writable")
        with path.open("w", encoding="utf-8", newline="") as out:
            out.write(text)
    except OSError as err:
        click.echo(printable(f"error: cannot write {path}: {err.strerror or err}"), err=True)
        return False
    return True
