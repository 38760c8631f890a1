"""Every picture a card, a layout (front or back) or a board names: checked before any output,
with the diagnostic at the YAML line that names it.

Why: a picture that cannot be decoded used to surface only while the PDF was drawn, as a
traceback. Before layout each file's header is read (once per file and modification time):
a missing file, a path outside the pack, a file that is no picture, too many pixels. Only
formats that Pillow decodes by itself are accepted (no EPS through Ghostscript, no PDF). The
complete decode, which finds a cut or damaged file, is the one that prepares the picture for
printing (render.images.ImageStore.prepare_all, after layout and before any drawing): a cold
build decodes each picture once, a rebuild none. Any failure of the decoder is the picture's
problem, not cardgen's.
"""

from __future__ import annotations

import importlib
import re
import warnings
from functools import lru_cache
from pathlib import Path

from PIL import Image

from ..diagnostics import Report
from ..model.packdata import PackData
from ..pictures.fit import CUT_WARN, cut_share
from ..pictures.store import MAX_PIXELS, UNDRAWN, ImageProblem, header_size, resolve
from ..pictures.svg import is_svg, svg_size
from ..model.marks import mark_at
from ..units import MM

# The formats a designer's picture may have: decoded by Pillow itself, without helpers.
FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "TIFF", "BMP")
_PLUGINS = ("PngImagePlugin", "JpegImagePlugin", "WebPImagePlugin", "GifImagePlugin",
            "TiffImagePlugin", "BmpImagePlugin")  # the modules that register FORMATS
PRINT_DPI = 300
_TEMPLATE = re.compile(r"\{\{|\{%")
_CARD_FIELD = re.compile(r"card\.([A-Za-z_][A-Za-z0-9_]*)")
_headers: dict[tuple[str, int, int], tuple[int, int] | str] = {}


def picture_size(folder: Path, relative: str) -> tuple[int, int]:
    """The picture's pixel size, from its header; ImageProblem when it cannot be printed
    (missing, outside the pack, not a picture, too large)."""
    path = resolve(folder, relative)
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _headers:
        _headers[key] = _header(path, relative)
    found = _headers[key]
    if isinstance(found, str):
        raise ImageProblem(found)
    return found


@lru_cache(maxsize=None)
def _load_decoders() -> None:
    """Pillow's plugins for FORMATS, and only those. Image.open(formats=...) imports every
    plugin Pillow has (Image.init, 20-40 ms) as soon as one listed format is not loaded yet,
    and "PNG" comes first while a .jpg loads only the JPEG plugin."""
    for module in _PLUGINS:
        try:
            importlib.import_module(f"PIL.{module}")
        except ImportError:  # a Pillow built without one of them: load what Pillow has, as
            Image.init()  # Image.open would have (the formats it lacks stay unreadable)
            return


def _header(path: Path, relative: str) -> tuple[int, int] | str:
    """Pixel size (an SVG: its own width and height), or the problem as a sentence (kept, so
    a header is read once)."""
    if is_svg(relative):
        try:
            return svg_size(path)
        except ImageProblem as exc:
            return str(exc)
    _load_decoders()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(path, formats=FORMATS) as image:  # the header: format and size
                return header_size(image, header_only=True)[0]
    except ImageProblem as exc:
        return str(exc)
    except Image.DecompressionBombError:  # Pillow's own limit, far above ours
        return f"'{relative}' has far more than {MAX_PIXELS:,} pixels"
    except Exception:  # noqa: BLE001 - whatever the decoder says, the file is not usable
        return (f"'{relative}' is not a readable picture (cardgen prints PNG, JPEG, WEBP, GIF, "
                "TIFF, BMP and SVG)")


def is_template(text: str | None) -> bool:
    return bool(text and _TEMPLATE.search(text))


def check_named_pictures(data: PackData, report: Report) -> None:
    """Before layout: each card's `image` and each fixed picture path in a layout the pack's
    kinds use (fronts and backs), at the line that names it."""
    for lc in data.cards:
        if lc.card.image:
            mark = lc.mark("image")
            _check(data.folder, lc.card.image, report, (lc.file, mark), lc.card.id, "image")
    used = sorted({k.front for k in data.pack.kinds} | {k.back for k in data.pack.kinds})
    for name in used:
        layout = data.layouts.get(name)
        if layout is None:
            continue
        for region_name, region in layout.regions.items():
            if region.type == "image" and region.image and not is_template(region.image):
                mark = layout_mark(layout, region_name, "image")
                _check(data.folder, region.image, report, (mark.file if mark else layout.file,
                                                           mark), f"{name}.{region_name}", "image")


def layout_mark(layout, region: str, key: str):
    """The mark of a region's key in its layouts.yaml (load keeps them as 'region.key'),
    else of the region itself."""
    return layout.marks.get(f"{region}.{key}") or layout.marks.get(region)


def check_face_pictures(data: PackData, faces, report: Report,
                        undecodable: dict[str, str] | None = None) -> None:
    """After layout: every picture on every laid-out face, front or back, including paths a
    template made. `faces` holds (card | None, layout, face); `undecodable` the pictures that
    failed to decode while they were prepared (ImageStore.prepare_all). A picture below 300 dpi
    at its printed size is a warning."""
    undecodable = undecodable or {}
    seen: set[tuple] = set()
    for lc, layout, face in faces:
        for box in face.boxes:
            if not box.image:
                continue
            where, subject, field = _named_at(lc, layout, box)
            key = (box.image, box.region.w, box.region.h, where[0], where[1], subject)
            if key in seen:
                continue
            seen.add(key)
            size = _check(data.folder, box.image, report, where, subject, field)
            if size is not None and box.image in undecodable:
                _error(report, where, subject, f"{field}: {undecodable[box.image]}")
            elif size is not None:
                if not is_svg(box.image):  # a vector picture has no resolution to lack
                    _resolution(size, box, report, where, subject, field)
                _cut_off(size, box, report, where, subject, field)


