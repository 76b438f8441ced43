"""`cardsmith lsp`: the language server (`cardsmith/lsp/`), speaking LSP on stdin and stdout."""

from __future__ import annotations

import logging

import click

from .common import fail


@click.command()
@click.option("--stdio", is_flag=True, default=True, help="Speak LSP on stdin and stdout (the default and only channel).")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              help="Append the server's log to this file (stderr otherwise).")
@click.option("--verbose", "-v", is_flag=True, help="Log every build and every answer's time.")
@click.option("--debounce", type=click.FloatRange(0, 10), default=0.25, show_default=True, metavar="SECONDS",
              help="How long typing must pause before the game is checked again.")
def lsp(stdio: bool, log_file: str | None, verbose: bool, debounce: float) -> None:
    """Run the language server for .csm files: diagnostics as you type, hover, go to
    definition, references, completion, symbols and formatting.

    An editor starts it and talks to it on stdin/stdout (see the README for VS Code,
    Neovim, Helix and Emacs). It prints nothing else on stdout; its log goes to stderr or
    to --log FILE."""
    _log_to(log_file, logging.DEBUG if verbose else logging.INFO)
    from .compiler.cache import open_cache
    from .lsp.server import create_server
    create_server(open_cache(), debounce).start_io()


def _log_to(log_file: str | None, level: int) -> None:
    """The server's log (and the library's warnings) to a file or to stderr, never stdout."""
    try:
        handler: logging.Handler = logging.FileHandler(log_file, encoding="utf-8") if log_file \
            else logging.StreamHandler()
    except OSError as err:
        fail(f"cannot write the log {log_file}: {err.strerror or err}")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name, at in (("cardsmith", level), ("pygls", logging.WARNING)):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(at)
        logger.propagate = False
