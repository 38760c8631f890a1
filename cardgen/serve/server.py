"""The preview's web server: the page, the views as JSON, the pictures of faces and pages, and
the event stream that tells the page what changed. Pipeline work is the resident pipeline's
(pipeline.resident), run on one worker thread; this module schedules it and serves its results.

Safe by default (docs/decisions.md): bound to 127.0.0.1; a request whose Host header is not
this server's own is refused (a page on another site cannot reach it through DNS rebinding);
every path is a route of the table below, and what it serves is looked up in what the pipeline
made, by key (no part of a request names a file); nothing is written. With --editor, one POST
opens the user's editor at a card's line; it needs the page's token in a header, which another
site's page can neither read nor send.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import os
import secrets
import shlex
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..pipeline.parallel import cycles_kept
from ..pipeline.resident import Resident, View
from .events import Broadcast, sse, stream, watching
from .pages import page

PAPERS = ("a4", "letter", "a3")
WHOLE = "*"  # the page's preset choice for the whole pack
DRAWN_AHEAD = 24  # an edit's changed faces drawn as soon as the page is told, at most
COMING_WAIT = 10.0  # s: a request for such a face waits this long for it, then asks the worker


@dataclasses.dataclass(frozen=True)
class Topic:
    """What one page shows: a pack, a deck (a preset slug, WHOLE, or "" for the command line's
    choice) and a paper ("" for the pack's)."""

    pack: str
    preset: str = ""
    paper: str = ""


class Preview:
    """The served packs, each a Resident used by one worker thread; what the pages listen to."""

    def __init__(self, folders: list[Path], settings, choice=None, editor: bool = False,
                 poll: bool = False, interval: float = 0.5, say=print, on_ready=None):
        self.residents = {folder.name: Resident(folder, settings) for folder in folders}
        self.folders = folders
        self.choice = choice
        self.editor = editor
        self.poll = poll
        self.interval = interval
        self.say = say
        self.on_ready = on_ready
        self.token = secrets.token_urlsafe(24)
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="cardgen-pipeline")
        self.broadcast: Broadcast | None = None
        self.stop = threading.Event()
        self.watcher: threading.Thread | None = None
        self._dirty: set[str] = set()
        self._lock = threading.Lock()
        self._pending = False

    # --- life --------------------------------------------------------------------------------

    async def start(self) -> None:
        """The first view of each pack made (so the first page shows at once), then the files
        watched."""
        self.broadcast = Broadcast(asyncio.get_running_loop())
        self.watcher = watching(self.folders, self.stop, self._changed, self.interval,
                                self.poll, on_fallback=lambda why: self.say(
                                    f"cardgen serve: {why}"))
        for pack in self.residents:
            await self._run(self._view, Topic(pack))
        if self.on_ready is not None:
            self.on_ready()

    async def close(self) -> None:
        self.stop.set()
        if self.broadcast is not None:
            self.broadcast.close()
        self.worker.submit(self._close_residents)
        self.worker.shutdown(wait=True, cancel_futures=True)

    def _close_residents(self) -> None:
        for resident in self.residents.values():
            resident.close()

    async def _run(self, function, *args):
        return await asyncio.wrap_future(self.worker.submit(function, *args))

    def _submit(self, function, *args) -> None:
        """Work on the pipeline's thread that no request waits for: a failure there is a bug
        in cardgen, said on stderr (the server goes on)."""
        self.worker.submit(function, *args).add_done_callback(_said_if_failed)

    # --- what changed ---------------------------------------------------------------------------

    def _changed(self, paths: list[str]) -> None:
        """A batch of changed files (from the watching thread): the packs they belong to are
        refreshed on the worker, once for all the batches that came meanwhile."""
        packs = {folder.name for folder in self.folders for path in paths
                 if Path(path).is_relative_to(folder.resolve()) or
                 Path(path).is_relative_to(folder)}
        with self._lock:
            self._dirty |= packs or set(self.residents)
            if self._pending:
                return
            self._pending = True
        self._submit(self._refresh)

    def _refresh(self) -> None:
        """Every view a page shows of the changed packs: the cards first (their new faces drawn
        right after the page is told, while it asks for them), then the documents.

        The cyclic garbage collector waits until all is said, as in a build: its full pass over
        all that the pipeline keeps (some 100 000 objects) took 0.1 s, now and then in the
        middle of an edit. After it the survivors are frozen (gc.freeze: left out of later
        passes), so that the pass here covers only what this edit made (1-5 ms, measured)."""
        with cycles_kept():
            self._say_changes()
        gc.collect()
        gc.freeze()

    def _say_changes(self) -> None:
        with self._lock:
            packs, self._dirty, self._pending = self._dirty, set(), False
        topics = [t for t in self.broadcast.topics() if t.pack in packs] or \
            [Topic(pack) for pack in packs]
        shown = []
        for topic in topics:
            ahead: list[str] = []
            view = self._view(topic, ahead)
            resident = self.residents[topic.pack]
            resident.expect_faces(ahead)  # the page's requests for them wait for them
            self.broadcast.publish(topic, "view", _json(view))
            resident.draw_faces(ahead)  # while the page takes in the view
            shown.append((topic, view))
        for topic, view in shown:
            if self._dirty:  # saved again meanwhile: its cards first, the documents after
                return
            if view.documents_pending:
                laid = self._documents(topic)
                if laid is not None:
                    self.broadcast.publish(topic, "view", _json(laid))

    # --- the pipeline's results (on the worker thread) -----------------------------------------

    def _choice(self, topic: Topic):
        if topic.preset == WHOLE:
            return None
        if not topic.preset:
            return self.choice
        from ..compose import Choice
        base = self.choice or Choice()
        return dataclasses.replace(base, preset=topic.preset, cards=None, random=None)

    def _view(self, topic: Topic, ahead: list[str] | None = None) -> View:
        """The topic's view. After an edit, the faces that changed are drawn now (the page asks
        for them next), or, given `ahead`, listed there for the caller to draw."""
        resident = self.residents[topic.pack]
        before = {c.id: (c.front, c.back) for c in resident.last_cards(
            self._choice(topic), topic.paper or None)}
        view = resident.view(self._choice(topic), topic.paper or None)
        if before:  # an edit
            changed = [key for card in view.cards if card.id in before and
                       (card.front, card.back) != before[card.id]
                       for key in (card.front, card.back)]
            if len(changed) <= DRAWN_AHEAD:  # (a layout edited: every face; drawn as the
                if ahead is None:  # page asks, the ones it shows first)
                    resident.draw_faces(changed)
                else:
                    ahead.extend(changed)
        return view

    def _documents(self, topic: Topic) -> View | None:
        return self.residents[topic.pack].documents(self._choice(topic), topic.paper or None)

    # --- requests --------------------------------------------------------------------------------

    def topic(self, request: Request) -> Topic | None:
        """The topic a request's query names; None when it names what is not served."""
        query = request.query_params
        pack = query.get("pack") or next(iter(self.residents))
        paper = (query.get("paper") or "").lower()
        preset = query.get("preset") or ""
        if pack not in self.residents or (paper and paper not in PAPERS) or \
                len(preset) > 100:
            return None
        return Topic(pack, preset, paper)

    async def index(self, request: Request) -> Response:
        topic = self.topic(request)
        if topic is None:
            return Response("no such pack or paper", 404)
        return HTMLResponse(page(list(self.residents), self.token if self.editor else ""),
                            headers=_PRIVATE)

    async def view(self, request: Request) -> Response:
        topic = self.topic(request)
        if topic is None:
            return JSONResponse({"error": "no such pack or paper"}, 404)
        view = await self._run(self._view, topic)
        return JSONResponse(_json(view), headers=_PRIVATE)

    async def events(self, request: Request) -> Response:
        topic = self.topic(request)
        if topic is None:
            return Response("no such pack or paper", 404)
        view = await self._run(self._view, topic)
        if view.documents_pending:
            self._submit(self._documents_later, topic)
        return StreamingResponse(stream(self.broadcast, topic, sse("view", _json(view))),
                                 media_type="text/event-stream",
                                 headers={**_PRIVATE, "X-Accel-Buffering": "no"})

    def _documents_later(self, topic: Topic) -> None:
        laid = self._documents(topic)
        if laid is not None:
            self.broadcast.publish(topic, "view", _json(laid))

    async def card(self, request: Request) -> Response:
        topic = self.topic(request)
        card_id = request.query_params.get("id", "")
        if topic is None:
            return JSONResponse({"error": "no such pack"}, 404)
        details = await self._run(self.residents[topic.pack].card, card_id)
        if details is None:
            return JSONResponse({"error": "no such card"}, 404)
        details.pop("path", None)
        return JSONResponse(details, headers=_PRIVATE)

    async def face(self, request: Request) -> Response:
        return await self._picture(request, "face_png")

    async def page_picture(self, request: Request) -> Response:
        return await self._picture(request, "page_png")

    async def _picture(self, request: Request, kind: str) -> Response:
        pack, key = request.path_params["pack"], request.path_params["key"]
        resident = self.residents.get(pack)
        if resident is None or not key.isalnum():
            return Response("not found", 404)
        png = resident.held_png(key)
        coming = resident.coming(key) if png is None else None
        if coming is not None:  # an edit's changed face, being drawn on the worker right now
            await asyncio.to_thread(coming.wait, COMING_WAIT)
            png = resident.held_png(key)
        png = png or await self._run(getattr(resident, kind), key)
        if png is None:
            return Response("not found", 404)
        # a key names what the picture shows: the same key is always the same picture
        return Response(png, media_type="image/png",
                        headers={"Cache-Control": "private, max-age=31536000, immutable"})

    async def open_editor(self, request: Request) -> Response:
        """$EDITOR at a card's line (with --editor; the page's token in X-Cardgen-Token)."""
        if not self.editor or not secrets.compare_digest(
                request.headers.get("x-cardgen-token", ""), self.token):
            return Response("forbidden", 403)
        topic = self.topic(request)
        if topic is None:
            return Response("no such pack", 404)
        details = await self._run(self.residents[topic.pack].card,
                                  request.query_params.get("id", ""))
        if details is None:
            return Response("no such card", 404)
        command = editor_command(details["path"], details["line"], details["col"])
        if command is None:
            return JSONResponse({"error": "set $EDITOR (or $VISUAL) to your editor"}, 409)
        subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True)
        return JSONResponse({"opened": details["where"]})


