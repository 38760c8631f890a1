"""Build options a user reaches for: duplex modes, calibration, booklet, printer settings file,
incremental rebuilds, and YAML slips that are legal but likely wrong."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.load.source import YamlError, load_yaml
from conftest import text_layer

MINI = Path(__file__).parent.parent / "fixtures" / "valid" / "card_data"
PT = 72 / 25.4


def build(tmp_path: Path, *args: str, env: dict | None = None):
    result = CliRunner().invoke(app, ["build", "--data", str(MINI), "--out", str(tmp_path / "out"),
                                      "--jobs", "1", *args], catch_exceptions=False, env=env)
    return result


def pages(path: Path) -> list:
    return PdfReader(io.BytesIO(path.read_bytes())).pages


def test_fold_layout_puts_fronts_and_backs_on_one_page(tmp_path):
    result = build(tmp_path, "--only", "cards", "--duplex", "fold")
    assert result.exit_code == 0, result.output
    long = build(tmp_path / "l", "--only", "cards", "--duplex", "long")
    assert long.exit_code == 0
    import pikepdf
    with pikepdf.open(tmp_path / "out" / "mini" / "cards.pdf") as pdf:
        # 4 cards, 4 per folded A4 page with their bleed (fronts on one half, backs on the other)
        assert len(pdf.pages) == 1
        placed = [op for _, op in pikepdf.parse_content_stream(pdf.pages[0])
                  if str(op) == "Do"]
        assert len(placed) == 4  # the four backs sit on the same page as their fronts
    assert len(pages(tmp_path / "l" / "out" / "mini" / "cards.pdf")) == 2  # fronts + backs


def test_short_edge_duplex_sets_the_viewer_preference(tmp_path):
    assert build(tmp_path, "--only", "cards", "--duplex", "short").exit_code == 0
    import pikepdf
    with pikepdf.open(tmp_path / "out" / "mini" / "cards.pdf") as pdf:
        assert str(pdf.Root.ViewerPreferences.Duplex) == "/DuplexFlipShortEdge"


def test_calibration_sheet_has_front_and_back(tmp_path):
    result = build(tmp_path, "--only", "calibration")
    assert result.exit_code == 0, result.output
    sheet = pages(tmp_path / "out" / "mini" / "calibration.pdf")
    assert len(sheet) == 2
    assert "--back-offset" in sheet[1].extract_text()


def test_printer_settings_file_gives_paper_and_offset(tmp_path):
    settings = tmp_path / "settings.yaml"
    settings.write_text("paper: letter\nback_offset: [2, 0]\n", encoding="utf-8")
    result = build(tmp_path, "--only", "cards", env={"CARDGEN_SETTINGS": str(settings)})
    assert result.exit_code == 0, result.output
    first = pages(tmp_path / "out" / "mini" / "cards.pdf")[0]
    assert float(first.mediabox.width) == pytest.approx(215.9 * PT, abs=0.01)


def test_broken_printer_settings_are_diagnostics(tmp_path):
    settings = tmp_path / "settings.yaml"
    settings.write_text("paper: a5\nback_ofset: [2, 0]\n", encoding="utf-8")
    result = build(tmp_path, "--only", "cards", env={"CARDGEN_SETTINGS": str(settings)})
    assert result.exit_code == 1
    assert "settings.yaml:1:8: error: paper: 'a5' must be one of" in result.output
    assert "did you mean 'back_offset'?" in result.output
    assert not (tmp_path / "out").exists()


def test_unchanged_rebuild_does_nothing_and_an_edit_rebuilds_only_its_output(tmp_path):
    import shutil
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    args = ["build", "--data", str(data), "--out", str(tmp_path / "out"), "--jobs", "1",
            "--only", "cards", "--only", "printshop"]
    first = CliRunner().invoke(app, args, catch_exceptions=False)
    assert first.exit_code == 0 and "cards.pdf" in first.output
    again = CliRunner().invoke(app, args, catch_exceptions=False)
    assert again.exit_code == 0 and "up to date" in again.output
    cards = tmp_path / "out" / "mini" / "cards.pdf"
    before = cards.stat().st_mtime_ns
    layouts = data / "mini" / "layouts.yaml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    third = CliRunner().invoke(app, args, catch_exceptions=False)
    assert third.exit_code == 0 and "cards.pdf" in third.output
    assert cards.stat().st_mtime_ns != before


def test_text_cut_at_a_hash_is_a_warning(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: Dr. #1 Doc\nshort: mix-it  # an ordinary comment\n", encoding="utf-8")
    slips: list = []
    assert load_yaml(path, "t.yaml", slips) == {"name": "Dr.", "short": "mix-it"}
    assert len(slips) == 1
    mark, message = slips[0]
    assert (mark.line, mark.col) == (1, 7) and "quotes" in message


def test_text_starting_with_a_star_gets_the_quote_hint(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("quote: *kursiv* gesagt\n", encoding="utf-8")
    with pytest.raises(YamlError, match="quoted"):
        load_yaml(path, "t.yaml")


def test_a_changed_stat_redraws_the_cards_but_not_the_rulebook(tmp_path):
    import shutil
    root = Path(__file__).resolve().parents[2] / "card_data"
    data = tmp_path / "data"
    shutil.copytree(root / "crazy-hospital", data / "crazy-hospital")
    args = ["build", "crazy-hospital", "--data", str(data), "--out", str(tmp_path / "out"),
            "--jobs", "1", "--only", "cards", "--only", "rulebook"]
    assert CliRunner().invoke(app, args, catch_exceptions=False).exit_code == 0
    folder = tmp_path / "out" / "crazy-hospital"
    book, cards = (folder / "rulebook.pdf").read_bytes(), (folder / "cards.pdf").read_bytes()
    character = data / "crazy-hospital" / "cards" / "character.yaml"
    text = character.read_text(encoding="utf-8")
    assert "      krank: " in text
    # the second card (A2): the rulebook's figures picture A1 and cards spread over the kind
    second = text.index("      krank: ", text.index("      krank: ") + 1)
    start = second + len("      krank: ")
    end = text.index("\n", start)
    changed = "1" if text[start:end] != "1" else "2"
    character.write_text(text[:start] + changed + text[end:], encoding="utf-8")
    again = CliRunner().invoke(app, args, catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert "cards.pdf" in again.output and "rulebook.pdf" not in again.output
    assert (folder / "rulebook.pdf").read_bytes() == book
    assert (folder / "cards.pdf").read_bytes() != cards


@pytest.mark.parametrize("size, page", [("63.5x88.9", (69.5, 94.9)), ("70x120", (76, 126))])
def test_other_card_sizes_scale_the_layouts(tmp_path, size, page):
    result = build(tmp_path, "--only", "printshop", "--card-size", size)
    assert result.exit_code == 0, result.output
    first = pages(tmp_path / "out" / "mini" / "printshop.pdf")[0]
    assert float(first.mediabox.width) == pytest.approx(page[0] * PT, abs=0.01)
    assert float(first.mediabox.height) == pytest.approx(page[1] * PT, abs=0.01)


def test_layout_scaling_keeps_the_safe_zone():
    from cardgen.model.packdata import _stretch
    f = _stretch(59, 44, 4)  # skat layout on a mini card
    assert f(-3) == -3 and f(4) == 4  # bleed and safe margin stay
    assert f(55) == pytest.approx(40) and f(94) == pytest.approx(79)  # far side moves with it
    assert 4 < f(30) < 40


def test_a_broken_pack_yaml_does_not_hide_the_card_files_typos(tmp_path):
    import shutil
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    pack = data / "mini" / "pack.yaml"
    pack.write_text(pack.read_text(encoding="utf-8").replace("wins: high", "wins: highest", 1),
                    encoding="utf-8")
    heroes = data / "mini" / "cards" / "heroes.yaml"
    text = heroes.read_text(encoding="utf-8")
    heroes.write_text(text.replace("    name:", "    nmae:", 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "--data", str(data)], catch_exceptions=False)
    assert result.exit_code == 1
    assert "'highest' must be one of 'high' or 'low'" in result.output
    assert "unknown key 'nmae' (did you mean 'name'?)" in result.output


def test_typo_detection_is_strict():
    from cardgen.load.pack import _typo_of
    assert _typo_of("nmae", "name") and _typo_of("gruop", "group") and _typo_of("imag", "image")
    assert _typo_of("titlex", "title") and _typo_of("nome", "name")
    assert not _typo_of("specialty", "penalty") and not _typo_of("role", "name")


def test_background_fills_a_larger_bleed(tmp_path):
    """With 5 mm bleed the page edge is still the card's colour, not white paper."""
    import pypdfium2 as pdfium
    result = build(tmp_path, "--only", "printshop", "--bleed", "5")
    assert result.exit_code == 0, result.output
    document = pdfium.PdfDocument(str(tmp_path / "out" / "mini" / "printshop.pdf"))
    image = document[len(document) - 1].render(scale=100 / 72).to_pil().convert("RGB")
    corner = image.getpixel((2, 2))
    document.close()
    assert corner != (255, 255, 255)


