"""Load stage: a pack folder → typed models with their YAML marks, plus diagnostics.

Nothing here raises on a user mistake: every file is read, every problem recorded, and the caller
decides after the whole pack is seen.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from pydantic import BaseModel, ValidationError

from ..diagnostics import Report, display_path
from ..model.card import Card, CardFileShape
from ..model.layout import Layout, LayoutFile, Region
from ..model.pack import DEFAULT_LOCALES, Pack
from ..model.rules import Chapter
from ..model.marks import Mark, MarkedDict, mark_at
from . import source
from .source import read_mapping
from .spreadsheet import SUFFIXES as SHEET_SUFFIXES
from ..diagnostics import did_you_mean
from .errors import report_validation_error
from .editions import edition_folder, overlaid, overlaid_sheet
from ..paths import chosen_edition
from ..paths import TEMPLATES
from ..model.packdata import LoadedCard, PackData, ResolvedLayout

# What a pack may hold (README, "Limits"): beyond this, a build would take minutes and gigabytes
# (1040 cards: 8 s, 141 MiB); the card that crosses a bound is named and the rest not read.
MAX_CARDS = 2_000  # cards written in the pack's files
MAX_PRINTED = 5_000  # cards printed: each card `count` times


def read_yaml(path: Path, report: Report) -> MarkedDict | None:
    """One YAML file whose top level is a mapping, or None (with a diagnostic); with the
    overlay of the edition being worked on merged over it (load.editions)."""
    raw = read_mapping(path, report)
    return None if raw is None else overlaid(raw, path, report)


def validate_model(raw: MarkedDict, model: type[BaseModel], report: Report, subject_of=None):
    """The model built from raw data, or None with one diagnostic per problem.

    A resident process (pipeline.resident: its parses are held in load.source.MEMORY, and an
    edit inside one card parses only that card again) keeps the model each parse validated
    into, by the parse itself (incremental.memo): one stat edited validates one card again,
    not the pack's 104 cards and every rule chapter (the flagship: 4 of the 10 ms an edit's
    loading took). Only what validated without a problem is kept: a problem is said again at
    every load. The models are read, never changed, after loading."""
    def validated():
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            report_validation_error(report, exc, raw, model, raw.mark.file, subject_of)
            return None
    return source.kept(_VALIDATED, (raw,), model, validated)


_VALIDATED: dict = {}  # (the parse, the model class) → the model (validate_model)


def read_model(path: Path, model: type[BaseModel], report: Report, subject_of=None):
    """Load one YAML file into a model; (model or None, raw data or None)."""
    raw = read_yaml(path, report)
    if raw is None:
        return None, None
    return validate_model(raw, model, report, subject_of), raw


def outside(path: Path, folder: Path) -> str | None:
    """Why `path` may not be read as a file of the pack `folder`: it is (or passes through) a
    link that leads out of the pack. None when it stays inside (links inside the pack are
    fine). Pictures are held to the same rule (pictures.reading.resolve)."""
    try:
        target = path.resolve()
        target.relative_to(folder.resolve())
    except ValueError:
        link = next((p for p in [path, *path.parents] if p.is_symlink()), path)
        shown = f"'{os.readlink(link)}'" if link.is_symlink() else f"'{target}'"
        where = "is a link to" if link == path else f"is in {display_path(link)}, a link to"
        return (f"{where} {shown}, outside the pack folder; cardgen reads only the pack's "
                "own files: copy it into the pack")
    except (OSError, RuntimeError):  # a link in a circle: said where the file is read
        return None
    return None


def load_pack(folder: Path, report: Report) -> PackData | None:
    """Read every file of one pack. Returns None when pack.yaml itself is unusable."""
    pack_path = folder / "pack.yaml"
    away = outside(pack_path, folder)
    if away:
        report.error(display_path(pack_path), 0, 0, "", away)
        return None
    pack, raw = read_model(pack_path, Pack, report)
    if pack is None:
        # pack.yaml is broken, but the card files' own mistakes can still be found now
        _check_cards_alone(folder, report)
        return None
    if _duplicate_ids(pack, raw, display_path(pack_path), report):
        # every card and text would be read against the wrong kind or group: only the card
        # files' own mistakes are worth saying until pack.yaml names each once
        _check_cards_alone(folder, report)
        return None
    data = PackData(folder=folder, pack=pack, pack_raw=raw, pack_file=display_path(pack_path),
                    inputs=[pack_path])
    if not _choose_edition(data, report):
        return None
    _load_cards(data, report)
    _load_layouts(data, report)
    _load_rules(data, report)
    return data


def _choose_edition(data: PackData, report: Report) -> bool:
    """The edition chosen with --language: the base one (the pack's own language), or one of
    editions/<language>/, whose language the loaded pack then speaks (built-in words,
    hyphenation). False (with an error at pack.yaml's language) when the pack has none."""
    language = chosen_edition()
    if not language or language == data.pack.language:
        return True
    folder = edition_folder(data.folder, language)
    if not folder.is_dir():
        from .editions import editions_of
        mark = data.pack_raw.value_marks["language"]
        have = ", ".join([f"{data.pack.language} (the base)", *editions_of(data.folder)])
        report.error(data.pack_file, mark.line, mark.col, "", f"language: the pack has no "
                     f"'{language}' edition (no folder editions/{language}/); it has {have}")
        return False
    data.edition, data.base_language = language, data.pack.language
    # numbers and quotation marks follow the edition: the base's locale where it is one of this
    # language (an overlay's `locale:`), else the language's own (model.pack.DEFAULT_LOCALES)
    locale = data.pack.locale if data.pack.locale.split("-")[0] == language else \
        DEFAULT_LOCALES[language]
    data.pack = data.pack.model_copy(update={"language": language, "locale": locale})
    data.inputs.extend(sorted(p for p in folder.rglob("*.yaml") if p.is_file()))
    return True


def _duplicate_ids(pack: Pack, raw: MarkedDict, file: str, report: Report) -> bool:
    """A kind or group id pack.yaml gives twice, said at its second place; True if any."""
    found = False
    for section, ids in (("groups", [g.id for g in pack.groups]),
                         ("kinds", [k.id for k in pack.kinds])):
        for index, value in enumerate(ids):
            if value in ids[:index]:
                mark = mark_at(raw, section, index, "id")
                first = mark_at(raw, section, ids.index(value), "id")
                report.error(file, mark.line, mark.col, value, f"id: duplicate "
                             f"{section[:-1]} id (also at line {first.line})")
                found = True
    return found


def _yaml_files(folder: Path, report: Report | None = None, pack: Path | None = None
                ) -> list[Path]:
    return data_files(folder, (".yaml",), report, pack)


CARD_SUFFIXES = (".yaml", *SHEET_SUFFIXES)  # the files of cards/: YAML and spreadsheets

# Files an editor keeps beside the one it has open: Excel's owner file (~$cards.xlsx, while the
# workbook is open) and Emacs's lock (.#cards.yaml, a link to user@host). They are not the
# designer's data; reading them would fail on every build made while the file is open.
_EDITOR_FILES = ("~$", ".#")


def data_files(folder: Path, suffixes: tuple[str, ...], report: Report | None = None,
               pack: Path | None = None) -> list[Path]:
    """The regular files of `folder` named *<suffix>, in name order: what the loader reads.
    With a report, an entry so named that is no file is named: a link to nothing or in a
    circle, or a folder, is an error (the designer meant a file there: a build without it
    would print a deck without its cards); a pipe or a device is a warning (it is skipped:
    reading it could wait for ever). With `pack`, a file (or the folder) that is a link leading
    out of the pack is an error too, and not read."""
    if not folder.is_dir():
        return []
    if pack is not None and report is not None:
        away = outside(folder, pack)
        if away:
            report.error(display_path(folder), 0, 0, "", away)
            return []
    found = []
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        if report is not None:
            report.error(display_path(folder), 0, 0, "", f"cannot read the folder: "
                         f"{exc.strerror or exc}")
        return []
    for path in entries:
        if path.suffix not in suffixes or path.name.startswith(_EDITOR_FILES):
            continue
        if path.is_file():
            away = outside(path, pack) if pack is not None and report is not None else None
            if away:
                report.error(display_path(path), 0, 0, "", f"cannot read the file: it {away}")
            else:
                found.append(path)
        elif report is None:
            continue
        elif path.is_dir():  # (also a link to a folder)
            report.error(display_path(path), 0, 0, "", "is a folder, where a file of this "
                         "name belongs: its cards (or layouts, or rules) would be lost; move "
                         "the file back, or rename the folder")
        elif path.is_symlink() and not path.exists():  # a link to nothing, or in a circle
            try:
                path.stat()
                circle = False
            except OSError as exc:
                circle = exc.errno == errno.ELOOP
            problem = ("is a link that leads back to itself" if circle
                       else f"is a link to '{os.readlink(path)}', which does not exist")
            report.error(display_path(path), 0, 0, "", f"cannot read the file: it {problem}")
        else:  # a pipe or a device (or a link to one): reading it could wait for ever
            report.warning(display_path(path), 0, 0, "",
                           "is no regular file (a pipe or device) and is skipped")
    return found


def _card_files(folder: Path, report: Report, columns: dict[str, set[str]] | None = None):
    """(path, raw data, outline) of every card file whose outline is valid: YAML files, and
    spreadsheets (one entry per kind they hold, in file-name order with the YAML files)."""
    from .spreadsheet import card_groups
    for path in data_files(folder / "cards", CARD_SUFFIXES, report, folder):
        if path.suffix in SHEET_SUFFIXES:
            groups = overlaid_sheet(card_groups(path, columns, report), path, report)
            if not groups:
                yield path, None, None
            for _, raw in groups:
                yield path, raw, validate_model(raw, CardFileShape, report)
            continue
        raw = read_yaml(path, report)
        if raw is None:
            yield path, None, None
            continue
        yield path, raw, validate_model(raw, CardFileShape, report)


def _check_cards_alone(folder: Path, report: Report) -> None:
    """Each card against the card model, without the pack (used when pack.yaml is broken)."""
    standard = list(Card.model_fields)
    for _, raw, shape in _card_files(folder, report):
        for card_raw in raw["cards"] if shape is not None else []:
            subject = card_raw.get("id") if isinstance(card_raw.get("id"), str) else ""
            card = validate_model(card_raw, Card, report, lambda loc, s=subject: s)
            for key in card.extra_fields if card is not None else []:
                # a kind may declare extra keys; only an obvious typo is reported here
                meant = next((name for name in standard if _typo_of(key, name)), None)
                if meant:
                    mark = card_raw.key_marks[key]
                    report.error(mark.file, mark.line, mark.col, subject,
                                 f"unknown key '{key}' (did you mean '{meant}'?)")


def _typo_of(typed: str, word: str) -> bool:
    """Two letters swapped, or one letter missing, extra or wrong."""
    if typed == word:
        return False
    if len(typed) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typed, word)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and
                                  typed[diff[0]] == word[diff[1]] and
                                  typed[diff[1]] == word[diff[0]])
    short, long_ = sorted((typed, word), key=len)
    return len(long_) - len(short) == 1 and any(long_[:i] + long_[i + 1:] == short
                                                for i in range(len(long_)))


