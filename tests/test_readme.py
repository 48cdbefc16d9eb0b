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
