"""The `cardsmith` command line (click): one group, its commands in the `cmd_*` modules."""

from __future__ import annotations

import gc
import importlib
import sys
from typing import Any

import click

from .compiler.cache import show_warnings_with

# each command's module, imported only when that command runs (or help lists it): the rest of
# the package is not loaded by a command that does not need it
COMMANDS = {
    "check": "cmd_check:check", "card": "cmd_card:card", "build": "cmd_check:build", "play": "cmd_play:play_cmd",
    "replay": "cmd_replay:replay_cmd", "soak": "cmd_soak:soak", "sim": "cmd_sim:sim", "scenarios": "cmd_scenarios:scenarios",
    "ref": "cmd_ref:ref", "explain": "cmd_check:explain", "schema": "cmd_check:schema", "new": "cmd_new:new",
    "demo": "cmd_demo:demo", "fmt": "cmd_fmt:fmt", "lsp": "cmd_lsp:lsp",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardsmith")
def main() -> None:
    """cardsmith: write a card game's rules and cards in a small language, check them,
    compile them to Python and play them.

    Start with `cardsmith check`, then `cardsmith play GAME`, `cardsmith soak GAME` and
    `cardsmith ref GAME`. Every command that takes a GAME also takes your own files after
    it (`cardsmith play GAME my_cards.csm`)."""
    show_warnings_with(_warnings_to_stderr)


def _warnings_to_stderr() -> None:
    """Warnings of the library (a cache entry skipped, …) as `warning: …` lines on stderr."""
    import logging  # here: set up only when there is a warning to show
    logger = logging.getLogger("cardsmith")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("warning: %(message)s"))
        logger.addHandler(handler)  # and still propagated: the root logger has no handler unless someone set one


def run() -> Any:
    """Entry point that never shows a Python traceback for a failure."""
    try:
        return main(standalone_mode=True)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        click.echo(f"internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("please report this with the command you ran", err=True)
        sys.exit(3)
    finally:
        # The process is about to end: the collector's passes while the interpreter shuts
        # down would walk every object of a loaded game again (5% of `play`'s work) only to
        # free what the exit frees anyway.
        gc.freeze()


if __name__ == "__main__":
    run()
