"""serve/events.py: the pack's files watched (system events, polling), and the server-sent
events a page receives."""

from __future__ import annotations

import asyncio
import os
import queue
import threading

import pytest
from watchfiles import Change

from cardgen.serve import events


def test_a_save_is_seen_through_file_events(tmp_path):
    card = tmp_path / "cards.yaml"
    card.write_text("a: 1\n")
    found: queue.Queue = queue.Queue()
    stop = threading.Event()
    thread = events.watching([tmp_path], stop, found.put)
    try:
        seen = None
        for value in range(2, 60):  # saved again until the watcher, starting, sees a save
            card.write_text(f"a: {value}\n")
            try:
                seen = found.get(timeout=0.5)
                break
            except queue.Empty:
                continue
        assert seen == [str(card)]
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def test_a_save_made_in_steps_is_one_change(tmp_path):
    """An editor's safe save (write a new file, move the old one aside, rename the new one,
    delete the old) is one batch naming the saved file; the next save is a batch of its own."""
    card, other = tmp_path / "cards.yaml", tmp_path / "rules.yaml"
    card.write_text("a: 1\n")
    other.write_text("b: 1\n")
    found: queue.Queue = queue.Queue()
    stop = threading.Event()
    thread = events.watching([tmp_path], stop, found.put)
    try:
        for value in range(2, 60):  # until the watcher, starting, sees a save
            other.write_text(f"b: {value}\n")
            try:
                found.get(timeout=0.5)
                break
            except queue.Empty:
                continue
        new, old = tmp_path / "cards.yaml___jb_tmp___", tmp_path / "cards.yaml___jb_old___"
        new.write_text("a: 2\n")
        card.rename(old)
        new.rename(card)
        old.unlink()
        assert found.get(timeout=10) == [str(card)]
        other.write_text("b: 99\n")  # the next save: nothing of the first is left over
        assert found.get(timeout=10) == [str(other)]
    finally:
        stop.set()
        thread.join(10)


@pytest.mark.parametrize("poll", [False, True])
def test_a_save_right_after_watching_starts_is_seen(tmp_path, poll):
    """watching() returns once the files are watched: a save made at once (during a quick
    first build) is reported, with file events and with polling."""
    card = tmp_path / "cards.yaml"
    card.write_text("a: 1\n")
    found: queue.Queue = queue.Queue()
    stop = threading.Event()
    thread = events.watching([tmp_path], stop, found.put, 0.05, poll)
    try:
        card.write_text("a: 2\n")
        assert found.get(timeout=10) == [str(card)]
    finally:
        stop.set()
        thread.join(10)


def test_polling_sees_a_save_within_the_same_second(tmp_path):
    """Two saves within one second, the same size: told apart by the time's nanoseconds (the
    polling of watchfiles compares whole seconds and missed the second save)."""
    card = tmp_path / "cards.yaml"
    card.write_text("a: 1\n")
    second = 1_700_000_000 * 10**9
    os.utime(card, ns=(second + 100_000_000, second + 100_000_000))
    found: queue.Queue = queue.Queue()
    stop = threading.Event()
    thread = events.watching([tmp_path], stop, found.put, 0.05, poll=True)
    try:
        card.write_text("a: 2\n")
        os.utime(card, ns=(second + 700_000_000, second + 700_000_000))
        assert found.get(timeout=10) == [str(card)]
    finally:
        stop.set()
        thread.join(10)


def test_polling_sees_a_save(tmp_path):
    card = tmp_path / "cards.yaml"
    card.write_text("a: 1\n")
    stop = threading.Event()
    changes = events.polled([tmp_path], stop, 0.05)
    writer = threading.Timer(0.2, lambda: card.write_text("a: 22\n"))
    writer.start()
    try:
        assert next(changes) == [str(card)]
    finally:
        stop.set()
        writer.cancel()


def test_temporary_files_of_a_batch_are_not_reported(tmp_path):
    kept = tmp_path / "cards.yaml"
    kept.write_text("a")
    gone = str(tmp_path / "sedX1y2")
    batch = {(Change.added, gone), (Change.deleted, gone), (Change.modified, str(kept))}
    assert events._lasting(batch) == [str(kept)]
    assert not events._ours(Change.modified, str(tmp_path / ".cards.yaml.swp"))
    assert not events._ours(Change.modified, str(tmp_path / "cards.yaml~"))
    assert events._ours(Change.modified, str(kept))


def test_a_page_hears_what_is_published_for_its_topic():
    async def run():
        broadcast = events.Broadcast(asyncio.get_running_loop())
        stream = events.stream(broadcast, "mini", events.sse("view", {"n": 0}))
        assert await anext(stream) == 'event: view\ndata: {"n":0}\n\n'
        waiting = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(0)
        assert broadcast.topics() == ["mini"]
        threading.Thread(target=broadcast.publish, args=("other", "view", {"n": 9})).start()
        threading.Thread(target=broadcast.publish, args=("mini", "view", {"n": 1})).start()
        assert await asyncio.wait_for(waiting, 10) == 'event: view\ndata: {"n":1}\n\n'
        broadcast.close()
        assert [message async for message in stream] == []
        assert broadcast.topics() == []
    asyncio.run(run())
