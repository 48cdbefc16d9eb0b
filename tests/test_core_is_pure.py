"""The scoring core imports only the standard library, so the same code runs under Pyodide (xlwings Lite)."""

import ast
import sys
from pathlib import Path

import pytest

from bleu_xl.lite import INLINED as CORE  # the modules inlined into the Lite bundle: written once, there


@pytest.mark.parametrize("name", CORE)
def test_core_module_imports_only_stdlib(name: str) -> None:
    tree = ast.parse((Path(__file__).parent.parent / "bleu_xl" / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: must itself be a core module
                assert f"{node.module}.py" in CORE, node.module
                continue
            roots = [node.module.split(".")[0]]
        else:
            continue
        for root in roots:
            assert root in sys.stdlib_module_names, f"{name} imports {root}"
