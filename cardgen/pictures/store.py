"""Pictures: only from inside the pack, fully decoded before use, embedded once at <= 450 dpi.

Why so strict: a truncated JPEG otherwise prints as a blank rectangle, a '../' path reads files
outside the project, and a 6000 px photo makes a 200 MB PDF.

Why so lean: a deck holds hundreds of photos. Each file is read and decoded once, cropped to
its box, scaled down to exactly the pixels 300 dpi needs at its placed size when it has more than
1.5 times those (encoding.to_pixels: nearer, it keeps its own), and kept only as the encoded
stream the PDF embeds (a JPEG, or a lossless Flate stream when the picture has few colours and
that is smaller) — never as decoded pixels. Prepared pictures are kept on disk between builds
(cardgen.incremental.cache), keyed by the file's bytes and the pixel size, so a rebuild decodes nothing.

Decoding once is also the check: the check before layout reads only a picture's header
(validate.images), and the complete decode that finds a cut or damaged file is the one that
prepares it (ImageStore.prepare_all, before any face is drawn; its problems are diagnostics at
the YAML that names the picture). A picture that fails later, while a figure is drawn, is left
out and kept in UNDRAWN for the build to report.

This module prepares and keeps them (ImageStore); reading.py finds and decodes a picture,
encoding.py makes its PDF streams, embedding.py puts them into a PDF.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

from PIL import Image

from ..incremental import cache
from ..incremental.fingerprint import file_hash
from ..units import MM
from .embedding import embed, place_picture
from .encoding import (DOWNSAMPLE_ABOVE, FEW_COLOURS, JPEG_QUALITY, REDUCING_GAP, Picture, flate,
                       to_pixels)
from .fit import CENTRE
from .fit import placement as fit_placement
from .reading import (MAX_PIXELS, ImageProblem, decode, decode_counted, forget_resolved,
                      header_size, open_checked, resolve)
from .svg import draw_svg, is_svg, svg_size

__all__ = ["MAX_PIXELS", "MM", "TARGET_DPI", "UNDRAWN", "ImageProblem", "ImageStore", "Picture",
           "decode", "embed", "forget_paths", "header_size", "open_checked", "place_picture",
           "prepare", "resolve"]

TARGET_DPI = 300
PARALLEL_FROM = 8  # pictures to prepare before a second process is worth its start


def forget_paths() -> None:
    """A new build: pictures may have moved, a symlink may point elsewhere."""
    forget_resolved()
    UNDRAWN.clear()


# cache key → the light picture (no streams) of an entry this process read or wrote: the next
# build in the same process (`cardgen watch`) knows it without reading the entry
_LIGHT: dict[str, "Picture"] = {}

# relative path → why it could not be drawn: pictures left out of a drawing, for the build to
# report (validate.images.report_undrawn) before it writes anything
UNDRAWN: dict[str, str] = {}


def prepare(raw: bytes, name: str, px_w: int, px_h: int, key: str) -> Picture:
    """Decode once, crop to the box's aspect, scale down to (px_w, px_h) when far above it
    (encoding.to_pixels), encode. (Its colours are counted on that decode: a flat PNG is not
    decoded again for few_colours.)"""
    image, source, flat = decode_counted(raw, name, (px_w, px_h), FEW_COLOURS)
    image = to_pixels(image, (px_w, px_h))
    if image.mode == "RGBA":  # lossless, as the edges of a cut-out must stay sharp
        return Picture(key, *image.size, source, "FlateDecode",
                       flate(image.convert("RGB")), flate(image.getchannel("A")))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
    kind, data = "DCTDecode", buffer.getvalue()
    if flat:
        flat = flate(image)
        if len(flat) < len(data):
            kind, data = "FlateDecode", flat
    return Picture(key, *image.size, source, kind, data)


class ImageStore:
    """The pack's pictures, each prepared once per (file, pixel size) and kept encoded.

    Kept light when the disk cache holds the picture: its size and name in memory, its streams
    read from the disk when a PDF is saved, one picture at a time. Memory then does not grow
    with the pictures a deck holds (640 photos, 9.6 MiB) beyond the PDF being saved."""

    def __init__(self, pack_folder: Path):
        self.folder = pack_folder
        self.cache: dict[tuple[str, int, int], Picture] = {}
        self.failed: dict[tuple[str, int, int], str] = {}  # placement → why it cannot print
        self.stored: set[tuple[str, int, int]] = set()  # placements found in the disk cache
        self.sizes: dict[str, tuple[float, float]] = {}  # picture → its shape (size())
        self._started = None  # (pool, placements, async result) of start()
        # the streams of light pictures, kept in memory by a store that outlives one save
        # (keep_streams: a resident pipeline saves the same pictures after every edit)
        self._streams: dict[tuple[str, int, int], Picture] | None = None
        self._streams_held = 0

    STREAMS_LIMIT = 64 * 1024 * 1024  # bytes of streams keep_streams holds at most

    def keep_streams(self) -> None:
        """From now on, a light picture's streams are read from the disk cache once and kept
        (up to STREAMS_LIMIT bytes), not read again at every save: `cardgen watch` saves
        cards.pdf and the contact sheet after every edit, each placing every picture."""
        if self._streams is None:
            self._streams = {}

    def problem(self, relative: str, w_pt: float, h_pt: float) -> str | None:
        """Prepare the picture for a w x h pt box: None, or why it cannot be printed (the
        complete decode finds a cut or damaged file; any decoder failure is the file's)."""
        placement = (relative, *_pixels(w_pt, h_pt))
        if placement not in self.failed:  # a file that failed fails again: not decoded twice
            problem = _why(relative, lambda: self._held(relative, w_pt, h_pt))
            if problem is not None:
                self.failed[placement] = problem
        return self.failed.get(placement)

    def prepared(self, relative: str, w_pt: float, h_pt: float) -> Picture:
        """The picture prepared for a w x h pt box, with its streams."""
        held = self._held(relative, w_pt, h_pt)
        if not held.light:
            return held
        placement = (relative, *_pixels(w_pt, h_pt))
        if self._streams is not None and placement in self._streams:
            return self._streams[placement]
        picture = self._made(*placement)[0]
        if self._streams is not None and \
                self._streams_held + len(picture.data) <= self.STREAMS_LIMIT:
            self._streams[placement] = picture
            self._streams_held += len(picture.data)
        return picture

    def _held(self, relative: str, w_pt: float, h_pt: float) -> Picture:
        """The picture as this store keeps it (light when the disk cache holds it)."""
        px_w, px_h = _pixels(w_pt, h_pt)
        if (relative, px_w, px_h) not in self.cache:
            key = _key(resolve(self.folder, relative), px_w, px_h)
            picture = _LIGHT.get(key) if cache.has("pictures", key) else None
            if picture is None:
                picture, stored = self._made(relative, px_w, px_h)
                if stored and not picture.alpha:  # a mask is small and rare: kept with it
                    picture = _LIGHT[key] = dataclasses.replace(picture, data=b"", light=True)
            self.cache[(relative, px_w, px_h)] = picture
        return self.cache[(relative, px_w, px_h)]

    def _made(self, relative: str, px_w: int, px_h: int) -> tuple[Picture, bool]:
        """(the picture with its streams, whether the disk cache holds it): read from the
        disk cache, else prepared from its file and stored there."""
        path = resolve(self.folder, relative)
        key = _key(path, px_w, px_h)
        picture = Picture.load(key, cache.read("pictures", key) or b"")
        if picture is not None:
            return picture, True
        picture = prepare(path.read_bytes(), relative, px_w, px_h, key)
        return picture, cache.write("pictures", key, picture.dump())

    def place(self, canvas, relative: str, w_pt: float, h_pt: float) -> str:
        """The picture's XObject in the canvas's document (once) and on its current page; the
        name its operators use."""
        return place_picture(canvas, self._held(relative, w_pt, h_pt),
                             lambda: self.prepared(relative, w_pt, h_pt))

    def start(self, placed: list[tuple[str, float, float]], jobs: int) -> None:
        """Begin preparing `placed` (as prepare_all does) in forked processes while this one goes
        on, laying out the cards: on a cold build the second core is not idle meanwhile.
        prepare_all waits for them; stop() ends them at once (a failure, Ctrl-C)."""
        missing = self._missing(placed)
        context = _fork_context(jobs, len(missing))
        if context is not None:
            pool = context.Pool(min(jobs, len(missing)), initializer=_worker_ignores_interrupt)
            self._started = (pool, missing,
                             pool.starmap_async(_prepare_into_cache, missing, chunksize=4))

    def stop(self) -> None:
        """End what start() began, without waiting for it."""
        if self._started is not None:
            pool = self._started[0]
            self._started = None
            pool.terminate()
            pool.join()

    def prepare_all(self, placed: list[tuple[str, float, float]], jobs: int) -> dict[str, str]:
        """Prepare every (picture, w_pt, h_pt) not in the disk cache yet, in `jobs` forked
        processes when there are enough (a cold build of a photo deck is mostly this, and each
        picture is independent; the drawing then reads them from the cache, the same bytes as
        preparing them here). Returns {picture: why it cannot be printed}; a path the check
        refused is left to the check."""
        problems: dict[str, str] = {}
        if self._started is not None:  # what start() began, finished first
            pool, started, result = self._started
            self._started = None
            _collect(problems, started, _finished(pool, result.get))
        missing = [m for m in self._missing(placed) if m[1] not in problems]
        context = _fork_context(jobs, len(missing))
        if context is None:
            found = [self.problem(relative, w, h) for _, relative, w, h in missing]
        else:
            pool = context.Pool(min(jobs, len(missing)), initializer=_worker_ignores_interrupt)
            found = _finished(pool, lambda: pool.starmap(_prepare_into_cache, missing,
                                                         chunksize=4))
        _collect(problems, missing, found)
        return problems

    def verify_all(self, placed: list[tuple[str, float, float]]) -> dict[str, str]:
        """What prepare_all would find, without preparing: {picture: why it cannot be printed}
        for the pictures not prepared yet, each decoded completely at 1/8 scale (every byte is
        read, so a cut file fails, at a fraction of the cost). For `cardgen check`, which
        prints nothing: new photos are not scaled and encoded for it."""
        problems: dict[str, str] = {}
        for relative in dict.fromkeys(m[1] for m in self._missing(placed)):
            problem = _why(relative, lambda: decode(resolve(self.folder, relative).read_bytes(),
                                                    relative, (1, 1)))
            if problem is not None:
                problems[relative] = problem
        return problems

    def _missing(self, placed) -> list[tuple[Path, str, float, float]]:
        """(folder, picture, w_pt, h_pt) of each placement neither here nor in the disk cache;
        a path the check refused is left out (the check reports it)."""
        missing = []
        for relative, w_pt, h_pt in dict.fromkeys(placed):
            px_w, px_h = _pixels(w_pt, h_pt)
            placement = (relative, px_w, px_h)
            if placement in self.cache or placement in self.stored:  # known to this store (a
                continue  # resident pipeline keeps one while no picture changes)
            try:
                key = _key(resolve(self.folder, relative), px_w, px_h)
            except (ImageProblem, OSError):
                continue
            if cache.has("pictures", key):
                self.stored.add(placement)
            else:
                missing.append((self.folder, relative, w_pt, h_pt))
        return missing

    def size(self, relative: str) -> tuple[float, float]:
        """The picture's shape: its pixels (an SVG: its own width and height)."""
        if relative not in self.sizes:
            path = resolve(self.folder, relative)
            if is_svg(relative):
                self.sizes[relative] = svg_size(path)
            else:
                with Image.open(path) as image:  # the header: shape and orientation
                    self.sizes[relative] = header_size(image)[0]
        return self.sizes[relative]

    def placed(self, relative: str, w: float, h: float, fit: str = "cover",
               focus: tuple[float, float] = CENTRE) -> tuple[float, float, float, float]:
        """(dx, dy, w, h) of the picture drawn for a w x h box, from the box's lower-left
        corner: the box itself for the plain case (cover about the middle: the picture is
        cropped to the box when prepared), else where pictures.fit puts the whole picture."""
        if fit == "cover" and tuple(focus) == CENTRE and not is_svg(relative):
            return 0.0, 0.0, w, h
        x, y, pw, ph = fit_placement((0.0, 0.0, w, h), self.size(relative), fit, focus)
        return x, y, pw, ph

    def draw(self, canvas, relative: str, x: float, y: float, w: float, h: float,
             radius: float = 0, fit: str = "cover",
             focus: tuple[float, float] = CENTRE) -> None:
        try:
            dx, dy, pw, ph = self.placed(relative, w, h, fit, focus)
        except (ImageProblem, OSError) as exc:
            UNDRAWN.setdefault(relative, str(exc))
            return
        svg = is_svg(relative)
        problem = None if svg else self.problem(relative, pw, ph)
        if problem is not None:  # left out; the build reports it and writes nothing
            UNDRAWN.setdefault(relative, problem)
            return
        recording = getattr(canvas, "_cardgen_pictures", None)  # render.replay records a face
        if recording is not None and not svg:
            recording.append((relative, pw, ph))
        canvas.saveState()
        path = canvas.beginPath()  # the box: what a cover fit cuts off stays outside
        if radius:
            path.roundRect(x, y, w, h, radius)
        else:
            path.rect(x, y, w, h)
        canvas.clipPath(path, stroke=0, fill=0)
        if svg:
            draw_svg(canvas, resolve(self.folder, relative), x + dx, y + dy, pw, ph)
        else:
            embed(canvas, self.place(canvas, relative, pw, ph), x + dx, y + dy, pw, ph)
        canvas.restoreState()


def _pixels(w_pt: float, h_pt: float) -> tuple[int, int]:
    """The pixels 300 dpi needs for a box of w x h points."""
    return max(1, round(w_pt / 72 * TARGET_DPI)), max(1, round(h_pt / 72 * TARGET_DPI))


def _key(path: Path, px_w: int, px_h: int) -> str:
    """The prepared picture's name: its file's bytes (by their hash) and its pixel size."""
    return cache.key("picture", 5, Image.__version__, JPEG_QUALITY, REDUCING_GAP,
                     DOWNSAMPLE_ABOVE, px_w, px_h, file_hash(path))


def _why(relative: str, decoding) -> str | None:
    """None when decoding() works, else why the picture cannot be printed: any failure of the
    decoder is the file's."""
    try:
        decoding()
    except ImageProblem as exc:
        return str(exc)
    except OSError as exc:  # gone or unreadable since the check
        return f"'{relative}' cannot be read ({exc.strerror or exc})"
    except Exception as exc:  # noqa: BLE001 - e.g. a mode Pillow cannot convert
        return f"'{relative}' cannot be decoded ({exc})"
    return None


def _fork_context(jobs: int, pictures: int):
    """The multiprocessing context that forks, when `jobs` processes for this many pictures
    are worth their start; else None (prepare here, one by one)."""
    if jobs <= 1 or pictures < PARALLEL_FROM:
        return None
    import multiprocessing
    try:
        return multiprocessing.get_context("fork")
    except ValueError:  # no fork on this system
        return None


def _finished(pool, run):
    """run()'s result, the pool then closed; on any failure or Ctrl-C the workers are ended."""
    try:
        result = run()
        pool.close()  # the workers end on their own (terminate would signal them)
        return result
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _collect(problems: dict[str, str], missing, found) -> None:
    for (_, relative, _, _), problem in zip(missing, found):
        if problem is not None:
            problems.setdefault(relative, problem)


def _worker_ignores_interrupt() -> None:
    """Ctrl-C is the parent's to handle: it ends the workers with SIGTERM, which ends a worker
    at once and silently (not through the handler cardgen's main set, inherited by the fork,
    which would print a traceback from each worker)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _prepare_into_cache(folder: Path, relative: str, w_pt: float, h_pt: float) -> str | None:
    """In a worker of ImageStore.prepare_all: prepare one picture into the disk cache; None,
    or why it cannot be printed."""
    return ImageStore(folder).problem(relative, w_pt, h_pt)
