"""What changed, and who is told: the pack's files watched (for `cardgen serve` and `cardgen
watch`), and the server-sent events the preview page listens to.

Why watchfiles: the operating system says when a file changes (inotify, FSEvents,
ReadDirectoryChangesW, through Rust's notify crate), so a save is seen within milliseconds
instead of at the next poll, and nothing is read while nothing changes. It is well kept (it is
what `uvicorn --reload` uses) and debounces in its own thread: an editor that saves in steps
(a temporary file, a rename) gives one batch. Where the system gives no events (a network drive,
some container mounts, the inotify limit reached: `--poll`, or on its own after such an error),
and where watchfiles cannot be imported, the files' times (to the nanosecond), sizes and inodes
are compared every interval (`polled`). Not watchfiles' own polling: it compares modification
times to the second, so a save made within the same second as the one before went unseen
(tests/cli/test_watch.py caught it: a save right after a pack was made).
"""

from __future__ import annotations

import asyncio
import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Iterator

# the files stand still this long before a change is reported: an editor's save in steps (a
# new file, renames, the old one deleted) takes a millisecond or two, and every millisecond
# here is one more before the designer sees the edit (30 ms made a save seen after ~41 ms,
# 10 ms after ~12 ms, measured with watchfiles on Linux)
STEP_MS = 10


def _ours(change, path: str) -> bool:
    """Not an editor's temporary, backup or lock file (.name, name~, .#name, name.swp) nor a
    folder of tools (.git, __pycache__)."""
    name = Path(path).name
    return not name.startswith(".") and not name.endswith("~") and \
        _default_filter()(change, path)


@lru_cache(maxsize=1)
def _default_filter():
    from watchfiles import DefaultFilter
    return DefaultFilter()


WAKE_MS = 50  # with no change, the watcher's thread returns to Python this often (cheap): its
# first return says that the files are watched (`ready`)
READY_SECONDS = 5.0  # watching() waits at most this long for the files to be watched


def file_changes(folders: list[Path], stop: threading.Event, interval: float = 0.5,
                 poll: bool = False, on_fallback=None,
                 ready: threading.Event | None = None) -> Iterator[list[str]]:
    """The paths changed under `folders`, a sorted batch at a time, until `stop` is set (or
    Ctrl-C, in the main thread). `poll`: look every `interval` seconds instead of waiting for
    the system's events; `on_fallback(reason)` is called when events cannot be had; `ready`
    is set once the files are watched (a save from then on is reported)."""
    ready = ready or threading.Event()
    try:
        import watchfiles
    except ImportError:  # a platform without its wheels
        if on_fallback:
            on_fallback("watchfiles is not installed")
        poll = True
    if poll:
        yield from polled(folders, stop, interval, ready)
        return
    try:
        # yield_on_timeout: an empty batch every WAKE_MS without changes; the first one (or
        # the first change) comes once watchfiles watches the files
        for batch in watchfiles.watch(*folders, watch_filter=_ours, step=STEP_MS,
                                      stop_event=stop, rust_timeout=WAKE_MS,
                                      yield_on_timeout=True):
            ready.set()
            lasting = _lasting(batch)
            if lasting:
                yield lasting
    except OSError as exc:  # no events here (the watch limit, a file system without)
        if on_fallback:
            on_fallback(f"no file-system events ({exc}); looking every {interval:g} s")
        yield from polled(folders, stop, interval, ready)


def _lasting(batch) -> list[str]:
    """The paths of a batch of watchfiles' changes, without the files made and removed again
    within it (an editor's or sed's temporary file)."""
    from watchfiles import Change
    seen: dict[str, set] = {}
    for change, path in batch:
        seen.setdefault(path, set()).add(change)
    return sorted(path for path, kinds in seen.items()
                  if Change.added not in kinds or Path(path).exists())


def watching(folders: list[Path], stop: threading.Event, report, interval: float = 0.5,
             poll: bool = False, on_fallback=None) -> threading.Thread:
    """file_changes on a thread of its own: `report(batch)` is called with each batch until
    `stop` is set. Returns once the files are watched (READY_SECONDS at most), so that a save
    made during the first build is seen: the thread alone gave no such promise, and in
    polling a save right after a quick first build fell before watchfiles' first look and
    was never reported."""
    ready = threading.Event()

    def run() -> None:
        for batch in file_changes(folders, stop, interval, poll, on_fallback, ready):
            report(batch)
    thread = threading.Thread(target=run, name="cardgen-files", daemon=True)
    thread.start()
    ready.wait(READY_SECONDS)
    return thread


def polled(folders: list[Path], stop: threading.Event, interval: float,
           ready: threading.Event | None = None) -> Iterator[list[str]]:
    """file_changes by comparing the files' times and sizes every `interval` seconds; a batch
    once the files stand still for STEP_MS (looked at again that soon: a save in steps takes
    a millisecond or two, and a second wait of a whole interval would double the time a save
    takes to be seen)."""
    from ..pipeline.resident import snapshot
    seen = _snapshot(folders, snapshot)
    if ready is not None:
        ready.set()
    settle = min(interval, STEP_MS / 1000)
    while not stop.wait(interval):
        now = _snapshot(folders, snapshot)
        if now == seen:
            continue
        while not stop.wait(settle):  # settled: unchanged since the last look
            later = _snapshot(folders, snapshot)
            if later == now:
                break
            now = later
        changed = sorted(p for p in set(seen) | set(now) if seen.get(p) != now.get(p))
        seen = now
        yield changed


def _snapshot(folders: list[Path], snapshot) -> dict:
    out = {}
    for folder in folders:
        out.update(snapshot(folder))
    return out


class Broadcast:
    """Server-sent events to the pages that listen: a queue per page, each under a topic (the
    pack and view it shows), fed from the pipeline's thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.queues: dict[object, set[asyncio.Queue]] = {}
        self.closed = False
        self._lock = threading.Lock()  # the topics are read on the pipeline's thread

    def listen(self, topic) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        with self._lock:
            self.queues.setdefault(topic, set()).add(queue)
        return queue

    def leave(self, topic, queue: asyncio.Queue) -> None:
        with self._lock:
            listeners = self.queues.get(topic)
            if listeners is not None:
                listeners.discard(queue)
                if not listeners:
                    del self.queues[topic]

    def topics(self) -> list:
        """The topics some page listens to now (read from any thread)."""
        with self._lock:
            return list(self.queues)

    def publish(self, topic, name: str, data: dict) -> None:
        """Tell every page of this topic (from any thread)."""
        self.loop.call_soon_threadsafe(self._put, topic, sse(name, data))

    def _put(self, topic, message: str | None) -> None:
        with self._lock:
            queues = list(self.queues.get(topic, ()))
        for queue in queues:
            queue.put_nowait(message)

    def close(self) -> None:
        """Every stream ends (the server is stopping)."""
        self.closed = True
        for topic in list(self.queues):
            self._put(topic, None)


async def stream(broadcast: Broadcast, topic, first: str, keepalive: float = 15.0):
    """One page's event stream: `first` (the view as it is), then what is published, with a
    comment every `keepalive` seconds so that a closed page is noticed."""
    queue = broadcast.listen(topic)
    try:
        yield first
        while not broadcast.closed:
            try:
                message = await asyncio.wait_for(queue.get(), keepalive)
            except asyncio.TimeoutError:
                message = ": still here\n\n"
            if message is None:
                return
            yield message
    finally:
        broadcast.leave(topic, queue)


def sse(name: str, data: dict) -> str:
    """One server-sent event."""
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"

