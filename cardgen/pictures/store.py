"""Pictures: only from inside the pack, fully decoded before use, embedded once at <= 300 dpi.

Why so strict: a truncated JPEG otherwise prints as a blank rectangle, a '../' path reads files
outside the project, and a 6000 px photo makes a 200 MB PDF.

Why so lean: a deck holds hundreds of photos. Each file is read and decoded once, cropped and
scaled to exactly the pixels 300 dpi needs at its placed size, and kept only as the encoded
stream the PDF embeds (a JPEG, or a lossless Flate stream when the picture has few colours and
that is smaller) — never as decoded pixels. Prepared pictures are kept on disk between builds
(cardgen.incremental.cache), keyed by the file's bytes and the pixel size, so a rebuild decodes nothing.

Decoding once is also the check: the check before layout reads only a picture's header
(validate.images), and the complete decode that finds a cut or damaged file is the one that
prepares it (ImageStore.prepare_all, before any face is drawn; its problems are diagnostics at
the YAML that names the picture). A picture that fails later, while a figure is drawn, is left
out and kept in UNDRAWN for the build to report.
"""

from __future__ import annotations

import dataclasses
import io
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObject, PDFStream

from ..incremental import cache
from ..incremental.fingerprint import file_hash

MAX_PIXELS = 40_000_000
TARGET_DPI = 300
MM = 72 / 25.4
FEW_COLOURS = 256  # a picture with at most this many colours is tried losslessly too
JPEG_QUALITY = 88
_ROTATED = (5, 6, 7, 8)  # EXIF orientations that swap width and height
PARALLEL_FROM = 8  # pictures to prepare before a second process is worth its start


class ImageProblem(Exception):
    pass


def resolve(pack_folder: Path, relative: str) -> Path:
    """The picture's path, refusing anything that leaves the pack folder. Worked out once per
    build (forget_paths() starts a build afresh): a deck names the same back on every card."""
    key = (pack_folder, relative)
    if key not in _RESOLVED:
        _RESOLVED[key] = _resolve(pack_folder, relative)
    return _RESOLVED[key]


_RESOLVED: dict[tuple[Path, str], Path] = {}


def forget_paths() -> None:
    """A new build: pictures may have moved, a symlink may point elsewhere."""
    _RESOLVED.clear()
    _REAL_FOLDERS.clear()
    UNDRAWN.clear()


# cache key → the light picture (no streams) of an entry this process read or wrote: the next
# build in the same process (`cardgen watch`) knows it without reading the entry
_LIGHT: dict[str, "Picture"] = {}

# relative path → why it could not be drawn: pictures left out of a drawing, for the build to
# report (validate.images.report_undrawn) before it writes anything
UNDRAWN: dict[str, str] = {}


def _resolve(pack_folder: Path, relative: str) -> Path:
    if not relative or "://" in relative or relative.startswith(("/", "\\")) or \
            (len(relative) > 1 and relative[1] == ":"):
        raise ImageProblem(f"'{relative}' must be a path inside the pack folder (no URL, no "
                           "absolute path)")
    if ".." in Path(relative).parts:
        raise ImageProblem(f"'{relative}' must not contain '..'")
    root = _real_folder(pack_folder)
    given = pack_folder / relative
    try:
        plain = stat.S_ISREG(os.lstat(given).st_mode)  # a file, not a symlink
    except OSError:
        plain = False
    # a plain file's real path is its real folder's plus its name (one lstat per picture, the
    # folders resolved once per build: a deck's 640 photos share one)
    path = _real_folder(given.parent) / given.name if plain else given.resolve()
    if root != path and root not in path.parents:
        raise ImageProblem(f"'{relative}' leads outside the pack folder (a symlink?)")
    if path.is_dir():
        raise ImageProblem(f"'{relative}' is a folder, not a picture; name a file in it")
    if not path.is_file():
        raise ImageProblem(f"picture '{relative}' not found")
    return path


def _real_folder(folder: Path) -> Path:
    if folder not in _REAL_FOLDERS:
        _REAL_FOLDERS[folder] = folder.resolve()
    return _REAL_FOLDERS[folder]


