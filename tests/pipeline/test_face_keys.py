"""cardgen.pipeline.faces: every face laid out once per build, and a key per face that changes
exactly when what the face prints changes — its boxes or the bytes of its pictures."""

from __future__ import annotations

import pytest
from PIL import Image

from cardgen.diagnostics import Report
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import validated
from cardgen.pipeline.faces import face_hashes, face_keys, layout_faces, named_pictures
from cardgen.units import MM

LAYOUTS = """\
layouts:
  mini-back:
    extends: simple-back
    regions:
      picture:
        {type: image, x: 5, y: 5, w: 49, h: 81, layer: 5, image: images/back.png}
  pix-front:
    extends: stat-card
    regions:
      badge:
        {type: image, x: 4, y: 4, w: 5, h: 5, layer: 9, image: "images/{{ card.set or 'L' }}.png"}
"""


@pytest.fixture
def pack(make_pack, tmp_path):
    folder = make_pack(tmp_path, {"layouts.yaml": LAYOUTS})
    text = (folder / "pack.yaml").read_text(encoding="utf-8")
    for front in ("front: stat-card", "front: mini-consultant"):
        text = text.replace(front, "front: pix-front")
    (folder / "pack.yaml").write_text(text, encoding="utf-8")
    (folder / "images").mkdir()
    for name, colour in (("back", "#224488"), ("A", "#884422"), ("B", "#228844"),
                         ("L", "#888888")):
        Image.new("RGB", (200, 200), colour).save(folder / "images" / f"{name}.png")
    return folder


def faces_of(folder):
    report = Report()
    data = validated(folder, report)
    printed, images, layouter = layout_faces(data, report, BuildSettings(), prepare=False)
    assert not report.errors, [d.format() for d in report.items]
    return data, printed, images, layouter


def hashes(folder) -> dict[str, dict[str, str]]:
    _, printed, images, _ = faces_of(folder)
    return face_hashes(printed, face_keys(printed, images))


def test_every_card_is_laid_out_once_per_copy_with_its_kinds_back(pack):
    _, printed, _, layouter = faces_of(pack)
    assert [p.card_id for p in printed] == ["L1", "A1", "A2", "B1"]
    assert all(p.front.card_id == p.card_id for p in printed)
    assert printed[1].back is printed[2].back  # the heroes share one back
    assert printed[0].back is not printed[1].back  # the consultant has its kind's own
    assert layouter.kept is not None


def test_a_key_per_face_a_shared_back_hashed_once(pack):
    _, printed, images, _ = faces_of(pack)
    keys = face_keys(printed, images)
    assert len(keys) == 4 + 2  # four fronts, two backs
    found = face_hashes(printed, keys)
    assert list(found) == ["L1", "A1", "A2", "B1"]
    assert found["A1"]["back"] == found["A2"]["back"]
    assert len({found[card]["front"] for card in found}) == 4
    assert hashes(pack) == found  # a second build: the same keys


def test_a_picture_changed_in_place_changes_the_keys_of_the_faces_showing_it(pack):
    before = hashes(pack)
    Image.new("RGB", (200, 200), "#ff0000").save(pack / "images" / "B.png")  # set B's badge
    after = hashes(pack)
    assert {card for card in before if before[card]["front"] != after[card]["front"]} == {"B1"}
    assert all(before[card]["back"] == after[card]["back"] for card in before)
    Image.new("RGB", (200, 200), "#00ff00").save(pack / "images" / "back.png")
    backs = hashes(pack)
    assert all(backs[card]["back"] != after[card]["back"] for card in before)


def test_a_kept_description_stands_for_the_boxes(pack):
    _, printed, images, _ = faces_of(pack)
    plain = face_keys(printed, images)
    front = printed[1].front
    told = face_keys(printed, images, lambda face: "kept" if face is front else None)
    assert told[id(front)] != plain[id(front)]
    assert {k: v for k, v in told.items() if k != id(front)} == \
        {k: v for k, v in plain.items() if k != id(front)}


def test_only_pictures_named_outright_are_known_before_layout(pack):
    from cardgen.layout.faces import used_layouts
    data, _, _, layouter = faces_of(pack)
    pack_print = data.pack.print
    layouts = used_layouts(data, layouter, pack_print.size(), pack_print.bleed, pack_print.safe)
    found = named_pictures(data, layouts)
    # the backs' fixed picture, once per kind; the badge's path is a template: not yet known
    assert found == [("images/back.png", pytest.approx(49 * MM), pytest.approx(81 * MM))] * 2
