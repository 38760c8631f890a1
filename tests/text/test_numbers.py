"""cardgen.text.numbers: one way to print a number, per the edition's locale (issue 28) — on
cards, in rulebook tables and in balance.pdf; units after the value; pack.yaml's `locale:`."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.layout.faces import FaceBook
from cardgen.load.pack import load_pack
from cardgen.model.pack import SubValue
from cardgen.text.numbers import number, percent, stat_value, with_unit
from cardgen.text.words import balance_words, labels_for, localise

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize("locale, big, small, negative", [
    ("de-CH", "9’879’750", "0.000015", "−1’234.5"),
    ("de-DE", "9.879.750", "0,000015", "−1.234,5"),
    ("en-US", "9,879,750", "0.000015", "−1,234.5"),
    ("nl-NL", "9.879.750", "0,000015", "−1.234,5"),
])
def test_grouped_never_scientific_with_a_minus_sign(locale, big, small, negative):
    assert number(9_879_750, locale) == big
    assert number(9_879_750.0, locale) == big
    assert number(0.000015, locale) == small
    assert number(-1234.5, locale, 1) == negative
    assert number(1e12, locale, 0).replace(big[1], "") == "1000000000000"
    assert "e" not in number(1e16, locale).lower() and "-" not in number(-5, locale)


def test_decimals_as_declared_and_no_minus_on_zero():
    assert number(23.3, "de-DE", 1) == "23,3"
    assert number(23, "de-CH", 2) == "23.00"
    assert number(-0.04, "en-US", 1) == "0.0"
    assert number(-2, "de-CH") == "−2"


def test_percent_and_units_the_locale_way():
    assert percent(0.455, "de-DE", 1) == "45,5" + NBSP + "%"
    assert percent(0.455, "de-CH", 1) == "45.5%"
    assert with_unit("45", "%", "de-DE") == "45" + NBSP + "%"
    assert with_unit("45", "%", "en-US") == "45%"
    assert with_unit("12", "kg", "en-US") == "12" + NNBSP + "kg"
    assert with_unit("12", "kg", "en-US", "Weight (kg)") == "12"  # the label names it
    assert with_unit("3.", ".", "de-CH") == "3."  # a rank's dot is not printed twice
    assert with_unit("–", "kg", "en-US") == "–"


def test_a_stat_the_way_its_category_declares_it():
    money = SubValue(key="g", label="Salary", type="money", unit="SE$", min=0, max=2_000_000,
                     wins="high")
    assert stat_value(money, 1_200_000, "de-CH") == "1’200’000" + NNBSP + "SE$"
    rate = SubValue(key="h", label="Hour", type="decimal", decimals=1, min=-5, max=60,
                    wins="low")
    assert stat_value(rate, -2.5, "de-DE") == "−2,5"
    level = SubValue(key="l", label="L", type="level", min=0, max=3, wins="high")
    assert stat_value(level, [2, 1500], "de-CH") == "2 (1’500)"
    assert stat_value(level, None, "de-CH") == "–"


def test_swiss_built_in_words_write_ss_and_guillemets():
    swiss, german = labels_for("de", {}, "de-CH"), labels_for("de", {}, "de-DE")
    assert "ß" in german["tuck_how"] and "ß" not in swiss["tuck_how"]
    assert "aussen" in swiss["tuck_how"]
    assert "„an Seite anpassen“" in german["calibration_front"]
    assert "«an Seite anpassen»" in swiss["calibration_front"]
    assert not any("ß" in text for text in balance_words("de", None, "de-CH").values())
    assert labels_for("de", {"rules": "Großes Spiel"}, "de-CH")["rules"] == "Großes Spiel"
    dutch = labels_for("nl", {}, "nl-NL")["calibration_front"]
    assert "“aanpassen aan pagina”" in dutch  # one style of quotes in a Dutch edition
    assert localise("„Tatsächliche Größe“", "") == "„Tatsächliche Größe“"


def _mini(make_pack, tmp_path, locale: str, unit: str = "SE$", label: str = "Salary / per hour"):
    """The mini pack with a locale, Ann's salary in the millions, a unit on the salary."""
    from conftest import MINI
    text = (MINI / "pack.yaml").read_text()
    text = text.replace("language: en\n", f"language: {locale[:2]}\nlocale: {locale}\n")
    text = text.replace("label: Salary / per hour", f"label: {label}")
    text = text.replace("type: money, min: 40000, max: 1200000",
                        f"type: money, unit: \"{unit}\", min: 40000, max: 12000000")
    heroes = (MINI / "cards" / "heroes.yaml").read_text().replace("gehalt: 660000",
                                                                  "gehalt: 9879750")
    rules = "title: Categories\nblocks:\n  - table: categories\n  - table: levels\n"
    folder = make_pack(tmp_path, {"pack.yaml": text, "cards/heroes.yaml": heroes,
                                  "rules/01-categories.yaml": rules})
    report = Report()
    data = load_pack(folder, report)
    assert data is not None and not report.errors, [d.format() for d in report.errors]
    return data


def _salary_row(data) -> tuple:
    front = FaceBook(data).front(next(lc for lc in data.cards if lc.card.id == "A1"))
    rows = [row for box in front.boxes for row in (box.stats or ())]
    return next(row for row in rows if row.label.startswith("Salary")).values


@pytest.mark.parametrize("locale, shown", [("de-CH", "9’879’750"), ("de-DE", "9.879.750"),
                                           ("en-US", "9,879,750")])
