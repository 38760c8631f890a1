"""cardgen.units: millimetres and paper sizes, defined once for every stage."""

from __future__ import annotations

import pytest

from cardgen import units
from cardgen.units import MM, PAPER


def test_a_millimetre_in_pdf_points():
    assert MM == pytest.approx(2.834645669)
    assert 25.4 * MM == pytest.approx(72)  # an inch


def test_paper_sizes_in_mm_portrait():
    assert PAPER == {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
    assert all(w < h for w, h in PAPER.values())
    assert PAPER["letter"] == pytest.approx((8.5 * 25.4, 11 * 25.4))


def test_the_stages_use_these_very_values():
    from cardgen.layout import sheet
    from cardgen.model import board
    from cardgen.render import card, pdf
    from cardgen.text import stats, typeset
    assert sheet.PAPER is units.PAPER and pdf.PAPER is units.PAPER and board.PAPER is units.PAPER
    assert all(module.MM is units.MM for module in (card, pdf, stats, typeset))
