"""Finding and reading a pack's pictures: a path is kept inside the pack folder, a header is read
without decoding, a picture is decoded completely (so a cut file shows at once).

store.py prepares and keeps the pictures; validate.images checks them before layout.
"""

from __future__ import annotations

import io
import os
import stat
import warnings
from contextlib import contextmanager
from pathlib import Path

from PIL import Image, ImageOps

MAX_PIXELS = 40_000_000
_ROTATED = (5, 6, 7, 8)  # EXIF orientations that swap width and height


class ImageProblem(Exception):
    pass


def resolve(pack_folder: Path, relative: str) -> Path:
    """The picture's path, refusing anything that leaves the pack folder. Worked out once per
    build (store.forget_paths starts a build afresh): a deck names the same back on every card."""
    key = (pack_folder, relative)
    if key not in _RESOLVED:
        _RESOLVED[key] = _resolve(pack_folder, relative)
    return _RESOLVED[key]


_RESOLVED: dict[tuple[Path, str], Path] = {}


def forget_resolved() -> None:
    """Pictures may have moved, a symlink may point elsewhere: resolve every path afresh —
    unless a resident pipeline knows that no picture or folder changed since (keep_resolved)."""
    if _KEEP:
        return
    _RESOLVED.clear()
    _REAL_FOLDERS.clear()


_KEEP: list[bool] = []


@contextmanager
def keep_resolved():
    """Within: forget_resolved() keeps the paths it knows. For a resident pipeline
    (pipeline.resident) whose files changed only in text (a card's YAML), no file added or
    removed: every picture path resolves as before."""
    _KEEP.append(True)
    try:
        yield
    finally:
        _KEEP.pop()


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
    return decode_counted(raw, name, need)[:2]


def decode_counted(raw: bytes, name: str, need: tuple[int, int] | None = None,
                   colours: int = 0) -> tuple[Image.Image, tuple[int, int], bool]:
    """decode(), and whether an opaque picture other than a JPEG has at most `colours`
    colours (False without `colours`, for a JPEG, or a picture with transparency). Counted on
    the pixels this decode made, as encoding.few_colours counts them from the file: a flat
    design is decoded once, not a second time for its count."""
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
            few = bool(colours) and image.format != "JPEG" and not _transparent(image) and \
                _rgb(image).getcolors(colours) is not None
            if orientation != 1:  # exif_transpose copies even when there is nothing to turn
                image = ImageOps.exif_transpose(image)
        except ImageProblem:
            raise
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombWarning,
                Image.DecompressionBombError) as exc:
            raise ImageProblem(f"'{name}' is not a readable picture ({exc})") from None
    if _transparent(image):
        return image.convert("RGBA"), size, False
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        image = image.point(lambda v: v / 256).convert("L")
    return _rgb(image), size, few


def _rgb(image: Image.Image) -> Image.Image:
    """The image in RGB: itself when it is (convert would copy its pixels)."""
    return image if image.mode == "RGB" else image.convert("RGB")


def _transparent(image: Image.Image) -> bool:
    """Whether the picture keeps an alpha channel (decoded as RGBA)."""
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and
                                                  "transparency" in image.info)


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