_PRIVATE = {"Cache-Control": "no-store"}


def _said_if_failed(future) -> None:
    if future.cancelled() or future.exception() is None:
        return
    import traceback
    traceback.print_exception(future.exception())
    print("\nThis is a bug in cardgen, not in your data. Please report it with the traceback "
          "above. (Still serving; save again to retry.)", file=sys.stderr)


def editor_command(path: str, line: int, col: int) -> list[str] | None:
    """How to open the user's editor at a line: `$EDITOR +LINE FILE`, which vi, vim, nano,
    emacs, micro and kakoune understand; VS Code's family takes `-g FILE:LINE:COL`."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        return None
    command = shlex.split(editor)
    name = Path(command[0]).name
    if name in ("code", "codium", "code-insiders", "cursor"):
        return [*command, "--goto", f"{path}:{line}:{col}"]
    if name in ("subl", "zed"):
        return [*command, f"{path}:{line}:{col}"]
    return [*command, f"+{line}", path]


def _json(view: View) -> dict:
    out = dataclasses.asdict(dataclasses.replace(view, documents=[
        dataclasses.replace(document, where={}) for document in view.documents]))
    for document in out["documents"]:
        del document["where"]
    out["diagnostics"] = [{"severity": d.severity, "file": d.file, "line": d.line,
                           "col": d.col, "subject": d.subject, "message": d.message,
                           "text": d.format()} for d in view.diagnostics]
    return out


class HostCheck:
    """Refuses a request whose Host header is not one of this server's names (a page of
    another site reaching the server under its own name: DNS rebinding)."""

    def __init__(self, app, allowed: set[str]):
        self.app = app
        self.allowed = {host.lower() for host in allowed}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
            if host not in self.allowed:
                response = Response("cardgen serve: this server answers only to its own "
                                    "address (the Host header names another)", 421)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host headers a browser sends to this server: its address and the loopback names;
    when bound to every interface, the machine's own names too."""
    names = {host, "127.0.0.1", "localhost", "[::1]"}
    if host in ("0.0.0.0", "::", ""):
        import socket
        names |= {socket.gethostname(), socket.getfqdn()}
        with contextlib.suppress(OSError):  # a host name without an address adds none
            names |= set(socket.gethostbyname_ex(socket.gethostname())[2])
    if ":" in host and not host.startswith("["):
        names.add(f"[{host}]")
    return {f"{name}:{port}" for name in names if ":" not in name or name.startswith("[")} | \
        ({name for name in names} if port == 80 else set())


def app(preview: Preview, host: str, port: int) -> HostCheck:
    """The ASGI application: the routes, behind the Host check."""
    routes = [
        Route("/", preview.index),
        Route("/api/view", preview.view),
        Route("/api/card", preview.card),
        Route("/events", preview.events),
        Route("/face/{pack}/{key}.png", preview.face),
        Route("/page/{pack}/{key}.png", preview.page_picture),
        Route("/api/open", preview.open_editor, methods=["POST"]),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_):
        await preview.start()
        try:
            yield
        finally:
            await preview.close()
    return HostCheck(Starlette(routes=routes, lifespan=lifespan), allowed_hosts(host, port))
