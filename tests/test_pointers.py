"""Every pointer a user gets works where the user is: no message, help text, sheet, READ ME FIRST or doc page names
a path that exists only in this repository.

A user has the release zip, or the package installed by pip, and whatever bleu-xl's commands write: not the
repository's install/, docs/, tests/ or benchmarks/ folders, nor its pyproject.toml. Links between doc pages are
navigation on the web and are not pointers to local files; the contributors' page (docs/development.md, read in
a checkout) and the README's quick start (run in a checkout) may name the repository's files.
"""

from __future__ import annotations

import ast
import re
import subprocess
import warnings
from pathlib import Path

from click.testing import CliRunner

from bleu_xl import __version__
from bleu_xl.cli import main
from bleu_xl.lite.reenter import SCRIPT_NAME
from bleu_xl.release.readme import read_me_first
from bleu_xl.template import build as template

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bleu_xl"
#: The repository's top-level entries a user has all the same: the package (installed), the folder `bleu-xl
#: template` writes by default, the licence (in the wheel and the sdist).
USERS_TOO = {"bleu_xl", "workbooks", "LICENSE"}
REPO_ONLY_FOLDERS = ("install", "docs", "tests", "benchmarks", ".ci")
REPO_ONLY_FILES = ("pyproject.toml", "CHANGELOG.md", "MANIFEST.in", "README.md")
REPO_PATH = re.compile(
    r"(?<![\w.-])(?:"
    + "|".join(re.escape(name) for name in REPO_ONLY_FOLDERS)
    + r")[/\\]|(?<![\w./\\-])(?:"
    + "|".join(re.escape(name) for name in REPO_ONLY_FILES)
    + r")\b"
)


def repo_paths(text: str) -> list[str]:
    return [match.group() for match in REPO_PATH.finditer(text)]


def test_the_repository_s_top_level_is_classified() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    tops = {line.split("/")[0] for line in tracked.splitlines()}  # what the repository holds, not build output
    tops = {name for name in tops if not name.startswith(".") or name == ".ci"}
    assert tops == USERS_TOO | set(REPO_ONLY_FOLDERS) | set(REPO_ONLY_FILES), "classify the new entry above"
    assert repo_paths("see install/windows/README.md, docs\\excel.md and pyproject.toml") == [
        "install/",
        "docs\\",
        "pyproject.toml",
    ]
    assert repo_paths("install them, the docs ask, tests show, main.py of xlwings-lite, workbooks/samples") == []


def _strings(path: Path) -> list[str]:
    """The string constants of a module, docstrings left out (they are for developers; the command's help is
    checked as the command prints it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_message_of_the_package_names_a_repository_path() -> None:
    found = {
        f"{path.relative_to(ROOT)}: {text[:80]!r}": repo_paths(text)
        for path in sorted(PACKAGE.rglob("*.py"))
        for text in _strings(path)
        if repo_paths(text)
    }
    assert found == {}


def test_no_help_text_names_a_repository_path() -> None:
    texts = [CliRunner().invoke(main, ["--help"]).output]
    texts += [CliRunner().invoke(main, [name, "--help"]).output for name in main.commands]
    assert len(texts) == 1 + len(main.commands) and all("Usage:" in text for text in texts)
    assert [paths for paths in map(repo_paths, texts) if paths] == []


def test_no_sheet_and_no_read_me_first_names_a_repository_path(tmp_path: Path) -> None:
    import openpyxl

    written = template.build_all(tmp_path)
    texts = [read_me_first(__version__, f"bleu_xl-{__version__}-py3-none-any.whl", SCRIPT_NAME)]
    for path in written:
        with warnings.catch_warnings():  # openpyxl does not read the data bars' extension, which is not text
            warnings.simplefilter("ignore")
            book = openpyxl.load_workbook(path)
        texts += [c.value for ws in book.worksheets for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert len(texts) > 100
    assert {text[:80]: repo_paths(text) for text in texts if repo_paths(text)} == {}


def test_no_doc_page_names_a_repository_path() -> None:
    pages = {path.name: path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))}
    assert len(pages) >= 7
    del pages["development.md"]  # for contributors, in a checkout
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = re.search(r"^## Quick start\n.*?(?=^## )", readme, flags=re.M | re.S).group()
    pages["README.md"] = readme.replace(quick, "")
    found = {}
    for name, text in pages.items():
        text = re.sub(r"\]\([^)]*\)", "]", text)  # a link's target is navigation, not a file the user opens
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)  # comments are for the page's editors
        if repo_paths(text):
            found[name] = repo_paths(text)
    assert found == {}


def test_one_version_story_wherever_a_user_quotes_a_version() -> None:
    """The package's version and the scoring definition's are both shown, named apart, wherever a user quotes
    them: --version, the Lite bundle's header, the template's Start here, the release's READ ME FIRST; the
    signature names the definition alone (its version moves only when a score would), and the CHANGELOG's
    sections say which package version holds which scoring version."""
    import openpyxl
    from click.testing import CliRunner

    from bleu_xl import signature, version_line
    from bleu_xl.cli import main
    from bleu_xl.core.metrics.bleu import SCORING_VERSION

    story = f"bleu-xl {__version__}, scoring {SCORING_VERSION}"
    assert version_line().startswith(story) and __version__ != "0.1.0"  # 0.1.0 scored by the 0.1.0 definition
    assert CliRunner().invoke(main, ["--version"]).output.startswith(story)
    bundle = (ROOT / "install" / "xlwings-lite" / "main.py").read_text(encoding="utf-8")
    assert bundle.splitlines()[1] == version_line() + "."
    start = openpyxl.load_workbook(ROOT / "workbooks" / "bleu2_ranking.xlsx")["Start here"]
    assert any(str(cell.value).startswith(story) for row in start.iter_rows() for cell in row if cell.value)
    assert read_me_first(__version__, "w.whl", SCRIPT_NAME).splitlines()[1] == version_line()  # 100 wide: no stop
    assert signature().startswith(f"bleu-xl:{SCORING_VERSION}|")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## Unreleased (bleu-xl {__version__.split('.dev')[0]}, scoring {SCORING_VERSION})" in changelog
    assert "## 0.1.0 (scoring 0.1.0)" in changelog
