"""The other commands: pair, --version and --help, the console script, excel-setup, lite-bundle and template
(what they write, what they keep, and what --force replaces)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from bleu_xl import Ter, __version__, score
from bleu_xl.core.metrics.bleu import SCORING_VERSION
from bleu_xl.core.metrics.chrf import CHRF_VERSION
from bleu_xl.core.metrics.ter import TER_VERSION
from bleu_xl.excel import windows_setup
from bleu_xl.template import data as template_data
from tests.helpers import INTACTO, REF, run, run_process


def test_pair_command() -> None:
    result = run("pair", REF, INTACTO, "--json")
    detail = json.loads(result.stdout)
    assert detail["p1"] == {"value": 0.9, "numerator": 9, "denominator": 10, "smoothed": False}
    assert detail["p2"]["numerator"] == 8 and detail["r"] == 11 and detail["c"] == 10
    assert detail["bleu"] == score(REF, INTACTO).bleu and detail["max_n"] == 2
    assert detail["candidate_tokens"][-1] == "intacto"
    text = run("pair", "a b c", "x y z").output
    assert "p1 = 1/4 = 0.2500  (add-1 smoothing)" in text and "BLEU-2 = 0.2887" in text


def test_pair_command_explains() -> None:
    out = run("pair", REF, INTACTO).output
    assert "explain: missing: bem, embalado | extra: intacto" in out
    data = json.loads(run("pair", REF, INTACTO, "--json").output)
    assert data["matched"] == [True] * 9 + [False]


def test_version_and_help() -> None:
    assert run("--version").output.strip() == (
        f"bleu-xl {__version__}, scoring {SCORING_VERSION} (signatures bleu-xl:{SCORING_VERSION}, chrF "
        f"bleu-xl:{CHRF_VERSION}, TER bleu-xl:{TER_VERSION})"
    )
    assert TER_VERSION == "ter-1" and f"bleu-xl:{TER_VERSION}|" in Ter().signature()
    for command in ([], ["score"], ["pair"]):
        out = run(*command, "--help").output
        assert "Example" in out and "bleu-xl " in out


def test_console_script_runs() -> None:
    exe = Path(sys.executable).with_name("bleu-xl")
    if not exe.exists():
        pytest.skip("the package is not installed as a console script in this environment")
    done = subprocess.run([str(exe), "pair", "le chat", "le chat"], capture_output=True, text=True, check=True)
    assert "BLEU-2 = 1.0000" in done.stdout


# --- excel-setup -------------------------------------------------------------------------------------------------


def test_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    monkeypatch.setattr(windows_setup, "on_windows", lambda: True)  # the plan as Windows prints it
    result = run("excel-setup", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "[1/3] Install the xlwings add-in into Excel" in result.output
    assert "addin install" in result.output
    assert f"write: {tmp_path / '.xlwings' / 'xlwings.conf'}" in result.output
    assert '"UDF MODULES","bleu_xl.udfs"' in result.output and "bleu_xl.xlam" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(sys.platform.startswith("win"), reason="the refusal is for macOS and Linux")
def test_without_windows_the_command_points_to_lite(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    result = run("excel-setup")
    assert result.exit_code == 2
    assert "classic xlwings functions (UDFs) need Excel on Windows" in result.output
    assert "xlwings-lite folder of the bleu-xl zip" in result.output and "bleu-xl lite-bundle" in result.output
    assert list(tmp_path.iterdir()) == []


# --- template and lite-bundle: what they write and keep --------------------------------------------------------


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_template_refuses_to_overwrite_and_writes_a_file_for_xlsx(tmp_path: Path) -> None:
    folder = tmp_path / "mywb"
    assert run("template", str(folder)).exit_code == 0
    edited = folder / "bleu2_ranking.xlsx"
    edited.write_bytes(b"my edits")
    again = run("template", str(folder))
    assert again.exit_code == 2 and "already exists" in again.stderr and "--force" in again.stderr
    assert edited.read_bytes() == b"my edits"
    assert run("template", str(folder), "--force").exit_code == 0
    assert zipfile.is_zipfile(edited)
    single = tmp_path / "my.xlsx"
    assert run("template", str(single)).exit_code == 0
    assert single.is_file() and openpyxl.load_workbook(single).sheetnames[0] == "Start here"
    assert stat.S_IMODE(single.stat().st_mode) == 0o666 & ~_umask()
    assert run("template", str(single)).exit_code == 2 and single.is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my.xlsx", "mywb"]  # no temporary or lock file left
    assert len(list((folder / "samples").iterdir())) == len(template_data.SAMPLES)


def test_template_force_replaces_a_link_and_never_writes_through_it(tmp_path: Path) -> None:
    folder = tmp_path / "wb"
    assert run("template", str(folder)).exit_code == 0
    precious = tmp_path / "precious.xlsx"
    precious.write_bytes(b"someone else's workbook")
    link = folder / "bleu2_ranking.xlsx"
    link.unlink()
    link.symlink_to(precious)
    assert run("template", str(folder)).exit_code == 2 and link.is_symlink()  # kept without --force
    assert run("template", str(folder), "--force").exit_code == 0
    assert precious.read_bytes() == b"someone else's workbook"
    assert not link.is_symlink() and zipfile.is_zipfile(link)
    assert sorted(p.name for p in folder.iterdir()) == ["bleu2_ranking.xlsx", "samples"]  # nothing left behind


def test_lite_bundle_keeps_a_main_py_it_did_not_write(tmp_path: Path) -> None:
    from bleu_xl.lite.bundle import bundle_files

    files = bundle_files()
    folder = tmp_path / "bundle"
    first = run("lite-bundle", str(folder))
    assert first.exit_code == 0 and first.stdout.count("wrote ") == 2
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == {n: t.encode("utf-8") for n, t in files.items()}
    again = run("lite-bundle", str(folder))
    assert again.exit_code == 0 and again.stdout.count("is up to date") == 2 and "wrote" not in again.stdout

    # Someone's own xlwings Lite project: their main.py is kept, and requirements.txt is not written either.
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.py").write_text("import xlwings as xw  # my own functions\n", encoding="utf-8")
    kept = run("lite-bundle", str(project))
    assert kept.exit_code == 2 and "main.py: already exists" in kept.stderr and "--force" in kept.stderr
    assert [p.name for p in project.iterdir()] == ["main.py"]  # no requirements.txt, temporary or lock file
    assert (project / "main.py").read_text(encoding="utf-8").startswith("import xlwings as xw  # my own")
    forced = run("lite-bundle", str(project), "--force")
    assert forced.exit_code == 0 and (project / "main.py").read_bytes() == files["main.py"].encode("utf-8")
    assert sorted(p.name for p in project.iterdir()) == ["main.py", "requirements.txt"]

    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "requirements.txt").write_text("xlwings\nnumpy\n", encoding="utf-8")  # the second file refused
    assert run("lite-bundle", str(theirs)).exit_code == 2
    assert [p.name for p in theirs.iterdir()] == ["requirements.txt"]  # main.py was claimed, then let go

    # A folder where a file should be, or a file where the folder should be: one line, nothing written.
    odd = tmp_path / "odd"
    (odd / "main.py").mkdir(parents=True)
    assert "main.py: is a folder" in run("lite-bundle", str(odd), "--force").stderr
    assert [p.name for p in odd.iterdir()] == ["main.py"]
    not_folder = tmp_path / "file"
    not_folder.write_text("x", encoding="utf-8")
    result = run("lite-bundle", str(not_folder))
    assert result.exit_code == 2 and "not a folder" in result.stderr and not_folder.read_text() == "x"
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    result = run("lite-bundle", str(tmp_path / "dangling"))
    assert result.exit_code == 2 and "cannot make this folder" in result.stderr and not (tmp_path / "nowhere").exists()
    assert run("lite-bundle", "").exit_code == 2


def test_lite_bundle_reads_links_and_never_waits_on_a_fifo(tmp_path: Path) -> None:
    from bleu_xl.lite.bundle import bundle_files

    files = bundle_files()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "main.py").write_text(files["main.py"], encoding="utf-8", newline="\n")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "main.py").symlink_to(kept / "main.py")  # the bundle already, through a link: nothing to write
    result = run("lite-bundle", str(linked))
    assert result.exit_code == 0 and f"{linked / 'main.py'} is up to date" in result.stdout
    assert (linked / "main.py").is_symlink()
    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / "main.py")
    done = subprocess.run(
        [sys.executable, "-m", "bleu_xl.cli", "lite-bundle", str(fifo), "--force"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "not a regular file" in done.stderr
    assert sorted(p.name for p in fifo.iterdir()) == ["main.py"]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("score", "x.xlsx", "--max-n", "0"), "Invalid value for '--max-n': 0 is not in the range 1<=x<=9"),
        (("score", "x.xlsx", "--header-row", "abc"), "Invalid value for '--header-row'"),
        (("score", "x.xlsx", "--bogus"), "No such option '--bogus'"),
        (("score", "x.xlsx", "-o"), "Option '-o' requires an argument"),
        (("score",), "Missing argument 'INPUT'"),
        (("scor",), "No such command 'scor'. Did you mean 'score'?"),
        (("--bogus",), "No such option '--bogus'"),
    ],
)
def test_a_usage_error_is_one_line_as_every_refusal_is(args: tuple[str, ...], line: str) -> None:
    """click shows the usage, a hint and the error on four lines; bleu-xl's refusals are one line, exit code 2."""
    done = run_process(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"bleu-xl: error: {line}"), done.stderr
    assert done.stderr.rstrip().endswith("--help')")


