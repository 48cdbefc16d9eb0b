"""The ``bleu-xl`` console script: the command, with Ctrl-C while Python loads it ending the run as the command does
(exit code 130, in silence) rather than with a traceback from deep in the import system."""

from __future__ import annotations


def main() -> None:
    """Load the command line and run it."""
    try:
        from .cli import main as command
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    command()
