"""The `cardsmith` command line (click): one group, its commands in the `cmd_*` modules."""

from __future__ import annotations

import logging
import sys
from typing import Any

import click

from .cmd_card import card
from .cmd_check import build, check, explain, schema
from .cmd_demo import demo
from .cmd_new import new
from .cmd_play import play_cmd
from .cmd_ref import ref
from .cmd_replay import replay_cmd
from .cmd_scenarios import scenarios
from .cmd_soak import soak


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardsmith")
def main() -> None:
    """cardsmith: write a card game's rules and cards in a small language, check them,
    compile them to Python and play them.

    Start with `cardsmith check`, then `cardsmith play GAME`, `cardsmith soak GAME` and
    `cardsmith ref GAME`. Every command that takes a GAME also takes your own files after
    it (`cardsmith play GAME my_cards.csm`)."""
    _warnings_to_stderr()


for command in (check, card, build, play_cmd, replay_cmd, soak, scenarios, ref, explain, schema, new, demo):
    main.add_command(command)


def _warnings_to_stderr() -> None:
    """Warnings of the library (a cache entry skipped, …) as `warning: …` lines on stderr."""
    logger = logging.getLogger("cardsmith")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("warning: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False


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


if __name__ == "__main__":
    run()
