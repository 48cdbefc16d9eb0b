"""The limits every reader of a user's file holds to, whatever the file claims about itself."""

MAX_UNCOMPRESSED = 1 << 30  # bytes a workbook may unpack to
MAX_TEXT_BYTES = 1 << 30  # bytes of a text file
MAX_RATIO = 100  # unpacked over packed: past it, a zip bomb
#: Cells of the dense grid the reader builds (rows x columns of the real extent): about 1.3 GB at most in the
#: reader and its Python lists, and Excel's 1,048,576 rows with 19 columns still fit.
MAX_CELLS = 20_000_000
SCAN_CHUNK = 1 << 22  # bytes of XML looked at a time
