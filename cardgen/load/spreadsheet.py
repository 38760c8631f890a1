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
from .source import MAX_FILE_BYTES, MAX_NUMBER, composed, control_character, read_bounded

SUFFIXES = (".csv", ".xlsx")

# What one sheet may cost (README, "Limits"), checked before it is read: a CSV by its size and
# rows, a workbook (a zip) by its size, what it unpacks to and the rows and cells its first
# sheet names, before openpyxl reads a cell (a 30 kB workbook can name a 17 billion cell
# sheet, and a cell far down and right makes openpyxl fill every cell before it).
MAX_SHEET_BYTES = MAX_FILE_BYTES  # the file as it lies on the disk
MAX_ROWS = 5_000  # rows of a sheet: the column names and a card per row
MAX_COLUMNS = 200
MAX_CELLS = 200_000  # the rows times the columns of the sheet's grid
MAX_UNPACKED = 50_000_000  # all the parts of a workbook, unpacked
MAX_PARTS = 1_000  # files inside a workbook
_NUMBER_PARTS = {"stats"}
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+[.,]\d*|[.,]\d+)$")
_LEVEL = re.compile(r"^\[?\s*([-+]?\d+)\s*[,;/ ]\s*([-+]?\d+)\s*\]?$")


class SheetTooLarge(Exception):
    """A sheet beyond a bound of what it may cost: (row, column, message)."""

    def __init__(self, row: int, col: int, message: str):
        super().__init__(message)
        self.row, self.col, self.message = row, col, message


def read_table(path: Path, report: Report) -> list[list[object]] | None:
    """The sheet's rows of cell values (row 1 = the column names), or None with a diagnostic."""
    shown = display_path(path)
    try:
        if path.suffix == ".xlsx":
            columns = check_workbook(path)
            rows = _xlsx_rows(path, columns=columns)
            uncomputed = _uncomputed_formulas(path, rows, columns)
            for row, col, formula in uncomputed:
                report.error(shown, row, col, "", f"the formula {formula} has no value saved "
                             "in the workbook (the program that wrote it did not compute it); "
                             "open and save the workbook in Excel or LibreOffice, or write the "
                             "value")
            return None if uncomputed or _controls(rows, shown, report) else rows
        raw = read_bounded(path, MAX_SHEET_BYTES, lambda message: SheetTooLarge(0, 0, message))
        text = composed(raw.decode("utf-8-sig"))
    except SheetTooLarge as exc:
        report.error(shown, exc.row, exc.col, "", exc.message)
        return None
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
    rows, read_to, widest = [], 0, 0
    try:
        for row in reader:
            rows.append(row)
            widest = max(widest, len(row))
            _within(len(rows), widest, read_to + 1)
            read_to = reader.line_num
    except SheetTooLarge as exc:
        report.error(shown, exc.row, exc.col, "", exc.message)
        return None
    except csv.Error as exc:  # said at the line where the row that fails starts
        report.error(shown, read_to + 1, 1, "", "a quote \" opened in this row is never "
                     "closed; close it after the cell's text" if "end of data" in str(exc) else
                     f"the row cannot be read ({exc}): a quoted cell ends at its closing "
                     f"quote, then comes {delimiter!r} or the end of the line")
        return None
    return None if _controls(rows, shown, report) else rows


def _controls(rows: list[list[object]], shown: str, report: Report) -> bool:
    """Whether a cell holds a character no card can print (a control character pasted from
    another program, a hidden text-direction override); each is said at its cell, as a YAML
    file with one is refused at its line."""
    found = False
    for number, row in enumerate(rows, start=1):
        for col, value in enumerate(row, start=1):
            code = control_character(value) if isinstance(value, str) else None
            if code:
                report.error(shown, number, col, "", f"the cell holds the control character "
                             f"{code}, which no card can print; remove it")
                found = True
    return found