def _columns(pack: Pack) -> dict[str, set[str]]:
    """{kind: the spreadsheet columns its cards take}: card fields, the kind's declared fields,
    `stats.<key>` of its categories (`texts.<name>` are free, as in YAML)."""
    plain = set(Card.model_fields) - {"stats", "texts"}
    return {kind.id: plain | set(kind.fields) | {
        f"stats.{v.key}" for c in pack.categories if kind.id in c.kinds for v in c.values}
        for kind in pack.kinds}


def _load_cards(data: PackData, report: Report) -> None:
    kinds = {k.id: k for k in data.pack.kinds}
    seen: set[str] = set()  # kinds a card file declares
    written = printed = 0
    for path, raw, shape in _card_files(data.folder, report, _columns(data.pack)):
        data.inputs.append(path)
        shown = display_path(path)
        if shape is None:  # which kinds it holds is not known: no kind is said to be empty
            seen.update(kinds)
            continue
        kind = kinds.get(shape.kind)
        seen.update([shape.kind] if kind is not None else kinds)  # (a misspelt kind: any)
        if kind is None:
            mark = raw.value_marks["kind"]
            report.error(shown, mark.line, mark.col, "", f"kind: unknown kind '{shape.kind}'"
                         f"{did_you_mean(shape.kind, list(kinds))}; the pack defines "
                         f"{', '.join(kinds)}")
            continue
        for index, card_raw in enumerate(raw["cards"]):
            subject = card_raw.get("id") if isinstance(card_raw.get("id"), str) else ""
            written += 1
            count = card_raw.get("count", 1)
            printed += count if isinstance(count, int) and 1 <= count <= 100 else 1
            if written > MAX_CARDS or printed > MAX_PRINTED:
                mark = raw["cards"].item_marks[index]
                bound = (f"holds more than {MAX_CARDS} cards" if written > MAX_CARDS else
                         f"prints more than {MAX_PRINTED} cards (each card `count` times)")
                report.error(shown, mark.line, mark.col, subject, f"the pack {bound}; cardgen "
                             "reads no further (split the game into several packs)")
                return
            data.written_ids.add(subject)
            card = _validated_card(card_raw, report, subject)
            broken: frozenset[str] = frozenset()
            if card is None:
                card, broken = salvage(card_raw)
            if card is not None:
                data.cards.append(LoadedCard(card, kind.id, shown, card_raw, broken))
    _kinds_with_cards(data, seen, report)


