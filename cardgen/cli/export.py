"""cardgen export: a pack's cards as spreadsheets, one per kind, to edit and use as the source.

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

from .common import DataOption, complete_packs, data_dir, finish

# Card keys in the order a designer reads them; stats, texts and declared fields follow.
_FIRST = ("id", "name", "title", "set", "group", "groups", "points", "penalty", "count",
          "image", "quote")


def export(pack: Annotated[str, typer.Argument(help="The pack id.", show_default=False,
                                              autocompletion=complete_packs)],
           csv_dir: Annotated[Path, typer.Option(
               "--csv", metavar="DIR", help="Folder to write <kind>.csv into (one file per "
               "card kind).", show_default=False)],
           data: DataOption = None) -> None:
    """Write a pack's cards as CSV spreadsheets, one per kind, columns named like the fields.

    Move a file into the pack's cards/ folder in place of the YAML file and it is the source
    from then on (.xlsx saved from it works too).

    Example: cardgen export my-game --csv sheets/
    """
    from ..build import check, select_packs
    from ..diagnostics import Report
    report = Report()
    folders = select_packs(data_dir(data), [pack], report)
    loaded = check(folders[0], report) if folders else None
    if loaded is None or report.errors:
        finish(report, False)
        raise typer.Exit(1)
    files = {f"{kind.id}.csv": sheet(loaded, kind.id).encode("utf-8")
             for kind in loaded.pack.kinds if loaded.cards_of(kind.id)}
    from ..output import OutputError, write_all
    try:
        write_all(csv_dir, files)
    except OutputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    for name in sorted(files):
        typer.echo(f"wrote {csv_dir / name}")


def sheet(data, kind_id: str) -> str:
    """One kind's cards as CSV text: a header row of field names, a row per card."""
    rows = [_row(lc.card) for lc in data.cards_of(kind_id)]
    columns = [key for key in _FIRST if any(key in row for row in rows)]
    columns += sorted({key for row in rows for key in row} - set(columns),
                      key=lambda key: _rank(data, kind_id, key))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row.get(key, "") for key in columns])
    return out.getvalue()


def _row(card) -> dict[str, str]:
    """The card's written fields as cells: nested ones as `stats.iq`, lists joined."""
    out = {}
    for key, value in card.model_dump(exclude_unset=True).items():
        if isinstance(value, dict):
            out.update({f"{key}.{sub}": _cell(v) for sub, v in value.items()})
        elif value is not None:
            out[key] = _cell(value)
    return out


def _cell(value) -> str:
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            return f"[{value[0]}, {value[1]}]"  # a level: [level, detail]
        return ", ".join(str(v) for v in value)
    return str(value)


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