def _within(rows: int, columns: int, line: int) -> None:
    """SheetTooLarge when a sheet of `rows` rows and `columns` columns is beyond the bounds;
    said at `line` (the row of the file that crosses them)."""
    if rows > MAX_ROWS:
        raise SheetTooLarge(line, 1, f"more than {MAX_ROWS} rows; a sheet holds at most "
                            f"{MAX_ROWS - 1} cards (split them into several files)")
    if columns > MAX_COLUMNS:
        raise SheetTooLarge(line, MAX_COLUMNS + 1, f"more than {MAX_COLUMNS} columns; clear "
                            "the cells right of the last column of cards")
    if rows * columns > MAX_CELLS:
        raise SheetTooLarge(line, 1, f"more than {MAX_CELLS} cells ({rows} rows of {columns} "
                            "columns); split the cards into several files")


def check_workbook(path: Path) -> int:
    """Refuse (SheetTooLarge) a workbook beyond the bounds, reading no more of it than the
    bounds allow: its file size, its parts' count and unpacked size (counted as they unpack,
    not as the zip claims), no DOCTYPE (an XML entity can expand a few bytes into gigabytes),
    and the rows, columns and cells the first sheet's cells name (its last row and column:
    openpyxl fills every cell up to them). Returns the sheet's last column, which the rows are
    then read up to (not up to the column the sheet's `dimension` claims: a claim of XFD would
    make every row 16 384 cells long)."""
    import zipfile
    size = path.stat().st_size
    if size > MAX_SHEET_BYTES:
        raise SheetTooLarge(0, 0, f"file is {size} bytes; the limit is {MAX_SHEET_BYTES}")
    with zipfile.ZipFile(path) as book:
        parts = book.infolist()
        if len(parts) > MAX_PARTS:
            raise SheetTooLarge(0, 0, f"the workbook holds {len(parts)} parts; the limit is "
                                f"{MAX_PARTS}")
        budget = [MAX_UNPACKED]
        sheet = _first_sheet(book)
        columns = 0
        for part in parts:
            if part.filename == sheet:
                columns = _sheet_extent(book, part, budget)
            elif part.filename.endswith((".xml", ".rels", ".vml")):
                _unpack(book, part, budget, lambda chunk, first: None)
            elif part.file_size > budget[0]:
                raise _unpacks_too_large()
            else:
                budget[0] -= part.file_size  # (a picture in the workbook: not read)
    return columns


def _unpacks_too_large() -> SheetTooLarge:
    return SheetTooLarge(0, 0, f"the workbook unpacks to more than {MAX_UNPACKED} bytes; "
                         "save it without pictures, or its cards as a CSV file")


def _unpack(book, part, budget: list[int], take) -> None:
    """Feed `take(chunk, first)` the part's bytes as they unpack, within the budget; refuse
    a DOCTYPE at its start."""
    with book.open(part) as stream:
        first = True
        while True:
            chunk = stream.read(1 << 16)
            if not chunk:
                return
            budget[0] -= len(chunk)
            if budget[0] < 0:
                raise _unpacks_too_large()
            if first and (b"<!DOCTYPE" in chunk or b"<!ENTITY" in chunk):
                raise SheetTooLarge(0, 0, f"the workbook's {part.filename} declares XML "
                                    "entities (a DOCTYPE), which no spreadsheet program "
                                    "writes; save the workbook again")
            take(chunk, first)
            first = False


_ELEMENT = re.compile(rb"<(?:\w+:)?(row|c)\b([^>]*?)/?>")
_MERGED = re.compile(rb"<(?:\w+:)?mergeCell\b[^>]*?\bref=\"([A-Z]+)([0-9]+):([A-Z]+[0-9]+)\"")
_REF = re.compile(rb"\br=\"([A-Z]*)([0-9]*)\"")