def _validated_card(card_raw: MarkedDict, report: Report, subject: str) -> Card | None:
    """The card, or None with its problems reported; a problem the loader said already at a
    cell (card_raw.said: a number too large for any field) is not said a second time."""
    said = getattr(card_raw, "said", None)
    if not said:
        return validate_model(card_raw, Card, report, lambda loc, s=subject: s)
    own = Report()
    card = validate_model(card_raw, Card, own, lambda loc, s=subject: s)
    report.items.extend(d for d in own.items if Mark(d.file, d.line, d.col) not in said)
    return card


def _kinds_with_cards(data: PackData, seen: set[str], report: Report) -> None:
    """A kind pack.yaml declares that no card file holds is an error at the kind: its file was
    removed, emptied or replaced (a build of the rest would print a deck without it). Not said
    when a card file or the cards folder cannot be read at all (that is said, and it may hold
    the kind's cards)."""
    cards = display_path(data.folder / "cards")
    if any(d.file == cards or (d.file.startswith(cards + os.sep) and d.line == 0)
           for d in report.errors):
        return  # the folder, or a file in it, was refused: it may hold the kind's cards
    for index, kind in enumerate(data.pack.kinds):
        if kind.id not in seen:
            mark = mark_at(data.pack_raw, "kinds", index, "id")
            report.error(data.pack_file, mark.line, mark.col, kind.id, f"kind: no card file "
                         f"holds cards of this kind (cards/{kind.id}.yaml, or a file with "
                         f"'kind: {kind.id}'); add its cards, or remove the kind")


