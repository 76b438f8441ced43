"""Limits on what a source may hold, each in one place: they keep every stage of the compiler
(and the Python it generates) within bounds, whatever a source says."""

MAX_FILE_BYTES = 4_000_000  # one source file
MAX_BRACKETS = 32  # ( and [ open at once
MAX_BLOCKS = 24  # indented blocks inside one declaration
MAX_EXPR_DEPTH = 48  # operators and calls inside one another (a chain `a + b + c` counts 2)
MAX_RANGE = 1000  # the largest value a written range may hold
MAX_PLAYERS = 64  # `players N`
MAX_PICKS = 16  # `picks N`
