"""cardgen.text.flowing: a document paragraph broken into lines once per width, and broken
again for another width or after a split."""

from __future__ import annotations

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph as Plain

from cardgen.text.flowing import Paragraph

TEXT = "Wer die Karte zieht, legt sie offen vor sich ab und spielt reihum weiter. " * 6
STYLE = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=12)


def test_the_same_width_is_answered_from_the_lines_kept(monkeypatch):
    paragraph = Paragraph(TEXT, STYLE)
    first = paragraph.wrap(200, 1000)
    broken = []
    real = Plain.wrap
    monkeypatch.setattr(Plain, "wrap", lambda self, w, h: broken.append(w) or real(self, w, h))
    assert paragraph.wrap(200, 1000) == first
    assert paragraph.wrap(200, 50) == first  # the height asked for does not change the lines
    assert broken == []
    narrower = paragraph.wrap(120, 1000)
    assert broken == [120] and narrower[1] > first[1]


def test_it_measures_as_reportlabs_paragraph_does():
    for w in (90, 200, 400):
        assert Paragraph(TEXT, STYLE).wrap(w, 1000) == Plain(TEXT, STYLE).wrap(w, 1000)


def test_a_split_forgets_the_lines_kept(monkeypatch):
    paragraph = Paragraph(TEXT, STYLE)
    height = paragraph.wrap(200, 1000)[1]
    parts = paragraph.split(200, height / 2)
    assert len(parts) == 2
    assert paragraph._memo is None
    total = sum(part.wrap(200, 1000)[1] for part in parts)
    assert total == height
