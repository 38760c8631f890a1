"""The card faces of a build: every front and back laid out, checked and their pictures
prepared (the check phase), and the keys that say what each face prints (the draw phase).

Why in the pipeline: laying out a face brings four stages together (layout, pictures, the
checks of what was laid out, the kept fronts of the build before).
"""

from __future__ import annotations

import contextlib
import hashlib

from ..diagnostics import Report
from ..incremental.fingerprint import file_hash
from ..incremental.plan import wanted_outputs
from ..layout.card import CardLayouter
from ..layout.faces import keep_front, kept_front, used_layouts
from ..model.layout import picture_fit
from ..model.packdata import PackData
from ..model.settings import BuildSettings
from ..pictures.store import ImageStore
from ..pictures.svg import is_svg
from ..units import MM
from ..validate.images import check_face_pictures, is_template


def layout_faces(data: PackData, report: Report, settings: BuildSettings,
                 prepare: bool = True, fronts=None, images: ImageStore | None = None):
    """Stage 4: every front and back laid out; text fitted; pictures checked.

    `prepare`: the pictures are prepared for printing (decoded, scaled, encoded, on every core;
    the decode finds a damaged file); else only decoded to find one (`cardgen check`).
    `fronts(data, card_size, safe, icons)`: the fronts kept between builds (KeptFronts, on
    disk, by default); `images`: the pack's picture store (a new one by default). A resident
    pipeline (pipeline.resident) passes its own, kept in memory between edits."""
    from ..render.pdf import Printed
    from ..layout.print_check import check_print
    errors_before = len(report.errors)
    check_print(data, settings, wanted_outputs(settings), report)
    layouter = CardLayouter(data, report)
    if len(report.errors) > errors_before:  # every card would fail the same way
        return [], images if images is not None else ImageStore(data.folder), layouter
    card_size = settings.card_size or data.pack.print.size()
    safe = settings.safe if settings.safe is not None else data.pack.print.safe
    bleed = settings.bleed if settings.bleed is not None else data.pack.print.bleed
    layouts = used_layouts(data, layouter, card_size, bleed, safe)
    images = images if images is not None else ImageStore(data.folder)
    # the pictures the cards and layouts name outright are prepared on the other cores while
    # this process lays out the cards (prepare_all below waits for them)
    if prepare:
        images.start(named_pictures(data, layouts), settings.jobs)
    try:
        printed: list[Printed] = []
        backs = {}
        faces = []  # (card | None, layout, face): every face, for the picture check
        preflight = _outline_check(layouter, card_size, safe, data.pack.print.min_font_size)
        from ..layout.ink import ink_saved
        saver = ink_saved if settings.ink_saver else (lambda face: face)
        for kind in data.pack.kinds:
            if kind.back in layouts:
                backs[kind.id] = layouter.face(None, layouts[kind.back], f"back:{kind.id}")
                faces.append((None, layouts[kind.back], backs[kind.id]))
                preflight(None, layouts[kind.back], backs[kind.id])
                backs[kind.id] = saver(backs[kind.id])
        from ..incremental.kept import KeptFronts
        kept = (fronts or KeptFronts)(data, card_size, safe, layouter.icons)
        for lc in data.cards:
            kind = data.kind(lc.kind)
            if kind.front not in layouts or kind.id not in backs:
                continue
            layout = layouts[kind.front]
            key = kept.key(lc, layout, layouter.uniform_key(layout))
            front = kept_front(kept, key, lc, layout)
            if front is None:
                problems = _problems(report, layouter)
                front = layouter.face(lc, layout, lc.card.id)
                preflight(lc, layout, front)
                if _problems(report, layouter) == problems:
                    keep_front(kept, key, front)
            else:
                layouter.note_kept(lc, layout, front)
            faces.append((lc, layout, front))
            front = saver(front)
            for copy in range(lc.card.count):
                printed.append(Printed(lc.card.id, front, backs[kind.id]))
        layouter.report_problems()
        _shop_minimums(data, settings, faces, report)
    except BaseException:
        images.stop()
        raise
    # prepared (decoded completely, scaled, encoded) before the check: that decode is the one
    # that finds a damaged file, and the drawing then decodes nothing
    placed = [_prepared_size(images, box) for p in printed for face in (p.front, p.back)
              for box in face.boxes if box.image and not is_svg(box.image)]
    undecodable = images.prepare_all(placed, settings.jobs) if prepare else \
        images.verify_all(placed)
    check_face_pictures(data, faces, report, undecodable)
    if not report.errors:
        kept.save()
    layouter.kept = kept
    return printed, images, layouter


def _shop_minimums(data: PackData, settings: BuildSettings, faces, report: Report) -> None:
    """The print shop's type and line minimums (--card-size NAME, or pack.yaml's)."""
    from ..layout.shop_preflight import check_shop_minimums
    from ..model.pack import PRINT_SHOPS
    shop = PRINT_SHOPS.get(settings.print_shop or "") or data.pack.print.shop()
    check_shop_minimums(shop, faces, report)


