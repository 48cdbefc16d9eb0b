"""The README is a front page and stays true: short, its first screen says what bleu-xl is, for whom and how to get
it; its test command is the one CI runs, its quick start, command lines, Python example and figures work."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    """The text under the heading ``## title``, up to the next one."""
    return re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, flags=re.M | re.S).group(1)


def test_the_readme_is_a_front_page() -> None:
    assert len(README.splitlines()) <= 150 and len(README.split()) <= 1500
    first_screen = "\n".join(README.splitlines()[:30])
    for what in ("scores copy variants and machine translations", "It is for marketing and localisation teams"):
        assert what in first_screen  # what it is, for whom
    assert "## Get it" in first_screen and "pip install bleu-xl" in first_screen  # how to get it
    assert "`bleu-xl-VERSION.zip`" in first_screen and "READ ME FIRST.txt" in first_screen
    assert re.search(r"^!\[[^\]]+\]\(docs/template-\d\d\.png\)$", first_screen, flags=re.M)  # the template
    headings = re.findall(r"^## (.+)$", README, flags=re.M)
    assert headings == [
        "Get it",
        "Quick start",
        "In Excel in three steps",
        "The command line in three lines",
        "Python in three lines",
        "What BLEU-2 is, and is not",
        "More",
    ]


def test_ci_runs_the_readme_commands_in_order() -> None:
    """CI runs the quick start, then the test command, as a new user does: in the checkout the quick start wrote
    into (so the tests must pass beside the scored sample it leaves)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    quick_start = next(line for line in README.splitlines() if line.startswith("python3 -m venv .venv"))
    command = ci[-1]
    assert command == ".venv/bin/python -m pytest"
    assert f"```bash\n{command}\n```" in README
    assert ci[-2] == quick_start and README.index(quick_start) < README.index(f"```bash\n{command}\n```")


def test_no_test_collects_what_the_quick_start_writes() -> None:
    """The quick start leaves ``workbooks/samples/marketing_en-scored.xlsx`` in the checkout: a test that lists a
    folder of the checkout it writes into would take it for a sample. Tests name the files they read there, or list
    a copy."""
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r"\.(?:r?glob|iterdir)\(", text):
            line = text[text.rfind("\n", 0, found.start()) + 1 : text.find("\n", found.start())]
            assert "workbooks" not in line and not re.search(r"\bROOT\.(?:r?glob|iterdir)", line), (path.name, line)


def test_quick_start_scores_a_committed_sample() -> None:
    line = next(line for line in README.splitlines() if line.startswith("python3 -m venv .venv"))
    sample = re.search(r"bleu-xl score (\S+)", line).group(1)
    assert (ROOT / sample).exists()


def test_quick_start_command_runs(tmp_path) -> None:
    """The README's first command, past its install step, on a copy of the sample (the checkout stays clean)."""
    import shutil
    import subprocess
    import sys

    line = next(line for line in README.splitlines() if line.startswith("python3 -m venv .venv"))
    args = line.split("&& .venv/bin/bleu-xl ", 1)[1].split()
    exe = Path(sys.executable).with_name("bleu-xl")
    if not exe.exists():
        import pytest

        pytest.skip("the package is not installed as a console script in this environment")
    sample = tmp_path / Path(args[1]).name
    shutil.copyfile(ROOT / args[1], sample)
    done = subprocess.run([str(exe), args[0], str(sample), *args[2:]], capture_output=True, text=True, check=True)
    corpus = re.search(r"^corpus BLEU-2 \S+", README, flags=re.M).group()
    assert corpus in done.stdout
    assert sample.with_name(sample.stem + "-scored.xlsx").exists()


def test_quick_start_output_is_real(tmp_path, monkeypatch) -> None:
    from .helpers import copy_examples, shown_output

    line = next(line for line in README.splitlines() if line.startswith("python3 -m venv .venv"))
    command = "bleu-xl " + line.split("&& .venv/bin/bleu-xl ", 1)[1]
    shown = re.search(r"```bash\npython3 -m venv[^\n]*\n```\n\n```text\n(.*?)```", README, flags=re.S).group(1)
    copy_examples(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert shown_output(command) == shown


def command_lines() -> list[str]:
    """The three lines of *The command line in three lines* (tests/release runs them from the wheel)."""
    return (
        re.search(r"```bash\n(.*?)```", _section("The command line in three lines"), flags=re.S).group(1).splitlines()
    )


def test_the_command_line_in_three_lines(tmp_path, monkeypatch) -> None:
    from click.testing import CliRunner

    from bleu_xl.cli import main

    lines = command_lines()
    assert len(lines) == 3 and lines[0] == "pip install bleu-xl"
    monkeypatch.chdir(tmp_path)
    for line in lines[1:]:
        assert line.startswith("bleu-xl ")
        result = CliRunner().invoke(main, line.split()[1:])
        assert result.exit_code == 0, (line, result.output)
    assert (tmp_path / "workbooks" / "samples" / "marketing_en-scored.xlsx").exists()


def test_python_example() -> None:
    block = re.search(r"```python\n(.*?)```", _section("Python in three lines"), flags=re.S).group(1)
    test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries == 3


def test_what_bleu_2_is_the_seed_s_worked_example() -> None:
    """The figures of *What BLEU-2 is, and is not*, recomputed (the glossary's BLEU-4 example, 0.796)."""
    import math

    from bleu_xl import score

    text = " ".join(_section("What BLEU-2 is, and is not").split())
    reference = "a entrega chegou no prazo e o produto veio bem embalado"
    candidate = "a entrega chegou no prazo e o produto veio intacto"
    paraphrase = "o pedido foi entregue dentro do prazo e chegou bem embalado"
    assert all(f'"{s}"' in text for s in (reference, candidate, paraphrase))
    s = score(reference, candidate)
    assert (s.stats.matches[0], s.stats.totals[0], s.stats.matches[1], s.stats.totals[1]) == (9, 10, 8, 9)
    assert "p1 = 9/10 and p2 = 8/9" in text and (s.r, s.c) == (11, 10)
    assert f"BP = e^(1 - 11/10) = {s.bp:.3f}" in text and f"BLEU-2 = {s.bleu:.3f}" in text
    assert s.bp == math.exp(1 - 11 / 10)
    assert f"gives {score(reference, candidate, max_n=4, smoothing='none').bleu:.3f}" in text
    assert f"scores {score(reference, paraphrase).bleu:.3f}" in text


def test_the_lite_steps_say_what_the_bundle_shows() -> None:
    """The first check (how main.py starts) and the first formula's result of the Excel steps are true."""
    from bleu_xl import score

    text = " ".join(README.split())
    bundle = (ROOT / "install" / "xlwings-lite" / "main.py").read_text(encoding="utf-8")
    assert 'with `"""bleu-xl ... for xlwings Lite`' in text and re.match(r'"""bleu-xl \S+ for xlwings Lite', bundle)
    assert '`=BLEU2("the cat sat on the mat", "the cat sat on a mat")` into a cell: it shows `0.707107`' in text
    assert f"{score('the cat sat on the mat', 'the cat sat on a mat').bleu:.6f}" == "0.707107"  # General format
    assert '`=BLEU2("le chat", "le chat")` into a cell: `1`' in text and score("le chat", "le chat").bleu == 1
    assert text.index("find `=` and replace with `=`") < text.index("Ctrl+Alt+F9")  # what works comes first
