"""Faces kept between builds (cardgen/layout/kept.py: laid-out fronts; render/face_store.py:
drawn faces): a rebuild lays out and draws only what changed, and writes the same bytes as a
build with an empty cache."""

from __future__ import annotations

import os
import re
import shutil

import pytest

import cardgen.pipeline.faces
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import build_pack
from cardgen.layout.card import CardLayouter
from cardgen.render.card import CardPainter

from conftest import copy_shipped

KINDS = {"cards", "printshop"}


@pytest.fixture
def counted(monkeypatch):
    """{"laid out": [card ids], "drawn": [card ids]} of the builds run while it is on."""
    seen = {"laid out": [], "drawn": []}
    face, boxes = CardLayouter.face, CardPainter._boxes

    def laying_out(self, lc, layout, subject):
        if lc is not None:
            seen["laid out"].append(subject)
        return face(self, lc, layout, subject)

    def drawing(self, canvas, card_face):
        seen["drawn"].append(card_face.card_id)
        return boxes(self, canvas, card_face)
    monkeypatch.setattr(CardLayouter, "face", laying_out)
    monkeypatch.setattr(CardPainter, "_boxes", drawing)
    return seen


def _build(folder, cache, monkeypatch, kinds=KINDS) -> dict[str, bytes]:
    monkeypatch.setenv("CARDGEN_CACHE", str(cache))
    report, result = build_pack(folder, BuildSettings(jobs=1), kinds)
    assert result is not None, [str(d) for d in report.items]
    return {name: result.files[name] for name in ("cards.pdf", "printshop.pdf")
            if name in result.files}


def _edit(folder, field: str = "iq") -> str:
    """The first `field: N` of the character cards changed by one; returns that card's id."""
    path = folder / "cards" / "character.yaml"
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"\b{field}: ([0-9]+)", text)
    value = int(match.group(1))
    path.write_text(text[:match.start(1)] + str(value + 1 if value < 90 else value - 1)
                    + text[match.end(1):], encoding="utf-8")
    return re.findall(r"id: ([A-Z0-9-]+)", text[:match.start()])[-1]


def test_a_rebuild_lays_out_and_draws_only_the_edited_card(tmp_path, monkeypatch, counted):
    folder = copy_shipped(tmp_path)
    first = _build(folder, tmp_path / "cache", monkeypatch)
    assert len(counted["laid out"]) == 104 and len(set(counted["drawn"])) > 100
    for seen in counted.values():
        seen.clear()
    again = _build(folder, tmp_path / "cache", monkeypatch)
    assert again == first  # nothing laid out or drawn, the same bytes
    assert counted == {"laid out": [], "drawn": []}

    edited = _edit(folder)
    rebuilt = _build(folder, tmp_path / "cache", monkeypatch)
    assert counted == {"laid out": [edited], "drawn": [edited]}
    assert rebuilt["cards.pdf"] != first["cards.pdf"]
    cold = _build(folder, tmp_path / "empty-cache", monkeypatch)
    assert rebuilt == cold  # what a build with nothing kept writes


def test_a_new_character_draws_every_face_again_and_still_matches(tmp_path, monkeypatch,
                                                                  counted):
    """A character no face printed before moves the glyph codes of its font: every face of
    the build is drawn afresh (laid out: only the card that changed)."""
    folder = copy_shipped(tmp_path)
    _build(folder, tmp_path / "cache", monkeypatch, {"cards"})
    path = folder / "cards" / "character.yaml"
    text = path.read_text(encoding="utf-8")
    name = re.search(r'name: "?([^"\n]+)"?', text).group(1)
    assert "Ω" not in text
    path.write_text(text.replace(name, name[:-1] + "Ω", 1), encoding="utf-8")
    for seen in counted.values():
        seen.clear()
    rebuilt = _build(folder, tmp_path / "cache", monkeypatch, {"cards"})
    assert len(counted["laid out"]) == 1
    assert len(set(counted["drawn"])) > 100
    assert rebuilt == _build(folder, tmp_path / "empty-cache", monkeypatch, {"cards"})


