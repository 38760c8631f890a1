"""A regular install carries everything cardgen reads besides its code: fonts, built-in layouts
and the example packs (pyproject's data-files must name every folder of them)."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_shipped_data_file_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = [p for globs in config["tool"]["setuptools"]["data-files"].values() for p in globs]
    needed = [p.relative_to(ROOT).as_posix() for folder in ("fonts", "templates", "card_data")
              for p in (ROOT / folder).rglob("*") if p.is_file()]
    assert needed
    missing = [name for name in needed if not any(fnmatch.fnmatch(name, pattern) and
                                                  name.count("/") == pattern.count("/")
                                                  for pattern in patterns)]
    assert not missing, f"add these folders to [tool.setuptools.data-files]: {missing}"


def test_every_engine_package_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {p.parent.relative_to(ROOT).as_posix().replace("/", ".")
             for p in (ROOT / "cardgen").rglob("__init__.py")}
    assert found == listed


def test_readme_and_ci_run_the_same_test_command():
    """The README's test line is what .ci/run runs; `-n` needs pytest-xdist in the test extra."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if "python -m pytest" in line)
    command = line[line.index("python -m pytest"):].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in [step.strip() for step in ci]
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["test"]
    if " -n " in f"{command} ":
        assert any(name.startswith("pytest-xdist") for name in extra)
