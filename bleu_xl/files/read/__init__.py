"""Reading a user's file safely: a workbook or a text table by its content, within memory and time the operating
system enforces, and the sheet and columns to score in it."""
