"""Cards kept in a spreadsheet: cards/*.csv and cards/*.xlsx, one card per row.

Why: designers balance stats in a spreadsheet (Squib and nanDECK read CSV and Excel). The
first row names the columns like the YAML fields (`id`, `name`, `stats.iq`, `texts.active`);
each row becomes the same marked mapping a YAML card is, its marks being row and column, so
every diagnostic of the pipeline names `file:row:column` without knowing where a card came from.

The card kind is a `kind` column, else the file's name (cards/explorer.csv holds explorers;
a number before it only orders the files: cards/2-ER.csv holds ER cards).
Of a workbook the first sheet is read; the others are free for the designer's own sums.
`cardgen export` writes both formats (cell_text, workbook) so that they read back as the same
cards.
"""

from __future__ import annotations

import csv
import io
import re
from functools import lru_cache
from pathlib import Path
from typing import get_args, get_origin

from ..diagnostics import Report, display_path
from ..model.marks import Mark, MarkedDict, MarkedList
from .source import composed

SUFFIXES = (".csv", ".xlsx")
_NUMBER_PARTS = {"stats"}
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+[.,]\d*|[.,]\d+)$")
_LEVEL = re.compile(r"^\[?\s*([-+]?\d+)\s*[,;/ ]\s*([-+]?\d+)\s*\]?$")


def read_table(path: Path, report: Report) -> list[list[object]] | None:
    """The sheet's rows of cell values (row 1 = the column names), or None with a diagnostic."""
    shown = display_path(path)
    try:
        if path.suffix == ".xlsx":
            rows = _xlsx_rows(path)
            uncomputed = _uncomputed_formulas(path, rows)
            for row, col, formula in uncomputed:
                report.error(shown, row, col, "", f"the formula {formula} has no value saved "
                             "in the workbook (the program that wrote it did not compute it); "
                             "open and save the workbook in Excel or LibreOffice, or write the "
                             "value")
            return None if uncomputed else rows
        raw = path.read_bytes()
        text = composed(raw.decode("utf-8-sig"))
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
    # strict: a quote never closed (it would swallow every later row into one cell) or text
    # after a closing quote is an error, not a quietly different table
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    rows, read_to = [], 0
    try:
        for row in reader:
            rows.append(row)
            read_to = reader.line_num
    except csv.Error as exc:  # said at the line where the row that fails starts
        report.error(shown, read_to + 1, 1, "", "a quote \" opened in this row is never "
                     "closed; close it after the cell's text" if "end of data" in str(exc) else
                     f"the row cannot be read ({exc}): a quoted cell ends at its closing "
                     f"quote, then comes {delimiter!r} or the end of the line")
        return None
    return rows


def _uncomputed_formulas(path: Path, rows: list[list]) -> list[tuple[int, int, str]]:
    """(row, column, formula) of each formula cell whose value the file does not hold: read as
    a blank, it would silently give the card its default. Looked for only in a workbook whose
    sheet XML has a formula at all (a second read of the sheet)."""
    import zipfile
    with zipfile.ZipFile(path) as book:
        sheets = [book.read(name) for name in book.namelist()
                  if name.startswith("xl/worksheets/")]
    if not any(b"<f>" in xml or b"<f " in xml for xml in sheets):
        return []
    formulas = _xlsx_rows(path, values=False)
    return [(r, c, cell) for r, row in enumerate(formulas, start=1)
            for c, cell in enumerate(row, start=1)
            if isinstance(cell, str) and cell.startswith("=") and
            (r > len(rows) or c > len(rows[r - 1]) or rows[r - 1][c - 1] is None)]


def _xlsx_rows(path: Path, values: bool = True) -> list[list[object]]:
    import openpyxl
    book = openpyxl.load_workbook(path, read_only=True, data_only=values)
    try:
        sheet = book.worksheets[0]
        return [[composed(cell) if isinstance(cell, str) else cell for cell in row]
                for row in sheet.iter_rows(values_only=True)]
    finally:
        book.close()


def cell_text(value) -> str:
    """A card value as the text of a cell: a level as [level, detail], a list joined by commas
    (what _value reads back)."""
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            return f"[{value[0]}, {value[1]}]"  # a level: [level, detail]
        return ", ".join(str(v) for v in value)
    return str(value)


FIXED_TIME = (2000, 1, 1, 0, 0, 0)  # the date reportlab's invariant mode gives the PDFs


