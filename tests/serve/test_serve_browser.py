"""`cardgen serve` in a real browser: Debian's headless Chromium, driven by Selenium through
Debian's chromedriver (installed by .ci/run; no browser is downloaded). The designer's loop:
every card shown; a stat edited in the pack's YAML changes that card's picture in place and
no other; a bad value shows its diagnostic with its line; fixing it takes the diagnostic away.

Every wait polls the page until what is awaited is there or a deadline passes: no sleeping for
a guessed time."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from cardgen.paths import ROOT

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
DEADLINE = 60  # seconds for any one step on a busy machine; the edit loop takes well under one


def _browser_needed() -> None:
    """The browser is part of the test set-up (.ci/run installs it): missing, the test fails
    and says how to install it, it is never skipped."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        pytest.fail(f"{CHROMIUM} and {DRIVER} are needed: apt-get install chromium "
                    "chromium-driver (as .ci/run does)")


def until(what, check, deadline: float = DEADLINE):
    """check()'s first true value, asked again and again until the deadline."""
    end = time.monotonic() + deadline
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"not within {deadline} s: {what}")
        time.sleep(0.05)


@pytest.fixture
def server(tmp_path, make_pack):
    """`cardgen serve mini` on a free port (--port 0: it prints the address it got)."""
    pack = make_pack(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", "from cardgen.cli.app import main; main()", "serve", "mini",
         "--data", str(pack.parent), "--port", "0"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout],
                              daemon=True)
    reader.start()
    try:
        first = lines.get(timeout=DEADLINE)
        assert first.startswith("serving mini at http://127.0.0.1:"), first
        yield first.split(" at ")[1].split()[0], pack
    finally:
        process.send_signal(signal.SIGINT)
        try:
            assert process.wait(timeout=DEADLINE) == 0
        finally:
            if process.poll() is None:
                process.kill()
            process.stdout.close()
            error = process.stderr.read()
            process.stderr.close()
            assert "Traceback" not in error, error


@pytest.fixture
def browser(monkeypatch):
    _browser_needed()
    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager fetches nothing
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,1800"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


SHOWN = """return [...document.querySelectorAll('[data-card]')].map((card) => {
  const front = card.querySelector('img.front'), back = card.querySelector('img.back');
  return [card.dataset.card, front.dataset.key || '', back.dataset.key || '',
          front.complete && front.naturalWidth > 0];
});"""
DIAGNOSTICS = """const list = document.getElementById('diagnostics');
return list.hidden ? [] : [...list.querySelectorAll('li.diagnostic')].map((li) => li.textContent);"""


def test_the_edit_loop_in_a_browser(server, browser):
    address, pack = server
    browser.get(address)
    cards = {"A1", "A2", "B1"} | {c for c in _ids(pack)}
    shown = until("every card shown with its pictures",
                  lambda: (rows := browser.execute_script(SHOWN)) and
                  {r[0] for r in rows} == cards and all(r[1] and r[2] and r[3] for r in rows)
                  and rows)
    before = {card: front for card, front, _, _ in shown}

    heroes = pack / "cards" / "heroes.yaml"
    good = heroes.read_text(encoding="utf-8")
    heroes.write_text(good.replace("alter: 60", "alter: 61", 1), encoding="utf-8")
    after = until("A1's picture changed and loaded", lambda: (
        rows := {r[0]: r for r in browser.execute_script(SHOWN)}) and
        rows["A1"][1] != before["A1"] and rows["A1"][3] and rows)
    assert {card: row[1] for card, row in after.items() if card != "A1"} == \
        {card: key for card, key in before.items() if card != "A1"}

    heroes.write_text(good.replace("alter: 60", "alter: 600", 1), encoding="utf-8")
    problems = until("the diagnostic shown", lambda: browser.execute_script(DIAGNOSTICS))
    assert any("heroes.yaml:8:" in text and "error" in text and "600" in text
               for text in problems), problems
    still = {r[0]: r[1] for r in browser.execute_script(SHOWN)}
    assert still["A1"] == after["A1"][1]  # the last good cards stay

    heroes.write_text(good.replace("alter: 60", "alter: 59", 1), encoding="utf-8")
    until("the diagnostic gone", lambda: not browser.execute_script(DIAGNOSTICS))
    until("A1 as now saved", lambda: {r[0]: r[1] for r in browser.execute_script(SHOWN)}["A1"]
          not in (before["A1"], after["A1"][1]))

    browser.find_element("css selector", '[data-card="A2"]').click()
    where = until("the card's panel", lambda: browser.execute_script(
        "const w = document.getElementById('where'); return w && w.textContent;"))
    assert where.endswith("heroes.yaml:18")


def _ids(pack) -> set[str]:
    import yaml
    ids = set()
    for path in (pack / "cards").glob("*.yaml"):
        ids |= {card["id"] for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]}
    return ids