def test_a_card_with_a_problem_is_laid_out_and_reported_on_every_build(tmp_path, monkeypatch):
    folder = copy_shipped(tmp_path)
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    path = folder / "cards" / "character.yaml"
    text = path.read_text(encoding="utf-8")
    name = re.search(r'name: "?([^"\n]+)"?', text).group(1)
    path.write_text(text.replace(name, " ".join([name] * 30), 1), encoding="utf-8")
    for _ in range(2):
        report, result = build_pack(folder, BuildSettings(jobs=1), KINDS)
        assert result is None
        assert [d for d in report.errors if "does not fit" in str(d)]


def test_other_drawing_code_replays_nothing_kept(tmp_path, monkeypatch, counted):
    """An entry names the code that drew it: after an update of the painter, a rebuild draws
    every face afresh."""
    folder = copy_shipped(tmp_path, "quartett")
    _build(folder, tmp_path / "cache", monkeypatch)
    counted["drawn"].clear()
    monkeypatch.setattr("cardgen.incremental.faces._DRAWING", ("render/card.py",))
    _build(folder, tmp_path / "cache", monkeypatch)
    assert len(set(counted["drawn"])) == 52 + 1  # every front and the back


def test_the_cache_is_only_a_shortcut(tmp_path, monkeypatch, counted):
    """An entry that cannot be read as one (a torn write, another format) is built again."""
    folder = copy_shipped(tmp_path, "quartett")
    first = _build(folder, tmp_path / "cache", monkeypatch)
    for kind in ("faces", "layouts"):
        for entry in (tmp_path / "cache" / kind).iterdir():
            entry.write_bytes(entry.read_bytes()[:100])
    counted["laid out"].clear()
    assert _build(folder, tmp_path / "cache", monkeypatch) == first
    assert len(counted["laid out"]) == 52
    shutil.rmtree(tmp_path / "cache")
    assert _build(folder, tmp_path / "cache", monkeypatch) == first


@pytest.mark.parametrize("pack", ["crazy-hospital", "quatridou", "dokter-li"])
def test_the_characters_of_a_face_are_those_it_places(pack):
    """The alphabet comes from the faces' text pieces (render.typeset.text_pieces): the same
    characters, in the same fonts, as the painter places."""
    from conftest import shipped_data
    from cardgen.diagnostics import Report
    from cardgen.render.replay import characters
    from cardgen.text.typeset import placed_lines
    data = shipped_data(pack)
    printed, _, layouter = cardgen.pipeline.faces.layout_faces(data, Report(), BuildSettings())
    for face in {id(f): f for p in printed for f in (p.front, p.back)}.values():
        placed: dict[str, set] = {}
        for box in face.boxes:
            for _, _, pieces in placed_lines(box, data.pack.print.size()[1], layouter.icons):
                for font, _, text in pieces:
                    placed.setdefault(font, set()).update(text)
        assert characters(face, layouter.icons) == {f: "".join(sorted(c))
                                                     for f, c in placed.items() if c}


def test_a_rebuild_draws_the_print_shop_files_in_a_second_process(tmp_path, monkeypatch):
    """With the faces kept, cards.pdf and the print-shop outputs (printshop.pdf, PNGs) are
    rendered side by side, each replaying them: the same files as one process makes."""
    from cardgen.pipeline.parallel import forked_part as _forked_part
    folder = copy_shipped(tmp_path, "quartett")
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    kinds = {"cards", "printshop", "png"}
    report, first = build_pack(folder, BuildSettings(), kinds, split=True)
    assert first is not None and "png/PIK-2.png" in first.files
    assert _forked_part(first.data, BuildSettings(), kinds) == {"printshop", "png"}
    assert _forked_part(first.data, BuildSettings(), kinds | {"rulebook"}) == {"rulebook"}
    _, split = build_pack(folder, BuildSettings(), kinds, split=True)  # the first: one process
    assert split.files == first.files
    assert split.png_keys == first.png_keys and split.built == first.built


