"""Cards kept in a spreadsheet: cards/*.csv and cards/*.xlsx, one card per row.

Why: designers balance stats in a spreadsheet (Squib and nanDECK read CSV and Excel). The
first row names the columns like the YAML fields (`id`, `name`, `stats.iq`, `texts.active`);
each row becomes the same marked mapping a YAML card is, its marks being row and column, so
every diagnostic of the pipeline names `file:row:column` without knowing where a card came from.

The card kind is a `kind` column, else the file's name (cards/explorer.csv holds explorers).
Of a workbook the first sheet is read; the others are free for the designer's own sums.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from .diagnostics import Report, display_path
from .source import Mark, MarkedDict, MarkedList

SUFFIXES = (".csv", ".xlsx")
_INT_FIELDS = {"points", "penalty", "count"}
_LIST_FIELDS = {"groups"}
_NUMBER_PARTS = {"stats"}
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+[.,]\d*|[.,]\d+)$")
_LEVEL = re.compile(r"^\[?\s*([-+]?\d+)\s*[,;/ ]\s*([-+]?\d+)\s*\]?$")


def read_table(path: Path, report: Report) -> list[list[object]] | None:
    """The sheet's rows of cell values (row 1 = the column names), or None with a diagnostic."""
    shown = display_path(path)
    try:
        if path.suffix == ".xlsx":
            return _xlsx_rows(path)
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        report.error(shown, before.count(b"\n") + 1, exc.start - before.rfind(b"\n"), "",
                     "not UTF-8 text; save the sheet as 'CSV UTF-8'")
        return None
    except OSError as exc:
        report.error(shown, 0, 0, "", f"cannot read the file: {exc.strerror}")
        return None
    except Exception as exc:  # openpyxl raises many kinds on a damaged workbook
        report.error(shown, 0, 0, "", f"not a readable .xlsx workbook ({type(exc).__name__})")
        return None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)  # Excel writes ';' where ',' is the decimal mark
    return [row for row in csv.reader(io.StringIO(text), delimiter=delimiter)]


def _xlsx_rows(path: Path) -> list[list[object]]:
    import openpyxl
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        return [list(row) for row in sheet.iter_rows(values_only=True)]
    finally:
        book.close()


def card_groups(path: Path, columns: dict[str, set[str]] | None, report: Report):
    """[(kind, raw card file)] of one spreadsheet: a MarkedDict {kind, cards} per kind, in the
    order the kinds first appear, as a YAML card file would be.

    `columns`: the column names each kind of the pack takes (None when pack.yaml is broken:
    then every column and kind is taken as written). An unknown column is one error at its
    name, not one per row.
    """
    rows = read_table(path, report)
    if rows is None:
        return []
    shown = display_path(path)
    header = _header(rows[0] if rows else [], shown, report)
    if header is None:
        return []
    kinds = list(columns) if columns is not None else None
    if columns is not None:
        header = _known_columns(header, set().union(*columns.values()), shown, report)
    groups: dict[str, MarkedDict] = {}
    rows = [(number, row) for number, row in enumerate(rows[1:], start=2)
            if not all(_blank(v) for v in row)]
    if not rows:
        report.error(shown, 1, 1, "", "no cards: the first row names the columns (id, name, "
                     "stats.…), every further row is a card")
    for number, row in rows:
        card, kind, kind_mark = _card(row, header, shown, number)
        if kind is None:
            kind, kind_mark = path.stem, Mark(shown, 1, 1)
            if kinds is not None and kind not in kinds:
                report.error(shown, number, 1, "", f"no kind: name the file after a kind "
                             f"({', '.join(k + path.suffix for k in kinds)}) or add a 'kind' "
                             "column")
                continue
        if kind not in groups:
            groups[kind] = _file(kind, kind_mark)
        groups[kind]["cards"].append(card)
        groups[kind]["cards"].item_marks.append(card.mark)
    return list(groups.items())


def _known_columns(header: list[str], known: set[str], shown: str, report: Report) -> list[str]:
    """The header with unknown columns blanked out, each reported once at its name."""
    from .validate.errors import did_you_mean
    out = []
    for col, name in enumerate(header, start=1):
        free = name.partition(".")[0] == "texts" or name == "kind"
        if name and not free and name not in known:
            report.error(shown, 1, col, "", f"unknown column '{name}'"
                         f"{did_you_mean(name, sorted(known))}")
            name = ""
        out.append(name)
    return out


def _header(cells: list, shown: str, report: Report) -> list[str] | None:
    """Column names; an unnamed or repeated column is an error at its cell."""
    names = ["" if _blank(c) else str(c).strip() for c in cells]
    ok = True
    for col, name in enumerate(names, start=1):
        if name and name in names[:col - 1]:
            report.error(shown, 1, col, "", f"column '{name}' appears twice")
            ok = False
    if "id" not in names:
        report.error(shown, 1, 1, "", "no 'id' column: the first row names the columns, "
                     "like the YAML fields (id, name, stats.iq, texts.active)")
        ok = False
    return names if ok else None


def _file(kind: str, mark: Mark) -> MarkedDict:
    raw = MarkedDict(kind=kind, cards=MarkedList())
    raw.mark = Mark(mark.file, 1, 1)
    raw.key_marks = {"kind": mark, "cards": raw.mark}
    raw.value_marks = {"kind": mark, "cards": raw.mark}
    raw["cards"].mark, raw["cards"].item_marks = raw.mark, []
    return raw


def _card(row: list, header: list[str], shown: str, number: int):
    """(card mapping, kind or None, mark of the kind cell) of one row."""
    card = _mapping(Mark(shown, number, 1))
    kind, kind_mark = None, None
    for col, (name, value) in enumerate(zip(header, row), start=1):
        mark = Mark(shown, number, col)
        if not name or _blank(value):
            _blank_cell(card, name, mark)
            continue
        if name == "kind":
            kind, kind_mark = str(value).strip(), mark
            continue
        part, _, key = name.partition(".")
        target = card
        if key:
            if part not in card:
                card[part] = _mapping(mark)
                card.key_marks[part] = card.value_marks[part] = mark
            target, name = card[part], key
        if isinstance(target, MarkedDict):
            target[name] = _value(part if key else name, value)
            target.key_marks[name] = target.value_marks[name] = mark
    return card, kind, kind_mark


def _blank_cell(card: MarkedDict, name: str, mark: Mark) -> None:
    """Remember where an empty stat cell is, so that 'missing' points at it (the key stays
    absent: an empty cell is a value not written)."""
    part, _, key = name.partition(".")
    if key and isinstance(card.get(part), MarkedDict):
        card[part].key_marks.setdefault(key, mark)


def _mapping(mark: Mark) -> MarkedDict:
    out = MarkedDict()
    out.mark, out.key_marks, out.value_marks = mark, {}, {}
    return out


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _value(field: str, value):
    """A cell as the YAML value it stands for: numbers where the field holds numbers, text
    everywhere else (a set called 10 stays the text '10')."""
    if field in _NUMBER_PARTS or field in _INT_FIELDS:
        return _number(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if field in _LIST_FIELDS:
        return [part.strip() for part in text.split(",") if part.strip()]
    return text


def _number(value):
    """A number or a [level, detail] pair; anything else stays text, for the checks to name."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value) if isinstance(value, float) and value.is_integer() else value
    text = str(value).strip()
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text.replace(",", "."))
    level = _LEVEL.match(text)
    if level:
        return [int(level.group(1)), int(level.group(2))]
    return text
