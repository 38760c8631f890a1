"""Checks of boards.yaml: the boards load, lay out and print (templates, text fit, glyphs,
pictures), and score sheets have room for every player the pack allows.

Why here and not in render/: `cardgen check` runs them without drawing; the renderer takes the
laid-out boards from load_boards() and only draws.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING

from ..diagnostics import Report, display_path
from ..text.words import labels_for
from ..model.packdata import PackData
from ..load.pack import read_model
from ..text.fonts import face_name, missing_glyphs
from ..pictures.store import ImageStore
from ..model.marks import mark_at

if TYPE_CHECKING:  # the board models and layouter load with a pack that has boards.yaml
    from .board import LaidBoard
    from ..model.board import BoardFile


def check_boards(data: PackData, report: Report) -> bool:
    """Everything boards_pdf checks (YAML, templates, text fit, glyphs, pictures), no PDF.

    True when the pack has no boards.yaml or its boards are fine; problems go to the report.
    """
    if not (data.folder / "boards.yaml").is_file():
        return True
    return load_boards(data, report) is not None


def load_boards(data: PackData, report: Report):
    """(laid-out boards, picture store, engine words), or None (no file, or diagnostics).

    Worked out once per loaded pack: the check, boards.pdf and the rulebook's set-up figure
    all use the same boards (a result with problems is never kept: they are reported again)."""
    path = data.folder / "boards.yaml"
    if not path.is_file():
        return None
    key = ("boards", tuple(lc.card.id for lc in data.cards))
    if key in data.derived:
        return data.derived[key]
    content = None
    if MEMORY is not None:  # a resident process: the boards of its last edit, if the same
        from ..incremental.fingerprint import file_hash
        from ..incremental.manifest import content_key
        content = (content_key(data, "boards", _ANY_PAPER),  # and, to be sure, the files a
                   *(file_hash(data.folder / name) for name in ("layouts.yaml",  # board might
                     "composition.yaml") if (data.folder / name).is_file()))  # read besides
        held = MEMORY.get(str(data.folder))
        if held is not None and held[0] == content:
            report.items.extend(held[2])  # what laying them out said, said again
            data.derived[key] = held[1]
            return held[1]
    errors_before, said_before = len(report.errors), len(report.items)
    loaded = _load_boards(data, report, path)
    if loaded is not None and len(report.errors) == errors_before:
        data.derived[key] = loaded
        if MEMORY is not None:
            MEMORY[str(data.folder)] = (content, loaded, report.items[said_before:])
    return loaded


# A resident process (pipeline.resident: cardgen serve, watch) keeps each pack's last laid-out
# boards here, under the boards' content key (incremental.manifest: what boards.pdf is made
# of, so a build draws the same boards.pdf for the same key): a stat edited elsewhere does not
# lay them out again. (content key, loaded, the diagnostics laying them out made)
MEMORY: dict[str, tuple] | None = None
# the layout is the same on every paper and with every setting: boards.pdf imposes it
_ANY_PAPER = SimpleNamespace(paper=None, booklet=False, choice=None, ink_saver=False)


def _load_boards(data: PackData, report: Report, path):
    from .board import lay_out_boards
    from ..model.board import BoardFile
    if path not in data.inputs:
        data.inputs.append(path)
    errors_before = len(report.errors)
    boards, raw = read_model(path, BoardFile, report)
    if boards is None:
        return None
    shown = display_path(path)
    _check_player_columns(data, boards, raw, shown, report)
    laid = lay_out_boards(data, report, boards, raw, shown)
    images = ImageStore(data.folder)
    _check_images(laid, images, raw, shown, report)
    every = labels_for(data.pack.language, data.pack.labels, data.pack.locale)
    words = {k: every[k] for k in ("board_glue", "board_cut", "board_sheet")}
    for board in laid:
        for text in (board.title, *words.values()):
            missing = missing_glyphs(text, face_name("sans"))
            if missing:
                mark = raw["boards"].value_marks[board.name]
                report.error(shown, mark.line, mark.col, board.name, "the font sans has no "
                             "glyph for " + ", ".join(f"U+{ord(c):04X} '{c}'" for c in missing))
    if len(report.errors) > errors_before:
        return None
    return laid, images, words


def _check_images(laid: list[LaidBoard], images: ImageStore, raw, shown: str,
                  report: Report) -> None:
    from ..validate.images import check_board_pictures
    check_board_pictures(images, laid, raw, shown, report)


def _check_player_columns(data: PackData, boards: BoardFile, raw, shown: str,
                          report: Report) -> None:
    """A table with `player_columns: true` has a column per player up to pack.yaml's play
    maximum (its first column holds the row labels)."""
    if data.pack.play is None:
        return
    most = data.pack.play.players[1]
    for name, board in boards.boards.items():
        for path, region in _tables(board.regions, ("boards", name, "regions")):
            if not region.player_columns:
                continue
            have = len(region.columns) - 1
            if have < most:
                mark = mark_at(raw, *path, "columns")
                report.error(shown, mark.line, mark.col, f"{name}.{path[-1]}",
                             f"columns: {have} player columns, but pack.yaml's play allows up "
                             f"to {most} players; give every player a column")


def _tables(regions: dict, path: tuple):
    """(path in boards.yaml, region) of every table, also inside repeats."""
    for key, region in regions.items():
        if region.type == "table":
            yield path + (key,), region
        elif region.type == "repeat":
            yield from _tables(region.regions, path + (key, "regions"))