def _sheet_extent(book, part, budget: list[int]) -> int:
    """Count the rows and cells of the sheet's XML as it unpacks; SheetTooLarge at the row
    where it crosses a bound. Returns its last column."""
    state = {"row": 0, "rows": 0, "col": 0, "columns": 0, "tail": b""}

    def take(chunk: bytes, _first: bool) -> None:
        data = state["tail"] + chunk
        cut = data.rfind(b"<")  # an element cut by the chunk's end is read with the next one
        data, state["tail"] = (data[:cut], data[cut:]) if cut >= 0 else (data, b"")
        if len(state["tail"]) > 1 << 16:
            raise SheetTooLarge(0, 0, "the sheet's XML holds an element longer than 64 kB")
        merged = _MERGED.search(data)
        if merged:  # only the first cell of a merged range keeps its value when it is read
            left, row, right = (group.decode() for group in merged.groups())
            raise SheetTooLarge(int(row), _column(merged.group(1)), f"cells {left}{row}:"
                                f"{right} are merged, so every cell but the first reads as "
                                "empty; unmerge them and write each cell's value")
        for match in _ELEMENT.finditer(data):
            ref = _REF.search(match.group(2))
            if match.group(1) == b"row":
                number = int(ref.group(2)) if ref and ref.group(2) else state["row"] + 1
                state["row"], state["col"] = max(number, state["row"] + 1), 0
                _count(state, state["row"], 0)
            else:
                column = _column(ref.group(1)) if ref and ref.group(1) else state["col"] + 1
                state["col"] = max(column, state["col"] + 1)
                _count(state, state["row"], state["col"])
    _unpack(book, part, budget, take)
    return state["columns"]


def _count(state: dict, row: int, col: int) -> None:
    state["rows"], state["columns"] = max(state["rows"], row), max(state["columns"], col)
    if len(str(state["rows"])) > 9 or len(str(state["columns"])) > 9:
        raise SheetTooLarge(0, 0, "the sheet names a cell beyond any spreadsheet's last row "
                            "or column")
    _within(state["rows"], state["columns"], max(row, 1))


def _column(letters: bytes) -> int:
    number = 0
    for letter in letters[:9]:
        number = number * 26 + letter - 64
    return number


def _first_sheet(book) -> str | None:
    """The part name of the sheet openpyxl reads first (xl/workbook.xml's first sheet, through
    its relationship); None when the workbook does not say (openpyxl then fails itself)."""
    import posixpath
    from xml.etree import ElementTree
    try:
        workbook = ElementTree.fromstring(_small_part(book, "xl/workbook.xml"))
        relations = ElementTree.fromstring(_small_part(book, "xl/_rels/workbook.xml.rels"))
    except (KeyError, ElementTree.ParseError, SheetTooLarge):
        return None
    sheet = next((e for e in workbook.iter() if e.tag.endswith("}sheet")), None)
    if sheet is None:
        return None
    wanted = next((v for k, v in sheet.attrib.items() if k.endswith("}id")), None)
    for relation in relations:
        if relation.get("Id") == wanted and relation.get("Target"):
            target = relation.get("Target")
            return target.lstrip("/") if target.startswith("/") else \
                posixpath.normpath(posixpath.join("xl", target))
    return None


def _small_part(book, name: str) -> bytes:
    """A part that is small in any workbook (the list of sheets): read whole, up to 1 MB,
    never with a DOCTYPE."""
    with book.open(name) as stream:
        data = stream.read(1 << 20)
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data or len(data) >= 1 << 20:
        raise SheetTooLarge(0, 0, f"{name} is not as a spreadsheet program writes it")
    return data


def _uncomputed_formulas(path: Path, rows: list[list], columns: int | None = None
                         ) -> list[tuple[int, int, str]]:
    """(row, column, formula) of each formula cell whose value the file does not hold: read as
    a blank, it would silently give the card its default. Looked for only in a workbook whose
    sheet XML has a formula at all (a second read of the sheet; its size checked before)."""
    import zipfile
    with zipfile.ZipFile(path) as book:
        formula = False
        for name in book.namelist():
            if name.startswith("xl/worksheets/"):
                with book.open(name) as stream:
                    formula = formula or _holds_formula(stream)
    if not formula:
        return []
    formulas = _xlsx_rows(path, values=False, columns=columns)
    return [(r, c, cell) for r, row in enumerate(formulas, start=1)
            for c, cell in enumerate(row, start=1)
            if isinstance(cell, str) and cell.startswith("=") and
            (r > len(rows) or c > len(rows[r - 1]) or rows[r - 1][c - 1] is None)]


def _holds_formula(stream) -> bool:
    """Whether a sheet's XML has a formula element, read in pieces (<f> or <f ...>)."""
    tail = b""
    while True:
        chunk = stream.read(1 << 16)
        if not chunk:
            return False
        if b"<f>" in tail + chunk or b"<f " in tail + chunk:
            return True
        tail = chunk[-3:]


