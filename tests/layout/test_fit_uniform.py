"""`fit: uniform`: one type size for a region on every card of its layout (and for the regions
of one `fit_group`), the largest at which every card's text fits (issue 30: Dokter LI's
titles were set at 10 and 11 pt, its texts at 8 and 10 pt, card by card)."""

from __future__ import annotations

import shutil

from cardgen.diagnostics import Report
from cardgen.layout.faces import FaceBook
from cardgen.load.pack import load_pack
from conftest import SHIPPED, shipped_data


def _sizes(data, kind: str, regions: tuple[str, ...]) -> set[float]:
    book = FaceBook(data)
    return {box.text.size for lc in data.cards_of(kind) for box in book.front(lc).boxes
            if box.name in regions and box.text is not None}


def test_dokter_li_sets_one_size_per_kind():
    data = shipped_data("dokter-li")
    assert len(_sizes(data, "actie", ("name", "name_hand"))) == 1  # one fit_group: title
    assert len(_sizes(data, "actie", ("effect",))) == 1
    assert len(_sizes(data, "actie", ("quote",))) == 1
    assert len(_sizes(data, "categorie", ("name",))) == 1
    assert len(_sizes(data, "categorie", ("quote",))) == 1


def test_each_card_its_own_size_is_what_the_issue_saw(tmp_path):
    """The same pack with `fit: uniform` taken out: the sizes jump again."""
    target = tmp_path / "dokter-li"
    shutil.copytree(SHIPPED / "dokter-li", target)
    layouts = target / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    for old in ("fit: uniform, fit_group: title, ", "fit: uniform, "):
        text = text.replace(old, "")
    layouts.write_text(text, encoding="utf-8")
    report = Report()
    data = load_pack(target, report)
    assert not report.errors
    assert len(_sizes(data, "actie", ("name", "name_hand"))) > 1
    assert len(_sizes(data, "actie", ("effect",))) > 1


def test_the_uniform_size_is_the_largest_every_card_fits():
    data = shipped_data("dokter-li")
    book = FaceBook(data)
    layout = book.layouts["actie-front"]
    size = book.layouter.uniform_size(layout, "effect")
    region = layout.regions["effect"]
    assert size < region.size
    # a quarter point more and at least one card's text no longer fits its box
    from cardgen.text.fit import fit
    from cardgen.units import MM
    texts = [book.layouter._quiet_text(layout, "effect", region, lc)
             for lc in data.cards_of("actie")]
    assert all(fit(t, region.font, size, size, region.leading, region.w * MM, region.h * MM)
               for t in texts)
    bigger = size + 0.25
    assert not all(fit(t, region.font, bigger, bigger, region.leading, region.w * MM,
                       region.h * MM) for t in texts)


def test_a_uniform_front_is_kept_under_its_sizes():
    """A front depends on the other cards' texts: the key it is kept under holds the sizes."""
    data = shipped_data("dokter-li")
    book = FaceBook(data)
    key = book.layouter.uniform_key(book.layouts["actie-front"])
    assert "effect" in key and "name" in key and "quote" in key
    assert book.layouter.uniform_key(book.layouts["actie-back"]) == "[]"


def test_a_resident_edit_fits_again_the_edited_card_alone_and_sizes_every_card(tmp_path):
    """`cardgen serve` and `watch` keep what an edit left as it was: after one card's text is
    lengthened only that card's text is rendered and fitted again, and the one size of the
    region follows it on every card (and back again when the edit is undone)."""
    from cardgen.layout.card import CardLayouter
    from cardgen.load import source
    from cardgen.model.settings import BuildSettings
    from cardgen.pipeline.resident import Resident
    target = tmp_path / "dokter-li"
    shutil.copytree(SHIPPED / "dokter-li", target)
    cards = target / "cards" / "2-actie.yaml"
    original = cards.read_text(encoding="utf-8")
    short = "Grondstoffen worden schaars. **Alle spelers**"
    before = source.MEMORY
    resident = Resident(target)

    def effect_sizes() -> dict[str, float]:
        resident.sync()
        report = Report()
        data = resident.validated(target, report)
        printed, _, _ = resident.check_faces(data, report, BuildSettings(), prepare=False)
        return {p.card_id: box.text.size for p in printed for box in p.front.boxes
                if box.name == "effect" and box.text is not None}

    rendered: list[str] = []
    real = CardLayouter._quiet_text

    def counted(self, layout, name, region, lc):
        rendered.append(lc.card.id)
        return real(self, layout, name, region, lc)
    try:
        first = effect_sizes()
        CardLayouter._quiet_text = counted
        cards.write_text(original.replace(short, short + " (en nog veel meer woorden die "
                                          "niemand leest)" * 3, 1), encoding="utf-8")
        longer = effect_sizes()
        edited = set(rendered)
        assert len(edited) == 1, rendered  # the card whose effect was lengthened
        assert len(set(longer.values())) == 1 and set(longer) == set(first)
        assert next(iter(longer.values())) < next(iter(first.values()))
        rendered.clear()
        cards.write_text(original, encoding="utf-8")
        assert effect_sizes() == first and set(rendered) == edited
    finally:
        CardLayouter._quiet_text = real
        source.MEMORY = before
