"""The xlwings Lite face's scripts that work on a whole table (the Lite bundle embeds them; standard library only)."""