def test_a_card_prints_a_million_grouped_with_its_unit(make_pack, tmp_path, locale, shown):
    salary, per_hour = _salary_row(_mini(make_pack, tmp_path, locale))
    assert salary[0] == shown + NNBSP + "SE$"
    assert per_hour[0] == ("300.0" if locale != "de-DE" else "300,0")


def test_a_unit_the_label_names_is_not_printed_twice(make_pack, tmp_path):
    data = _mini(make_pack, tmp_path, "en-US", unit="SE$", label="Salary (SE$) / per hour")
    assert _salary_row(data)[0][0] == "9,879,750"


def test_the_rulebook_tables_name_the_unit_and_group_numbers(make_pack, tmp_path):
    from cardgen.documents.rulebook.book import A5_BOOK, layout_rulebook
    from conftest import pypdf_text
    data = _mini(make_pack, tmp_path, "de-CH")
    report = Report()
    text = pypdf_text(layout_rulebook(data, report, A5_BOOK)).replace("\n", " ")
    assert "Salary (SE$)" in text, text


@pytest.mark.parametrize("written, said", [
    ("de-CHH", "locale: 'de-CHH' is not a known locale (did you mean 'de-CH'?)"),
    ("fr-CH", "locale: 'fr-CH' is not of the pack's language 'de'"),
])
def test_an_unknown_locale_is_one_diagnostic_at_its_line(make_pack, tmp_path, written, said):
    from conftest import MINI
    text = (MINI / "pack.yaml").read_text().replace("language: en\n",
                                                    f"language: de\nlocale: {written}\n")
    report = Report()
    load_pack(make_pack(tmp_path, {"pack.yaml": text}), report)
    lines = [d.format() for d in report.errors]
    assert len(lines) == 1 and "mini/pack.yaml:5:9: error: " + said in lines[0], lines


def test_the_locale_defaults_from_the_language(make_pack, tmp_path):
    report = Report()
    data = load_pack(make_pack(tmp_path), report)
    assert data.pack.locale == "en-US"


def test_a_text_writes_a_number_the_editions_way_with_the_number_filter():
    from cardgen.text.templates import environment
    template = environment().from_string("{{ v | number }} / {{ w | number(1) }}")
    swiss = template.render(pack={"locale": "de-CH"}, v=9_879_750, w=-2.25)
    assert swiss == "9’879’750 / −2.2"
    assert template.render(pack={"locale": "de-DE"}, v=9_879_750, w=2) == "9.879.750 / 2,0"
    with pytest.raises(ValueError, match="is not a number"):
        template.render(pack={"locale": "de-DE"}, v="x", w=1)


def test_a_stat_rows_unit_is_a_small_piece_of_its_own():
    from cardgen.layout.card import StatRow
    from cardgen.text.stats import value_pieces
    row = StatRow("Age", (("61" + NNBSP + "J.", "high"), ("45", "low")), False)
    assert value_pieces(row, {}) == [("61", True), (NNBSP + "J.", False), ("▲", False),
                                     (" / ", False), ("45", True), ("▼", False)]


def test_the_swiss_guide_writes_massstab_and_guillemets():
    from cardgen.documents.guide import GUIDE
    from cardgen.text.words import built_in
    swiss, german = built_in(GUIDE, "de", "de-CH"), built_in(GUIDE, "de", "de-DE")
    assert "**Maßstab:**" in german["guide_scale"]
    assert "„Tatsächliche Größe“" in german["guide_scale"]
    assert "**Massstab:**" in swiss["guide_scale"]
    assert "«Tatsächliche Grösse»" in swiss["guide_scale"]
    assert not any("ß" in text for text in swiss.values())


def test_messages_to_the_designer_never_write_an_exponent():
    from cardgen.text.numbers import plain
    assert plain(9879750.0) == "9879750" and plain(9879750) == "9879750"
    assert plain(1e12) == "1000000000000" and plain(0.0000015) == "0.0000015"
    assert plain(-2500000.0) == "-2500000" and plain(23.3) == "23.3" and plain(150.0) == "150"


def test_a_million_over_its_maximum_is_said_in_digits(cli, make_pack, tmp_path):
    pack = make_pack(tmp_path)
    heroes = pack / "cards" / "heroes.yaml"
    text = heroes.read_text(encoding="utf-8")
    assert "stundenlohn: 200.0" in text
    heroes.write_text(text.replace("stundenlohn: 200.0", "stundenlohn: 9879750.0", 1),
                      encoding="utf-8")
    result = cli("check", "--data", tmp_path / "card_data")
    assert result.exit_code == 1
    assert "9879750 is above the maximum" in result.output and "e+06" not in result.output


def test_a_number_written_again_is_what_writing_it_anew_gives():
    """number() keeps what it wrote: the same value, locale and places give the same text as
    Babel does anew, each type of value on its own (1, 1.0, Decimal('1.50')), in every locale."""
    from decimal import Decimal

    from cardgen.text import numbers
    values = [0, 1, 1.0, -1, 2.5, Decimal("1.50"), 1234567, -0.04, 9_879_750.0]
    for locale in ("de-CH", "de-DE", "en-US", "nl-NL"):
        for decimals in (None, 0, 2):
            for value in values:
                fresh = numbers._apply(numbers._locale(locale)[0], value, locale, decimals)
                assert number(value, locale, decimals) == fresh
                assert number(value, locale, decimals) == fresh  # now from the memory
    assert numbers._number.cache_info().hits >= len(values) * 12
