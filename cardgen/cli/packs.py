"""cardgen packs: list the packs with their title, language, card count and editions."""

from __future__ import annotations

import typer

from .common import DataOption, data_dir, finish


def packs(data: DataOption = None) -> None:
    """List packs: id, title, language, card count and translated editions.

    Example: cardgen packs --data ~/my-games
    """
    from ..pipeline.chain import validated as check
    from ..diagnostics import Report
    from ..paths import find_packs

    report = Report()
    folder = data_dir(data)
    found = find_packs(folder)
    if not found:
        report.error(str(folder), 0, 0, "", "no packs found (a pack is a folder with pack.yaml)")
    for pack_folder in found:
        loaded = check(pack_folder, Report())
        if loaded is None:
            typer.echo(f"{pack_folder.name:<16} (pack.yaml has errors: run cardgen check "
                       f"{pack_folder.name})")
            continue
        cards = sum(c.card.count for c in loaded.cards)
        typer.echo(f"{loaded.pack.id:<16} {loaded.pack.title:<32} {loaded.pack.language}  "
                   f"{cards:>4} cards{_editions(loaded)}")
    finish(report, False)


def _editions(loaded) -> str:
    """'  editions: en (complete), fr (draft)': the translations in editions/, as pack.yaml
    declares them (a folder it does not declare is a draft)."""
    from ..load.editions import editions_of
    found = editions_of(loaded.folder)
    if not found:
        return ""
    return "  editions: " + ", ".join(
        f"{lang} ({loaded.pack.editions.get(lang, 'draft')})" for lang in found)
