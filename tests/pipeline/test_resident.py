"""The resident pipeline (cardgen/pipeline/resident.py): what an edit redoes, what it keeps,
and that what it makes is what a fresh process makes from the same files."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from cardgen.diagnostics import Report
from cardgen.layout import boards_preflight
from cardgen.load import source
from cardgen.model.marks import MarkedDict, MarkedList
from cardgen.render import compressed
from cardgen.pipeline import resident as resident_module
from cardgen.pipeline.chain import build_pack
from cardgen.pipeline.resident import Resident, reparsed
from cardgen.model.settings import BuildSettings


@pytest.fixture(autouse=True)
def _memory_of_this_test():
    """A Resident keeps parses and boards in memory (load.source, layout.boards_preflight):
    this test's own, none after it."""
    before = source.MEMORY, boards_preflight.MEMORY
    source.MEMORY = boards_preflight.MEMORY = None
    compressed.forget()
    yield
    source.MEMORY, boards_preflight.MEMORY = before
    compressed.forget()


def _same(a, b, where="") -> None:
    """Equal values with equal marks, all the way down."""
    assert type(a) is type(b), where
    assert a == b, where
    for name in ("mark", "key_marks", "value_marks", "item_marks"):
        assert getattr(a, name, None) == getattr(b, name, None), f"{where}.{name}"
    if isinstance(a, dict):
        for key in a:
            _same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        for index, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{index}]")


def _parse(text: str):
    warnings: list = []
    return source.parse(text, "cards.yaml", warnings), warnings


HEROES = (Path(__file__).parents[1] / "fixtures" / "valid" / "card_data" / "mini" / "cards" /
          "heroes.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("old, new", [
    ("alter: 60", "alter: 61"),  # a stat of the first card
    ("krank: 0", "krank: 7"),  # a stat of the last card (its lines run to the end)
    ("name: Bob", "name: 'Bob: the second'"),  # a quoted text
    ("stundenlohn: 200.0", "stundenlohn: yes"),  # a slip the loader warns about
])
def test_an_edit_inside_one_card_parses_that_card_alone_as_the_whole_file_would(old, new):
    before = _parse(HEROES)
    edited = HEROES.replace(old, new, 1)
    fast = reparsed(HEROES, *before, edited, "cards.yaml")
    assert fast is not None
    full = _parse(edited)
    _same(fast[0], full[0])
    assert fast[1] == full[1]
    _same(before[0], _parse(HEROES)[0])  # the kept parse is not changed


@pytest.mark.parametrize("edits", [
    [("kind: hero", "kind: K")],  # outside the cards
    [("krank: 4", "krank: 5"), ("name: Bob", "name: Rob")],  # two cards
    [("alter: 60", "alter: 60\n      extra: 1")],  # one more line: every later mark moves
    [("name: Bob", "name: [Bob")],  # does not parse: the full parse says where
    [("name: Bob", "name: Bob\n  - id: A3")],
])
def test_an_edit_that_reaches_further_is_left_to_the_full_parse(edits):
    before = _parse(HEROES)
    edited = HEROES
    for old, new in edits:
        edited = edited.replace(old, new, 1)
    assert reparsed(HEROES, *before, edited, "cards.yaml") is None


def _stat_edit(pack, old="alter: 60", new="alter: 61"):
    path = pack / "cards" / "heroes.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def test_a_stat_edit_redraws_that_card_only(tmp_path, make_pack):
    pack = make_pack(tmp_path)
    resident = Resident(pack)
    first = resident.view()
    assert not first.stale and {c.id for c in first.cards} >= {"A1", "A2", "B1"}
    _stat_edit(pack)
    second = resident.view()
    changed = {c.id for c, o in zip(second.cards, first.cards) if (c.front, c.back) !=
               (o.front, o.back)}
    assert changed == {"A1"}
    assert second.generation == first.generation + 1
    png = resident.face_png(second.cards[0].front)
    picture = Image.open(io.BytesIO(png))
    w, h = second.card_size
    assert picture.size == (round(w / 25.4 * resident_module.PREVIEW_DPI),
                            round(h / 25.4 * resident_module.PREVIEW_DPI))
    assert resident.face_png("0" * 64) is None  # only what the views show


def test_an_error_keeps_the_last_good_cards_and_names_its_line(tmp_path, make_pack):
    pack = make_pack(tmp_path)
    resident = Resident(pack)
    good = resident.view()
    _stat_edit(pack, "alter: 60", "alter: 600")
    bad = resident.view()
    assert bad.stale and bad.cards == good.cards
    errors = [d for d in bad.diagnostics if d.severity == "error"]
    assert errors and errors[0].file.endswith("heroes.yaml") and errors[0].line == 8
    _stat_edit(pack, "alter: 600", "alter: 59")
    fixed = resident.view()
    assert not fixed.stale and not [d for d in fixed.diagnostics if d.severity == "error"]


