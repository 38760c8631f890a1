"""The rulebook's figures: components, card anatomy and set-up, drawn from the pack's own cards
and boards; every problem reported at the rule block.

Why from the data: the components figure shows the printed cards, the anatomy figure names the
parts of a real card, the set-up shows the real boards, so a changed card changes the book too.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from ...layout.faces import FaceBook
from ...model.packdata import LoadedCard, PackData
from ...model import rules as m
from ...diagnostics import did_you_mean
from ...render.card import CardPainter
from ...text.flowing import Paragraph
from ...text.fonts import face_name
from ...pictures.store import ImageStore
from ..picture import Picture, Placed
from .style import ACCENT
from .pictured import (FAN, components_cards, fan_cards,  # noqa: F401 (pictured_cards:
                                pictured_cards, spread)  # its old home, build.content_key)
from ...text.rules import ChapterSource, TextMaker, Where
from ...units import MM

GAP = 2.2 * MM  # between thumbnails
LEAST = 0.75  # a figure shrinks to the rest of a page down to this share (8 pt labels: 6 pt)


class FigureMaker:
    """Builds the figure blocks of the rules for one frame width."""

    def __init__(self, data: PackData, texts: TextMaker, styles, width: float,
                 frame_height: float, cards: set[str] | None = None):
        self.data, self.texts, self.styles = data, texts, styles
        self.width, self.frame_height = width, frame_height
        self.chosen = cards  # house rules: only these cards appear
        self._book: FaceBook | None = None
        self._boards = None
        self._source: ChapterSource | None = None
        self._index = 0

    # --- shared --------------------------------------------------------------------------------
    @property
    def book(self) -> FaceBook:
        if self._book is None:
            self._book = FaceBook(self.data)
            images = ImageStore(self.data.folder)
            self._painter = CardPainter(self._book.size, 0.0, self._book.layouter.icons, images)
        return self._book

    def painter(self) -> CardPainter:
        self.book
        return self._painter

    def boards(self) -> list:
        """Every laid-out copy of every board (none without boards.yaml)."""
        if self._boards is None:
            from ...render.boards import board_painters
            self._boards = board_painters(self.data)
        return self._boards

    def at(self, key: str | None = None, item: int | str | None = None) -> Where:
        """Where a key of the block being built was written (for its diagnostics)."""
        return self._source.where(self._index, key, item)

    def _error(self, where: Where, message: str) -> list[Flowable]:
        self.texts.report.error(where.file, where.line, where.col, where.subject,
                                where.prefix() + message)
        return []

    def _kind(self, kind_id: str, where: Where):
        kind = self.data.kind(kind_id)
        if kind is None:
            ids = [k.id for k in self.data.pack.kinds]
            self._error(where, f"unknown kind '{kind_id}'{did_you_mean(kind_id, ids)}; the "
                        f"pack defines {', '.join(ids)}")
        return kind

    def _board_names(self, names: list[str], key: str) -> list | None:
        laid = self.boards()
        known = list(dict.fromkeys(b.name for b, _ in laid))
        wrong = [(i, n) for i, n in enumerate(names) if n not in known]
        for item, name in wrong:
            self._error(self.at(key, item), f"unknown board '{name}'{did_you_mean(name, known)}"
                        f"; boards.yaml defines {', '.join(known) or 'none'}")
        return None if wrong else [(b, p) for n in names for b, p in laid if b.name == n]

    def _cards(self, kind_id: str) -> list[LoadedCard]:
        cards = self.data.cards_of(kind_id)
        if self.chosen is not None:
            cards = [lc for lc in cards if lc.card.id in self.chosen]
        return cards

    def caption(self, text: str, where: Where) -> list[Flowable]:
        markup = self.texts.rule(text, "condensed-italic", where)
        return [Paragraph(markup, self.styles["figure-caption"])] if markup else []

    def label(self, text: str, style: str = "figure-label") -> Paragraph:
        return Paragraph(text, self.styles[style])

    # --- entry ---------------------------------------------------------------------------------
    def build(self, block, source: ChapterSource, index: int) -> list[Flowable]:
        """The figure of a components, anatomy or setup block with its caption (none after a
        diagnostic, which points at the key that is wrong)."""
        errors = len(self.texts.report.errors)
        self._source, self._index = source, index
        if isinstance(block, m.Components):
            picture, text, key = self.components(block), block.components, "components"
        elif isinstance(block, m.Anatomy):
            picture, text, key = self.anatomy(block), block.anatomy, "anatomy"
        else:
            picture, text, key = self.setup(block), block.setup, "setup"
        caption = self.caption(text, source.where(index, key))
        if picture is None or len(self.texts.report.errors) > errors:
            return []
        return [Spacer(1, 4), Figure(picture, caption, self.width)]

    # --- cover ---------------------------------------------------------------------------------
    def cover_fan(self, height: float, count: int = FAN) -> Flowable | None:
        """A fan of the game's own cards for the cover: taken in turn from each kind."""
        chosen = fan_cards([self._cards(k.id) for k in self.data.pack.kinds], count)
        faces = [f for f in (self.book.front(lc) for lc in chosen) if f is not None]
        if not faces:
            return None
        if getattr(self, "light", False):  # --ink-saver: the cards as the sheets print them
            from ...layout.ink import ink_saved
            faces = [ink_saved(face) for face in faces]
        painter = self.painter()
        card_h = height * 0.84
        scale = card_h / (painter.h * MM)
        card_w = painter.w * MM * scale
        step = card_w * 0.62
        span = card_w + step * (len(faces) - 1)
        x0 = (self.width - span) / 2
        middle = (len(faces) - 1) / 2
        placed = [Placed(painter, face, x0 + i * step,
                         height - card_h - abs(i - middle) * height * 0.035, scale,
                         angle=(middle - i) * 7.0) for i, face in enumerate(faces)]
        return Picture(self.width, height, placed)

    # --- components ----------------------------------------------------------------------------
    def components(self, block: m.Components) -> Flowable | None:
        """Rows of groups: a few real cards of each kind with the count, then the boards."""
        kinds = block.kinds if block.kinds is not None else [k.id for k in self.data.pack.kinds]
        if any(self._kind(k, self.at("kinds", i)) is None for i, k in enumerate(kinds)):
            return None
        ids = {lc.card.id for lc in self.data.cards}
        for item, card_id in enumerate(block.cards):
            if card_id not in ids:
                self._error(self.at("cards", item),
                            f"unknown card '{card_id}'{did_you_mean(card_id, ids)}")
        card_h = min(36 * MM, self.frame_height * 0.16)
        groups = []  # (faces + painters, label)
        for kind_id in kinds:
            cards = self._cards(kind_id)
            if not cards:
                continue
            faces = [self.book.front(lc) for lc in components_cards(block, cards)]
            kind = self.data.kind(kind_id)
            count = sum(lc.card.count for lc in cards)
            word = kind.label if count == 1 else (kind.plural or kind.label)
            groups.append(([(self.painter(), f) for f in faces if f is not None],
                           f"{count} {word}", card_h))
        names = block.boards if block.boards is not None else \
            list(dict.fromkeys(b.name for b, _ in self.boards()))
        chosen = self._board_names(names, "boards")
        if chosen is None:
            return None
        for name in dict.fromkeys(b.name for b, _ in chosen):
            copies = [(b, p) for b, p in chosen if b.name == name]
            title = copies[0][0].title if len(copies) == 1 else \
                f"{len(copies)} × {copies[0][0].title} … {copies[-1][0].title}"
            groups.append(([(p, b.face) for b, p in copies[:3]], title, card_h * 1.25))
        return self._group_rows(groups) if groups else None

    def _group_rows(self, groups) -> Picture:
        """Groups side by side, wrapped into rows; each group's faces overlap when it is wide."""
        laid, rows, row, x = [], [], [], 0.0
        for faces, label, height in groups:
            scales = [height / (p.h * MM) for p, _ in faces]
            widths = [p.w * MM * s for (p, _), s in zip(faces, scales)]
            natural = sum(widths) + GAP * (len(widths) - 1)
            # one group spreads its cards; several fan theirs so that two share a row
            room = self.width if len(groups) == 1 else self.width * 0.45
            step = 1.0 if natural <= room or len(widths) == 1 else \
                (room - widths[-1]) / max(1e-6, natural - widths[-1])
            span = widths[-1] + (natural - widths[-1]) * max(0.35, step)
            label_p = self.label(label)
            lw, lh = label_p.wrap(max(span, 30 * MM), 1e6)
            item = (faces, scales, widths, max(0.35, step), max(span, lw), height, label_p, lh)
            if row and x + item[4] > self.width:
                rows.append(row)
                row, x = [], 0.0
            row.append(item)
            x += item[4] + 5 * MM
        if row:
            rows.append(row)
        total = sum(max(i[5] + i[7] + 3 for i in r) for r in rows) + 4 * (len(rows) - 1)
        y = total
        for r in rows:
            row_h = max(i[5] + i[7] + 3 for i in r)
            used = sum(i[4] for i in r) + 5 * MM * (len(r) - 1)
            x = (self.width - used) / 2
            for faces, scales, widths, step, span, height, label_p, lh in r:
                cx = x + (span - (widths[-1] + (sum(widths) + GAP * (len(widths) - 1)
                                               - widths[-1]) * step)) / 2
                for (painter, face), scale, w in zip(faces, scales, widths):
                    laid.append(Placed(painter, face, cx, y - height, scale))
                    cx += (w + GAP) * step
                laid_label = (label_p, x + (span - label_p.width) / 2, y - height - 3 - lh)
                laid.append(laid_label)
                x += span + 5 * MM
            y -= row_h + 4
        placed = [p for p in laid if isinstance(p, Placed)]
        labels = [p for p in laid if not isinstance(p, Placed)]
        return Picture(self.width, total, placed, [_paragraph_mark(*t) for t in labels])

    # --- anatomy -------------------------------------------------------------------------------
    def anatomy(self, block: m.Anatomy) -> Flowable | None:
        """The card enlarged in the middle, its parts named left and right with leader lines."""
        lc = next((c for c in self.data.cards if c.card.id == block.card), None)
        if lc is None:
            ids = [c.card.id for c in self.data.cards]
            self._error(self.at("card"),
                        f"unknown card '{block.card}'{did_you_mean(block.card, ids)}")
            return None
        face = self.book.front(lc)
        if face is None:
            return None
        boxes = {b.name: b for b in face.boxes}
        painter = self.painter()
        height = min(100 * MM, self.frame_height * 0.45)
        scale = height / (painter.h * MM)
        width = painter.w * MM * scale
        card_x = (self.width - width) / 2
        callouts = []
        for region, text in block.callouts.items():
            box = boxes.get(region)
            if box is None:
                self._error(self.at("callouts", region), f"card {lc.card.id} has no region "
                            f"'{region}'{did_you_mean(region, list(boxes))}; its regions: "
                            + ", ".join(boxes))
                continue
            markup = self.texts.rule(text, "sans-bold", self.at("callouts", region))
            if markup is None:
                continue
            r = box.region
            left = (r.x + r.w / 2) * MM * scale < width / 2
            # the leader ends at the part's near edge, so it never runs through its text
            edge = max(0.0, r.x) if left else min(painter.w, r.x + r.w)
            ax = card_x + edge * MM * scale + (1.5 if left else -1.5)
            ay = height - _middle(box, painter.h) * MM * scale
            style = "figure-callout-left" if left else "figure-callout"
            callouts.append((ax, ay, left, self.label(markup, style)))
        if len(callouts) < len(block.callouts):
            return None
        marks = _callout_marks(callouts, card_x, width, self.width, height)
        return Picture(self.width, height, [Placed(painter, face, card_x, 0, scale)], marks)

    # --- set-up --------------------------------------------------------------------------------
    def setup(self, block: m.Setup) -> Flowable | None:
        """Boards, a grid of cards and a pile, packed into rows at the largest common scale."""
        chosen = self._board_names(block.boards, "boards")
        items = []  # (width mm, height mm, draw(x, y, scale) → list[Placed])
        for laid, painter in chosen or []:
            items.append((laid.size[0], laid.size[1], _one(painter, laid.face)))
        for kind_id, grid, key in ((block.grid.kind, block.grid, "grid") if block.grid
                                   else (None, None, ""), (block.pile, None, "pile")):
            if kind_id is None:
                continue
            if self._kind(kind_id, self.at(key)) is None:
                return None
            items.append(self._cards_item(kind_id, grid))
        if chosen is None or not items:
            if chosen is not None:
                self._error(self.at("setup"), "shows nothing: give boards, grid or pile")
            return None
        return _packed(items, self.width, min(self.frame_height * 0.45, 125 * MM))

    def _cards_item(self, kind_id: str, grid: m.Grid | None):
        painter = self.painter()
        w, h = painter.w, painter.h
        if grid is None:  # a pile: three backs, slightly offset
            face = self.book.back(kind_id)
            return (w + 2.4, h + 2.4, lambda x, y, s: [
                Placed(painter, face, x + i * 1.2 * MM * s, y + (2 - i) * 1.2 * MM * s, s)
                for i in range(3)])
        gap = 2.0
        cards = self._cards(kind_id)
        faces = [self.book.back(kind_id) if grid.face == "back" else
                 self.book.front(cards[i % len(cards)]) for i in range(grid.rows * grid.cols)]

        def draw(x, y, s):
            out = []
            for index, face in enumerate(faces):
                row, col = divmod(index, grid.cols)
                out.append(Placed(painter, face, x + col * (w + gap) * MM * s,
                                  y + (grid.rows - 1 - row) * (h + gap) * MM * s, s))
            return out
        return (grid.cols * (w + gap) - gap, grid.rows * (h + gap) - gap, draw)


