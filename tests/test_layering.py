"""The layering of DESIGN.md is a contract (pyproject.toml, [tool.importlinter]): an import
that runs up the stages fails the tests, as it fails CI."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contract_is_kept():
    done = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--config",
                           str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_private_name_is_imported_across_modules():
    """A module that needs another's _private name shows the line between them is wrong."""
    found = []
    for path in sorted((ROOT / "cardgen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "")
                                                     .startswith("cardgen")):
                found += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert found == []


def test_units_are_defined_once():
    """MM and the paper sizes live in cardgen/units.py only."""
    defined = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "cardgen").rglob("*.py"))
               for line in p.read_text(encoding="utf-8").splitlines()
               if line.startswith(("MM = ", "PAPER = ", "PAPER_SIZES = "))]
    assert defined == ["cardgen/units.py", "cardgen/units.py"]
