"""Parsed fonts kept in cardgen's cache (cardgen/render/fonts.py): a process that loads them
draws exactly the PDF bytes a process that parses the files draws."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cardgen.paths import ROOT

MINI = Path(__file__).parent.parent / "fixtures" / "valid" / "card_data"

# Counts reportlab's parses of a TrueType file (TTFontFile.extractInfo), then runs the rest.
COUNTING = """
import json, sys
from reportlab.pdfbase import ttfonts
parses = []
_extract = ttfonts.TTFontFile.extractInfo
def extract(self, *args, **kwargs):
    parses.append(self.filename)
    return _extract(self, *args, **kwargs)
ttfonts.TTFontFile.extractInfo = extract
"""

# Every face, text with accents, a symbol and a glyph above U+FFFF, widths and glyph boxes.
DRAW = COUNTING + """
from reportlab.pdfgen.canvas import Canvas
from cardgen.text import fonts
canvas = Canvas(sys.argv[1], invariant=1)
measures = []
for i, name in enumerate(sorted(fonts.FACES)):
    pdf_name = fonts.register(name)
    text = "Grüße, Ärztin — 12 ½ € ✓ " + ("\\U0001F42D" if name.startswith("sans") else "")
    canvas.setFont(pdf_name, 11)
    canvas.drawString(20, 800 - 20 * i, text)
    measures.append([fonts.width(text, pdf_name, 11), fonts.glyph_box("J", pdf_name),
                     fonts.missing_glyphs("a\\u4e00", pdf_name)])
canvas.showPage()
canvas.save()
print(json.dumps({"parses": len(parses), "measures": measures}))
"""

BUILD = COUNTING + """
from cardgen.cli.app import main
sys.argv = ["cardgen", "-q", "build", "mini", "--data", sys.argv[1], "--out", sys.argv[2],
            "--only", "cards", "--jobs", "1"]
try:
    main()
except SystemExit as end:
    assert not end.code, end.code
print(json.dumps({"parses": len(parses)}))
"""


def _run(script: str, cache: Path, *args: object) -> dict:
    done = subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "CARDGEN_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_loaded_fonts_draw_the_same_bytes(tmp_path: Path):
    cache = tmp_path / "cache"
    parsed = _run(DRAW, cache, tmp_path / "parsed.pdf")
    loaded = _run(DRAW, cache, tmp_path / "loaded.pdf")
    assert parsed["parses"] == 12 and loaded["parses"] == 0  # the second took every face
    assert (tmp_path / "parsed.pdf").read_bytes() == (tmp_path / "loaded.pdf").read_bytes()
    assert loaded["measures"] == parsed["measures"]


def test_a_broken_entry_is_parsed_again(tmp_path: Path):
    cache = tmp_path / "cache"
    _run(DRAW, cache, tmp_path / "first.pdf")
    entries = sorted((cache / "fonts").iterdir())
    assert len(entries) == 12
    entries[0].write_bytes(entries[0].read_bytes()[:1000])  # cut short (a full disk)
    entries[1].write_bytes(b"not a pickle")
    again = _run(DRAW, cache, tmp_path / "again.pdf")
    assert again["parses"] == 2
    assert (tmp_path / "first.pdf").read_bytes() == (tmp_path / "again.pdf").read_bytes()


def test_a_build_with_cached_fonts_writes_the_same_cards_pdf(tmp_path: Path):
    """The pipeline end to end: cards.pdf of a build that parsed the fonts and of one that
    found only the fonts in its cache (nothing else of the first build) are equal."""
    first = _run(BUILD, tmp_path / "cache", MINI, tmp_path / "first")
    fonts_only = tmp_path / "fonts-only"
    shutil.copytree(tmp_path / "cache" / "fonts", fonts_only / "fonts")
    second = _run(BUILD, fonts_only, MINI, tmp_path / "second")
    assert first["parses"] > 0 and second["parses"] == 0
    cards = Path("mini") / "cards.pdf"
    assert (tmp_path / "first" / cards).read_bytes() == (tmp_path / "second" / cards).read_bytes()
