"""Writing outputs whole or not at all: the scored workbook, CSV and JSON, the comparison, and any file bleu-xl
makes (claimed, locked, written beside the target and renamed into place)."""
