"""cardgen.pipeline.chain: the checks every command runs, in their order; what a build checks
is what `cardgen check` checks, and an output not asked for is not checked."""

from __future__ import annotations

from cardgen.compose import Choice
from cardgen.diagnostics import Report
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import build_pack, check_pack, validated

DATA_CHECKS = ["pack.yaml references", "cards and stat rules", "printed fields",
               "references in texts", "glossary and examples", "pictures",
               "colour is never the only cue", "editions and translations"]
GLYPH = "A1 name: the font condensed-bold has no glyph for U+E000 '\ue000' (region name)"


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def lines(report: Report) -> list[str]:
    return [f"{d.severity}: {d.subject} {d.message}".replace("  ", " ") for d in report.sorted()]


def test_a_clean_pack_runs_every_check_in_order(make_pack, tmp_path):
    report = Report()
    checked = check_pack(make_pack(tmp_path), report)
    assert not report.items
    assert report.ran == DATA_CHECKS + ["card layouts: text fit, glyphs, pictures"]
    printed, images, layouter = checked.faces
    assert sorted(p.card_id for p in printed) == ["A1", "A2", "B1", "L1"]
    assert sorted(lc.card.id for lc in checked.deck.cards) == ["A1", "A2", "B1", "L1"]


def test_boards_yaml_adds_its_check(copy_shipped, tmp_path):
    report = Report()
    data = validated(copy_shipped(tmp_path, "tischordnung"), report)
    assert data is not None and not report.errors
    assert report.ran == DATA_CHECKS + ["boards and score sheets"]


def test_a_pack_is_named_by_its_folder(make_pack, tmp_path):
    pack = make_pack(tmp_path, pack="other")  # the mini pack, whose id is mini
    report = Report()
    assert check_pack(pack, report) is not None
    assert [(d.line, d.message) for d in report.errors] == [
        (2, "id: 'mini' must be the folder's name 'other'")]


def test_a_data_error_skips_the_references_and_the_card_faces(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    edit(pack / "cards" / "heroes.yaml", "krank: 4", "krank: 400")  # above the maximum 60
    edit(pack / "cards" / "heroes.yaml", "    name: Ann\n", "    name: Ann \ue000\n")
    report = Report()
    checked = check_pack(pack, report)
    assert "references in texts" not in report.ran
    assert "card layouts: text fit, glyphs, pictures" not in report.ran
    assert checked.faces is None and checked.deck is not None  # the deck is still composed
    assert len(report.errors) == 1 and "krank" in report.errors[0].message


def test_a_face_problem_stops_a_build_of_the_cards_and_not_one_of_the_calibration_sheet(
        make_pack, tmp_path):
    pack = make_pack(tmp_path)
    edit(pack / "cards" / "heroes.yaml", "    name: Ann\n", "    name: Ann \ue000\n")
    checked = Report()
    check_pack(pack, checked)
    assert lines(checked) == [f"error: {GLYPH}"]
    report, result = build_pack(pack, BuildSettings(only=("cards",)))
    assert result is None and lines(report) == lines(checked)
    report, result = build_pack(pack, BuildSettings(only=("calibration",)))
    assert not report.items and set(result.files) == {"calibration.pdf"}


def test_a_build_refused_at_compose_still_names_the_face_problems(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    edit(pack / "cards" / "heroes.yaml", "    name: Ann\n", "    name: Ann \ue000\n")
    choice = Choice(preset="x")  # the mini pack declares no presets
    checked = Report()
    check_pack(pack, checked, choice=choice)
    report, result = build_pack(pack, BuildSettings(only=("cards",), choice=choice))
    assert result is None
    assert lines(report) == lines(checked)
    assert len(report.errors) == 2 and any("no composition.yaml" in d.message
                                           for d in report.errors)


def test_a_clean_build_draws_exactly_the_outputs_asked_for(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    report, result = build_pack(pack, BuildSettings(only=("cards", "calibration")))
    assert not report.errors
    assert sorted(result.files) == ["calibration.pdf", "cards.pdf", "guide.pdf"]
    assert all(body.startswith(b"%PDF") for body in result.files.values())
    assert result.counts == {"hero": 3, "K": 1}
    report, result = build_pack(pack, BuildSettings(), kinds={"calibration"})
    assert sorted(result.files) == ["calibration.pdf"]  # kinds: only the stale outputs
