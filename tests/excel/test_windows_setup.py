"""Installing into Excel on Windows: the user config merge, the dry-run plan, the add-in build, the scripts."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import pytest

from bleu_xl.excel import windows_setup as excel_setup

ROOT = Path(__file__).resolve().parents[2]
WINDOWS = ROOT / "bleu_xl" / "release"  # the Windows installer, shipped in the package and the release bundle


def test_merge_keeps_other_settings_and_replaces_ours() -> None:
    existing = '"CONDA PATH","C:\\\\conda"\n"interpreter_win","C:\\\\old\\\\python.exe"\n"LICENSE_KEY","abc"\n'
    merged = excel_setup.merge_user_config(
        existing, {"INTERPRETER_WIN": "C:\\new\\pythonw.exe", "UDF MODULES": "bleu_xl.udfs"}
    )
    assert merged.splitlines() == [
        '"CONDA PATH","C:\\\\conda"',
        '"INTERPRETER_WIN","C:\\new\\pythonw.exe"',
        '"LICENSE_KEY","abc"',
        '"UDF MODULES","bleu_xl.udfs"',
    ]
    assert excel_setup.merge_user_config(merged, {"UDF MODULES": "bleu_xl.udfs"}) == merged  # idempotent
    assert excel_setup.merge_user_config("", {"A": "1"}) == '"A","1"\n'


def test_merged_config_reads_back_with_xlwings_own_reader(tmp_path: Path, monkeypatch) -> None:
    import xlwings

    conf = tmp_path / "xlwings.conf"
    conf.write_text(
        excel_setup.merge_user_config(
            '"SHOW CONSOLE","True"\n', {"INTERPRETER_WIN": "C:\\x\\pythonw.exe", "UDF MODULES": "bleu_xl.udfs"}
        )
    )
    monkeypatch.setattr(xlwings, "USER_CONFIG_FILE", str(conf))
    from xlwings.utils import read_user_config

    assert read_user_config() == {
        "show console": "True",
        "interpreter_win": "C:\\x\\pythonw.exe",
        "udf modules": "bleu_xl.udfs",
    }


def test_interpreter_prefers_pythonw(tmp_path: Path) -> None:
    python = tmp_path / "python.exe"
    python.touch()
    assert excel_setup.user_config_settings(python)["INTERPRETER_WIN"] == str(python)
    (tmp_path / "pythonw.exe").touch()
    assert excel_setup.user_config_settings(python) == {
        "INTERPRETER_WIN": str(tmp_path / "pythonw.exe"),
        "UDF MODULES": "bleu_xl.udfs",
    }


def test_plan(tmp_path: Path) -> None:
    python = tmp_path / "venv" / "Scripts" / "python.exe"
    (tmp_path / ".xlwings").mkdir()
    (tmp_path / ".xlwings" / "xlwings.conf").write_text('"LICENSE_KEY","abc"\n')
    steps = excel_setup.plan(python=python, home=tmp_path, appdata=tmp_path / "Roaming")
    assert steps[0].command == [str(python.with_name("xlwings.exe")), "addin", "install"]
    assert "keeping the settings already there" in steps[1].description
    assert steps[1].content.startswith('"LICENSE_KEY","abc"\n"INTERPRETER_WIN"')
    assert steps[2].path == tmp_path / "Roaming" / "Microsoft" / "AddIns" / "bleu_xl.xlam"
    assert [s.path for s in excel_setup.plan(python=python, home=tmp_path, parts=["config"])] == [
        tmp_path / ".xlwings" / "xlwings.conf"
    ]


def test_config_step_writes_the_merged_file(tmp_path: Path) -> None:
    python = tmp_path / "python.exe"
    (tmp_path / ".xlwings").mkdir()
    conf = tmp_path / ".xlwings" / "xlwings.conf"
    conf.write_text('"DEBUG UDFS","False"\n')
    steps = excel_setup.plan(python=python, home=tmp_path, parts=["config"])
    logged: list[str] = []
    excel_setup.run_plan(steps, python=python, log=logged.append, run=pytest.fail)
    assert conf.read_text() == f'"DEBUG UDFS","False"\n"INTERPRETER_WIN","{python}"\n"UDF MODULES","bleu_xl.udfs"\n'
    assert logged == ["[1/1] Write the xlwings user config (keeping the settings already there)"]


class StandInExcel(excel_setup.ExcelCalls):
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def open_book(self, path: Path):
        self.calls.append(("open", path.name))
        return "book"

    def import_functions(self, book, modules: str) -> None:
        self.calls.append(("import", book, modules))

    def save_and_close(self, book) -> None:
        self.calls.append(("save", book))


def test_addin_build_through_stand_ins(tmp_path: Path) -> None:
    python = tmp_path / "venv" / "python.exe"
    commands: list[list[str]] = []

    def run(command, cwd=None, check=False):
        commands.append(command)
        if "quickstart" in command:  # what xlwings quickstart --addin creates
            (Path(cwd) / "bleu_xl").mkdir()
            (Path(cwd) / "bleu_xl" / "bleu_xl.xlam").write_bytes(b"PK add-in")

    excel = StandInExcel()
    target = tmp_path / "AddIns" / "bleu_xl.xlam"
    work = tmp_path / "work"
    work.mkdir()
    assert excel_setup.build_addin(python, target, excel=excel, run=run, workdir=work) == target
    xlwings = str(python.with_name("xlwings.exe"))
    assert commands == [
        [xlwings, "quickstart", "bleu_xl", "--addin"],
        [xlwings, "addin", "install", "--file", str(target)],
    ]
    assert excel.calls == [("open", "bleu_xl.xlam"), ("import", "book", "bleu_xl.udfs"), ("save", "book")]
    assert target.read_bytes() == b"PK add-in"


def test_addin_build_saves_even_when_the_import_fails(tmp_path: Path) -> None:
    class Untrusted(StandInExcel):
        def import_functions(self, book, modules):
            raise RuntimeError("Programmatic access to Visual Basic Project is not trusted")

    def run(command, cwd=None, check=False):
        if "quickstart" in command:
            (Path(cwd) / "bleu_xl").mkdir()
            (Path(cwd) / "bleu_xl" / "bleu_xl.xlam").write_bytes(b"PK")

    excel = Untrusted()
    with pytest.raises(RuntimeError, match="not trusted"):
        excel_setup.build_addin(tmp_path / "python.exe", tmp_path / "t.xlam", excel=excel, run=run, workdir=tmp_path)
    assert excel.calls[-1] == ("save", "book") and not (tmp_path / "t.xlam").exists()


# --- the scripts -------------------------------------------------------------------------------------------------


def test_powershell_script_steps() -> None:
    script = (WINDOWS / "install.ps1").read_text(encoding="utf-8")
    code = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("#"))
    code = re.sub(r"<#.*?#>", "", code, flags=re.S)
    order = [
        r'\$Root = Join-Path \$env:LOCALAPPDATA "bleu-xl"',
        r"-m venv \$Venv",
        r"\$Python -m pip install --quiet --upgrade \"\$Wheel\"",
        r'Join-Path \$Venv "Scripts\\xlwings.exe"\) addin install',
        r"excel-setup --only config",
        r"excel-setup --only xlam",
    ]
    positions = [re.search(pattern, code).start() for pattern in order]
    assert positions == sorted(positions)
    assert '$ErrorActionPreference = "Stop"' in code
    assert "xlwings==" not in code  # the xlwings version comes from bleu-xl's own pin
    assert code.count("{") == code.count("}") and code.count("(") == code.count(")")
    assert "[string]$Wheel" in code and "[switch]$NoAddin" in code and "[switch]$DryRun" in code


def test_cmd_runs_the_script_with_a_local_execution_policy() -> None:
    cmd = (WINDOWS / "install.cmd").read_bytes()
    assert b"\r\n" in cmd  # Windows line endings
    assert b'powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0install.ps1" %*' in cmd


def test_xlwings_is_pinned_to_the_installed_version() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pinned = re.search(r'"xlwings==([\d.]+)"', pyproject).group(1)
    assert pinned == version("xlwings")


def test_the_windows_steps_cover_the_usual_failures() -> None:
    text = (ROOT / "docs" / "excel.md").read_text(encoding="utf-8")
    for phrase in (
        "Unblock",
        "Trust access to the VBA project object model",
        "xlwings version mismatch",
        "**Update.**",
        "**Uninstall.**",
        "install.cmd",
    ):
        assert phrase in text