class Figure(Flowable):
    """A picture and its caption on one page. Where the rest of a page holds the figure at
    LEAST of its size or more, the picture shrinks to fit (its caption keeps its size) instead
    of moving to the next page and leaving that space empty (QuaTriDou's set-up on Letter
    left half a page white)."""

    def __init__(self, picture: Picture, caption: list[Flowable], width: float):
        super().__init__()
        self.picture, self.caption, self.width = picture, caption, width
        self.scale, self.height = 1.0, picture.height

    def wrap(self, avail_w, avail_h):
        below = sum(c.wrap(self.width, 1e6)[1] for c in self.caption)
        shrunk = (avail_h - below) / max(self.picture.height, 1e-6)
        self.scale = 1.0 if shrunk >= 1.0 or shrunk < LEAST else shrunk
        self.height = self.picture.height * self.scale + below
        return self.width, self.height

    def split(self, avail_w, avail_h):
        return []  # never broken: the whole figure goes to the next page

    def draw(self):
        s = self.scale
        y = self.height - self.picture.height * s
        self.canv.saveState()
        self.canv.translate((self.width - self.picture.width * s) / 2, y)
        self.canv.scale(s, s)
        self.picture.drawOn(self.canv, 0, 0)
        self.canv.restoreState()
        for caption in self.caption:
            _, h = caption.wrap(self.width, 1e6)
            y -= h
            caption.drawOn(self.canv, 0, y)


