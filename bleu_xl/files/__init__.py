"""The files layer: reading users' workbooks and text tables safely, and writing outputs whole or not at all.

Imports the table layer and the Excel layer's cell values; the command line and the template call it.
"""
