"""Shared fixtures: the CLI, a copy of the shipped pack, small packs written from strings, and
the shipped packs loaded and built once per test session (shared by all xdist workers: see
shipped_out, shipped_build, shipped_variant, shipped_rulebook, shipped_data, shipped_checks_once).

Bad-input fixtures (tests/fixtures/invalid/<case>/, run by tests/pipeline/test_fixtures.py):
  card_data/<pack>/...  a complete small pack with one mistake; tests/fixtures/valid/ holds the same
                        pack without it, so `diff -r` shows what each case breaks
  expected.txt          line 1: `exit: N`, the exit code of `cardgen check` run in the case folder;
                        optional `args: ...`, extra arguments (e.g. `args: --strict`);
                        then every line cardgen writes to stderr, exactly (diagnostics, summary).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
from io import BytesIO
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from cardgen.cli.app import app as cardgen_app
from cardgen.paths import ROOT

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
    user's ~/.cache: a test sees only entries that tests of this run wrote. One folder for all
    xdist workers (entries are written atomically): what one worker prepared, laid out or
    hyphenated, the other reads. A test about the cache itself sets its own."""
    previous = os.environ.get("CARDGEN_CACHE")
    os.environ["CARDGEN_CACHE"] = str(_shared_folder(tmp_path_factory) / "cardgen-cache")
    yield
    if previous is None:
        os.environ.pop("CARDGEN_CACHE", None)
    else:
        os.environ["CARDGEN_CACHE"] = previous


@pytest.fixture(scope="session", autouse=True)
def _no_user_settings():
    """No printer settings from this machine's ~/.config/cardgen/settings.yaml: /dev/null is
    "no settings" (load.settings). A test about the settings file sets its own."""
    previous = os.environ.get("CARDGEN_SETTINGS")
    os.environ["CARDGEN_SETTINGS"] = os.devnull
    yield
    if previous is None:
        os.environ.pop("CARDGEN_SETTINGS", None)
    else:
        os.environ["CARDGEN_SETTINGS"] = previous


@pytest.fixture(autouse=True)
def _base_edition():
    """Every test starts and ends on each pack's base edition: a command run in-process with
    --language chooses its edition for the process (cardgen.paths), and a pack loaded
    afterwards (and kept, as shipped_data keeps them) would otherwise be that translation."""
    from cardgen.paths import choose_edition
    choose_edition(None)
    yield
    choose_edition(None)


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


def with_points(pack: Path, balance: str) -> Path:
    """A mini pack with `balance` as its balance.yaml and points on its heroes (3 for set A,
    2 for set B), for `cardgen balance --apply` to change."""
    (pack / "balance.yaml").write_text(balance, encoding="utf-8")
    cards = pack / "cards" / "heroes.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "    set: A\n", "    set: A\n    points: 3\n").replace(
        "    set: B\n", "    set: B\n    points: 2\n"), encoding="utf-8")
    return pack


# a board of one picture, images/board.png
PICTURE_BOARD = """\
boards:
  plan:
    title: Plan
    size: {width: 100, height: 100}
    regions:
      art: {type: image, x: 10, y: 10, w: 80, h: 80, image: images/board.png}
"""


def pictured_mini(root: Path, layouts: str, boards: str = PICTURE_BOARD) -> Path:
    """root/card_data/mini with `layouts` as its layouts.yaml (which defines pix-front, the
    front of both its kinds now) and `boards` as its boards.yaml: the pictures are the
    caller's to add."""
    pack = root / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    (pack / "layouts.yaml").write_text(layouts, encoding="utf-8")
    (pack / "boards.yaml").write_text(boards, encoding="utf-8")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    for front in ("front: stat-card", "front: mini-consultant"):  # both kinds' fronts
        text = text.replace(front, "front: pix-front")
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    return pack


