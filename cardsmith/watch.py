"""`cardsmith check --watch`: check again each time a source changes, in one process, so
that only what changed is parsed and checked again (the compiler's parse cache and check
memo live as long as the process). A body edit of one card in a large library is checked
again in tens of milliseconds, where a new `cardsmith check` process takes seconds.

Code is not generated here: generation finds only declarations too complex to compile
(E004), which a plain `cardsmith check` still reports."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import click
import msgspec

from .check_report import DiagnosticReport, GameSummary, WatchReport
from .cmd_check import summary_line
from .common import fail
from .compiler.cache import Cache, open_cache
from .compiler.diagnostics import Diagnostic, render_all
from .compiler.load import SOURCE_SUFFIX, no_gc, parse_and_check, resolve_inputs
from .runtime.display import printable

WATCHED_SUFFIXES = (SOURCE_SUFFIX, ".j2")  # sources, and the card-text templates beside them


@dataclass
class Round:
    """One check of every target: the sources read, what was found, and the folders to watch."""

    sources: dict[str, str]
    diagnostics: list[Diagnostic]
    summaries: list[GameSummary]
    folders: frozenset[str]


def check_round(groups: list[list[str]], cache: Cache | None) -> Round:
    """Parse and check each group of targets (see `cmd_check.group_targets`)."""
    sources: dict[str, str] = {}
    found: list[Diagnostic] = []
    summaries: list[GameSummary] = []
    for group in groups:
        texts, diags = resolve_inputs(group)
        sources.update(texts)
        if texts:
            started = time.perf_counter()
            with no_gc():
                checked, more = parse_and_check(texts, cache)
            diags.extend(more)
            sym = checked.symbols
            if sym.game is not None:
                summaries.append(GameSummary(sym.game.name, len(texts), len(sym.cards), len(sym.procedures),
                                             len(sym.scenarios), time.perf_counter() - started))
        found.extend(diags)
    return Round(sources, found, summaries, _folders(sources, (t for g in groups for t in g)))


def _folders(sources: dict[str, str], targets: Iterable[str]) -> frozenset[str]:
    """The folders whose files the check read or may read: each source's folder and its
    `text/` templates, and every folder named as a target (a file added to it joins the game)."""
    folders: set[str] = set()
    for path in sources:
        folder = os.path.dirname(os.path.abspath(path))
        folders.update((folder, os.path.join(folder, "text")))
    folders.update(os.path.abspath(t) for t in targets)
    return frozenset(f for f in folders if os.path.isdir(f))


def _source_change(_change: object, path: str) -> bool:
    """A source or template, or a folder (one made in a watched folder may hold sources of a
    folder target, or be the `text/` folder of templates: the folders watched are worked out again)."""
    return path.endswith(WATCHED_SUFFIXES) or os.path.isdir(path)


def watch_check(groups: list[list[str]], fmt: str) -> None:
    """Check now and after each change, until interrupted (Ctrl-C ends it with exit 0)."""
    try:
        _watch(groups, fmt)
    except KeyboardInterrupt:
        pass  # Ctrl-C during a check


def _watch(groups: list[list[str]], fmt: str) -> None:
    from watchfiles import watch  # here: only --watch needs it
    changed: list[str] = []
    cache = open_cache()  # once: each round reads and writes the same verified cache
    while True:
        folders = _folders(*_sources(groups))
        if not folders:
            fail("nothing to watch: none of the paths is a file or folder that exists", 1)
        # the watcher wakes every `rust_timeout` ms with nothing (yield_on_timeout): its first
        # answer says it is live, so a report is printed only once an edit after it cannot be missed
        batches = watch(*sorted(folders), watch_filter=_source_change, recursive=False, debounce=400,
                        rust_timeout=250, yield_on_timeout=True, raise_interrupt=False)
        if next(batches, None) is None:
            return
        while True:
            found = check_round(groups, cache)
            if found.folders != folders:
                if not found.folders:
                    _report(found, fmt, changed)  # what went, before the watch ends for want of folders
                break  # sources in other folders: watch the new set, then check (and report) once it is live
            _report(found, fmt, changed)
            batch = next((b for b in batches if b), None)
            if batch is None:
                return  # interrupted
            changed = sorted({path for _, path in batch})


def _sources(groups: list[list[str]]) -> tuple[dict[str, str], list[str]]:
    """The sources of every group and the targets named, as the folders to watch need them."""
    sources: dict[str, str] = {}
    for group in groups:
        sources.update(resolve_inputs(group)[0])
    return sources, [t for group in groups for t in group]


def _report(found: Round, fmt: str, changed: list[str]) -> None:
    """One round: a JSON line for tools, or the diagnostics and summaries for people."""
    if fmt == "json":
        line = WatchReport(changed, [DiagnosticReport(**d.to_json()) for d in found.diagnostics], found.summaries)
        click.echo(msgspec.json.encode(line).decode())
        return
    names = printable(", ".join(Path(p).name for p in changed))
    click.echo(f"[{time.strftime('%H:%M:%S')}] " + (f"changed: {names}" if changed else "first check"))
    if found.diagnostics:
        click.echo(render_all(found.diagnostics, found.sources))
    for summary in found.summaries:
        click.echo(summary_line(**msgspec.structs.asdict(summary)))
    if found.folders:
        click.echo(f"watching {len(found.folders)} folder(s) for changes to {' and '.join(WATCHED_SUFFIXES)} "
                   "files (Ctrl-C stops)")
