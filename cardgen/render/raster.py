"""PNG per card, rasterised from the print-shop PDF itself, so PNG and PDF cannot drift apart."""

from __future__ import annotations

import io

MM = 72 / 25.4


def card_pngs(printshop_pdf: bytes, printed, card_size, bleed: float, dpi: int,
              with_bleed: bool, only: set[str] | None = None) -> dict[str, bytes]:
    """{'png/<ID>.png': bytes} for every distinct card (front pages of the print-shop file)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(printshop_pdf)
    out: dict[str, bytes] = {}
    try:
        w, h = card_size
        for index, item in enumerate(printed):
            name = f"png/{item.card_id}.png"
            if name in out or (only is not None and item.card_id not in only):
                continue
            page = document[index]
            crop = (0, 0, 0, 0) if with_bleed else (bleed * MM,) * 4
            bitmap = page.render(scale=dpi / 72, crop=crop)
            image = bitmap.to_pil()
            target = (round((w + (2 * bleed if with_bleed else 0)) / 25.4 * dpi),
                      round((h + (2 * bleed if with_bleed else 0)) / 25.4 * dpi))
            if image.size != target:
                image = image.resize(target)
            buffer = io.BytesIO()
            image.save(buffer, "PNG", dpi=(dpi, dpi))
            out[name] = buffer.getvalue()
            page.close()
    finally:
        document.close()
    return out
