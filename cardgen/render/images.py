"""Pictures: only from inside the pack, fully decoded before use, embedded once at <= 300 dpi.

Why so strict: a truncated JPEG otherwise prints as a blank rectangle, a '../' path reads files
outside the project, and a 6000 px photo makes a 200 MB PDF.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

from PIL import Image, ImageOps
from reportlab.lib.utils import ImageReader

MAX_PIXELS = 40_000_000
TARGET_DPI = 300
MM = 72 / 25.4


class ImageProblem(Exception):
    pass


def resolve(pack_folder: Path, relative: str) -> Path:
    """The picture's path, refusing anything that leaves the pack folder."""
    if not relative or "://" in relative or relative.startswith(("/", "\\")) or \
            (len(relative) > 1 and relative[1] == ":"):
        raise ImageProblem(f"'{relative}' must be a path inside the pack folder (no URL, no "
                           "absolute path)")
    if ".." in Path(relative).parts:
        raise ImageProblem(f"'{relative}' must not contain '..'")
    root = pack_folder.resolve()
    path = (pack_folder / relative).resolve()
    if root != path and root not in path.parents:
        raise ImageProblem(f"'{relative}' leads outside the pack folder (a symlink?)")
    if not path.is_file():
        raise ImageProblem(f"picture '{relative}' not found")
    return path


def open_checked(path: Path) -> Image.Image:
    """Decode the whole image (so truncation shows now), orientation applied, RGB(A)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(path) as probe:
                if probe.width * probe.height > MAX_PIXELS:
                    raise ImageProblem(f"{probe.width} x {probe.height} pixels is more than "
                                       f"{MAX_PIXELS:,} pixels")
                probe.load()
                image = ImageOps.exif_transpose(probe)
        except ImageProblem:
            raise
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombWarning,
                Image.DecompressionBombError) as exc:
            raise ImageProblem(f"'{path.name}' is not a readable picture ({exc})") from None
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and
                                              "transparency" in image.info):
        return image.convert("RGBA")
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        image = image.point(lambda v: v / 256).convert("L")
    return image.convert("RGB")


class ImageStore:
    """Decoded pictures, cropped and scaled once per (file, box size)."""

    def __init__(self, pack_folder: Path):
        self.folder = pack_folder
        self.cache: dict[tuple[str, int, int], ImageReader] = {}

    def check(self, relative: str) -> tuple[int, int]:
        """Raise ImageProblem when the picture cannot be used; else its pixel size."""
        image = open_checked(resolve(self.folder, relative))
        return image.size

    def prepared(self, relative: str, w_pt: float, h_pt: float) -> ImageReader:
        px_w = max(1, round(w_pt / 72 * TARGET_DPI))
        px_h = max(1, round(h_pt / 72 * TARGET_DPI))
        key = (relative, px_w, px_h)
        if key not in self.cache:
            image = open_checked(resolve(self.folder, relative))
            enough = image.width >= px_w and image.height >= px_h
            target = (px_w, px_h) if enough else _aspect_box(image.size, px_w / px_h)
            image = ImageOps.fit(image, target, method=Image.LANCZOS)
            buffer = io.BytesIO()
            if image.mode == "RGBA":
                image.save(buffer, "PNG", optimize=True)
            else:
                image.save(buffer, "JPEG", quality=88, optimize=True)
            buffer.seek(0)
            self.cache[key] = ImageReader(buffer)
        return self.cache[key]

    def draw(self, canvas, relative: str, x: float, y: float, w: float, h: float,
             radius: float = 0) -> None:
        reader = self.prepared(relative, w, h)
        canvas.saveState()
        if radius:
            path = canvas.beginPath()
            path.roundRect(x, y, w, h, radius)
            canvas.clipPath(path, stroke=0, fill=0)
        canvas.drawImage(reader, x, y, w, h, mask="auto")
        canvas.restoreState()


def _aspect_box(size: tuple[int, int], aspect: float) -> tuple[int, int]:
    """The largest box of the given aspect inside an image too small for 300 dpi."""
    w, h = size
    if w / h > aspect:
        return max(1, round(h * aspect)), h
    return w, max(1, round(w / aspect))
