"""Card PNGs at exactly the pixel size asked for, drawn at that size (never drawn at another
and resampled, which softens every edge), with an sRGB profile and their resolution."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageCms
from reportlab.pdfgen.canvas import Canvas

from cardgen.diagnostics import Report
from cardgen.model.pack import PRINT_SHOPS
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.render.raster import page_image
from conftest import shipped_data

MM = 72 / 25.4


def _px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


@pytest.mark.parametrize("shop", sorted(PRINT_SHOPS))
@pytest.mark.parametrize("dpi", [72, 300, 600])
@pytest.mark.parametrize("with_bleed", [True, False])
def test_a_page_is_drawn_at_exactly_its_pixels_not_resampled(shop, dpi, with_bleed):
    """A print-shop page of black bars on white: drawn straight onto the PNG's pixels, every
    pixel is black or white (pdfium fills a bar's pixels whole); a page drawn one pixel larger
    and resized to the size asked for has grey pixels along every bar's edges."""
    spec = PRINT_SHOPS[shop]
    (w, h), b = spec.size, spec.bleed
    page = ((w + 2 * b) * MM, (h + 2 * b) * MM)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=page, invariant=1)
    for step in range(1, 12):  # bars across and down the page, at uneven places
        canvas.rect(0, page[1] * step / 12.3, page[0], 1.7 * MM, stroke=0, fill=1)
        canvas.rect(page[0] * step / 12.7, 0, 1.3 * MM, page[1], stroke=0, fill=1)
    canvas.showPage()
    canvas.save()
    extra = 2 * b if with_bleed else 0
    target = (_px(w + extra, dpi), _px(h + extra, dpi))
    document = pdfium.PdfDocument(buffer.getvalue())
    image = page_image(document[0], b, with_bleed, target).convert("L")
    document.close()
    assert image.size == target
    assert set(image.tobytes()) == {0, 255}


@pytest.mark.parametrize("shop, dpi, bleed", [("thegamecrafter", 300, True),
                                              ("drivethrucards", 300, True),
                                              ("meinspiel", 300, False),
                                              ("makeplayingcards", 600, True),
                                              ("meinspiel", 72, True)])
def test_build_pngs_have_the_exact_size_the_srgb_profile_and_the_dpi(shop, dpi, bleed):
    data = shipped_data("quatridou")
    data.cards = data.cards[:2]
    spec = PRINT_SHOPS[shop]
    report = Report()
    result = render_pack(data, report, BuildSettings(
        only=("png",), print_shop=shop, card_size=spec.size, bleed=spec.bleed, safe=spec.safe,
        dpi=dpi, png_bleed=bleed))
    assert result is not None, [d.format() for d in report.errors]
    extra = 2 * spec.bleed if bleed else 0
    target = (_px(spec.size[0] + extra, dpi), _px(spec.size[1] + extra, dpi))
    pngs = [name for name in result.files if name.startswith("png/")]
    assert len(pngs) == 3  # two fronts, one back
    for name in pngs:
        image = Image.open(io.BytesIO(result.files[name]))
        assert image.size == target, name
        assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.01)
        profile = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
        assert "sRGB" in ImageCms.getProfileDescription(profile)
        assert profile.profile.xcolor_space.strip() == "RGB"
