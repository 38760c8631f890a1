"""Turning decoded pixels into what a PDF embeds: the crop and scale to the placed pixels, the
JPEG or lossless Flate stream, and Picture, the result as kept in memory and in the disk cache.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

FEW_COLOURS = 256  # a picture with at most this many colours is tried losslessly too
JPEG_QUALITY = 88
REDUCING_GAP = 3.0
# A picture is scaled down to 300 dpi only when it has more than this many times the pixels 300
# dpi needs (on a side); up to that it keeps its own pixels, only cropped to the box. Adobe
# Distiller's print presets draw the same line (ColorImageDownsampleThreshold 1.5: "downsample
# to 300 ppi images above 450 ppi"): a near-300-dpi picture gains nothing printable from a
# resampling that blurs it, and it is the costliest step of preparing a photo.
DOWNSAMPLE_ABOVE = 1.5


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


def flate(image: Image.Image) -> bytes:
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


def few_colours(raw: bytes) -> bool:
    """A flat design (a back, a logo) rather than a photo: at most FEW_COLOURS colours."""
    with Image.open(io.BytesIO(raw)) as image:
        if image.format == "JPEG":  # JPEG's own noise gives every photo thousands
            return False
        return image.convert("RGB").getcolors(FEW_COLOURS) is not None


def fitted(image: Image.Image, size: tuple[int, int]) -> Image.Image:
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


def aspect_box(size: tuple[int, int], aspect: float) -> tuple[int, int]:
    """The largest box of the given aspect inside an image of this size."""
    w, h = size
    if w / h > aspect:
        return min(w, max(1, round(h * aspect))), h
    return w, min(h, max(1, round(w / aspect)))


def to_pixels(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The picture for a box of `size` pixels (300 dpi of the placed size): cropped to the box's
    aspect about its centre, and scaled down to `size` only when it has more than
    DOWNSAMPLE_ABOVE times those pixels; else its own pixels, cropped (a picture below 300 dpi
    is never scaled up: the printer's enlargement is as good and the file stays small)."""
    crop = aspect_box(image.size, size[0] / size[1])
    if crop[0] > DOWNSAMPLE_ABOVE * size[0]:
        return fitted(image, size)
    if crop == image.size:
        return image
    left, top = (image.width - crop[0]) // 2, (image.height - crop[1]) // 2
    return image.crop((left, top, left + crop[0], top + crop[1]))
