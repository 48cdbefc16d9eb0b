"""The ``bleu-xl`` command: score a workbook or CSV with no Excel, compare two columns, show one pair in detail, and
make the template, the xlwings Lite bundle and the release zip.

A thin face over the library's public surface (``import bleu_xl``): each command turns its options into one
library call and shows what it returns, one module a command or concern.
"""

from __future__ import annotations

import click

from .. import __version__, version_line
from .compare import compare_command
from .make import excel_setup_command, lite_bundle_command, release_command, template_command
from .options import Group
from .pair import pair_command
from .score import score_command
from .terminal import standard_streams

__all__ = ["main"]


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="bleu-xl", message=version_line())
def main() -> None:
    """BLEU-2 (and BLEU-N) scores for spreadsheets, with no Excel needed.

    \b
    Examples:
      bleu-xl template        (writes workbooks/bleu2_ranking.xlsx and workbooks/samples)
      bleu-xl score workbooks/samples/marketing_en.xlsx
    """
    standard_streams()


for _command in (
    score_command,
    pair_command,
    compare_command,
    excel_setup_command,
    lite_bundle_command,
    template_command,
    release_command,
):
    main.add_command(_command)
