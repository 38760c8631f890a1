"""`cardgen watch`: a real process, as a designer runs it; a save rebuilds, Ctrl-C ends it with
exit 0 and leaves no temporary file behind."""

from __future__ import annotations

import hashlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.cli.watch import changes, interrupt_after
from cardgen.paths import ROOT

TIMEOUT = 120  # seconds for any one step: a stuck watcher fails the test instead of hanging


class Lines:
    """The process's stdout, line by line, read on a thread so that waiting can time out."""

    def __init__(self, process):
        self.queue: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(process.stdout,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for line in stream:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def until(self, prefix: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"watch ended before '{prefix}': {self.seen}")
            self.seen.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"no '{prefix}' within {TIMEOUT} s: {self.seen}")


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def watcher(tmp_path):
    data = tmp_path / "card_data"
    assert CliRunner().invoke(app, ["new", "game", "--data", str(data)]).exit_code == 0
    process = _watch(tmp_path, data)
    lines = Lines(process)
    yield process, lines, data / "game", tmp_path / "out" / "game"
    if process.poll() is None:
        process.kill()
    process.wait()
    lines.thread.join(TIMEOUT)
    process.stdout.close()
    process.stderr.close()


def _watch(tmp_path, data, *options):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", "from cardgen.cli.app import main; main()", "watch", "game",
         "--data", str(data), "--out", str(tmp_path / "out"), "--only", "cards",
         "--interval", "0.1", *options],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_ctrl_c_as_in_a_terminal)


