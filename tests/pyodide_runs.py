"""Jobs run in real Pyodide under Node (``tests/pyodide/serve.mjs``): one Node process a test process, which loads
Pyodide once and answers every job, as xlwings Lite keeps one Pyodide for a workbook.

Tests that use it share one test process (``pytest.mark.xdist_group("pyodide")``, with ``--dist loadgroup``), so
that a run of the suite starts Pyodide once. Where Node or Pyodide is missing the test is skipped, saying how to
install it; in CI (``CI=true``) it fails.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from . import lite_driver

PYODIDE = Path(__file__).resolve().parent / "pyodide"
BUNDLE = PYODIDE.parent.parent / "install" / "xlwings-lite" / "main.py"
#: The marker of the tests that run jobs here: they share one test process, and so one Pyodide.
SHARED = pytest.mark.xdist_group("pyodide")

_server: subprocess.Popen[str] | None = None


def _node() -> str:
    node = shutil.which("node")
    if not (node and (PYODIDE / "node_modules" / "pyodide" / "pyodide.mjs").exists()):
        if os.environ.get("CI") == "true":
            pytest.fail("Node or Pyodide is missing: .ci/run installs Pyodide with npm (tests/pyodide)")
        pytest.skip("Pyodide is not installed: npm install --prefix tests/pyodide --no-audit --no-fund")
    return node


def _started() -> subprocess.Popen[str]:
    global _server
    if _server is None or _server.poll() is not None:
        _server = subprocess.Popen(
            [_node(), str(PYODIDE / "serve.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")},
        )
        atexit.register(_server.kill)
    return _server


def in_pyodide(kind: str, job: dict[str, Any], bundle: Path = BUNDLE) -> dict[str, Any]:
    """The report of ``job`` run in this test process's Pyodide: ``kind`` ``"bundle"`` registers the bundle's
    functions and answers ``job["payloads"]``; ``"script"`` runs a script (``script``, ``book``, ``args``,
    ``cells``), or each of ``job["runs"]``."""
    import xlwings

    server = _started()
    line = {
        **job,
        "kind": kind,
        "driver": lite_driver.__file__,
        "bundle": str(bundle),
        "xlwings": str(Path(xlwings.__file__).parent),
    }
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(line) + "\n")
    server.stdin.flush()
    reply = server.stdout.readline()
    assert reply, f"Pyodide's process ended (exit code {server.wait()})"
    answer = json.loads(reply)
    assert "error" not in answer, answer["error"]
    return answer["report"]
