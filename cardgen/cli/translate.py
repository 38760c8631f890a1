"""cardgen import: a translator's PO file read back into an edition's overlay files; or the
fingerprints of hand-written translations recorded (--stamp).

Why a command of its own: the translator works in a PO editor and never in the YAML; this is
the one way back, and it writes only editions/<language>/ of the pack.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import DataOption, complete_packs, data_dir, finish, info, use_edition


def import_(pack: Annotated[str, typer.Argument(help="The pack id.", show_default=False,
                                               autocompletion=complete_packs)],
            po: Annotated[Optional[Path], typer.Argument(
                metavar="[FILE.po]", help="The PO file cardgen export --po wrote, translated.",
                show_default=False)] = None,
            language: Annotated[str, typer.Option(
                "--language", metavar="LANG", help="The edition the file translates into (de, "
                "en, fr, it, nl).", show_default=False)] = ...,
            stamp: Annotated[bool, typer.Option(
                "--stamp", help="Instead of a file: record, for every translation written by "
                "hand in editions/LANG/ that has no fingerprint or an old one, the fingerprint "
                "of its current source (after you checked it).")] = False,
            data: DataOption = None) -> None:
    """Read a translated PO file back into the pack's editions/LANG/ files.

    A message marked fuzzy stays marked as made from an older source; an empty one removes the
    translation. Then run cardgen check PACK --language LANG.

    Examples:

      cardgen import quartett --language en quartett-en.po

      cardgen import quartett --language en --stamp
    """
    use_edition(language)
    if (po is None) == (not stamp):
        raise typer.BadParameter("give FILE.po or --stamp (one of them)", param_hint="FILE.po")
    from ..diagnostics import Report, display_path
    from ..incremental.plan import select_packs
    report = Report()
    folders = select_packs(data_dir(data), [pack], report)
    if not folders:
        finish(report, False)
        return
    folder = folders[0]
    use_edition(None)
    from ..pipeline.chain import validated
    loaded = validated(folder, report)
    if loaded is None or report.errors:  # the base edition must be sound to translate it
        finish(report, False)
        return
    if language == loaded.pack.language:
        raise typer.BadParameter(f"'{language}' is the pack's own language: its texts are "
                                 "the sources", param_hint="--language")
    from ..load import translations
    if stamp:
        written = translations.stamp(folder, language, report)
    else:
        written = translations.import_po(folder, language, po, report)
    finish(report, False)
    for path in written:
        info(f"wrote {display_path(path)}")
    if not written:
        info("nothing changed")