def unbroken(flowables: list[Flowable], width: float, after: float = 0.0) -> Table:
    """Flowables that move to the next page together. A one-column Table that never splits,
    not a KeepTogether: a heading's keepWithNext binds to a Table, not to a KeepTogether.
    after: the space below (a flowable's own spaceAfter does not count inside a cell)."""
    rows = len(flowables)
    table = Table([[f] for f in flowables], colWidths=[width], hAlign="LEFT",
                  rowSplitRange=(rows, rows), spaceAfter=after)
    table.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                               ("FONTNAME", (0, 0), (-1, -1), face_name("serif"))]))
    return table


def _one(painter, face):
    return lambda x, y, s: [Placed(painter, face, x, y, s)]


def _packed(items, width: float, max_height: float) -> Picture:
    """Items in rows (greedy, in order) at the largest scale that fits width and height."""
    def rows_at(scale):
        rows, row, x = [], [], 0.0
        for item in items:
            w = item[0] * MM * scale
            if row and x + w > width:
                rows.append(row)
                row, x = [], 0.0
            row.append(item)
            x += w + GAP * 2
        return rows + [row]

    def height_at(scale):
        rows = rows_at(scale)
        fits = all(sum(i[0] * MM * scale for i in r) + GAP * 2 * (len(r) - 1) <= width + 0.01
                   for r in rows)
        return sum(max(i[1] for i in r) * MM * scale for r in rows) + \
            GAP * 2 * (len(rows) - 1) if fits else float("inf")

    low, high = 0.01, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        if height_at(middle) <= max_height:
            low = middle
        else:
            high = middle
    scale, rows = low, rows_at(low)
    total = height_at(scale)
    placed, y = [], total
    for r in rows:
        row_h = max(i[1] for i in r) * MM * scale
        used = sum(i[0] * MM * scale for i in r) + GAP * 2 * (len(r) - 1)
        x = (width - used) / 2
        for w, h, draw in r:
            placed += draw(x, y - row_h + (row_h - h * MM * scale) / 2, scale)
            x += w * MM * scale + GAP * 2
        y -= row_h + GAP * 2
    return Picture(width, total, placed)