def _ctrl_c_as_in_a_terminal() -> None:
    """In the watch process: Ctrl-C interrupts, also when the test run was started in the
    background (which makes every child ignore SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_save_rebuilds_and_ctrl_c_ends_cleanly(watcher):
    process, lines, pack, out = watcher
    lines.until("watching game")
    lines.until("done: 8 cards")
    before = digest(out / "cards.pdf")
    cards = pack / "cards" / "explorers.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Ada Northwind", "Ada Southwind"),
                     encoding="utf-8")
    assert lines.until("changed: ").endswith("explorers.yaml")
    lines.until("done: 8 cards")
    assert digest(out / "cards.pdf") != before
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=TIMEOUT) == 0
    lines.until("stopped watching")
    assert process.stderr.read() == ""
    assert not [p for p in out.rglob("*") if p.name.startswith(".")]


def test_a_broken_save_is_reported_and_watching_goes_on(watcher):
    process, lines, pack, out = watcher
    lines.until("done: 8 cards")
    before = digest(out / "cards.pdf")
    cards = pack / "cards" / "explorers.yaml"
    good = cards.read_text(encoding="utf-8")
    cards.write_text(good.replace("courage: 9", "courage: 99"), encoding="utf-8")
    lines.until("not written: fix the errors above")
    assert digest(out / "cards.pdf") == before
    cards.write_text(good.replace("Ada Northwind", "Ada Eastwind"), encoding="utf-8")
    lines.until("done: 8 cards")
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=TIMEOUT) == 0
    assert "E1 courage: 99 is above the maximum 10" in process.stderr.read()


def test_ctrl_c_during_a_write_takes_effect_after_it():
    # as in a terminal, whatever the test run inherited (a run started in the background
    # ignores SIGINT); the handler found before the block is the one restored after it
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupt_after_the_write()
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt_after_the_write():
    done = []
    with pytest.raises(KeyboardInterrupt):
        with interrupt_after():
            os.kill(os.getpid(), signal.SIGINT)
            done.append("the write finished")
    assert done == ["the write finished"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_changes_are_named_as_the_user_sees_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert changes([str(tmp_path / "c.csv"), str(tmp_path / "a.yaml")]) == ["a.yaml", "c.csv"]


def test_watch_adds_the_contact_sheet_without_changing_any_output_key(tmp_path):
    from cardgen.model.settings import BuildSettings
    from cardgen.incremental.plan import wanted_outputs
    from cardgen.incremental.fingerprint import output_keys
    watching = BuildSettings(also=("contact",))
    assert wanted_outputs(watching) == wanted_outputs(BuildSettings()) | {"contact"}
    assert "contact" not in wanted_outputs(BuildSettings(only=("cards",), also=("contact",)))
    pack = ROOT / "card_data" / "quartett"
    assert output_keys(pack, watching) == output_keys(pack, BuildSettings())


def test_watch_builds_on_every_core_as_build_does(tmp_path, monkeypatch):
    """watch's rebuilds use the default --jobs of `cardgen build` (a rulebook on a second
    core), not one process."""
    from cardgen.model.settings import BuildSettings
    from cardgen.cli import watch
    from cardgen.pipeline import parallel, resident
    seen = []
    monkeypatch.setattr(parallel, "default_jobs", lambda: 3)
    monkeypatch.setattr(resident, "build_packs",
                        lambda residents, out, settings, jobs, early: seen.append(jobs) or [])
    assert watch.rebuild([], tmp_path / "out", BuildSettings())
    assert seen == [3]


def test_a_rebuild_refused_by_the_lock_is_tried_again(watcher_of):
    """Another build holds the output folder: watch says so once, and builds as soon as the
    folder is free, without waiting for the next save (issue 31)."""
    from cardgen.output import output_lock
    tmp_path, start = watcher_of
    out = tmp_path / "out"
    with output_lock(out):
        process, lines = start()
        lines.until("watching game")
        error = process.stderr.readline()
        assert "another cardgen build is writing" in error and "trying again" in error
    lines.until("done: 8 cards")
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=TIMEOUT) == 0
    assert "trying again" not in process.stderr.read()  # said once


def test_polling_sees_a_save_too(watcher_of):
    """--poll (no file-system events: network drives, some containers)."""
    tmp_path, start = watcher_of
    process, lines = start("--poll")
    lines.until("done: 8 cards")
    cards = tmp_path / "card_data" / "game" / "cards" / "explorers.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Ada Northwind", "Ada Westwind"),
                     encoding="utf-8")
    assert lines.until("changed: ").endswith("explorers.yaml")
    lines.until("done: 8 cards")
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=TIMEOUT) == 0


@pytest.fixture
def watcher_of(tmp_path):
    """(tmp_path, start(*options)): start `cardgen watch game` with more options."""
    data = tmp_path / "card_data"
    assert CliRunner().invoke(app, ["new", "game", "--data", str(data)]).exit_code == 0
    started = []

    def start(*options):
        process = _watch(tmp_path, data, *options)
        started.append(process)
        return process, Lines(process)
    yield tmp_path, start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdout.close()
        process.stderr.close()


def test_watch_keeps_a_translated_edition_current(tmp_path):
    """--language: the edition's own output folder, and a save of its overlay file rebuilds it
    (issue 28)."""
    import pypdfium2 as pdfium
    data = tmp_path / "card_data"
    assert CliRunner().invoke(app, ["new", "game", "--data", str(data)]).exit_code == 0
    overlay = data / "game" / "editions" / "de" / "cards" / "explorers.yaml"
    overlay.parent.mkdir(parents=True)
    overlay.write_text("cards:\n  E1: {name: Ada Nordwind}\n", encoding="utf-8")
    process = _watch(tmp_path, data, "--language", "de")
    lines = Lines(process)
    try:
        lines.until("done: 8 cards")
        cards = tmp_path / "out" / "game-de" / "cards.pdf"

        def text() -> str:
            document = pdfium.PdfDocument(cards.read_bytes())
            try:
                return " ".join(page.get_textpage().get_text_range() for page in document)
            finally:
                document.close()
        assert "Ada Nordwind" in text()
        overlay.write_text("cards:\n  E1: {name: Ada Südwind}\n", encoding="utf-8")
        assert lines.until("changed: ").endswith("explorers.yaml")
        lines.until("done: 8 cards")
        assert "Ada Südwind" in text() and "Ada Nordwind" not in text()
        assert not (tmp_path / "out" / "game").exists()  # the base edition is not built
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdout.close()
        process.stderr.close()
