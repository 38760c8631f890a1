"""The rulebook's table of contents, in two columns when one column would run past its page.

Why not reportlab's TableOfContents as it is: it sets every entry in a row of a one-column
table with the table's default padding, so the flagship's eleven chapters and 60 sections took
three Letter pages before the rules began. Here entries sit at their own leading, and on a page
wide enough for two columns of at least MIN_COLUMN the entries fill two columns (chapters kept
whole where the split allows), so the contents of every shipped pack fit on one page.
"""

from __future__ import annotations

from ast import literal_eval

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Spacer
from reportlab.platypus.tableofcontents import TableOfContents

MIN_COLUMN = 70 * mm  # narrower columns would wrap most entries (the A5 booklet stays single)
GUTTER = 8 * mm


class Contents(TableOfContents):
    """reportlab's contents (entries, dots, links) laid out by Columns, for a book laid out in
    one pass: the entries are known before (expect), and each page number is a PDF form named
    by its entry, drawn right-aligned where the number goes and defined once the book knows
    the page (define_page_numbers)."""

    _levels: dict = {}  # key → level of every expected entry (expect)

    def expect(self, entries: list[tuple]) -> None:
        """(level, markup, page, key) of every entry, in order, before the book is laid out."""
        self._lastEntries = list(entries)
        self._levels = {key: level for level, _, _, key in entries}

    def wrap(self, availWidth, availHeight):
        width = (availWidth - GUTTER) / 2
        two = width >= MIN_COLUMN and self._height(availWidth, availHeight) > availHeight
        self._entries_at(width if two else availWidth, availHeight)
        self._table = Columns(self._rows(), 2 if two else 1, width if two else availWidth)
        self.width, self.height = self._table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height

    def _height(self, width: float, avail: float) -> float:
        self._entries_at(width, avail)
        return Columns(self._rows(), 1, width).natural(self.canv)

    def _entries_at(self, width: float, avail: float) -> None:
        """reportlab's entry paragraphs for this width, ending in our page-number forms."""
        super().wrap(width, avail)
        self.canv.setNamedCB("drawTOCEntryEnd", lambda canvas, kind, label:
                             self._entry_end(canvas, label, width))

    def _entry_end(self, canvas, label: str, width: float) -> None:
        """After an entry's text: the dots (from level dotsMinLevel on) up to room for a
        three-digit number, then the number's form, right-aligned at the column's edge."""
        _, level, key = label.split(",", 2)
        style = self.getLevelStyle(int(level))
        x, y = canvas._curr_tx_info["cur_x"], canvas._curr_tx_info["cur_y"]
        room = stringWidth("000\u2002", style.fontName, style.fontSize)
        if self.dotsMinLevel >= 0 and int(level) >= self.dotsMinLevel:
            dot = " . "
            dots = int((width - room - x) / stringWidth(dot, style.fontName, style.fontSize))
            if dots > 0:
                text = canvas.beginText(width - room - dots * stringWidth(
                    dot, style.fontName, style.fontSize), y)
                text.setFont(style.fontName, style.fontSize)
                text.setFillColor(style.textColor)
                text.textOut(dots * dot)
                canvas.drawText(text)
        canvas.saveState()
        canvas.translate(width, y)
        canvas.doForm(_form_name(literal_eval(key)))
        canvas.restoreState()

    def define_page_numbers(self, canvas) -> None:
        """Every entry's page number, as the form its entry draws (after the last page). An
        entry whose heading was never placed gets an empty form and its link a target (the
        last page): a form or link target named and not defined would make the PDF
        unwritable."""
        pages = {key: page for _, _, page, key in self._entries}
        for key, level in self._levels.items():
            page = pages.get(key, "")
            if key not in pages:
                canvas.bookmarkPage(key)
            style = self.getLevelStyle(level)
            # the number ends at the form's origin: its box reaches left and a line up/down
            canvas.beginForm(_form_name(key), -4 * style.fontSize, -style.fontSize,
                             0, 2 * style.fontSize)
            canvas.setFont(style.fontName, style.fontSize)
            canvas.setFillColor(style.textColor)
            canvas.drawRightString(0, 0, str(page))
            canvas.endForm()


    def _rows(self) -> list[Flowable]:
        """The entries (and spacers) reportlab's wrap put in its one-column table."""
        return [cell[0] for cell in (row[0] for row in self._table._cellvalues)]