_REAL_FOLDERS: dict[Path, Path] = {}


def open_checked(path: Path) -> Image.Image:
    """Decode the whole image (so truncation shows now), orientation applied, RGB(A)."""
    return decode(path.read_bytes(), path.name)[0]


def decode(raw: bytes, name: str, need: tuple[int, int] | None = None
           ) -> tuple[Image.Image, tuple[int, int]]:
    """(the picture decoded completely, orientation applied, RGB(A); its size in the file).

    `need`: the pixels the caller will scale it to. A JPEG at least twice that size is decoded
    at 1/2, 1/4 or 1/8 of its size (never below `need`), which is much faster.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            # from memory, not a file: nothing to close, and no copy to keep the pixels
            image = Image.open(io.BytesIO(raw))
            size, orientation = header_size(image)
            turned = orientation in _ROTATED
            if need and image.format == "JPEG":
                image.draft(image.mode, need[::-1] if turned else need)
            image.load()
            if orientation != 1:  # exif_transpose copies even when there is nothing to turn
                image = ImageOps.exif_transpose(image)
        except ImageProblem:
            raise
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombWarning,
                Image.DecompressionBombError) as exc:
            raise ImageProblem(f"'{name}' is not a readable picture ({exc})") from None
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and
                                              "transparency" in image.info):
        return image.convert("RGBA"), size
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        image = image.point(lambda v: v / 256).convert("L")
    return (image if image.mode == "RGB" else image.convert("RGB")), size


def header_size(image: Image.Image, header_only: bool = False) -> tuple[tuple[int, int], int]:
    """(the size the picture prints at, its EXIF orientation turned; the orientation) of an
    opened picture; ImageProblem when it has too many pixels.

    `header_only`: never decode. A PNG's EXIF may follow its pixels, and Pillow decodes them
    to reach it; such a PNG counts as unturned here (the check's size is for its dpi warning)."""
    if image.width * image.height > MAX_PIXELS:
        raise ImageProblem(f"{image.width} x {image.height} pixels is more than "
                           f"{MAX_PIXELS:,} pixels")
    if header_only and image.format == "PNG" and "exif" not in image.info:
        orientation = 1
    else:
        orientation = image.getexif().get(0x0112, 1)
    return ((image.height, image.width) if orientation in _ROTATED else image.size), orientation


@dataclass(frozen=True)
class Picture:
    """A picture ready to embed: the PDF image stream(s), no decoded pixels."""

    key: str                      # names the PDF object: same picture, same name, same bytes
    width: int                    # embedded pixels
    height: int
    source: tuple[int, int]       # pixels in the file (for the dpi warning)
    filter: str                   # "DCTDecode" (JPEG) or "FlateDecode" (PNG-predicted, lossless)
    data: bytes                   # empty in a light picture
    alpha: bytes = b""            # 8-bit alpha, Flate with PNG predictors, or empty
    light: bool = False           # held without its streams: they are in the disk cache

    def dump(self) -> bytes:
        head = (f"{self.width} {self.height} {self.source[0]} {self.source[1]} {self.filter} "
                f"{len(self.data)} {len(self.alpha)}\n")
        return head.encode() + self.data + self.alpha

    @classmethod
    def load(cls, key: str, blob: bytes) -> "Picture | None":
        """The cached picture, or None when the entry is not one whole picture."""
        head, _, body = blob.partition(b"\n")
        try:
            w, h, sw, sh, kind, n_data, n_alpha = head.decode().split()
            n_data, n_alpha = int(n_data), int(n_alpha)
        except ValueError:
            return None
        if kind not in ("DCTDecode", "FlateDecode") or len(body) != n_data + n_alpha:
            return None
        return cls(key, int(w), int(h), (int(sw), int(sh)), kind, body[:n_data],
                   body[n_data:])


def prepare(raw: bytes, name: str, px_w: int, px_h: int, key: str) -> Picture:
    """Decode once, crop to the box's aspect, scale to (px_w, px_h) or less, encode."""
    image, source = decode(raw, name, (px_w, px_h))
    enough = image.width >= px_w and image.height >= px_h
    target = (px_w, px_h) if enough else _aspect_box(image.size, px_w / px_h)
    image = _fitted(image, target)
    if image.mode == "RGBA":  # lossless, as the edges of a cut-out must stay sharp
        return Picture(key, *image.size, source, "FlateDecode",
                       _flate(image.convert("RGB")), _flate(image.getchannel("A")))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
    kind, data = "DCTDecode", buffer.getvalue()
    if _few_colours(raw):
        flat = _flate(image)
        if len(flat) < len(data):
            kind, data = "FlateDecode", flat
    return Picture(key, *image.size, source, kind, data)


def _flate(image: Image.Image) -> bytes:
    """The image as a Flate stream with PNG row predictors: a PNG file's IDAT data."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    png, chunks, at = buffer.getvalue(), [], 8
    while at < len(png):
        length = int.from_bytes(png[at:at + 4], "big")
        if png[at + 4:at + 8] == b"IDAT":
            chunks.append(png[at + 8:at + 8 + length])
        at += 12 + length
    return b"".join(chunks)


def _few_colours(raw: bytes) -> bool:
    """A flat design (a back, a logo) rather than a photo: at most FEW_COLOURS colours."""
    with Image.open(io.BytesIO(raw)) as image:
        if image.format == "JPEG":  # JPEG's own noise gives every photo thousands
            return False
        return image.convert("RGB").getcolors(FEW_COLOURS) is not None


class ImageStore:
    """The pack's pictures, each prepared once per (file, pixel size) and kept encoded.

    Kept light when the disk cache holds the picture: its size and name in memory, its streams
    read from the disk when a PDF is saved, one picture at a time. Memory then does not grow
    with the pictures a deck holds (640 photos, 9.6 MiB) beyond the PDF being saved."""

    def __init__(self, pack_folder: Path):
        self.folder = pack_folder
        self.cache: dict[tuple[str, int, int], Picture] = {}
        self.failed: dict[tuple[str, int, int], str] = {}  # placement → why it cannot print
        self._started = None  # (pool, placements, async result) of start()

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
        px_w, px_h = _pixels(w_pt, h_pt)
        return self._made(relative, px_w, px_h)[0]

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
            try:
                key = _key(resolve(self.folder, relative), px_w, px_h)
            except (ImageProblem, OSError):
                continue
            if (relative, px_w, px_h) not in self.cache and not cache.has("pictures", key):
                missing.append((self.folder, relative, w_pt, h_pt))
        return missing

    def draw(self, canvas, relative: str, x: float, y: float, w: float, h: float,
             radius: float = 0) -> None:
        problem = self.problem(relative, w, h)
        if problem is not None:  # left out; the build reports it and writes nothing
            UNDRAWN.setdefault(relative, problem)
            return
        recording = getattr(canvas, "_cardgen_pictures", None)  # render.replay records a face
        if recording is not None:
            recording.append((relative, w, h))
        canvas.saveState()
        if radius:
            path = canvas.beginPath()
            path.roundRect(x, y, w, h, radius)
            canvas.clipPath(path, stroke=0, fill=0)
        embed(canvas, self.place(canvas, relative, w, h), x, y, w, h)
        canvas.restoreState()


def _pixels(w_pt: float, h_pt: float) -> tuple[int, int]:
    """The pixels 300 dpi needs for a box of w x h points."""
    return max(1, round(w_pt / 72 * TARGET_DPI)), max(1, round(h_pt / 72 * TARGET_DPI))


def _key(path: Path, px_w: int, px_h: int) -> str:
    """The prepared picture's name: its file's bytes (by their hash) and its pixel size."""
    return cache.key("picture", 4, Image.__version__, JPEG_QUALITY, REDUCING_GAP, px_w, px_h,
                     file_hash(path))


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


def embed(canvas, registered: str, x: float, y: float, w: float, h: float) -> None:
    """Place a picture (its XObject, from place_picture) as reportlab's drawImage does, without
    what drawImage costs here: drawImage hashes and keeps the decoded pixels of every picture it
    is given (about 1 MiB per photo) and compresses them again; this embeds the prepared stream
    as it is, once per document, named by the picture's key (so the bytes do not depend on
    paths)."""
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w, h)
    canvas._code.append(f"/{registered} Do")
    canvas.restoreState()


def place_picture(canvas, picture: Picture, streams=None) -> str:
    """The picture's XObject in the canvas's document (once) and in its current page's
    resources; returns the name its operators use. `streams()`: the picture with its streams,
    asked for when the document is saved if `picture` is light."""
    doc, name = canvas._doc, f"pic{picture.key[:24]}"
    registered = doc.getXObjectName(name)
    if registered not in doc.idToObject:
        mask = None
        if picture.alpha:
            mask = doc.Reference(_ImageObject(picture, 1, "FlateDecode", lambda p: p.alpha),
                                 doc.getXObjectName(f"{name}a"))
        image = _ImageObject(picture, 3, picture.filter, lambda p: p.data, mask, streams)
        doc.Reference(image, registered)
        doc.addForm(name, image)
    canvas._currentPageHasImages = 1
    canvas._formsinuse.append(name)
    return registered


class _ImageObject(PDFObject):
    """A PDF image XObject made from a prepared stream."""

    def __init__(self, picture: Picture, colours: int, kind: str, stream_of, mask=None,
                 streams=None):
        self.picture, self.colours, self.kind, self.mask = picture, colours, kind, mask
        self.stream_of, self.streams = stream_of, streams  # stream_of(picture): its bytes

    def format(self, document):
        whole = self.streams() if self.picture.light else self.picture  # read now, let go after
        data = self.stream_of(whole)
        stream = PDFStream(content=data)
        d = stream.dictionary
        d["Type"], d["Subtype"] = PDFName("XObject"), PDFName("Image")
        d["Width"], d["Height"] = whole.width, whole.height
        d["BitsPerComponent"] = 8
        d["ColorSpace"] = PDFName("DeviceRGB" if self.colours == 3 else "DeviceGray")
        d["Filter"] = PDFArray([PDFName(self.kind)])
        if self.kind == "FlateDecode":  # PNG row predictors, as _flate wrote them
            d["DecodeParms"] = PDFArray([PDFDictionary({
                "Predictor": 15, "Colors": self.colours, "BitsPerComponent": 8,
                "Columns": whole.width})])  # one per filter, as Filter is an array
        d["Length"] = len(data)
        if self.mask is not None:
            d["SMask"] = self.mask
        return stream.format(document)


REDUCING_GAP = 3.0


def _fitted(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The picture cropped to the aspect of `size` about its centre and scaled to it with
    LANCZOS, as ImageOps.fit does, but with Pillow's reducing_gap: a picture six or more times
    the pixels it needs on a side (a large PNG, which has no JPEG draft mode) is first reduced by
    a whole factor, leaving LANCZOS at least three times to go, which Pillow documents as
    indistinguishable from scaling it all the way (a 4000 x 3000 px picture for a 45 x 34 mm box:
    0.22 → 0.09 s). Below six times the result is ImageOps.fit's, byte for byte."""
    w, h = image.size
    aspect = size[0] / size[1]
    if w / h == aspect:
        crop_w, crop_h = w, h
    elif w / h > aspect:
        crop_w, crop_h = aspect * h, h
    else:
        crop_w, crop_h = w, w / aspect
    left, top = (w - crop_w) / 2, (h - crop_h) / 2
    return image.resize(size, Image.LANCZOS, box=(left, top, left + crop_w, top + crop_h),
                        reducing_gap=REDUCING_GAP)


def _aspect_box(size: tuple[int, int], aspect: float) -> tuple[int, int]:
    """The largest box of the given aspect inside an image too small for 300 dpi."""
    w, h = size
    if w / h > aspect:
        return max(1, round(h * aspect)), h
    return w, max(1, round(w / aspect))