def test_missing_glyph_and_overflow_point_at_the_card_field(tmp_path):
    import shutil
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    heroes = data / "mini" / "cards" / "heroes.yaml"
    text = heroes.read_text(encoding="utf-8")
    assert "    name: Ann\n" in text
    line = text[:text.index("    name: Ann")].count("\n") + 1
    heroes.write_text(text.replace("    name: Ann\n", '    name: "\u4e2d Ann"\n'),
                      encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "--data", str(data)], catch_exceptions=False)
    assert result.exit_code == 1
    assert f"heroes.yaml:{line}:11: error: " in result.output
    assert "name: the font" in result.output and "U+4E2D" in result.output


def test_a_chosen_deck_prints_only_its_cards_with_deck_sheet_and_house_rules(tmp_path):
    root = Path(__file__).resolve().parents[2] / "card_data"
    args = ["build", "crazy-hospital", "--data", str(root), "--out", str(tmp_path / "out"),
            "--jobs", "1", "--only", "printshop", "--only", "rulebook", "--only", "cards",
            "--preset", "balanced-32", "--seed", "7", "--special", "S2-S4",
            "--option", "dreieck-des-boesen", "--players", "4"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "crazy-hospital"
    assert len(pages(folder / "printshop.pdf")) == 2 * (32 + 3)  # fronts and backs
    sheet = " ".join(text_layer((folder / "deck.pdf").read_bytes()).split())
    assert "S2" in sheet and "S4" in sheet and re.search(r"Seed\)\s+7\b", sheet)
    assert "--seed" not in sheet and "cardgen" not in sheet  # no command on a player's sheet
    house = " ".join(text_layer((folder / "house-rules.pdf").read_bytes()).split())
    full = " ".join(text_layer((folder / "rulebook.pdf").read_bytes()).split())
    assert "Dreieck des Bösen" in house
    assert "Mehrfachattacke" in full and len(house) < len(full)


def test_check_finds_a_typo_in_a_rule_text(tmp_path):
    import shutil
    root = Path(__file__).resolve().parents[2] / "card_data"
    data = tmp_path / "data"
    shutil.copytree(root / "quartett", data / "quartett")
    chapter = sorted((data / "quartett" / "rules").glob("*.yaml"))[0]
    text = chapter.read_text(encoding="utf-8")
    assert "{{ pack.title }}" in text
    chapter.write_text(text.replace("{{ pack.title }}", "{{ pack.titel }}", 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "--data", str(data)], catch_exceptions=False)
    assert result.exit_code == 1
    assert f"{chapter.name}:" in result.output and "titel" in result.output


def test_card_size_presets_and_print_shop_formats(tmp_path):
    # MeinSpiel takes the fronts and the backs as two files (docs/decisions.md, issue 29)
    result = build(tmp_path, "--only", "printshop", "--card-size", "meinspiel")
    assert result.exit_code == 0, result.output
    first = pages(tmp_path / "out" / "mini" / "printshop-fronts.pdf")[0]
    assert float(first.mediabox.width) == pytest.approx(65 * PT, abs=0.01)
    assert float(first.trimbox.left) == pytest.approx(3 * PT, abs=0.01)
    bad = build(tmp_path / "b", "--card-size", "huge")
    assert bad.exit_code == 2 and "poker" in bad.output