def _paragraph_mark(paragraph: Paragraph, x: float, y: float):
    return lambda canvas: paragraph.drawOn(canvas, x, y)


def _middle(box, card_h: float) -> float:
    """Where a part's leader ends, in mm from the card's top: the middle of a text's first
    line (the leader points at the words, not at the empty rest of their box), else the
    middle of the region."""
    from ...text.typeset import placed_lines
    r = box.region
    if r.type in ("text", "icon") and box.text is not None and not r.rotate:
        lines = placed_lines(box, card_h, {})
        if lines:
            baseline, size = lines[0][1], box.text.size
            return card_h - (baseline + 0.35 * size) / MM
    return r.y + r.h / 2


def _callout_marks(callouts, card_x: float, card_w: float, width: float, height: float):
    """Labels in a column on each side of the card, spread so they never overlap, each with a
    leader line to a dot on its part."""
    column = card_x - 6 * MM
    marks = []
    for side in ("left", "right"):
        mine = sorted(((ax, ay, para) for ax, ay, left, para in callouts
                       if left == (side == "left")), key=lambda c: -c[1])
        sizes = [c[2].wrap(column, 1e6) for c in mine]
        ys, floor = [], height
        for (ax, ay, _), (_, lh) in zip(mine, sizes):
            top = min(floor, ay + lh / 2)
            ys.append(top)
            floor = top - lh - 3
        shift = min(0.0, min((t - lh for t, (_, lh) in zip(ys, sizes)), default=0.0))
        ys = [t - shift for t in ys]
        for (ax, ay, para), (_, lh), top in zip(mine, sizes, ys):
            lx = 0.0 if side == "left" else width - column
            marks.append(_paragraph_mark(para, lx, top - lh))
            end_x = column + 1.5 if side == "left" else lx - 1.5
            marks.append(_leader(end_x, top - para.style.leading * 0.5, ax, ay))
    return marks


def _leader(x0: float, y0: float, x1: float, y1: float):
    def draw(canvas):
        canvas.saveState()
        canvas.setStrokeColor(ACCENT)
        canvas.setFillColor(ACCENT)
        canvas.setLineWidth(0.6)
        canvas.line(x0, y0, x1, y1)
        canvas.circle(x1, y1, 1.4, stroke=0, fill=1)
        canvas.circle(x0, y0, 0.8, stroke=0, fill=1)
        canvas.restoreState()
    return draw