def named_pictures(data: PackData, layouts: dict) -> list[tuple[str, float, float]]:
    """(picture, w_pt, h_pt) of the pictures the faces will place that need no layout to be
    known: a layout's fixed picture and a card's own `image` in a portrait region of its front.
    Paths a template makes are known after layout (and prepared then)."""
    faces = [(None, layouts[k.back]) for k in data.pack.kinds if k.back in layouts]
    faces += [(lc, layouts[data.kind(lc.kind).front]) for lc in data.cards
              if data.kind(lc.kind).front in layouts]
    placed = []
    for lc, layout in faces:
        for region in layout.regions.values():
            image = region.image if region.type == "image" else \
                lc.card.image if region.type == "portrait" and lc is not None else None
            if image and not is_template(image) and not is_svg(image) and \
                    picture_fit(region) == "cover" and region.focus in (None, (0.5, 0.5)):
                placed.append((image, region.w * MM, region.h * MM))
    return placed


def _prepared_size(images: ImageStore, box) -> tuple[str, float, float]:
    """(picture, w_pt, h_pt) as the drawing will prepare it: the box, or the whole picture
    where its fit or focus shows it otherwise (pictures.fit)."""
    w, h = box.region.w * MM, box.region.h * MM
    # an unreadable file keeps the box's size: the picture check says why it cannot be read
    with contextlib.suppress(Exception):
        _, _, w, h = images.placed(box.image, w, h, box.fit, box.focus)
    return box.image, w, h


def _problems(report: Report, layouter: CardLayouter) -> int:
    """How many problems the layout stage has met so far (said or kept for saying)."""
    return (len(report.items) + sum(len(items) for _, items in layouter.deferred.values())
            + sum(len(ids) for _, ids in layouter.folded.values()))


def _outline_check(layouter: CardLayouter, card_size, safe: float, minimum: float):
    """check(lc, layout, face): every glyph's outline inside the safe zone and no glyph below
    the pack's minimum size, reported where the card's text (or the layout's region) is."""
    from ..layout.crossing import crossing_problems
    from ..text.typeset import outline_problems

    def check(lc, layout, face) -> None:
        problems = outline_problems(face, card_size, safe, minimum, layouter.icons)
        problems += crossing_problems(face, card_size, layouter.icons)
        for region, message in problems:
            # a back's text comes from its layout: the message names the field there
            texts = layout.regions[region].type in ("text", "icon", "stats")
            layouter._card_error(lc, layout, region,
                                 f"text: {message}" if lc is None and texts else message)
    return check


def face_keys(printed, images: ImageStore, described=lambda face: None) -> dict[int, str]:
    """{id(face): a hash of what the face prints (its laid-out boxes and the bytes of its
    pictures)}: the face's key in render.face_store and, in manifest.json, for a later
    --changed-since. A face shared by many cards (a back) and a picture on many faces are
    hashed once; `described(face)` gives the repr of a face kept from the build before."""
    from ..pictures.store import resolve
    faces: dict[int, str] = {}
    pictures: dict[str, str] = {}

    def picture(relative: str) -> str:
        if relative not in pictures:
            pictures[relative] = file_hash(resolve(images.folder, relative))
        return pictures[relative]

    for p in printed:
        for face in (p.front, p.back):
            if id(face) not in faces:
                digest = hashlib.sha256((described(face) or repr(face.boxes)).encode())
                for box in face.boxes:
                    if box.image:
                        digest.update(picture(box.image).encode())
                faces[id(face)] = digest.hexdigest()
    return faces


def face_hashes(printed, keys: dict[int, str]) -> dict[str, dict[str, str]]:
    """{card id: {front, back}}: the keys of each card's sides (face_keys)."""
    out = {}
    for p in printed:
        if p.card_id not in out:
            out[p.card_id] = {"front": keys[id(p.front)], "back": keys[id(p.back)]}
    return out


def face_records(data: PackData, card_size, icons: dict[str, str], printed,
                  keys: dict[int, str], images: ImageStore):
    """(the build's FaceRecords, the pack's incremental.faces entry): the faces an earlier
    build drew with the same characters replay; the alphabet seeds every print document."""
    from ..incremental.faces import Kept, entry_name
    from ..render.replay import FaceRecords, Recording, characters
    kept = Kept(entry_name(data.folder, card_size, icons))
    faces = {}
    for p in printed:
        for face in (p.front, p.back):
            faces.setdefault(keys[id(face)], face)
    alphabet = kept.alphabet_for(faces, lambda face: characters(face, icons))
    usable = kept.usable(alphabet)
    records = FaceRecords(alphabet, {key: Recording(*usable[key], True) for key in faces
                                     if key in usable}, images, keys)
    return records, kept