def build_mini(root: Path) -> Path:
    """root/card_data/mini, built once (cards only) into root/out: `root`."""
    shutil.copytree(MINI, root / "card_data" / "mini")
    result = CliRunner().invoke(cardgen_app, ["build", "--data", str(root / "card_data"),
                                              "--out", str(root / "out"), "--only", "cards",
                                              "--jobs", "1"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture(name="copy_shipped", scope="session")
def _copy_shipped():
    return copy_shipped


@pytest.fixture(name="make_pack", scope="session")
def _make_pack():
    return make_pack


# What the shared build makes of every shipped pack: the default outputs and the calibration sheet
SHIPPED_OUTPUTS = ("cards", "printshop", "boards", "rulebook", "calibration")


def _shared_folder(tmp_path_factory) -> Path:
    """This test session's temporary folder that every xdist worker sees: pytest-N/, the
    folder of every worker's popen-gwX/ (without xdist, the session's own)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _digest(value) -> str:
    """A file name for what a repr() tells apart (settings, geometries: dataclasses)."""
    import hashlib
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def _once_for_all_workers(folder: Path, name: str, make):
    """make()'s result (picklable), made by the first worker that asks, under a file lock; the
    other workers wait for it and read it (folder/name.pickle). A make() that raises leaves no
    file: the next worker tries again and fails the same way."""
    import pickle

    from filelock import FileLock

    done = folder / f"{name}.pickle"
    with FileLock(str(folder / f"{name}.lock")):
        if not done.is_file():
            done.write_bytes(pickle.dumps(make()))
    return pickle.loads(done.read_bytes())


@pytest.fixture(name="once_for_all_workers", scope="session")
def _once_for_all_workers_fixture(tmp_path_factory):
    """once_for_all_workers(name, make) -> make()'s result, made once per test session by the
    first xdist worker that asks (picklable; name unique to what make() makes)."""
    folder = _shared_folder(tmp_path_factory)
    return lambda name, make: _once_for_all_workers(folder, name, make)


@pytest.fixture(name="shipped_out", scope="session")
def _shipped_out(tmp_path_factory):
    """shipped_out(pack) -> the folder of `cardgen build PACK --data card_data --jobs 2
    --only ...` (SHIPPED_OUTPUTS) of a shipped pack, built once per test session for all xdist
    workers: the first worker to need a pack builds it (one lock per pack, so two workers
    build two packs at once), the others wait and read the same folder. Tests only read it
    (copy what you change)."""
    shared = _shared_folder(tmp_path_factory)

    def out(pack: str) -> Path:
        root = shared / f"shipped-out-{pack}"

        def make():
            args = ["build", pack, "--data", str(SHIPPED), "--out", str(root), "--jobs", "2"]
            for kind in SHIPPED_OUTPUTS:
                args += ["--only", kind]
            result = CliRunner().invoke(cardgen_app, args, catch_exceptions=False)
            return {"exit": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}
        said = _once_for_all_workers(shared, f"shipped-out-{pack}", make)
        assert said["exit"] == 0 and not said["stderr"], said  # the pack builds clean
        return root / pack
    return out


@pytest.fixture(name="shipped_variant", scope="session")
def _shipped_variant(tmp_path_factory):
    """shipped_variant(pack, **settings) -> (data, report, files): the shipped pack rendered
    with BuildSettings(**settings) (choice=Choice(...) renders the chosen deck), once per test
    session for all xdist workers; for builds that several tests read. Do not change what it
    returns."""
    from cardgen.model.settings import BuildSettings
    from cardgen.pipeline.draw import render_pack
    from cardgen.compose import compose
    from cardgen.diagnostics import Report
    folder = _shared_folder(tmp_path_factory)

    def build(pack: str = "crazy-hospital", **settings):
        wanted = BuildSettings(**settings)
        data, report = _checked(pack)

        def make():
            made = Report()
            deck = None
            if wanted.choice is not None:
                deck = compose(data, wanted.choice, made)
                assert deck is not None, [d.format() for d in made.errors]
            # a copy: render_pack narrows the cards of the data it is given to the chosen deck
            result = render_pack(dataclasses.replace(data), made, wanted, deck=deck)
            assert result is not None, [d.format() for d in made.errors]
            return result.files, made.items
        files, items = _once_for_all_workers(folder, f"variant-{_digest((pack, wanted))}", make)
        report.items.extend(items)
        return data, report, files
    return build


@pytest.fixture(name="shipped_build", scope="session")
def _shipped_build(shipped_out):
    """shipped_build(pack) -> (data, report, files): the shipped pack checked in this process
    (once per worker) and its files of the shared build (shipped_out: cards.pdf, printshop.pdf,
    guide.pdf, rulebook.pdf, calibration.pdf, boards.pdf where the pack has boards), for every
    test that only reads them. The build said nothing (shipped_out asserts it), so the report
    holds what the check said. Do not change what it returns."""
    def build(pack: str = "crazy-hospital"):
        data, report = _checked(pack)
        files = {path.name: path.read_bytes() for path in sorted(shipped_out(pack).glob("*.pdf"))}
        assert files, pack
        return data, report, files
    return build


@pytest.fixture(name="shipped_rulebook", scope="session")
def _shipped_rulebook(tmp_path_factory):
    """shipped_rulebook(pack, geometry) -> (pdf, diagnostics): layout_rulebook of the shipped
    pack on pages of one geometry (cardgen.documents.rulebook.book's A5_BOOK, LETTER_BOOK ...), once
    per test session for all xdist workers."""
    from cardgen.diagnostics import Report
    from cardgen.documents.rulebook.book import layout_rulebook
    folder = _shared_folder(tmp_path_factory)

    def book(pack: str, geometry):
        def make():
            report = Report()
            return layout_rulebook(shipped_data(pack), report, geometry), report.items
        return _once_for_all_workers(folder, f"rulebook-{_digest((pack, geometry))}", make)
    return book


def shipped_data(pack: str = "crazy-hospital"):
    """The shipped pack loaded and checked without an error (once per worker), as a shallow
    copy: a test may set its attributes (data.cards = data.cards[:3]), never change the
    objects they hold (the cards, the pack)."""
    return dataclasses.replace(_checked(pack)[0])


def _check_key(folder: Path) -> tuple[Path, Path]:
    """What a check's result depends on besides the files: a loaded pack holds its paths as
    shown from the working directory (a test may chdir), and compose() compares them."""
    return folder, Path.cwd()


def _checked(pack: str):
    """(data, report) of the shipped pack's check, once per worker (the cache that
    shipped_checks_once replays from)."""
    from cardgen.pipeline.chain import validated as check
    from cardgen.diagnostics import Report
    key = ("check", _check_key((SHIPPED / pack).resolve()))
    if key not in _PACK_CHECKS:
        report = Report()
        _PACK_CHECKS[key] = (check(SHIPPED / pack, report), report.items, report.ran)
    data, items, ran = _PACK_CHECKS[key]
    assert data is not None and not [d for d in items if d.severity == "error"], \
        [d.format() for d in items]
    return data, Report(list(items), list(ran))


_PACK_CHECKS: dict[tuple, tuple] = {}


@pytest.fixture
def shipped_checks_once(monkeypatch):
    """`cardgen check` of a shipped pack runs its whole-pack stage (load and validate, lay out
    every card, every rule text) once per test session and working directory (the loaded
    pack holds its paths as shown from there), then replays it.

    That stage reads only the pack's files, never the deck choice (cli/check.py runs it before
    compose()), and the shipped packs are not changed by tests; so for the many choices checked
    against one shipped pack, the first run's result is the result of every run: the returned
    data and the diagnostics and check names it added to the report. Only the checks of a run
    whose report is still empty are replayed (a pack after another's error runs for real); a
    copy of a pack (tmp_path) always runs for real. For tests that only check (not build).

    Returns loaded(pack) -> the shipped pack's data, checked through the same cache."""
    import cardgen.pipeline.chain
    from cardgen.model.settings import BuildSettings
    import cardgen.documents.rulebook.book
    from cardgen.diagnostics import Report
    replayed: set[int] = set()  # ids of the data objects returned from the cache

    def once(name, real, key_of):
        def run(first, report, *rest, **options):
            key = key_of(first, *rest)
            if key is not None:
                key = (key, tuple(sorted(options.items())))
            if key is None or report.items:
                return real(first, report, *rest, **options)
            if (name, key) not in _PACK_CHECKS:
                fresh = Report()
                _PACK_CHECKS[name, key] = (real(first, fresh, *rest, **options), fresh.items,
                                           fresh.ran)
            value, items, ran = _PACK_CHECKS[name, key]
            report.items.extend(items)
            report.ran.extend(ran)
            if name == "check" and value is not None:
                replayed.add(id(value))
            return value
        return run

    def folder_key(folder):
        folder = Path(folder).resolve()
        return _check_key(folder) if folder.parent == SHIPPED.resolve() else None

    def data_key(data, *settings):
        if id(data) not in replayed or any(s != BuildSettings() for s in settings):
            return None
        return id(data)  # a data object of the cache: kept, so its id is never reused

    checked = once("check", cardgen.pipeline.chain.validated, folder_key)
    monkeypatch.setattr(cardgen.pipeline.chain, "validated", checked)
    monkeypatch.setattr(cardgen.pipeline.chain, "layout_faces",
                        once("layout_faces", cardgen.pipeline.chain.layout_faces, data_key))
    monkeypatch.setattr(cardgen.documents.rulebook.book, "check_rules",
                        once("check_rules", cardgen.documents.rulebook.book.check_rules, data_key))
    return lambda pack="crazy-hospital": checked(SHIPPED / pack, Report())


@functools.lru_cache(maxsize=16)
def pypdf_text(pdf: bytes) -> str:
    """pypdf's text of every page, one page a line apart; once per PDF and worker (several
    test files read the flagship's rulebook, a second or more each time)."""
    from pypdf import PdfReader
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)


def text_layer(pdf: bytes, pages: int | None = None) -> str:
    """The text of every page, read by pdfium: 10-30 times faster than pypdf's extract_text
    on our PDFs (measured on every player document of every pack: the same word occurrences,
    but for words pypdf glues together and a text drawn several times on one spot, read
    once). It joins a word hyphenated at a line end, which pypdf leaves in two. Its order
    in tables differs from pypdf's. pages: only the first so many."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(pdf)
    try:
        count = len(document) if pages is None else min(pages, len(document))
        return "\n".join(document[i].get_textpage().get_text_range()
                         for i in range(count)).replace("\r\n", "\n")
    finally:
        document.close()


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
