"""Golden images: one front and one back per card kind of every pack, at 100 dpi.

Rendered from the print-shop PDF with pypdfium2 and compared within a small RMS tolerance (font
rasterisers differ by a few grey levels). A failing comparison keeps a diff image in
tests/packs/golden/diff/. A missing golden fails; goldens are written only on purpose:

    CARDGEN_UPDATE_GOLDEN=1 python -m pytest tests/packs/test_golden.py
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.diagnostics import Report
from cardgen.paths import find_packs
from conftest import shipped_data

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("CARDGEN_UPDATE_GOLDEN") == "1"
TOLERANCE = 4.0  # RMS over 0..255 channels


def _cases():
    for folder in find_packs(ROOT / "card_data"):
        yield pytest.param(folder, id=folder.name)


def _rms(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    histogram = diff.histogram()
    total = sum(count * (index % 256) ** 2 for index, count in enumerate(histogram))
    return math.sqrt(total / (a.width * a.height * 3))


@pytest.mark.parametrize("folder", list(_cases()))
def test_one_front_and_back_per_kind_match_golden(folder: Path):
    report = Report()
    data = shipped_data(folder.name)
    firsts = []
    for kind in data.pack.kinds:
        cards = data.cards_of(kind.id)
        if cards:
            firsts.append(cards[0])
    data.cards = firsts
    result = render_pack(data, report, BuildSettings(only=("printshop",)))
    assert result is not None, [d.format() for d in report.errors]
    document = pdfium.PdfDocument(result.files["printshop.pdf"])
    # printshop.pdf holds every copy of a card (`count:`), fronts first, then the backs
    starts = [sum(lc.card.count for lc in firsts[:i]) for i in range(len(firsts))]
    count = sum(lc.card.count for lc in firsts)
    problems = []
    for index, lc in zip(starts, firsts):
        for side, page_index in (("front", index), ("back", count + index)):
            image = document[page_index].render(scale=100 / 72).to_pil().convert("RGB")
            path = GOLDEN / data.pack.id / f"{lc.kind}-{side}.png"
            if UPDATE:
                path.parent.mkdir(parents=True, exist_ok=True)
                image.save(path)
                continue
            assert path.exists(), f"missing golden {path}; create it on purpose with " \
                                  "CARDGEN_UPDATE_GOLDEN=1"
            expected = Image.open(path).convert("RGB")
            if expected.size != image.size:
                problems.append(f"{path.name}: size {image.size} != {expected.size}")
                continue
            rms = _rms(expected, image)
            if rms > TOLERANCE:
                diff_dir = GOLDEN / "diff" / data.pack.id
                diff_dir.mkdir(parents=True, exist_ok=True)
                image.save(diff_dir / f"{lc.kind}-{side}-actual.png")
                ImageChops.difference(expected, image).save(diff_dir / f"{lc.kind}-{side}-diff.png")
                problems.append(f"{path.name}: RMS {rms:.2f} > {TOLERANCE}")
    document.close()
    assert not problems, problems


# Looks the first card of a kind does not show: a card of two groups, a cut-out sheet.
EXTRA_CARDS = {"crazy-hospital": ["G1"]}
LAST_BOARD = {"crazy-hospital": "spielsteine"}  # the board on the last page of boards.pdf


def _compare(image: Image.Image, pack: str, name: str) -> str | None:
    """None when `image` matches tests/packs/golden/<pack>/<name>.png (or was written), else
    why not."""
    path = GOLDEN / pack / f"{name}.png"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return None
    if not path.exists():
        return f"missing golden {path}; create it on purpose with CARDGEN_UPDATE_GOLDEN=1"
    expected = Image.open(path).convert("RGB")
    if expected.size != image.size:
        return f"{path.name}: size {image.size} != {expected.size}"
    rms = _rms(expected, image)
    if rms > TOLERANCE:
        diff_dir = GOLDEN / "diff" / pack
        diff_dir.mkdir(parents=True, exist_ok=True)
        image.save(diff_dir / f"{name}-actual.png")
        return f"{path.name}: RMS {rms:.2f} > {TOLERANCE}"
    return None


@pytest.mark.parametrize("pack", sorted(EXTRA_CARDS))
def test_chosen_cards_and_the_last_board_match_golden(pack: str):
    from cardgen.render.boards import boards_pdf
    report = Report()
    data = shipped_data(pack)
    whole = list(data.cards)
    data.cards = [lc for lc in whole if lc.card.id in EXTRA_CARDS[pack]]
    result = render_pack(data, report, BuildSettings(only=("printshop",)))
    assert result is not None, [d.format() for d in report.errors]
    document = pdfium.PdfDocument(result.files["printshop.pdf"])
    problems = [_compare(document[i].render(scale=100 / 72).to_pil().convert("RGB"), pack,
                         f"{lc.kind}-{lc.card.id}-front") for i, lc in enumerate(data.cards)]
    document.close()
    data.cards = whole
    boards = pdfium.PdfDocument(boards_pdf(data, report, "a4"))
    last = boards[len(boards) - 1]
    assert LAST_BOARD[pack].lower() in last.get_textpage().get_text_range().lower()
    problems.append(_compare(last.render(scale=50 / 72).to_pil().convert("RGB"), pack,
                             f"board-{LAST_BOARD[pack]}"))
    boards.close()
    assert not [p for p in problems if p], problems


def test_rms_detects_a_changed_card():
    """The comparison itself can fail: a moved box is far above the tolerance."""
    a = Image.new("RGB", (100, 100), "white")
    b = a.copy()
    b.paste((0, 0, 0), (10, 10, 40, 40))
    assert _rms(a, a) == 0
    assert _rms(a, b) > TOLERANCE
