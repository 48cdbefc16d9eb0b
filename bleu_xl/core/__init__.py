"""The scoring core: tokenizer, the metrics (one object each, in ``metrics``), explanations, bootstrap. Standard
library only.

The same modules run in the classic add-in, in xlwings Lite (Pyodide) and on the command line; nothing here
knows about cells, sheets or files.
"""