def test_the_second_process_takes_the_faces_laid_out_before_it(tmp_path, monkeypatch):
    """The print-shop part is forked once the faces are laid out and draws them as they are
    (with `cardgen watch`'s contact sheet drawn here meanwhile): the same files and page keys
    as one process makes. A rulebook made of the same content as the last build's is kept,
    not laid out in a second process."""
    from cardgen.incremental.manifest import content_key
    from cardgen.documents.rulebook.pictured import pictured_cards
    from cardgen.pipeline.parallel import forked_part as _forked_part
    folder = copy_shipped(tmp_path, "quartett")
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    settings = BuildSettings(also=("contact",))
    kinds = {"cards", "printshop", "contact"}
    report, first = build_pack(folder, settings, kinds)  # one process; keeps the faces
    assert first is not None and "contact-1.png" in first.files
    assert _forked_part(first.data, settings, kinds) == {"printshop"}
    _, split = build_pack(folder, settings, kinds, split=True)
    assert split.files == first.files
    assert split.page_keys == first.page_keys and split.built == first.built
    book = {"built": {"rulebook": {"content": content_key(first.data, "rulebook", settings,
                                                          pictured_cards)}},
            "intact": ["rulebook"]}
    assert _forked_part(first.data, settings, kinds | {"rulebook"}) == {"rulebook"}
    assert _forked_part(first.data, settings, kinds | {"rulebook"}, book) == {"printshop"}


def test_without_fork_the_part_is_drawn_after_the_rest_from_the_same_faces(tmp_path,
                                                                           monkeypatch):
    """A system without fork draws the print-shop part in the same process, after the rest,
    from the faces already laid out (their kept fronts let go by then): the same files."""
    import multiprocessing
    folder = copy_shipped(tmp_path, "quartett")
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    kinds = {"cards", "printshop", "png"}
    _, first = build_pack(folder, BuildSettings(), kinds)
    real = multiprocessing.get_context

    def no_fork(method=None):
        if method == "fork":
            raise ValueError("no fork here")
        return real(method)
    monkeypatch.setattr(multiprocessing, "get_context", no_fork)
    report, alone = build_pack(folder, BuildSettings(), kinds, split=True)
    assert not report.errors and alone.files == first.files
    assert alone.png_keys == first.png_keys


def test_a_new_process_has_the_fonts_of_the_fronts_it_takes_from_the_cache(tmp_path):
    """A process that takes every front from the cache (and may draw them afresh, or measure
    them) has the fonts they use registered, as laying them out would have."""
    import subprocess
    import sys
    folder = copy_shipped(tmp_path, "dokter-li")
    env = {**os.environ, "CARDGEN_CACHE": str(tmp_path / "cache")}
    build = [sys.executable, "-c", "from cardgen.cli.app import main; main()", "-q", "build",
             "--data", str(folder.parent), "--out", str(tmp_path / "out"), "--only", "cards"]
    assert subprocess.run(build, env=env, capture_output=True).returncode == 0
    measure = f"""
import cardgen.layout.card as card
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import validated as check
from cardgen.pipeline.faces import layout_faces
from cardgen.diagnostics import Report
from cardgen.text.typeset import text_pieces
from reportlab.pdfbase import pdfmetrics
from pathlib import Path
data = check(Path({str(folder)!r}), Report())
laid_out = card.CardLayouter.face
def face(self, lc, layout, subject):
    assert lc is None, "every front must come from the cache"
    return laid_out(self, lc, layout, subject)
card.CardLayouter.face = face
printed, _, layouter = layout_faces(data, Report(), BuildSettings())
fonts = {{font for p in printed for box in p.front.boxes
         for font, _ in text_pieces(box, layouter.icons)}}
print(len(printed), sorted(fonts), [pdfmetrics.stringWidth("Ab", font, 10) for font in fonts])
"""
    run = subprocess.run([sys.executable, "-c", measure], env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("81 ")  # printed cards (copies counted)


def test_a_value_that_will_not_pickle_makes_no_entry_and_no_error(tmp_path, monkeypatch):
    from cardgen.incremental import cache
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    cache.write_pickled("faces", "broken", {"painter": lambda: None})
    assert not cache.has("faces", "broken")
    assert list((tmp_path / "cache" / "faces").iterdir()) == []  # no temporary file left
    cache.write_pickled("faces", "fine", {"code": "q 1 0 0 1 0 0 cm Q", "fonts": (("CG-sans", 0),)})
    assert cache.has("faces", "fine")
