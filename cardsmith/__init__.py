"""cardsmith: a declarative card-definition compiler for card games."""

__version__ = "0.1.0"
