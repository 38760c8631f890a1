"""Generated rulebook tables: filled from the same pack data the cards are printed from.

Why generated: a category renamed in pack.yaml, a card added, a scoring row changed — the
rulebook follows on the next build, it cannot drift from the cards. Every cell is a Paragraph
(long text wraps), headers repeat on each page, rows are zebra-striped.
"""

from __future__ import annotations

import re

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Table, TableStyle

from ...model.packdata import LoadedCard, PackData
from ...model.pack import Category, Kind
from ...model.rules import Table as TableBlock
from ...diagnostics import did_you_mean
from ...text.flowing import Paragraph
from ...text.fonts import face_name
from ...text.numbers import attached, named, number
from ...text.words import minus_signs
from .style import ACCENT, ACCENT_SOFT, RULE, ZEBRA
from ...text.rules import TextMaker, Where

PAD = 4  # points of padding left and right in a cell
MAX_HEADER = 28  # characters of a field label that still make a column header

FAMILIES = {"cell": "condensed", "cell-strong": "condensed-bold", "cell-small": "condensed-italic",
            "cell-head": "condensed-bold", "caption": "condensed-italic"}


def column_header(label: str, key: str) -> str:
    """A field's label as a column header: a long, explanatory label is cut to its first
    phrase ('Beeld (pictogram) in het midden; …' → 'Beeld'), or replaced by the key."""
    if label and len(label) <= MAX_HEADER:
        return label
    head = re.split(r"\s*[(;:,–]", label, maxsplit=1)[0].strip() if label else ""
    if head and len(head) <= MAX_HEADER:
        return head
    return key[:1].upper() + key[1:].replace("_", " ")


