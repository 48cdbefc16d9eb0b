"""The library's file jobs: score a file, compare two columns of one, and write what bleu-xl makes for Excel users.

Every face that works on files (the command line, and any Python program) calls these; each takes its settings by
name and returns an object that says what it did. Imports every layer below it.
"""

from ..excel.versions import version_line
from ..table.sheet import InputError
from .compare import ComparedFile, compare_file
from .make import EXCEL_SETUP_PARTS, setup_excel, write_lite_bundle, write_release, write_template
from .reading import ReadTable
from .score import ScoredFile, score_file

__all__ = [
    "EXCEL_SETUP_PARTS",
    "ComparedFile",
    "InputError",
    "ReadTable",
    "ScoredFile",
    "compare_file",
    "score_file",
    "setup_excel",
    "version_line",
    "write_lite_bundle",
    "write_release",
    "write_template",
]