def _xlsx_rows(path: Path, values: bool = True, columns: int | None = None
               ) -> list[list[object]]:
    import openpyxl
    book = openpyxl.load_workbook(path, read_only=True, data_only=values)
    try:
        sheet = book.worksheets[0]
        # as many columns as the sheet's cells use (check_workbook counted them): not as many
        # as its dimension claims
        return [[composed(cell) if isinstance(cell, str) else cell for cell in row]
                for row in sheet.iter_rows(values_only=True, max_col=columns or None)]
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


def one_card_file(groups: list, shown: str) -> MarkedDict | None:
    """The cards of card_groups' kinds as one card file, {cards: [every card]}, kinds in the
    order they first appear: what an edition's overlay of the sheet translates (by card ID,
    whatever kind a row is). None for a sheet without cards."""
    if not groups:
        return None
    whole = MarkedDict(cards=MarkedList())
    whole.mark = whole["cards"].mark = Mark(shown, 1, 1)
    whole.key_marks, whole.value_marks = {"cards": whole.mark}, {"cards": whole.mark}
    whole["cards"].item_marks = []
    for _, raw in groups:
        whole["cards"].extend(raw["cards"])
        whole["cards"].item_marks.extend(raw["cards"].item_marks)
    return whole


def regrouped(groups: list, cards: list) -> list:
    """card_groups' [(kind, raw card file)] with its cards replaced, in order, by `cards`
    (one_card_file's cards after an overlay was merged over them)."""
    out, at = [], 0
    for kind, raw in groups:
        count = len(raw["cards"])
        new = _file(kind, raw.value_marks["kind"])
        new["cards"].extend(cards[at:at + count])
        new["cards"].item_marks.extend(raw["cards"].item_marks)
        out.append((kind, new))
        at += count
    return out


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
    too_large = []  # (mark, field, the cell as text) of numbers beyond MAX_NUMBER
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
            try:
                target[name] = _value(part if key else name, value)
            except _TooLarge as exc:
                too_large.append((mark, name, exc.text))
                target[name] = exc.text  # the card model refuses it: said once, here
            target.key_marks[name] = target.value_marks[name] = mark
    subject = card.get("id") if isinstance(card.get("id"), str) else ""
    for mark, name, text in too_large:
        report.error(shown, mark.line, mark.col, subject, f"{name}: {text} is too large a "
                     f"number (the largest cardgen reads is {MAX_NUMBER:_})".replace("_", " "))
    card.said = {mark for mark, _, _ in too_large}  # (load.pack leaves the model's line out)
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


class _TooLarge(Exception):
    """A cell's number beyond MAX_NUMBER (`text`: the cell, shortened, as the user wrote it)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


def _number(value):
    """A number or a [level, detail] pair; anything else stays text, for the checks to name.
    A number beyond MAX_NUMBER (an Excel 1E+308, a CSV cell of 5000 digits) is _TooLarge:
    never converted (Python refuses int() of more than 4300 digits), said at its cell."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value != value or abs(value) > MAX_NUMBER:  # (NaN: as large as it is wrong)
            raise _TooLarge(_short_number(str(value)))
        return int(value) if isinstance(value, float) and value.is_integer() else value
    text = str(value).strip()
    if _INT.match(text):
        return _bounded(text, int)
    if _FLOAT.match(text):
        return _bounded(text.replace(",", "."), float)
    level = _LEVEL.match(text)
    if level:
        try:
            return [_bounded(level.group(1), int), _bounded(level.group(2), int)]
        except _TooLarge:
            raise _TooLarge(_short_number(text)) from None  # the cell as written
    return text


def _bounded(text: str, kind):
    """int(text) or float(text) when its whole part has at most 16 digits and it is not
    above MAX_NUMBER; else _TooLarge."""
    whole = text.lstrip("+-").split(".")[0].lstrip("0")
    if len(whole) > 16 or abs(kind(text)) > MAX_NUMBER:
        raise _TooLarge(_short_number(text))
    return kind(text)


def _short_number(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:12]}…{text[-4:]} ({len(text)} characters)"
