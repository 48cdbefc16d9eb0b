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
