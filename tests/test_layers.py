"""The layers on disk keep their import rules: each imports only the layers below it, and nothing runs in a circle.

core < excel < table < lite < files < template < release < jobs < the package's public surface (``bleu_xl``) <
the faces (cli, udfs; console, the console script, loads cli); lite is the xlwings Lite face (its scripts and the
bundle builder). The core and the modules the xlwings Lite bundle embeds import only the standard library, so the
same code runs under Pyodide; files takes from the Excel layer only what one cell holds (``excel.cell_values``);
fast (numpy paths that give the core's results faster) imports only the core, and only jobs use it; the command
line imports only the library's public surface, the names ``bleu_xl`` exports.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from bleu_xl.lite.bundle import EMBEDDED

PACKAGE = Path(__file__).resolve().parent.parent / "bleu_xl"

#: What each part may import from the package (a layer, or one module of it), besides itself.
ALLOWED = {
    "core": {"core"},
    "excel": {"core", "excel", "_version"},
    "table": {"core", "excel", "table"},
    "lite": {"core", "excel", "table", "lite", "_version"},
    "files": {"core", "excel.cell_values", "table", "files"},
    "template": {"core", "excel", "table", "lite", "files", "template"},
    "release": {"core", "excel", "lite", "files", "template", "_version", "release"},
    "fast": {"core", "fast"},
    "jobs": {"core", "excel", "table", "lite", "files", "template", "release", "fast", "jobs"},
    "udfs": {"excel"},
    "__init__": {"core", "_version", "jobs"},
    "_version": set(),
    "cli": {"__init__", "cli"},
    "console": {"cli"},
}
#: Packages from outside the standard library that each part may import.
THIRD_PARTY = {
    "excel": {"xlwings"},
    "files": {"xlsxwriter", "python_calamine"},
    "fast": {"numpy"},
    "template": {"xlsxwriter"},
    "udfs": {"xlwings"},
    "cli": {"click", "rich"},
}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _part(path: Path) -> str:
    inner = path.relative_to(PACKAGE)
    return inner.parts[0] if len(inner.parts) > 1 else inner.stem


def _name(path: Path, root: Path = PACKAGE) -> str:
    """``core.bleu``, ``excel`` (a package), ``cli``: the module's name inside bleu_xl (``__init__`` for bleu_xl)."""
    inner = path.relative_to(root).with_suffix("")
    parts = inner.parts[:-1] if inner.name == "__init__" else inner.parts
    return ".".join(parts) or "__init__"


def _imports(path: Path, root: Path = PACKAGE) -> tuple[set[str], set[str]]:
    """The package modules (by name inside bleu_xl) and the outside top-level packages that ``path`` imports."""
    inner: set[str] = set()
    outer: set[str] = set()
    own = [] if _name(path, root) == "__init__" else _name(path, root).split(".")
    package = own if path.name == "__init__.py" else own[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = [*base, *(node.module.split(".") if node.module else [])]
            for alias in node.names:
                full = [*target, alias.name]
                is_module = root.joinpath(*full).with_suffix(".py").exists() or root.joinpath(*full).is_dir()
                inner.add(".".join(full if is_module else target) or "__init__")
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            if top == "bleu_xl":
                target = node.module.split(".")[1:]
                for alias in node.names:  # ``from bleu_xl import udfs`` imports the module udfs
                    full = [*target, alias.name]
                    is_module = root.joinpath(*full).with_suffix(".py").exists() or root.joinpath(*full).is_dir()
                    inner.add(".".join(full if is_module else target) or "__init__")
            else:
                outer.add(top)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top == "bleu_xl":
                    inner.add(alias.name.removeprefix("bleu_xl").lstrip(".") or "__init__")
                else:
                    outer.add(top)
    return inner, outer - set(sys.stdlib_module_names) - {"__future__"}


def _within(name: str, rules: set[str]) -> bool:
    return any(name == rule or name.startswith(rule + ".") for rule in rules)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_module_imports_only_the_layers_below(path: Path) -> None:
    part = _part(path)
    inner, outer = _imports(path)
    for name in inner:
        assert _within(name, ALLOWED[part] | {part}), f"{path.relative_to(PACKAGE)} imports {name}"
    assert outer <= THIRD_PARTY.get(part, set()), f"{path.relative_to(PACKAGE)} imports {outer}"


@pytest.mark.parametrize("inner", EMBEDDED)
def test_the_lite_bundle_embeds_only_standard_library_modules(inner: str) -> None:
    path = PACKAGE / inner
    names, outer = _imports(path)
    assert not outer, f"{inner} imports {outer}: it would not run in xlwings Lite"
    embedded = {_name(PACKAGE / e) for e in EMBEDDED}
    assert names <= embedded, f"{inner} imports {names - embedded}, which the bundle does not embed"


def test_no_module_imports_in_a_circle() -> None:
    graph = {_name(path): _imports(path)[0] for path in _modules()}
    for name, targets in graph.items():
        graph[name] = {t for t in targets if t in graph and t != name}
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            assert state.get(target) != "open", " -> ".join([*trail, name, target])
            if target not in state:
                visit(target, [*trail, name])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


def test_the_rules_catch_a_core_module_that_imports_the_excel_layer(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "excel").mkdir()
    (tmp_path / "excel" / "cells.py").write_text("", encoding="utf-8")
    probe = tmp_path / "core" / "probe.py"
    probe.write_text("from ..excel import cells\nimport click\n", encoding="utf-8")
    inner, outer = _imports(probe, tmp_path)
    assert inner == {"excel.cells"} and outer == {"click"}
    assert not _within("excel.cells", ALLOWED["core"])


def test_the_rules_see_a_module_imported_from_the_package_by_absolute_name(tmp_path: Path) -> None:
    (tmp_path / "udfs.py").write_text("", encoding="utf-8")
    probe = tmp_path / "cli.py"
    probe.write_text("from bleu_xl import udfs\nfrom bleu_xl import __version__\n", encoding="utf-8")
    inner, _ = _imports(probe, tmp_path)
    assert inner == {"udfs", "__init__"}
    assert not _within("udfs", ALLOWED["cli"])


def test_the_command_line_uses_only_names_the_package_exports() -> None:
    """The command line is a face of the library: every name it takes from ``bleu_xl`` (``from .. import X``,
    ``from bleu_xl import X``, or ``bleu_xl.X`` after ``import bleu_xl``) is in ``bleu_xl.__all__``."""
    import bleu_xl

    taken = set()
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (
                (node.level == 2 and node.module is None) or (node.level == 0 and node.module == "bleu_xl")
            ):
                taken |= {alias.name for alias in node.names}
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "bleu_xl":
                taken.add(node.attr)
    assert taken and taken <= set(bleu_xl.__all__), taken - set(bleu_xl.__all__)
    assert all(hasattr(bleu_xl, name) for name in taken)


def test_the_rule_for_the_command_line_sees_every_way_of_naming_the_package(tmp_path: Path) -> None:
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "score.py").write_text("", encoding="utf-8")
    probe = tmp_path / "cli.py"
    probe.write_text("from bleu_xl.jobs.score import x\nimport bleu_xl.jobs.score\n", encoding="utf-8")
    inner, _ = _imports(probe, tmp_path)
    assert inner == {"jobs.score"} and not _within("jobs.score", ALLOWED["cli"])
