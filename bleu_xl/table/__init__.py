"""The table layer: a sheet in memory, the column rules that find its data, and the scoring and comparison of
every row. Imports the Excel layer's cell semantics and the core; knows nothing of files."""
