"""Limits that keep any rule set, however written, within bounded time and memory."""

MAX_NUMBER = 1_000_000_000_000  # the largest magnitude a number may reach (written or computed)
MAX_ITEMS = 100_000  # the longest list a rule may build
LOOP_LIMIT = 10_000_000  # loop iterations in one game before the rules are stopped
MAX_LISTED_OPTIONS = 1_000  # choices with more options than this are not listed one by one
