"""The commands that make what Excel users need: ``template``, ``lite-bundle``, ``release``, ``excel-setup``."""

from __future__ import annotations

import click

from .. import EXCEL_SETUP_PARTS, setup_excel, write_lite_bundle, write_release, write_template
from .guard import guard
from .options import Command
from .terminal import echo

__all__ = ["excel_setup_command", "lite_bundle_command", "release_command", "template_command"]


@click.command("excel-setup", cls=Command)
@click.option("--dry-run", is_flag=True, help="Print every step and file it would write, and change nothing.")
@click.option("--no-addin", is_flag=True, help="Do not build bleu_xl.xlam (then use Import Functions per workbook).")
@click.option(
    "--only",
    type=click.Choice(EXCEL_SETUP_PARTS),
    help="Do one part only: install xlwings' add-in, write the user config, or build bleu_xl.xlam.",
)
@guard()
def excel_setup_command(dry_run: bool, no_addin: bool, only: str | None) -> None:
    """Set up the classic Excel add-in on Windows: xlwings add-in, user config, bleu_xl.xlam (Windows only; on
    a Mac or Excel on the web, use lite-bundle).

    The user config (~/.xlwings/xlwings.conf) gets this Python as the interpreter and bleu_xl.udfs as the UDF
    module, keeping the settings already there. bleu_xl.xlam makes =BLEU2 work in every workbook, .xlsx
    included, without Import Functions per file (it needs Excel's "Trust access to the VBA project").

    \b
    Example:
      bleu-xl excel-setup --dry-run
    """
    parts = [only] if only else [p for p in EXCEL_SETUP_PARTS if not (no_addin and p == "xlam")]
    if dry_run:
        steps = setup_excel(parts=parts, dry_run=True)
        click.echo("bleu-xl excel-setup would (dry run, nothing is changed):")
        for number, step in enumerate(steps, start=1):
            click.echo(f"[{number}/{len(steps)}] {step.describe()}")
        return
    setup_excel(parts=parts, log=click.echo)
    click.echo('done: restart Excel, then type =BLEU2("le chat", "le chat") into a cell')


@click.command("lite-bundle", cls=Command)
@click.argument("folder", default="xlwings-lite", required=False)
@click.option("--force", is_flag=True, help="Replace a main.py or requirements.txt that differs from the bundle.")
@guard()
def lite_bundle_command(folder: str, force: bool) -> None:
    """Write the xlwings Lite bundle (main.py and requirements.txt) into FOLDER (default: xlwings-lite).

    Paste main.py into xlwings Lite's main.py (Excel on Windows, Mac or the web) and the BLEU2 functions work
    in every cell; leave xlwings Lite's requirements.txt as it is (main.py needs nothing more). A file already
    there (perhaps your own main.py) is kept unless it is the bundle already or --force is given; nothing is
    written unless every file can be.

    \b
    Example:
      bleu-xl lite-bundle my-bundle
    """
    for path, wrote in write_lite_bundle(folder, force=force):
        echo(f"wrote {path}" if wrote else f"{path} is up to date")


@click.command("template", cls=Command)
@click.argument("folder", default="workbooks", required=False)
@click.option("--force", is_flag=True, help="Replace workbooks that are already there.")
@guard()
def template_command(folder: str, force: bool) -> None:
    """Write the ranking template and the sample workbooks into FOLDER (default: workbooks).

    Given a name ending in .xlsx, write only the template, to that file (another workbook extension, such as
    .xls, is refused). Existing workbooks (perhaps edited) are kept unless --force is given.

    \b
    Examples:
      bleu-xl template my-workbooks
      bleu-xl template my-ranking.xlsx
    """
    for path in write_template(folder, force=force):
        echo(f"wrote {path}")


@click.command("release", cls=Command)
@click.argument("folder", default="dist", required=False)
@click.option(
    "--wheel", type=click.Path(dir_okay=False), help="The wheel to ship (default: FOLDER's wheel of this version)."
)
@click.option("--force", is_flag=True, help="Replace an existing bundle.")
@guard()
def release_command(folder: str, wheel: str | None, force: bool) -> None:
    """Make the release bundle for Excel users, bleu-xl-VERSION.zip, in FOLDER (default: dist).

    The zip holds the wheel, the Windows installer (install.cmd, install.ps1) that installs that wheel, the
    template and the samples, the xlwings Lite bundle (xlwings-lite/main.py) and READ ME FIRST.txt in English,
    French and Portuguese. The wheel is this version's, built by python -m build into FOLDER (or given with
    --wheel).

    \b
    Example:
      python -m build && bleu-xl release dist
    """
    echo(f"wrote {write_release(folder, wheel=wheel, force=force)}")