def test_an_edit_validates_the_edited_card_again_and_keeps_the_others(tmp_path, make_pack):
    """The models of the parses an edit left as they were are kept (load.pack: the resident
    process's validated models); the edited card is validated again, and a card that does
    not validate is said at every load, not kept."""
    pack = make_pack(tmp_path)
    resident = Resident(pack)
    resident.view()
    before = {lc.card.id: lc.card for lc in resident.validated(pack, Report()).cards}
    _stat_edit(pack)
    resident.sync()
    after = {lc.card.id: lc.card for lc in resident.validated(pack, Report()).cards}
    assert after["A1"] is not before["A1"] and after["A1"].stats["alter"] == 61
    assert all(after[i] is before[i] for i in before if i != "A1")
    _stat_edit(pack, "alter: 61", "alter: [61]")  # not a number: the card does not validate
    said = []
    for n in (1, 2):  # loaded twice (another file changed): said twice
        with (pack / "pack.yaml").open("a", encoding="utf-8") as more:
            more.write(f"# {n}\n")
        resident.sync()
        report = Report()
        resident.validated(pack, report)
        said.append([d.format() for d in report.errors])
    assert said[0] == said[1] and any(":8:" in line for line in said[0]), said


def test_the_card_panel_names_where_the_card_is_written(tmp_path, make_pack):
    pack = make_pack(tmp_path)
    resident = Resident(pack)
    resident.view()
    card = resident.card("A2")
    assert card["line"] == 18 and card["where"].endswith("heroes.yaml:18")
    assert card["layout"] == "stat-card" and card["data"]["stats"]["alter"] == 55
    assert resident.card("Z9") is None


def test_a_resident_build_after_an_edit_is_a_cold_build_byte_for_byte(tmp_path, make_pack):
    pack = make_pack(tmp_path)
    settings = BuildSettings(only=("cards",))
    resident = Resident(pack, settings)
    resident.build({"cards"})
    _stat_edit(pack, "krank: 0", "krank: 3")
    report, result = resident.build({"cards"})
    assert not report.errors
    source.MEMORY = None  # a fresh process: nothing kept in memory
    cold_report, cold = build_pack(pack, settings, {"cards"})
    assert result.files.keys() == cold.files.keys()
    for name in cold.files:
        assert result.files[name] == cold.files[name], name


def test_an_edit_compresses_again_only_the_streams_that_changed(tmp_path, make_pack,
                                                               monkeypatch):
    import zlib
    pack = make_pack(tmp_path)
    settings = BuildSettings(only=("cards",))
    resident = Resident(pack, settings)
    calls = []
    real = zlib.compress
    monkeypatch.setattr(zlib, "compress", lambda data, *a: calls.append(1) or real(data, *a))
    resident.build({"cards"})
    first = len(calls)
    _stat_edit(pack, "krank: 0", "krank: 3")
    report, result = resident.build({"cards"})
    assert not report.errors and "cards.pdf" in result.files
    again = len(calls) - first
    # the edited card's page and what holds the document together (fonts, the ToUnicode
    # maps) at most; the other pages, the backs among them, come from memory
    assert 0 < again < first / 2, (first, again)


def test_kept_streams_are_what_zlib_gives_and_stay_within_the_limit(monkeypatch):
    import zlib
    monkeypatch.setattr(compressed, "LIMIT", 3000)
    compressed.MEMORY = compressed.OrderedDict()
    plain = []
    texts = [bytes(range(256)) * (n + 4) for n in range(30)]
    for text in texts + texts[-2:] + ["é" * 40]:
        out = compressed.compressed(text, lambda t: plain.append(t) or zlib.compress(t))
        assert out == zlib.compress(text.encode("utf8") if isinstance(text, str) else text)
    assert len(plain) == 31  # the last two were held; the text was encoded as reportlab does
    assert compressed._held == sum(len(v) for v in compressed.MEMORY.values()) <= 3000
    assert compressed.compressed(texts[0], zlib.compress) == zlib.compress(texts[0])


