"""cardgen balance: how a deck plays: measures, simulated games, suggested points, balance.pdf."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import DataOption, LanguageOption, data_dir, finish, use_edition

PackArgument = Annotated[str, typer.Argument(help="The pack id (folder name).",
                                             show_default=False)]


def balance(
    pack: PackArgument,
    data: DataOption = None,
    out: Annotated[Path, typer.Option(help="Output folder; balance.pdf goes to OUT/PACK/ "
                                      "(OUT/PACK-LANG/ for an edition).")] = Path("output"),
    variant: Annotated[Optional[str], typer.Option(
        help="Simulate only this variant (default: every variant balance.yaml plays).",
        show_default=False)] = None,
    games: Annotated[Optional[int], typer.Option(
        min=1, max=1_000_000, help="Games per simulated variant (default: balance.yaml's; at "
        "most 1 000 000, as there).",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the simulated games.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print every measure as JSON.")
                       ] = False,
    apply: Annotated[bool, typer.Option("--apply", help="Write the suggested points and "
                                        "penalties into the card files; prints the diff.")
                     ] = False,
    language: LanguageOption = None,
) -> None:
    """Measure how a deck plays: beat rates, dominated cards, redundant categories, simulated
    games, suggested points; writes balance.pdf.

    Examples:

      cardgen balance crazy-hospital

      cardgen balance crazy-hospital --variant duell --games 2000 --seed 7 --json

      cardgen balance crazy-hospital --apply        # write the suggested points, show the diff

      cardgen balance crazy-hospital --language en  # balance.pdf of the English edition
    """
    from ..analyse.declaration import load_balance
    from ..incremental.plan import select_packs
    from ..pipeline.chain import validated as check
    from ..compose import load_composition
    from ..diagnostics import Report

    use_edition(language)
    report = Report()
    folders = select_packs(data_dir(data), [pack], report)
    data_ = check(folders[0], report) if folders else None
    composition = load_composition(data_, report) if data_ is not None else None
    if data_ is None or composition is None or report.errors:
        finish(report, False)
        raise typer.Exit(1)
    if not _has_duels(data_, composition.composition.deck_kinds):
        typer.echo(f"{data_.pack.id}: no stat duels — its cards carry no categories with "
                   "values, so beat rates, simulated duels and suggested points do not apply")
        finish(report, False)
        return
    declared = load_balance(data_, composition.composition, report)
    if declared is None:
        finish(report, False)
        raise typer.Exit(1)
    variants = _variants(declared.balance, variant)
    _run(data_, declared, composition.composition, variants, games, seed, out, as_json, apply,
         report)


def _has_duels(data, deck_kinds: list[str]) -> bool:
    return any(set(c.kinds) & set(deck_kinds) for c in data.pack.categories)


def _variants(balance, variant: Optional[str]) -> list[str]:
    if variant is None:
        return list(balance.variants)
    if variant not in balance.variants:
        from ..diagnostics import did_you_mean
        played = ", ".join(balance.variants) or "none"
        raise typer.BadParameter(f"unknown variant '{variant}'"
                                 f"{did_you_mean(variant, list(balance.variants))}; "
                                 f"balance.yaml plays {played}", param_hint="--variant")
    return [variant]


def _run(data, declared, composition, variants, games, seed, out: Path, as_json: bool,
         apply: bool, report) -> None:
    """Analyse, paint, then write: the card edits (--apply) and balance.pdf, each atomically."""
    from ..analyse.report import as_json as to_json, summary
    from ..analyse.run import analyse
    from ..analyse.suggest import edited_texts, unified_diff
    from ..output import OutputError, write_all
    from ..documents.balance import balance_pdf
    from ..paths import output_name

    result = analyse(data, declared.balance, composition, variants, games, seed)
    pdf = balance_pdf(result)
    problems: list = []
    texts, missing = edited_texts(result.suggestions, problems) if apply else ({}, [])
    for s in missing:
        report.warning(s.file, s.line, s.col, s.card, f"{s.field}: not written on the card, so "
                       f"--apply cannot set it to {s.new}; add '{s.field}:' to the card")
    edits = {}
    for name in texts:
        relative, why = _writable(Path(name), data.folder)
        if why:
            problems.append((next(s for s in result.suggestions if s.file == name), why))
        else:
            edits[relative] = texts[name][1].encode("utf-8")
    for s, why in problems:  # nothing is written then: the card files and balance.pdf agree
        report.error(s.file, 0, 0, "", f"--apply cannot write this file: {why}")
    if problems:
        finish(report, False)
    try:
        if edits:
            write_all(data.folder.resolve(), edits)
        write_all(out, {f"{output_name(data.folder)}/balance.pdf": pdf})
    except OutputError as exc:
        finish(report, False)
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps(to_json(result), ensure_ascii=False, indent=1))
    else:
        for line in summary(result):
            typer.echo(line)
    if apply:
        typer.echo(unified_diff(texts) or "the card files already hold the suggested values",
                   nl=False)
    finish(report, False)
    typer.echo(f"{data.pack.id}: balance.pdf → {out / output_name(data.folder)}/",
               err=as_json)


def _writable(path: Path, folder: Path) -> tuple[str, str | None]:
    """(the card file's path inside the pack, why --apply may not write it or None). A file
    that is a link, or lies in a folder that is a link, is not written through: the edit
    would land in another file than the one named (maybe outside the pack), or replace the
    link by a file."""
    import os
    try:
        relative = Path(os.path.relpath(path, folder))
    except ValueError:
        return "", "it is not inside the pack folder"
    if relative.is_absolute() or ".." in relative.parts:
        return "", "it is not inside the pack folder"
    step = folder
    for part in relative.parts:
        step = step / part
        if step.is_symlink():
            return "", (f"{'it' if step == path else step} is a link (to "
                        f"'{os.readlink(step)}'); --apply does not write through links: "
                        "edit the file it leads to, or put the file itself in its place")
    return relative.as_posix(), None