def workbook(rows: list[list]) -> bytes:
    """Rows of card values as .xlsx bytes, the same bytes for the same rows.

    Numbers stay numbers, except a whole float (24.0), which is written as its text so that it
    reads back as a float, not as the int 24; everything else is a text cell, also text that
    starts with '=' (never a formula). openpyxl stamps the workbook and every zip entry with the
    time of saving: both get FIXED_TIME."""
    import datetime
    import zipfile
    import openpyxl
    from openpyxl.writer.excel import ExcelWriter
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "cards"
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            if value is None:
                continue
            number = isinstance(value, (int, float)) and not isinstance(value, bool) and \
                not (isinstance(value, float) and value.is_integer())
            cell = sheet.cell(r, c, value if number else cell_text(value))
            if not number:
                cell.data_type = "s"
    book.properties.created = book.properties.modified = datetime.datetime(*FIXED_TIME)
    raw = io.BytesIO()
    ExcelWriter(book, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED)).save()
    out = io.BytesIO()
    with zipfile.ZipFile(raw) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for entry in src.infolist():
            dst.writestr(zipfile.ZipInfo(entry.filename, FIXED_TIME), src.read(entry),
                         compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


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
    unnamed_said: set[int] = set()
    for number, row in rows:
        card, kind, kind_mark = _card(row, header, shown, number, report, unnamed_said)
        if kind is None:
            kind, kind_mark = kind_of_file(path.stem, kinds), Mark(shown, 1, 1)
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


def kind_of_file(stem: str, kinds: list[str] | None) -> str:
    """The kind a sheet's name says: the name, or the name after a number that orders the
    files ("2-ER.csv" holds ER cards, sorted after "1-character.csv", as `cardgen export`
    writes them)."""
    bare = re.sub(r"^\d+-", "", stem)
    return bare if kinds is not None and stem not in kinds and bare in kinds else stem


def sheet_names(kinds: list[str], suffix: str) -> dict[str, str]:
    """kind → file name for one sheet per kind: the kind, numbered when there are several, so
    that the files sort (and load) in the order of the kinds' cards."""
    if len(kinds) == 1:
        return {kinds[0]: kinds[0] + suffix}
    width = len(str(len(kinds)))
    return {kind: f"{n:0{width}d}-{kind}{suffix}" for n, kind in enumerate(kinds, start=1)}


def _known_columns(header: list[str], known: set[str], shown: str, report: Report
                   ) -> list[str | None]:
    """The header with unknown columns as None, each reported once at its name."""
    from ..diagnostics import did_you_mean
    out = []
    for col, name in enumerate(header, start=1):
        free = name.partition(".")[0] == "texts" or name == "kind"
        if name and not free and name not in known:
            report.error(shown, 1, col, "", f"unknown column '{name}'"
                         f"{did_you_mean(name, sorted(known))}")
            name = None  # said once here; its cells are left out
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


def _card(row: list, header: list, shown: str, number: int, report: Report, said: set):
    """(card mapping, kind or None, mark of the kind cell) of one row. `said`: the unnamed
    columns whose values were reported (once per column)."""
    card = _mapping(Mark(shown, number, 1))
    kind, kind_mark = None, None
    for col, value in enumerate(row, start=1):
        past = col > len(header)  # the row's cells are shifted: what lands where is luck
        unnamed = past or header[col - 1] == ""  # (None: an unknown column, said at its name)
        if unnamed and not _blank(value) and (past or col not in said):
            said.add(col)
            shifted = "a separator or a quote is missing or extra in this row; else " if \
                shown.endswith(".csv") and past else ""
            report.error(shown, number, col, "", f"a value in column {col}, which the first "
                         f"row does not name ({value!r}); {shifted}name the column in the "
                         "first row or clear the cell")
            if past:
                break
    for col, (name, value) in enumerate(zip(header, row), start=1):
        mark = Mark(shown, number, col)
        if not name or _blank(value):
            if name:
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


@lru_cache(maxsize=None)
def _card_fields(wanted: type) -> frozenset[str]:
    """The card fields that hold whole numbers (int: points, count, age …) or lists (list:
    groups), read from the card model, so that a field added there is read right."""
    from ..model.card import Card

    def holds(annotation) -> bool:
        if annotation is wanted or (wanted is list and get_origin(annotation) is list):
            return True
        return get_origin(annotation) is not list and any(holds(a) for a in get_args(annotation))
    return frozenset(name for name, info in Card.model_fields.items() if holds(info.annotation))


def _value(field: str, value):
    """A cell as the YAML value it stands for: numbers where the field holds numbers, text
    everywhere else (a set called 10 stays the text '10')."""
    if field in _NUMBER_PARTS or field in _card_fields(int):
        return _number(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if field in _card_fields(list):
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
