"""serve/events.py: the pack's files watched (system events, polling), and the server-sent
events a page receives."""

from __future__ import annotations

import asyncio
import queue
import threading

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