def test_documents_are_laid_out_again_only_when_they_change(tmp_path, copy_shipped):
    pack = copy_shipped(tmp_path, "quartett")
    resident = Resident(pack)
    resident.view()
    first = resident.documents()
    assert first is not None and first.documents[0].name == "rulebook"
    pages = first.documents[0].pages
    assert len(pages) > 2 and resident.page_png(pages[0]).startswith(b"\x89PNG")
    laid = []
    real = resident._lay_out_documents
    resident._lay_out_documents = lambda *a: laid.append(1) or real(*a)
    resident.view()  # nothing changed
    assert resident.documents().documents[0].pages == pages and not laid


def test_build_packs_gives_run_packs_outcomes(tmp_path, make_pack):
    pack = make_pack(tmp_path)
    settings = BuildSettings(only=("cards",))
    outcomes = resident_module.build_packs([Resident(pack, settings)], tmp_path / "out",
                                           settings, 1)
    folder, report, (result, keys, previous), state = outcomes[0]
    assert folder == pack and state == "built" and "cards.pdf" in result.files


def test_reparsed_needs_a_cards_list():
    data, warnings = _parse("kind: hero\ncards: []\n")
    assert reparsed("kind: hero\ncards: []\n", data, warnings, "kind: K\ncards: []\n",
                    "cards.yaml") is None
    assert isinstance(data, MarkedDict) and isinstance(data["cards"], MarkedList)


def test_boards_are_laid_out_again_only_when_what_they_show_changes(tmp_path, copy_shipped,
                                                                    monkeypatch):
    pack = copy_shipped(tmp_path, "crazy-hospital")
    laid = []
    real = boards_preflight._load_boards
    monkeypatch.setattr(boards_preflight, "_load_boards",
                        lambda *args: laid.append(1) or real(*args))
    resident = Resident(pack)
    first = resident.view()
    assert laid == [1] and not first.stale
    cards = pack / "cards" / "character.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("iq: 141", "iq: 142", 1),
                     encoding="utf-8")
    second = resident.view()
    assert laid == [1], "a stat edit lays the boards out again"
    assert [d for d in second.diagnostics if "board" in d.file] == \
        [d for d in first.diagnostics if "board" in d.file]
    boards = pack / "boards.yaml"
    boards.write_text(boards.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    resident.view()
    assert laid == [1, 1]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_watch_writes_the_card_sheets_first_and_ends_as_a_cold_build(tmp_path, copy_shipped,
                                                                     monkeypatch):
    """`cardgen watch` writes cards.pdf as soon as it is drawn, then the contact sheet (the
    rulebook and the print-shop file are drawn after them, the rulebook in a second process),
    then the rest; after the three writes the output folder is a cold build's, file for
    file, manifest.json included."""
    from cardgen.cli import watch
    from cardgen.incremental import manifest
    from cardgen.pipeline.parallel import run_packs
    pack = copy_shipped(tmp_path, "dokter-li")
    settings = BuildSettings(also=("contact",))
    residents = [Resident(pack, settings)]
    out = tmp_path / "out"
    assert watch.rebuild(residents, out, settings)
    before = (out / "dokter-li" / "cards.pdf").read_bytes()
    cards = pack / "cards" / "1-categorie.yaml"  # a name: the rulebook's content key holds it
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Extra IC-bedden",
                                                               "name: Extra IC-plaatsen"),
                     encoding="utf-8")
    writes = []
    real_write = manifest.write

    def write(out_dir, results):
        writes.append(sorted(n for result, _, _ in results for n in result.files))
        return real_write(out_dir, results)
    monkeypatch.setattr(manifest, "write", write)
    assert watch.rebuild(residents, out, settings)
    assert writes[0] == ["cards.pdf", "guide.pdf"]  # first, alone
    assert writes[1] == ["contact-1.png", "contact.pdf"]  # the page with the card edited
    assert "rulebook.pdf" in writes[2] and "printshop.pdf" in writes[2]
    assert not {"cards.pdf", "contact.pdf"} & set(writes[2])  # not written twice
    monkeypatch.setattr(manifest, "write", real_write)
    source.MEMORY = boards_preflight.MEMORY = None  # a fresh process: nothing kept
    cold = tmp_path / "cold"
    (_, report, result, _), = run_packs([pack], cold, settings, False, 2)
    assert not report.errors
    manifest.write(cold, [result])
    kept, fresh = _files(out / "dokter-li"), _files(cold / "dokter-li")
    assert kept.keys() == fresh.keys()
    assert [n for n in fresh if kept[n] != fresh[n]] == []
    assert kept["cards.pdf"] != before  # the edit is in it