def test_bleu_xl_alone_still_shows_its_help() -> None:
    done = run_process()
    assert "[OPTIONS] COMMAND" in done.stdout + done.stderr and "score" in done.stdout + done.stderr


def test_an_option_given_no_value_does_not_take_the_next_option_for_it(tmp_path: Path) -> None:
    """``--reference --skip-hidden``: the value was forgotten, and the text ``--skip-hidden`` would have been every
    candidate's reference, with no note (a reference the user typed is the one meant). Refused, saying how to give
    such a text on purpose."""
    done = run_process("score", "x.xlsx", "--reference", "--skip-hidden")
    assert done.returncode == 2 and done.stderr == (
        "bleu-xl: error: --reference takes a value, and the next argument is the option --skip-hidden: give "
        "--reference its value (a text that is an option's name goes as --reference=--skip-hidden)\n"
    )
    for following in ("--metric=chrf", "--help", "-h", "-o-"):  # an option with its value, help, a short one
        refusal = run_process("score", "x.xlsx", "--reference", following, "-o", "-")
        assert refusal.returncode == 2 and f"the next argument is the option {following}:" in refusal.stderr
    path = tmp_path / "t.csv"
    path.write_text("Candidate\n--skip-hidden\n", encoding="utf-8")
    given = run("score", str(path), "--reference=--skip-hidden", "--format", "jsonl", "-o", "-", "-q")
    assert given.exit_code == 0 and json.loads(given.stdout)["BLEU-2"] == 1.0
