"""cardgen check: validate packs (stats, references, composition) without writing anything."""

from __future__ import annotations

import typer

from .common import DataOption, PacksArgument, StrictOption, data_dir, finish


def check(packs: PacksArgument = None, data: DataOption = None,
          strict: StrictOption = False) -> None:
    """Check packs: every card, stat and rule; all problems at once.

    Examples:

      cardgen check                      # every pack

      cardgen check crazy-hospital --strict
    """
    from ..build import check as check_pack, select_packs
    from ..diagnostics import Report

    report = Report()
    for folder in select_packs(data_dir(data), packs or [], report):
        loaded = check_pack(folder, report)
        if loaded is not None:
            counts = ", ".join(f"{sum(c.card.count for c in loaded.cards_of(k.id))} {k.id}"
                               for k in loaded.pack.kinds)
            typer.echo(f"{loaded.pack.id}: {counts}")
    finish(report, strict)
    typer.echo("ok" if not report.items else report.summary())
