"""Translations checked: every text an edition lacks, and every translation whose source text
changed since it was made (its kept fingerprint is not the source's any more).

A missing text is a warning in a draft edition and an error in one pack.yaml declares
complete (`editions: {en: complete}`); a stale or unconfirmed translation is a warning
(`--strict` fails on it).
"""

from __future__ import annotations

from ..diagnostics import Report
from ..load.editions import LANGUAGE_NAMES, edition_folder, overlay_rel, survey
from ..model.marks import mark_at
from ..model.packdata import PackData


def check_editions(data: PackData, report: Report) -> None:
    """The editions pack.yaml declares exist; the edition being worked on is whole and fresh."""
    for language in data.pack.editions:
        if language != (data.base_language or data.pack.language) and \
                not edition_folder(data.folder, language).is_dir():
            mark = mark_at(data.pack_raw, "editions", language)
            report.error(data.pack_file, mark.line, mark.col, "", f"editions.{language}: no "
                         f"folder editions/{language}/ holds its texts")
    if data.edition:
        check_edition(data, data.edition, report)


def check_edition(data: PackData, language: str, report: Report) -> None:
    name = LANGUAGE_NAMES.get(language, language)
    base = LANGUAGE_NAMES.get(data.base_language or "", data.base_language or "base")
    complete = data.pack.editions.get(language) == "complete"
    overlay = f"editions/{language}/"
    for entry in survey(data.folder, language, report):
        state = entry.state
        if state == "missing":
            severity = "error" if complete else "warning"
            why = " (the edition is declared complete)" if complete else ""
            mark = entry.source_mark
            report.add(mark.file, mark.line, mark.col, severity, "",
                       f"{entry.path}: no {name} translation in "
                       f"{overlay}{overlay_rel(entry.file).as_posix()}{why}")
        elif state == "stale":
            mark = entry.mark
            report.warning(mark.file, mark.line, mark.col, "", f"{entry.path}: the {base} "
                           f"text changed since this was translated; now: "
                           f"'{_short(entry.source)}' (update the translation, then record "
                           f"it: cardgen import {data.folder.name} --language {language} "
                           "--stamp)")
        elif state == "new":
            mark = entry.mark
            report.warning(mark.file, mark.line, mark.col, "", f"{entry.path}: no fingerprint "
                           f"of the {base} text it translates (record it: cardgen import "
                           f"{data.folder.name} --language {language} --stamp)")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."