def salvage(card_raw: MarkedDict) -> tuple[Card | None, frozenset[str]]:
    """The card without the fields that failed validation (already reported), so that the
    pack's own checks (ranges, stat rules, unknown keys) still see the rest of it: all of a
    card's problems in one run. None when even that fails (the id itself is wrong)."""
    try:
        Card.model_validate(card_raw)
        return None, frozenset()
    except ValidationError as exc:
        locs = [tuple(e["loc"]) for e in exc.errors(include_url=False)]
    clean = dict(card_raw)
    broken = set()
    for loc in locs:
        if not loc or loc[0] == "id":
            return None, frozenset()
        field = clean.get(loc[0])
        if len(loc) > 1 and isinstance(loc[1], str) and isinstance(field, dict):
            clean[loc[0]] = {k: v for k, v in field.items() if k != loc[1]}
            broken.add(f"{loc[0]}.{loc[1]}")
        else:
            clean.pop(loc[0], None)
            broken.add(str(loc[0]))
    try:
        return Card.model_validate(clean), frozenset(broken)
    except ValidationError:
        return None, frozenset()


def _load_layouts(data: PackData, report: Report) -> None:
    """Layouts of templates/ first, then the pack's own (same name = the pack's wins)."""
    raw_layouts: dict[str, tuple[MarkedDict, str]] = {}
    sources = _yaml_files(TEMPLATES) + _yaml_files(data.folder / "layouts", report, data.folder)
    single = data.folder / "layouts.yaml"
    away = outside(single, data.folder) if single.exists() or single.is_symlink() else None
    if away:
        report.error(display_path(single), 0, 0, "", f"cannot read the file: it {away}")
    elif single.is_dir():
        report.error(display_path(single), 0, 0, "", "is a folder, where the file of the "
                     "pack's layouts belongs; move the file back, or rename the folder")
    elif single.is_file():
        sources.append(single)
    for path in sources:
        data.inputs.append(path)
        layout_file, raw = read_model(path, LayoutFile, report)
        if layout_file is None:
            continue
        for name in layout_file.layouts:
            raw_layouts[name] = (raw["layouts"][name], display_path(path))
    data.layout_names = set(raw_layouts)
    for name in raw_layouts:
        resolved = _resolve_layout(name, raw_layouts, report, [])
        if resolved is not None:
            data.layouts[name] = resolved


