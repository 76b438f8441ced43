"""The language server (`cardsmith lsp`): diagnostics as you type, hover, definitions and
references, completion, symbols and formatting for the language, over LSP on stdio.

`server.py` holds the pygls server and its handlers; everything it answers with comes from
the modules beside it, which know nothing of pygls: `workspace.py` (documents and the games
they belong to, and their builds), `parsing.py` (files parsed declaration by declaration),
`positions.py` (LSP positions ↔ spans), `index.py` (where each name is declared and used),
`hover.py`, `completion.py`, `symbols.py`, `diagnostics.py` and `formatting.py`.
"""
