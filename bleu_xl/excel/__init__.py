"""The Excel layer: what a cell holds, the cell functions every face shares, their registry, and the faces.

Imports only the core (and the standard library, for the modules the xlwings Lite bundle embeds).
"""
