"""cardgen export: a pack's cards as spreadsheets (CSV, XLSX), one per kind, to edit and use as
the source.

Why: a designer who balances stats in a spreadsheet starts from the cards that exist. The
columns are named like the YAML fields (`stats.iq`, `texts.active`), so the file moved into the
pack's cards/ folder (in place of the YAML file) reads back as the same cards.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import DataOption, LanguageOption, complete_packs, data_dir, finish, use_edition

# Card keys in the order a designer reads them; stats, texts and declared fields follow.
_FIRST = ("id", "name", "title", "set", "group", "groups", "points", "penalty", "count",
          "image", "quote")


def export(pack: Annotated[str, typer.Argument(help="The pack id.", show_default=False,
                                              autocompletion=complete_packs)],
           csv_dir: Annotated[Optional[Path], typer.Option(
               "--csv", metavar="DIR", help="Folder to write <kind>.csv into (one file per "
               "card kind, numbered in deck order when there are several).",
               show_default=False)] = None,
           xlsx_dir: Annotated[Optional[Path], typer.Option(
               "--xlsx", metavar="DIR", help="Folder to write <kind>.xlsx into (the same, as "
               "workbooks).", show_default=False)] = None,
           po: Annotated[Optional[Path], typer.Option(
               "--po", metavar="FILE", help="Write the texts of the edition --language names "
               "as a PO file for a translator's tools (source, translation, fuzzy where the "
               "source changed, file:line); read it back with cardgen import.",
               show_default=False)] = None,
           language: LanguageOption = None,
           data: DataOption = None) -> None:
    """Write a pack's cards as spreadsheets (CSV, XLSX), or an edition's texts as a PO file.

    Put a spreadsheet into the pack's cards/ folder instead of the YAML: it is the source from
    then on. Give the PO file to a translator; `cardgen import` reads it back.

    Examples:

      cardgen export my-game --csv sheets/ --xlsx sheets/

      cardgen export quartett --language en --po quartett-en.po
    """
    if csv_dir is None and xlsx_dir is None and po is None:
        raise typer.BadParameter("give --csv DIR, --xlsx DIR or --po FILE", param_hint="--csv")
    if (po is None) != (language is None):
        raise typer.BadParameter("--po FILE and --language LANG go together (the edition "
                                 "whose texts the file holds)", param_hint="--po")
    use_edition(language)  # (checked)
    use_edition(None)  # the base edition is what is checked and exported
    from ..incremental.plan import select_packs
    from ..pipeline.chain import validated as check
    from ..diagnostics import Report
    report = Report()
    folders = select_packs(data_dir(data), [pack], report)
    loaded = check(folders[0], report) if folders else None
    if loaded is None or report.errors:
        finish(report, False)
        raise typer.Exit(1)
    from ..load.spreadsheet import sheet_names, workbook  # here: the CLI starts without them
    kinds = list(dict.fromkeys(lc.kind for lc in loaded.cards))  # in the order of the deck
    outputs = []
    if po is not None:
        outputs.append((po.parent, {po.name: _po_file(loaded, language, report)}))
    if csv_dir:
        names = sheet_names(kinds, ".csv")
        outputs.append((csv_dir, {names[k]: sheet(loaded, k).encode("utf-8") for k in kinds}))
    if xlsx_dir:
        names = sheet_names(kinds, ".xlsx")
        outputs.append((xlsx_dir, {names[k]: workbook(table(loaded, k)) for k in kinds}))
    from ..output import OutputError, write_all
    try:
        for folder, files in outputs:
            write_all(folder, files)
    except OutputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    for folder, files in outputs:
        for name in sorted(files):
            typer.echo(f"wrote {folder / name}")


def _po_file(loaded, language: str, report) -> bytes:
    """The edition's texts as a PO file; its own language (the base edition) has none."""
    if language == loaded.pack.language:
        raise typer.BadParameter(f"'{language}' is the pack's own language: its texts are the "
                                 "sources; name the language of a translation",
                                 param_hint="--language")
    from ..load.translations import po_catalog
    content = po_catalog(loaded.folder, language, loaded.pack.title, report)
    if report.errors:
        finish(report, False)
    return content


def sheet(data, kind_id: str) -> str:
    """One kind's cards as CSV text: a header row of field names, a row per card."""
    from ..load.spreadsheet import cell_text
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in table(data, kind_id):
        writer.writerow(["" if cell is None else cell_text(cell) for cell in row])
    return out.getvalue()


def table(data, kind_id: str) -> list[list]:
    """One kind's cards as rows of values: the field names, then a row per card (None where a
    card does not write a field)."""
    rows = [_row(lc.card) for lc in data.cards_of(kind_id)]
    columns = [key for key in _FIRST if any(key in row for row in rows)]
    columns += sorted({key for row in rows for key in row} - set(columns),
                      key=lambda key: _rank(data, kind_id, key))
    return [columns] + [[row.get(key) for key in columns] for row in rows]


def _row(card) -> dict[str, object]:
    """The card's written fields by column: nested ones as `stats.iq`."""
    out = {}
    for key, value in card.model_dump(exclude_unset=True).items():
        if isinstance(value, dict):
            out.update({f"{key}.{sub}": v for sub, v in value.items() if v is not None})
        elif value is not None:
            out[key] = value
    return out


def _rank(data, kind_id: str, key: str) -> tuple:
    """Declared fields, then stats in category order, then texts in the kind's order."""
    from ..validate.cards import sub_values
    kind = data.kind(kind_id)
    part, _, sub = key.partition(".")
    if part == "stats":
        stats = list(sub_values(data, kind_id))
        return (1, stats.index(sub) if sub in stats else len(stats), sub)
    if part == "texts":
        return (2, kind.texts.index(sub) if sub in kind.texts else len(kind.texts), sub)
    return (0, list(kind.fields).index(key) if key in kind.fields else len(kind.fields), key)