class TableMaker:
    """Builds the `table:` blocks of the rules; problems go to the report at the block."""

    def __init__(self, data: PackData, texts: TextMaker, styles, words: dict[str, str],
                 width: float):
        self.data, self.texts, self.styles, self.words = data, texts, styles, words
        self.width = width
        self.pack = data.pack
        self.icons = texts.icons
        self.chosen: set[str] | None = None  # house rules: the IDs of the chosen cards

    def _cards_of(self, kind_id: str) -> list[LoadedCard]:
        """The kind's cards; in house rules only the chosen ones."""
        cards = self.data.cards_of(kind_id)
        return cards if self.chosen is None else [lc for lc in cards if lc.card.id in self.chosen]

    # --- entry ----------------------------------------------------------------------------------
    def build(self, block: TableBlock, where: Where) -> list[Flowable]:
        builders = {"categories": self.categories, "levels": self.levels, "cards": self.cards,
                    "card-grid": self.card_grid, "scoring": self.scoring,
                    "special-cards": self.special_cards}
        builder = builders.get(block.table)
        if builder is None:
            self._error(where, f"unknown table '{block.table}'"
                        f"{did_you_mean(block.table, list(builders))}; tables: "
                        + ", ".join(builders))
            return []
        kind = None
        if block.kind is not None:
            kind = self.data.kind(block.kind)
            if kind is None:
                ids = [k.id for k in self.pack.kinds]
                self._error(where, f"table {block.table}: unknown kind '{block.kind}'"
                            f"{did_you_mean(block.kind, ids)}; the pack defines {', '.join(ids)}")
                return []
            if block.table in ("levels", "scoring"):
                self.texts.report.warning(where.file, where.line, where.col, where.subject,
                                          f"{where.prefix()}kind has no effect on table "
                                          f"{block.table}")
        return builder(kind, where)

    def _error(self, where: Where, message: str) -> list[Flowable]:
        self.texts.report.error(where.file, where.line, where.col, where.subject,
                                where.prefix() + message)
        return []

    # --- cells ----------------------------------------------------------------------------------
    def cell(self, text: str, style: str, where: Where) -> Paragraph:
        """A table cell from data text (our markup allowed); glyph problems reported at `where`."""
        markup = self.texts.markup(str(text), FAMILIES[style], where)
        return Paragraph(markup or "", self.styles[style])

    def lines(self, parts: list[tuple[str, str]], where: Where) -> list[Paragraph]:
        """Several paragraphs stacked in one cell: (text, style) pairs, empty texts skipped."""
        return [self.cell(text, style, where) for text, style in parts if text]

    def grid(self, header: list[str], rows: list[list], weights: list[float],
             extra: list[tuple] = (), centred: tuple[int, ...] = (),
             unbroken: dict[int, list[str]] | None = None) -> Table:
        """A data table: accent header repeated on every page, zebra rows, widths that fit.

        unbroken: column → texts (e.g. card IDs) the column must be wide enough for."""
        head = [self.cell(h, "cell-head", Where(self.data.pack_file)) for h in header]
        widths = self._widths(header, weights, unbroken or {})
        style = [("FONTNAME", (0, 0), (-1, -1), face_name("condensed")),  # never Helvetica
                 ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
                 ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, ZEBRA]),
                 ("VALIGN", (0, 0), (-1, -1), "TOP"),
                 ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
                 ("LINEBELOW", (0, -1), (-1, -1), 0.8, ACCENT_SOFT),
                 ("LEFTPADDING", (0, 0), (-1, -1), PAD), ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                 ("TOPPADDING", (0, 0), (-1, -1), 2.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 3.2)]
        for col in centred:  # paragraphs align by style: swap in the centred twin
            for row in [head] + rows:
                cell = row[col]
                if isinstance(cell, Paragraph):
                    cell.style = self._centred(cell.style)
        # no orphans or widows: a page break leaves at least 3 rows on each side, and a table
        # of up to 8 rows moves whole
        count = len(rows) + 1
        split_range = (4, count - 3) if len(rows) > 8 else (count, count)
        table = Table([head] + rows, colWidths=widths, repeatRows=1, hAlign="LEFT",
                      rowSplitRange=split_range)
        table.setStyle(TableStyle(style + list(extra)))
        return table

    @staticmethod
    def _centred(style: ParagraphStyle) -> ParagraphStyle:
        return ParagraphStyle(style.name + "-centred", parent=style, alignment=TA_CENTER)

    def _widths(self, header: list[str], weights: list[float],
                unbroken: dict[int, list[str]]) -> list[float]:
        """Widths by weight, but never narrower than a header word (no 'Minuspunk-te') or an
        unbroken text."""
        style = self.styles["cell-head"]
        least = [max((stringWidth(word, style.fontName, style.fontSize) for word in h.split()),
                     default=0) + 2 * PAD + 1 for h in header]
        for col, texts in unbroken.items():
            widest = max((stringWidth(t, style.fontName, style.fontSize) for t in texts), default=0)
            least[col] = max(least[col], widest + 2 * PAD + 1)
        total = sum(weights)
        widths = [self.width * w / total for w in weights]
        for _ in range(len(widths)):
            short = [i for i, w in enumerate(widths) if w < least[i] - 1e-6]
            if not short:
                break
            for i in short:
                widths[i] = least[i]
            free = [i for i in range(len(widths)) if i not in short and widths[i] > least[i]]
            excess = sum(widths) - self.width
            pool = sum(widths[i] for i in free)
            if not free or pool <= excess:
                break
            for i in free:
                widths[i] -= excess * widths[i] / pool
        return widths

    def caption(self, text: str) -> Paragraph:
        return self.cell(text, "caption", Where(self.data.pack_file))

    def _wins(self, wins: str) -> str:
        arrow = self.icons.get("up", "▲") if wins == "high" else self.icons.get("down", "▼")
        return f"{arrow} {self.words['wins_high' if wins == 'high' else 'wins_low']}"

    # --- categories -----------------------------------------------------------------------------
    def categories(self, kind: Kind | None, where: Where) -> list[Flowable]:
        cats = [c for c in self.pack.categories if kind is None or kind.id in c.kinds]
        if not cats:
            return self._error(where, "table categories: the pack has no categories"
                               + (f" for kind {kind.id}" if kind else ""))
        common_mark = self.icons.get("common", "●")
        # no category says what it means (a new pack): an empty column reads as unfinished
        explained = any(c.meaning or c.tie_break for c in cats)
        rows = []
        for category in cats:
            at = self.pack_where("categories", self.pack.categories.index(category), category.key)
            single = len(category.values) == 1
            name = category.label + (self._unit(category.values[0], category.label)
                                     if single else "")
            name += f" {common_mark}" if category.common else ""
            levels = [v for v in category.values if v.type == "level"]
            scale = (f"{self._number(levels[0].min)}–{self._number(levels[0].max)} / (d)"
                     if levels else "")
            meaning = self.lines([(category.meaning, "cell"),
                                  (f"{self.words['tie_break']}: {category.tie_break}"
                                   if category.tie_break else "", "cell-small")], at)
            rows.append([self.lines([(name, "cell-strong"), (scale, "cell-small")], at),
                         *([meaning] if explained else []), self._values_cell(category, at)])
        header = [self.words["category"], *([self.words["meaning"]] if explained else []),
                  self.words["wins"].capitalize()]
        flow: list[Flowable] = [self.grid(header, rows, [3, 4, 3.6] if explained else [3, 3.6])]
        legend = [f"{self.icons.get('up', '▲')} {self.words['wins_high']}",
                  f"{self.icons.get('down', '▼')} {self.words['wins_low']}"]
        if any(c.common for c in cats):
            legend.insert(0, f"{common_mark} {self.words['common']}")
        return flow + [self.caption("   ·   ".join(legend))]

    def _values_cell(self, category: Category, at: Where) -> list[Paragraph]:
        single = len(category.values) == 1
        parts = []
        for value in category.values:
            label = "" if single else f"**{value.label}**{self._unit(value, value.label)} "
            parts.append((label + self._wins(value.wins), "cell"))
            if value.note:
                parts.append((value.note, "cell-small"))
        return self.lines(parts, at)

    def _unit(self, value, label: str) -> str:
        """' (kg)' after the label of a value whose category declares a unit: the cards print
        the unit after each number, the table after the name; nothing when the label names it
        already or the unit is only signs (the '.' of a rank)."""
        unit = value.unit
        return "" if not unit or named(unit, label) or attached(unit) else f" ({unit})"

    def _number(self, value) -> str:
        return number(value, self.pack.locale)

    def pack_where(self, key: str, index: int, subject: str) -> Where:
        raw = self.data.pack_raw
        mark = raw.mark
        if key in raw and index < len(raw[key]):
            mark = raw[key].item_marks[index]
        return Where(self.data.pack_file, mark.line, mark.col, subject, key)

    # --- levels, scoring ------------------------------------------------------------------------
    def levels(self, kind: Kind | None, where: Where) -> list[Flowable]:
        if not self.pack.levels:
            return self._error(where, "table levels: the pack defines no levels (pack.yaml "
                               "levels:)")
        rows = []
        for index, band in enumerate(self.pack.levels):
            at = self.pack_where("levels", index, str(band.level))
            rows.append([self.cell(self._number(band.level), "cell-strong", at),
                         self.cell(f"{self._number(band.min)}–{self._number(band.max)}", "cell",
                                   at),
                         self.cell(band.label, "cell", at)])
        return [self.grid([self.words["level"], self.words["detail"], self.words["label"]], rows,
                          [1.2, 1.6, 6], centred=(0, 1))]

    def scoring(self, kind: Kind | None, where: Where) -> list[Flowable]:
        if not self.pack.scoring:
            return self._error(where, "table scoring: the pack defines no scoring rows "
                               "(pack.yaml scoring:)")
        keys: list[str] = []
        for row in self.pack.scoring:
            keys += [k for k in row if k not in keys]
        rows = []
        for index, row in enumerate(self.pack.scoring):
            at = self.pack_where("scoring", index, "")
            rows.append([self.cell(row.get(k, ""), "cell-strong" if c == 0 else "cell", at)
                         for c, k in enumerate(keys)])
        weights = [min(60.0, max(8.0, sum(len(r.get(k, "")) for r in self.pack.scoring)
                                 / len(self.pack.scoring))) for k in keys]
        # a column is headed by the pack's label scoring_<key> (translated with the labels),
        # else by its key
        heads = [self.pack.labels.get(f"scoring_{k}") or k[:1].upper() + k[1:] for k in keys]
        return [self.grid(heads, rows, weights)]

    # --- cards ----------------------------------------------------------------------------------
    def cards(self, kind: Kind | None, where: Where) -> list[Flowable]:
        kind = kind or self.pack.kinds[0]
        cards = self._ordered(self._cards_of(kind.id))
        if not cards:
            return [] if self.chosen is not None else \
                self._error(where, f"table cards: the pack has no cards of kind {kind.id}")
        return [self._card_table(kind, cards, texts=False)]

    def card_grid(self, kind: Kind | None, where: Where) -> list[Flowable]:
        """The cards at a glance: one row per set, one column per group, IDs in the cells
        (a deck of ranks and suits on half a page instead of three)."""
        kind = kind or self.pack.kinds[0]
        cards = self._ordered(self._cards_of(kind.id))
        groups = [g for g in self.pack.groups
                  if any(g.id in ([lc.card.group] + list(lc.card.groups)) for lc in cards)]
        if (not cards or not groups) and self.chosen is not None:
            return []
        if not cards or not groups:
            return self._error(where, f"table card-grid needs cards of kind {kind.id} with "
                               "groups")
        sets: dict[str, list[LoadedCard]] = {}
        for lc in cards:
            sets.setdefault(lc.card.set, []).append(lc)
        at = Where(self.data.pack_file)
        rows = []
        for name, members in sets.items():
            row = [self.cell(name, "cell-strong", at)]
            for group in groups:
                ids = [lc.card.id for lc in members
                       if group.id in ([lc.card.group] + list(lc.card.groups))]
                row.append(self.cell(", ".join(ids), "cell", at))
            rows.append(row)
        header = [self.words["set"]] + [f"{g.symbol} {g.short or g.label}" for g in groups]
        return [self.grid(header, rows, [1.6] + [1.0] * len(groups),
                          centred=tuple(range(1, len(groups) + 1)))]

    def special_cards(self, kind: Kind | None, where: Where) -> list[Flowable]:
        if kind is None:
            return self._error(where, "table special-cards needs kind: one of "
                               + ", ".join(k.id for k in self.pack.kinds))
        cards = self._ordered(self._cards_of(kind.id))
        if not cards:
            return [] if self.chosen is not None else \
                self._error(where, f"table special-cards: the pack has no cards of kind "
                            f"{kind.id}")
        return [self._card_table(kind, cards, texts=bool(kind.texts))]

    def _ordered(self, cards: list[LoadedCard]) -> list[LoadedCard]:
        """Grouped by set (in order of first appearance), then by group (pack order)."""
        sets: dict[str, int] = {}
        for lc in cards:
            sets.setdefault(lc.card.set, len(sets))
        groups = {g.id: i for i, g in enumerate(self.pack.groups)}

        def key(item):
            position, lc = item
            group = lc.card.group or (lc.card.groups[0] if lc.card.groups else None)
            return (sets[lc.card.set], len(lc.card.groups) > 1, groups.get(group, len(groups)),
                    position)
        return [lc for _, lc in sorted(enumerate(cards), key=key)]

    def _card_table(self, kind: Kind, cards: list[LoadedCard], texts: bool) -> Table:
        """ID, name, title, group, the kind's fields (or its texts), points/penalty."""
        columns = self._card_columns(kind, cards, texts)
        rows, extra = [], []
        previous_set = None
        for r, lc in enumerate(cards, start=1):
            rows.append([self._card_cell(lc, name) for name, _, _ in columns])
            if previous_set is not None and lc.card.set != previous_set:
                extra.append(("LINEABOVE", (0, r), (-1, r), 0.9, ACCENT_SOFT))
            previous_set = lc.card.set
        centred = tuple(i for i, (name, _, _) in enumerate(columns)
                        if name in ("points", "penalty", "set"))
        return self.grid([h for _, h, _ in columns], rows, [w for _, _, w in columns], extra,
                         centred, unbroken={0: [lc.card.id for lc in cards]})

    def _card_columns(self, kind: Kind, cards: list[LoadedCard], texts: bool):
        """(name, header, width weight) of every column that has a value on some card."""
        w = self.words

        def has(attr):
            return any(getattr(lc.card, attr) not in ("", None, []) for lc in cards)

        fields = [f for f in kind.fields if any(lc.card.extra_fields.get(f) for lc in cards)]
        cols = [("id", w["id"], 0.9)]
        if has("name"):
            cols.append(("name", w["name"], 3.0 if not texts else 2.1))
        elif has("set"):  # cards without names: the set (rank, theme) says what they are
            cols.append(("set", w["set"], 1.2))
        if texts:
            cols += [(f"text:{t}", self.pack.labels.get(t, t[:1].upper() + t[1:]), 4.0)
                     for t in kind.texts]
        else:
            if has("title"):
                cols.append(("title", w["title"], 2.2))
            cols += [(f"field:{f}", column_header(kind.fields[f].label, f), 2.2) for f in fields]
            if has("group") or has("groups"):
                cols.append(("group", w["group"], 3.0))
        if has("points"):
            cols.append(("points", w["points"], 1.0))
        if has("penalty"):
            cols.append(("penalty", w["penalty"], 1.2))
        return cols

    def _card_cell(self, lc: LoadedCard, column: str):
        card = lc.card
        key = column.split(":", 1)[-1]
        mark = lc.mark("texts", key) if column.startswith("text:") else lc.mark(key)
        at = Where(lc.file, mark.line, mark.col, card.id, key)
        if column == "id":
            return self.cell(card.id, "cell-strong", at)
        if column == "name":
            return self.lines([(card.name, "cell"), (self._subtitle(lc), "cell-small")], at)
        if column.startswith("text:"):
            return self.cell(card.texts.get(key, ""), "cell", at)
        if column.startswith("field:"):
            return self.cell(str(card.extra_fields.get(key, "")), "cell", at)
        if column == "group":
            return self.cell(self._groups(lc), "cell", at)
        value = getattr(card, column)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.cell(self._number(value), "cell", at)
        return self.cell("" if value is None else minus_signs(str(value)), "cell", at)

    def _subtitle(self, lc: LoadedCard) -> str:
        """Under the name in a texts table: the title and fields that have no column there."""
        kind = self.data.kind(lc.kind)
        if not kind or not kind.texts:
            return ""
        parts = [lc.card.title] + [str(lc.card.extra_fields.get(f, "")) for f in kind.fields]
        return " · ".join(p for p in parts if p)

    def _groups(self, lc: LoadedCard) -> str:
        ids = [lc.card.group] if lc.card.group else list(lc.card.groups)
        groups = [g for g in (self.data.group(i) for i in ids) if g is not None]
        if len(groups) == 1:
            return f"{groups[0].symbol} {groups[0].label}"
        return " / ".join(f"{g.symbol} {g.short or g.label}" for g in groups)
