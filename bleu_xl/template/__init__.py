"""The template workbook and the sample workbooks: builders (``build``), their words (``text``), their data
(``data``). Imports the core, the Excel layer's functions and the files layer's XlsxWriter settings."""
