"""The console script: Ctrl-C while Python is still loading the command ends the run as Ctrl-C does later (exit
code 130, nothing printed), not with a traceback from the import system."""

from __future__ import annotations

import subprocess
import sys

#: A child that interrupts itself, with a real SIGINT, while it imports the command's ``score`` module, in the
#: entry point named by its first argument (``bleu_xl.console`` or ``bleu_xl.cli``), which it then runs.
INTERRUPTED_WHILE_LOADING = """
import importlib, os, signal, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "bleu_xl.cli.score":
            os.kill(os.getpid(), signal.SIGINT)
        return None

entry = sys.argv[1]
sys.argv = ["bleu-xl", "--version"]
sys.meta_path.insert(0, Interrupt())
importlib.import_module(entry).main()
"""


def run_interrupted(entry: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", INTERRUPTED_WHILE_LOADING, entry], capture_output=True, text=True, timeout=120
    )


def test_ctrl_c_while_the_command_loads_exits_130_in_silence() -> None:
    done = run_interrupted("bleu_xl.console")
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


def test_the_interruption_lands_while_the_command_loads() -> None:
    """Without the console script's guard the same interruption shows a traceback: the test reaches the window it
    is about."""
    done = run_interrupted("bleu_xl.cli")
    assert done.returncode != 0 and "KeyboardInterrupt" in done.stderr


def test_the_console_script_is_the_command() -> None:
    code = "import sys; sys.argv = ['bleu-xl', '--version']; import bleu_xl.console as c; c.main()"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.startswith("bleu-xl ")