def _named_at(lc, layout, box):
    """((file, mark), subject, field) of the YAML that names this box's picture: the card's
    field when the card gives it, else the layout's region."""
    template = box.region.image or ""
    fields = [] if box.region.type == "portrait" else _CARD_FIELD.findall(template)
    if lc is not None and (box.region.type == "portrait" or fields):
        name = "image" if box.region.type == "portrait" else fields[0]
        return (lc.file, lc.mark(name)), lc.card.id, name
    mark = layout_mark(layout, box.name, "image")
    subject = f"{layout.name}.{box.name}"
    field = "image" if lc is None or not is_template(template) else \
        f"image (card {lc.card.id})"
    return (mark.file if mark else layout.file, mark), subject, field


def _check(folder: Path, relative: str, report: Report, where, subject: str,
           field: str) -> tuple[int, int] | None:
    try:
        return picture_size(folder, relative)
    except ImageProblem as exc:
        _error(report, where, subject, f"{field}: {exc}")
        return None


def _error(report: Report, where, subject: str, message: str) -> None:
    file, mark = where
    line, col = (mark.line, mark.col) if mark else (0, 0)
    report.error(file, line, col, subject, message)


def _resolution(size, box, report: Report, where, subject: str, field: str) -> None:
    px_w, px_h = size
    region = box.region
    if region.w <= 0 or region.h <= 0:
        return
    dpi = min(px_w / (region.w / 25.4), px_h / (region.h / 25.4))
    if dpi < PRINT_DPI:
        file, mark = where
        line, col = (mark.line, mark.col) if mark else (0, 0)
        report.warning(file, line, col, subject, f"{field}: {box.image} prints at {dpi:.0f} dpi "
                       f"in the {region.w:g} x {region.h:g} mm {box.name} region; "
                       f"{PRINT_DPI} dpi needs {round(region.w / 25.4 * PRINT_DPI)} x "
                       f"{round(region.h / 25.4 * PRINT_DPI)} px")


def _cut_off(size, box, report: Report, where, subject: str, field: str) -> None:
    """A cover fit that cuts off more than CUT_WARN of the picture: said, with the way out."""
    region = box.region
    if box.fit != "cover":
        return
    share = cut_share((region.w, region.h), size)
    if share > CUT_WARN:
        file, mark = where
        line, col = (mark.line, mark.col) if mark else (0, 0)
        report.warning(file, line, col, subject, f"{field}: the {region.w:g} x {region.h:g} mm "
                       f"{box.name} region cuts off {share:.0%} of {box.image} (fit: cover); "
                       f"show all of it with fit: contain, or choose what stays with "
                       f"focus: [x, y]")


def check_board_pictures(images, laid, raw, shown: str, report: Report) -> None:
    """Every picture on every laid-out board, at the board region's `image` line; each one is
    prepared for its box now (`images`, the boards' ImageStore), which decodes it completely."""
    seen: set[tuple[str, str]] = set()
    for board in laid:
        for box in board.face.boxes:
            if not box.image or box.region.type != "image" or (board.name, box.image) in seen:
                continue
            seen.add((board.name, box.image))
            where = (shown, mark_at(raw, "boards", board.name, "regions", box.name, "image"))
            subject = f"{board.name}.{box.name}"
            if _check(images.folder, box.image, report, where, subject, "image") is None:
                continue
            problem = images.problem(box.image, box.region.w * MM, box.region.h * MM)
            if problem is not None:
                _error(report, where, subject, f"image: {problem}")


def report_undrawn(data: PackData, report: Report) -> bool:
    """The pictures a drawing had to leave out (render.images.UNDRAWN: they failed to decode
    where no check before had decoded them, as in a rulebook figure built alone), each as an
    error at the YAML that names it; True when there was one."""
    undrawn = dict(UNDRAWN)
    UNDRAWN.clear()
    for relative, problem in undrawn.items():
        where, subject, field = _naming(data, relative)
        _error(report, where, subject, f"{field}: {problem}")
    return bool(undrawn)


def _naming(data: PackData, relative: str):
    """((file, mark), subject, field) of the first YAML that names the picture: a card's field,
    else a layout's region (a template's region when none names it as such), else pack.yaml."""
    for lc in data.cards:
        for name, value in [("image", lc.card.image), *lc.card.extra_fields.items()]:
            if value == relative:
                return (lc.file, lc.mark(name)), lc.card.id, name
    templated = None
    for layout in data.layouts.values():
        for region_name, region in layout.regions.items():
            if region.type == "image" and region.image == relative:
                mark = layout_mark(layout, region_name, "image")
                return (mark.file if mark else layout.file, mark), \
                    f"{layout.name}.{region_name}", "image"
            if templated is None and region.type == "image" and is_template(region.image):
                templated = (layout, region_name)
    if templated is not None:
        layout, region_name = templated
        mark = layout_mark(layout, region_name, "image")
        return (mark.file if mark else layout.file, mark), f"{layout.name}.{region_name}", \
            "image"
    return (data.pack_file, None), "", "picture"