def _resolve_layout(name: str, raw_layouts, report: Report, chain: list[str]):
    raw, shown = raw_layouts[name]
    try:
        layout = Layout.model_validate({**raw, "regions": {}})
    except ValidationError as exc:
        report_validation_error(report, exc, raw, Layout, shown, lambda loc: name)
        return None
    regions: dict[str, dict] = {}
    marks: dict[str, Mark] = {}
    files: dict[str, str] = {}
    if layout.extends:
        if layout.extends not in raw_layouts:
            mark = raw.value_marks["extends"]
            report.error(shown, mark.line, mark.col, name, f"extends: unknown layout "
                         f"'{layout.extends}'{did_you_mean(layout.extends, list(raw_layouts))}")
            return None
        if layout.extends in chain + [name]:
            mark = raw.value_marks["extends"]
            report.error(shown, mark.line, mark.col, name, "extends: layouts extend each other "
                         "in a circle: " + " → ".join(chain + [name, layout.extends]))
            return None
        parent = _resolve_layout(layout.extends, raw_layouts, report, chain + [name])
        if parent is None:
            return None
        regions = {k: r.model_dump(exclude_unset=True) for k, r in parent.regions.items()}
        marks, files = dict(parent.marks), {k: parent.file for k in parent.regions}
    own = raw.get("regions")
    if own is None:
        own = MarkedDict()
        own.mark, own.key_marks, own.value_marks = raw.mark, {}, {}
    if not isinstance(own, MarkedDict):
        mark = getattr(own, "mark", raw.mark)
        report.error(shown, mark.line, mark.col, name, "regions: must be a mapping of name: region")
        return None
    out: dict[str, Region] = {}
    for region_name, region_raw in own.items():
        if region_raw is None:  # 'name: null' removes an inherited region
            regions.pop(region_name, None)
            continue
        if not isinstance(region_raw, MarkedDict):
            mark = own.value_marks[region_name]
            report.error(shown, mark.line, mark.col, name, f"regions.{region_name}: must be a "
                         "mapping (x, y, w, h, ...)")
            continue
        merged = {**regions.get(region_name, {}), **region_raw}
        try:
            Region.model_validate(merged)
        except ValidationError as exc:
            report_validation_error(report, exc, region_raw, Region, shown,
                                    lambda loc: f"{name}.{region_name}")
            continue
        regions[region_name] = merged
        marks[region_name] = own.value_marks[region_name]
        for key in region_raw:  # 'region.key': where a picture or a text is named
            marks[f"{region_name}.{key}"] = region_raw.value_marks[key]
        files[region_name] = shown
    for region_name, merged in regions.items():
        out[region_name] = Region.model_validate(merged) if isinstance(merged, dict) else merged
    size = layout.size or (parent.size if layout.extends else None)
    return ResolvedLayout(name, out, shown, marks, size)


def _load_rules(data: PackData, report: Report) -> None:
    for path in _yaml_files(data.folder / "rules", report, data.folder):
        data.inputs.append(path)
        chapter, _ = read_model(path, Chapter, report)
        if chapter is not None:
            data.chapters.append((display_path(path), chapter))