def test_watch_says_when_the_sheets_are_written_but_the_rest_is_not(tmp_path, make_pack,
                                                                     monkeypatch, capsys):
    """A failure while the rest is drawn (after cards.pdf is written): the rest is not
    written, and watch says that what it listed is."""
    from cardgen.cli import watch
    from cardgen.pipeline import draw
    pack = make_pack(tmp_path)
    settings = BuildSettings(also=("contact",))
    residents = [Resident(pack, settings)]
    out = tmp_path / "out" / "mini"
    assert watch.rebuild(residents, out.parent, settings)
    before = {name: (out / name).read_bytes() for name in ("cards.pdf", "contact.pdf")}
    _stat_edit(pack)

    def fails(d):
        d.report.error("", 0, 0, "", "the contact sheet could not be drawn")
        return False
    monkeypatch.setattr(draw, "DRAW_ORDER", tuple(fails if f is draw._contact else f
                                                  for f in draw.DRAW_ORDER))
    capsys.readouterr()
    assert watch.rebuild(residents, out.parent, settings)
    said = capsys.readouterr()
    assert "the contact sheet could not be drawn" in said.err
    assert "the files listed above are written, the rest is not: fix the errors above" \
        in said.out and "mini: cards.pdf, guide.pdf →" in said.out
    assert (out / "cards.pdf").read_bytes() != before["cards.pdf"]
    assert (out / "contact.pdf").read_bytes() == before["contact.pdf"]


def test_an_expected_face_is_announced_when_drawn_and_when_drawing_fails(tmp_path, make_pack,
                                                                       monkeypatch):
    pack = make_pack(tmp_path)
    resident = Resident(pack)
    front, back = resident.view().cards[0].front, resident.view().cards[1].front
    resident.expect_faces([front, "0" * 64])  # a key no view shows is not expected
    drawn = resident.coming(front)
    assert drawn is not None and not drawn.is_set() and resident.coming("0" * 64) is None
    resident.draw_faces([front])
    assert drawn.is_set() and resident.coming(front) is None
    assert resident.held_png(front).startswith(b"\x89PNG")
    resident.expect_faces([back])
    failed = resident.coming(back)

    def broken(keys):
        raise RuntimeError("drawing failed")
    monkeypatch.setattr(resident, "_draw_faces", broken)
    with pytest.raises(RuntimeError):
        resident.draw_faces([back])
    assert failed.is_set() and resident.held_png(back) is None  # the waiter asks again


def test_checks_kept_by_a_resident_say_what_a_fresh_process_says(tmp_path, make_pack):
    """A card's own checks, a file's printed words and the placed rule texts are kept by the
    objects they are made of (validate.cards, validate.glossary): after an edit elsewhere
    they say what a fresh process says, the problems of the unchanged cards and files
    included; a fixed card's problem is gone."""
    from cardgen.pipeline.chain import validated
    pack = make_pack(tmp_path, {"rules/01-ziel.yaml": (
        "title: Worum es geht\nblocks:\n  - p: Ann's Karte schlägt Bob's Karte.\n")})
    pack_yaml = pack / "pack.yaml"
    pack_yaml.write_text(pack_yaml.read_text(encoding="utf-8").replace(
        "title: Mini Pack", "title: Mini's Pack"), encoding="utf-8")
    _stat_edit(pack, "alter: 55", "alter: 555")  # Bob's age: above the category's maximum
    resident = Resident(pack)

    def said(fresh: bool) -> list[str]:
        report = Report()
        if fresh:  # a fresh process: nothing kept
            kept, source.MEMORY = source.MEMORY, None
            try:
                validated(pack, report)
            finally:
                source.MEMORY = kept
        else:
            resident.sync()
            resident.validated(pack, report)
        return [d.format() for d in report.sorted()]

    first = said(False)
    assert any(":23:" in line and "555" in line for line in first), first  # Bob, line 23
    _stat_edit(pack, "alter: 60", "alter: 61")  # Ann's age: the other cards are kept
    assert said(False) == said(True) == first
    _stat_edit(pack, "alter: 555", "alter: 56")  # Bob's age fixed: then the glossary is read
    again = said(False)
    assert again == said(True) and not any("555" in line for line in again)
    apostrophes = [line for line in again if "straight apostrophe" in line]
    assert len(apostrophes) == 2, again  # in the rule text and in pack.yaml's title
    _stat_edit(pack, "krank: 4", "krank: 3")  # Ann's sick days
    assert said(False) == said(True) == again
    rules = pack / "rules" / "01-ziel.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("'", "’"), encoding="utf-8")
    pack_yaml.write_text(pack_yaml.read_text(encoding="utf-8").replace("Mini's", "Mini’s"),
                         encoding="utf-8")
    fixed = said(False)
    assert fixed == said(True) and not any("apostrophe" in line for line in fixed), fixed
