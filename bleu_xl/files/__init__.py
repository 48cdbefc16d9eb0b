"""The files layer: reading users' workbooks and text tables safely (``read``), and writing outputs whole or not
at all (``write``).

Imports the table layer and the Excel layer's cell values; the library's file jobs and the template call it.
"""