def _form_name(key) -> str:
    return "toc-" + "".join(c if c.isalnum() else "-" for c in str(key))


class Columns(Flowable):
    """Rows (entry paragraphs and the spacers before chapters) in 1 or 2 columns, top-aligned;
    what does not fit the page goes on in the same way on the next."""

    def __init__(self, rows: list[Flowable], columns: int, column_width: float):
        super().__init__()
        self.rows, self.columns, self.column_width = rows, columns, column_width
        self.placed: list[list[tuple[Flowable, float]]] = []

    def _sizes(self, canvas) -> list[float]:
        return [row.wrapOn(canvas, self.column_width, 1e6)[1] for row in self.rows]

    def natural(self, canvas) -> float:
        return sum(self._sizes(canvas))

    def wrap(self, availWidth, availHeight):
        self.placed, rest = self._fill(self._sizes(self.canv), availHeight)
        self.width = availWidth
        self.height = max((sum(h for _, h in col) for col in self.placed), default=0.0)
        return self.width, self.height if not rest else availHeight + 1  # split me

    def split(self, availWidth, availHeight):
        self.placed, rest = self._fill(self._sizes(self.canv), availHeight)
        if not any(self.placed) or not rest:
            return [] if not any(self.placed) else [self]
        head = Columns(self.rows[:len(self.rows) - len(rest)], self.columns, self.column_width)
        return [head, Columns(rest, self.columns, self.column_width)]

    def _fill(self, sizes: list[float], height: float):
        """(columns of (row, height), the rows left for the next page). When the rest fits on
        this page it is balanced over the two columns."""
        pairs = list(zip(self.rows, sizes))
        columns, rest = [], pairs
        for _ in range(self.columns):
            column, rest = _column(rest, height)
            columns.append(column)
        if self.columns == 2 and not rest:
            left, right = _balanced(pairs)
            if _total(left) <= height and _total(right) <= height:
                columns = [left, right]
        return columns, [row for row, _ in rest]

    def draw(self):
        for index, column in enumerate(self.placed):
            x = index * (self.column_width + GUTTER)
            y = self.height
            for row, h in column:
                y -= h
                row.drawOn(self.canv, x, y)


def _total(pairs) -> float:
    return sum(h for _, h in pairs)


def _trimmed(pairs):
    """A column never starts with the space before a chapter."""
    while pairs and isinstance(pairs[0][0], Spacer):
        pairs = pairs[1:]
    return pairs


def _is_chapter(row: Flowable) -> bool:
    return getattr(getattr(row, "style", None), "name", "") == "toc0"


def _column(pairs, height: float):
    """(the rows that fit one column, the rest): a chapter entry never ends a column."""
    pairs, used, taken = _trimmed(pairs), 0.0, 0
    while taken < len(pairs) and used + pairs[taken][1] <= height:
        used += pairs[taken][1]
        taken += 1
    if taken < len(pairs):
        while taken > 1 and (_is_chapter(pairs[taken - 1][0])
                             or isinstance(pairs[taken - 1][0], Spacer)):
            taken -= 1
    return pairs[:taken], pairs[taken:]


def _balanced(pairs):
    """Two halves of about equal height; at a chapter when that costs at most 15 %."""
    total = _total(pairs)
    best, best_at = None, None
    chapter_best, chapter_at = None, None
    used = 0.0
    for at in range(1, len(pairs)):
        used += pairs[at - 1][1]
        taller = max(used, total - used)
        if best is None or taller < best:
            best, best_at = taller, at
        if isinstance(pairs[at][0], Spacer) and (chapter_best is None or taller < chapter_best):
            chapter_best, chapter_at = taller, at
    if best_at is None:
        return pairs, []
    at = chapter_at if chapter_best is not None and chapter_best <= best * 1.15 else best_at
    return _trimmed(pairs[:at]), _trimmed(pairs[at:])
