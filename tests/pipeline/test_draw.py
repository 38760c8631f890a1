"""cardgen.pipeline.draw: the draw phase makes the files of the outputs asked for, redraws only
what changed since the last build, and says when the sheets cannot keep the bleed."""

from __future__ import annotations

import pytest

from cardgen.compose import Choice, compose
from cardgen.diagnostics import Report
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import validated
from cardgen.pipeline.draw import render_pack, sheet_notes
from cardgen.render.pdf import SheetSpec


@pytest.fixture
def mini(make_pack, tmp_path):
    report = Report()
    data = validated(make_pack(tmp_path), report)
    assert data is not None and not report.errors
    return data


def draw(data, settings: BuildSettings, **options):
    report = Report()
    result = render_pack(data, report, settings, **options)
    assert result is not None and not report.errors, [d.format() for d in report.items]
    return result


def test_each_output_asked_for_is_built_and_one_with_nothing_to_draw_is_done(mini):
    result = draw(mini, BuildSettings(), kinds={"cards", "boards", "rulebook"})
    assert sorted(result.files) == ["cards.pdf", "guide.pdf"]
    # the mini pack has no boards.yaml and no rules: nothing to draw, nothing left to do
    assert result.built == {"cards": ["cards.pdf", "guide.pdf"], "boards": [], "rulebook": []}
    assert set(result.content) == {"boards", "rulebook"}  # what they would be made of
    assert result.counts == {"hero": 3, "K": 1}
    assert sorted(result.faces) == ["A1", "A2", "B1", "L1"]
    assert all(set(hashes) == {"front", "back"} for hashes in result.faces.values())


def test_a_chosen_deck_prints_only_its_cards_with_a_deck_sheet(mini):
    settings = BuildSettings(only=("cards",), choice=Choice(cards="A1,L1"))
    report = Report()
    deck = compose(mini, settings.choice, report)
    assert deck is not None, [d.format() for d in report.items]
    result = draw(mini, settings, deck=deck)
    assert sorted(result.files) == ["cards.pdf", "deck.pdf", "guide.pdf"]
    assert result.counts == {"hero": 1, "K": 1}
    assert len(mini.cards) == 4  # the caller's pack stays whole


def test_a_png_whose_face_is_unchanged_is_not_drawn_again(mini):
    settings = BuildSettings(only=("png",), dpi=50)
    first = draw(mini, settings)
    assert sorted(first.files) == sorted(first.built["png"])
    assert "png/A1.png" in first.files and "png/back-hero.png" in first.files
    again = draw(mini, settings, previous={"png": first.png_keys})
    assert again.files == {} and again.built["png"] == first.built["png"]
    stale = dict(first.png_keys, A1="another face")
    assert sorted(draw(mini, settings, previous={"png": stale}).files) == ["png/A1.png"]


def test_changed_sheets_hold_the_cards_whose_faces_changed(mini):
    first = draw(mini, BuildSettings(only=("cards",)))
    before = {card: dict(hashes) for card, hashes in first.faces.items()}
    before["A2"]["front"] = "what it printed last time"
    del before["L1"]
    result = draw(mini, BuildSettings(only=("cards",), changed_since=before),
                  kinds={"cards", "changed"})
    assert result.changed == [("L1", "new"), ("A2", "front")]  # in print order
    assert "changed.pdf" in result.files
    nothing = draw(mini, BuildSettings(only=("cards",), changed_since=first.faces),
                   kinds={"cards", "changed"})
    assert nothing.changed == [] and "changed.pdf" not in nothing.files


def test_the_build_says_when_the_cards_abut_at_the_trim():
    assert sheet_notes(SheetSpec(), (63, 88), 3.0) == []
    assert sheet_notes(SheetSpec(mode="dense"), (63, 88), 0.0) == []  # no bleed to lose
    dense = sheet_notes(SheetSpec(mode="dense"), (63, 88), 3.0)
    assert len(dense) == 1 and "--sheet dense" in dense[0] and "abut at the trim" in dense[0]
    assert sheet_notes(SheetSpec(), (197, 140), 3.0) == []  # one a row keeps the bleed
    big = sheet_notes(SheetSpec(), (199, 270), 3.0)  # with its bleed it is wider than A4's
    assert big == ["cards.pdf: the cards abut at the trim with shared cut lines (1 per sheet; "
                   "no sheet layout keeps the 3 mm bleed of 199 x 270 mm cards on a4): a "
                   "mis-cut shows a sliver of the neighbouring card"]
