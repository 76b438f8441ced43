"""The balance lab behind `cardsmith sim`: many seeded games of every pairing of characters,
played in parallel, turned into tables, outliers and a report.

`plan` chooses the pairings and each game's seed; `watch` observes a game as it is played
(cards used, who moved first); `run` plays chunks of games on local processes or Ray;
`stats` makes the tables and flags outliers; `export` writes them as CSV and Parquet;
`report` draws the plots and writes the HTML page.
"""
