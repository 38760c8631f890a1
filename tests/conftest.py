"""Shared fixtures: the CLI, a copy of the shipped pack, and small packs written from strings.

Bad-input fixtures (tests/fixtures/invalid/<case>/, run by test_fixtures.py):
  card_data/<pack>/...  a complete small pack with one mistake; tests/fixtures/valid/ holds the same
                        pack without it, so `diff -r` shows what each case breaks
  expected.txt          line 1: `exit: N`, the exit code of `cardgen check` run in the case folder;
                        optional `args: ...`, extra arguments (e.g. `args: --strict`);
                        then every line cardgen writes to stderr, exactly (diagnostics, summary).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from cardgen.cli.app import app as cardgen_app
from cardgen.load import ROOT

# Property tests explore the same examples on every run: CI must not fail on a case nobody saw
# locally. (Run with --hypothesis-seed=N or change the profile to explore further.)
settings.register_profile("repeatable", derandomize=True, database=None)
settings.load_profile("repeatable")

SHIPPED = ROOT / "card_data"
FIXTURES = Path(__file__).parent / "fixtures"
MINI = FIXTURES / "valid" / "card_data" / "mini"  # a valid, buildable pack: 2 kinds, 4 cards


@pytest.fixture(scope="session", autouse=True)
def _own_cache(tmp_path_factory):
    """cardgen's disk cache (cardgen/cache.py) in a folder of this test session, never the
    user's ~/.cache: a test sees only entries that tests of this run wrote."""
    previous = os.environ.get("CARDGEN_CACHE")
    os.environ["CARDGEN_CACHE"] = str(tmp_path_factory.mktemp("cardgen-cache"))
    yield
    if previous is None:
        os.environ.pop("CARDGEN_CACHE", None)
    else:
        os.environ["CARDGEN_CACHE"] = previous


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def app():
    return cardgen_app


@pytest.fixture
def cli(runner, app):
    """Run `cardgen ARGS`; an exception inside cardgen fails the test instead of looking like
    exit code 1 (CliRunner would otherwise swallow it)."""
    return lambda *args: runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def copy_shipped(tmp_path: Path, pack: str = "crazy-hospital") -> Path:
    """tmp_path/card_data/<pack>: a copy of a shipped pack that a test may break at will."""
    target = tmp_path / "card_data" / pack
    shutil.copytree(SHIPPED / pack, target)
    return target


def make_pack(tmp_path: Path, files: dict[str, str | None] | None = None,
              pack: str = "mini") -> Path:
    """tmp_path/card_data/<pack>: the valid mini pack, with `files` ({path in the pack: text})
    written over it; None as text removes that file."""
    target = tmp_path / "card_data" / pack
    shutil.copytree(MINI, target)
    for name, text in (files or {}).items():
        path = target / name
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return target


@pytest.fixture(name="copy_shipped", scope="session")
def _copy_shipped():
    return copy_shipped


@pytest.fixture(name="make_pack", scope="session")
def _make_pack():
    return make_pack


_SHIPPED_BUILDS: dict[str, tuple] = {}


@pytest.fixture(name="shipped_build", scope="session")
def _shipped_build():
    """shipped_build(pack) -> (data, report, files): the shipped pack's cards.pdf,
    printshop.pdf and rulebook.pdf, rendered in this process once per test session (once per
    xdist worker) for every test that only reads them. Do not change what it returns."""
    from cardgen.build import BuildSettings, check, render_pack
    from cardgen.diagnostics import Report

    def build(pack: str = "crazy-hospital"):
        if pack not in _SHIPPED_BUILDS:
            report = Report()
            data = check(SHIPPED / pack, report)
            assert data is not None and not report.errors, [d.format() for d in report.errors]
            result = render_pack(data, report, BuildSettings(
                only=("cards", "printshop", "rulebook")))
            assert result is not None, [d.format() for d in report.errors]
            _SHIPPED_BUILDS[pack] = (data, report, result.files)
        return _SHIPPED_BUILDS[pack]
    return build


_PACK_CHECKS: dict[tuple, tuple] = {}


@pytest.fixture
def shipped_checks_once(monkeypatch):
    """`cardgen check` of a shipped pack runs its whole-pack stage (load and validate, lay out
    every card, every rule text) once per test session, then replays it.

    That stage reads only the pack's files, never the deck choice (cli/check.py runs it before
    compose()), and the shipped packs are not changed by tests; so for the many choices checked
    against one shipped pack, the first run's result is the result of every run: the returned
    data and the diagnostics and check names it added to the report. Only the checks of a run
    whose report is still empty are replayed (a pack after another's error runs for real); a
    copy of a pack (tmp_path) always runs for real. For tests that only check (not build).

    Returns loaded(pack) -> the shipped pack's data, checked through the same cache."""
    import cardgen.build
    import cardgen.render.rulebook
    from cardgen.diagnostics import Report
    replayed: set[int] = set()  # ids of the data objects returned from the cache

    def once(name, real, key_of):
        def run(first, report, *rest):
            key = key_of(first, *rest)
            if key is None or report.items:
                return real(first, report, *rest)
            if (name, key) not in _PACK_CHECKS:
                fresh = Report()
                _PACK_CHECKS[name, key] = (real(first, fresh, *rest), fresh.items, fresh.ran)
            value, items, ran = _PACK_CHECKS[name, key]
            report.items.extend(items)
            report.ran.extend(ran)
            if name == "check" and value is not None:
                replayed.add(id(value))
            return value
        return run

    def folder_key(folder):
        folder = Path(folder).resolve()
        return folder if folder.parent == SHIPPED.resolve() else None

    def data_key(data, *settings):
        if id(data) not in replayed or any(s != cardgen.build.BuildSettings() for s in settings):
            return None
        return data.folder

    checked = once("check", cardgen.build.check, folder_key)
    monkeypatch.setattr(cardgen.build, "check", checked)
    monkeypatch.setattr(cardgen.build, "layout_faces",
                        once("layout_faces", cardgen.build.layout_faces, data_key))
    monkeypatch.setattr(cardgen.render.rulebook, "check_rules",
                        once("check_rules", cardgen.render.rulebook.check_rules, data_key))
    return lambda pack="crazy-hospital": checked(SHIPPED / pack, Report())


def tree(root: Path) -> dict[str, bytes | str]:
    """Everything below root: files by content, folders and symlinks by kind (for before/after)."""
    out: dict[str, bytes | str] = {}
    if not root.exists():
        return out
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            out[name] = f"symlink -> {path.readlink()}"
        elif path.is_dir():
            out[name] = "folder"
        else:
            out[name] = path.read_bytes()
    return out


@pytest.fixture(name="tree", scope="session")
def _tree():
    return tree
