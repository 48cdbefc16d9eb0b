"""The README stays true: its test command is the one CI runs, its quick start and its Python example work."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = ci.strip().splitlines()[-1]
    assert command == ".venv/bin/python -m pytest"
    assert f"```bash\n{command}\n```" in README


def test_quick_start_scores_a_committed_sample() -> None:
    line = next(line for line in README.splitlines() if line.startswith("python3 -m venv .venv"))
    sample = re.search(r"bleu-xl score (\S+)", line).group(1)
    assert (ROOT / sample).exists()


def test_python_example() -> None:
    block = re.search(r"```python\n(.*?)```", README, flags=re.S).group(1)
    test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3


def test_readme_command_output_is_real() -> None:
    from click.testing import CliRunner

    from bleu_xl.cli import main

    block = re.search(r"```text\n\$ (bleu-xl compare [^\n]+)\n(.*?)```", README, flags=re.S)
    args = re.findall(r'"[^"]*"|\S+', block.group(1))[1:]
    out = CliRunner().invoke(main, [a.strip('"') for a in args]).output
    assert out == block.group(2)
    pair = re.search(r"```text\n\$ (bleu-xl pair [^\n]+)\n(.*?)```", README, flags=re.S)
    args = re.findall(r'"[^"]*"|\S+', pair.group(1))[1:]
    shown = CliRunner().invoke(main, [a.strip('"') for a in args]).output
    assert all(line in shown.splitlines() for line in pair.group(2).splitlines())


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
    assert "corpus BLEU-2 0.6133" in done.stdout
    assert sample.with_name(sample.stem + "-scored.xlsx").exists()


# --- the function table: the registry, as the add-ins declare it ------------------------------------------------


def _function_table() -> list[tuple[str, str]]:
    """The README's function table as (formula, result) rows."""
    table = re.search(r"^\| formula \| result \|\n\| --- \| --- \|\n((?:\|.*\|\n)+)", README, flags=re.M)
    assert table, "the function table (| formula | result |) is missing from README.md"
    rows = [line.strip("|").split(" | ") for line in table.group(1).splitlines()]
    return [(formula.strip(), result.strip()) for formula, result in rows]


def test_function_table_is_the_registry() -> None:
    from bleu_xl.excel.functions import FUNCTIONS

    expected = [(f"`={function.syntax}`", function.description) for function in FUNCTIONS]
    assert _function_table() == expected, "regenerate the table: " + "\n".join(
        f"| {formula} | {result} |" for formula, result in expected
    )


def test_readme_and_both_add_ins_list_exactly_the_registry() -> None:
    import bleu_xl.udfs
    from bleu_xl.excel.functions import FUNCTIONS

    from . import lite_driver

    names = [function.name for function in FUNCTIONS]
    assert len(names) == len(set(names)) == 15
    assert [re.match(r"`=(\w+)\(", formula).group(1) for formula, _ in _function_table()] == names
    assert bleu_xl.udfs.__all__ == names
    with lite_driver.bundle_module(ROOT / "install" / "xlwings-lite" / "main.py") as bundle:
        assert list(bundle._DECLARED) == names
        assert all(vars(bundle)[name] is bundle._DECLARED[name] for name in names)


def test_lite_steps_say_what_the_bundle_shows() -> None:
    """The Lite instructions' first check (how main.py starts) and their first formula's result are true."""
    from bleu_xl import score

    lite_readme = (ROOT / "install" / "xlwings-lite" / "README.md").read_text(encoding="utf-8")
    bundle = (ROOT / "install" / "xlwings-lite" / "main.py").read_text(encoding="utf-8")
    for text in (" ".join(README.split()), " ".join(lite_readme.split())):  # lines wrapped anywhere
        assert 'with `"""bleu-xl ... for xlwings Lite`' in text
        assert '`=BLEU2("the cat sat on the mat", "the cat sat on a mat")` into a cell: it shows `0.707107`' in text
        assert "#NAME?" in text
    assert re.match(r'"""bleu-xl \S+ for xlwings Lite', bundle)
    assert f"{score('the cat sat on the mat', 'the cat sat on a mat').bleu:.6f}" == "0.707107"  # General format
