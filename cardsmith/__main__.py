"""`python -m cardsmith` runs the command line."""

from .cli import run

run()
