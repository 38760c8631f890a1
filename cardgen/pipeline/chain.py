"""The chain every command runs (DESIGN.md): load → check → compose → lay out → draw → write.

    check_pack   load every file, run every check (`cardgen check` stops here)
    build_pack   the same checks, then the draw phase (pipeline.draw), files kept in memory
    write        every pack's files at once, atomically (incremental.manifest.write)

A build checks what `cardgen check` checks, with the same functions: what stops one stops the
other. Two differences in order only, both for speed, neither in what is reported:
- the card faces are laid out (and checked) after compose, so that a second process can start
  on the rulebook meanwhile (pipeline.parallel); that process checks the rule texts as it lays
  out the rulebook, and its diagnostics are merged whatever this process found;
- when the rulebook is drawn, its rule texts are checked by that drawing (the same story
  builder check_rules runs); when it is not drawn because something else failed, check_rules
  runs, so the failed build names every problem that `cardgen check` names.
An output that was not asked for (`--only`) is not checked: `--only rulebook` lays out no card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Report
from ..incremental.plan import wanted_outputs
from ..model.outputs import FACED_KINDS
from ..model.packdata import PackData
from ..model.settings import BuildSettings
from .faces import layout_faces
from .parallel import SHOP_KINDS, cycles_kept, forked_part, render_split


@dataclass
class Checked:
    """What the check phase made of one pack, for the draw phase."""

    data: PackData
    deck: object = None  # compose.Deck, None when the deck did not compose
    faces: tuple | None = None  # layout_faces(): (printed, images, layouter)


def validated(folder: Path, report: Report) -> PackData | None:
    """Load one pack and check its data: stats, references, pictures' files, boards."""
    from ..layout.boards_preflight import check_boards
    from ..load.pack import load_pack
    from ..pictures.store import forget_paths
    from ..validate.cards import check_cards
    from ..validate.coverage import check_coverage
    from ..validate.editions import check_editions
    from ..validate.glossary import check_glossary
    from ..validate.groups import check_group_cues
    from ..validate.images import check_named_pictures
    from ..validate.pack import check_pack_refs
    from ..validate.references import check_references
    forget_paths()  # a build sees the picture files as they are now
    data = load_pack(folder, report)
    if data is None:
        return None
    checks = [("pack.yaml references", check_pack_refs), ("cards and stat rules", check_cards),
              ("printed fields", check_coverage), ("references in texts", check_references),
              ("glossary and examples", check_glossary), ("pictures", check_named_pictures),
              ("colour is never the only cue", check_group_cues),
              ("editions and translations", check_editions)]
    if (folder / "boards.yaml").is_file():
        checks.append(("boards and score sheets", check_boards))
    for name, run in checks:
        if run in (check_references, check_glossary) and report.errors:
            # a card that did not load would make every text naming it look wrong: fix the
            # errors above first, the references are checked on the next run
            continue
        report.ran_check(name)
        run(data, report)
    if not report.errors and data.pack.id != folder.name:
        mark = data.pack_raw.value_marks["id"]
        report.error(data.pack_file, mark.line, mark.col, "", f"id: '{data.pack.id}' must be "
                     f"the folder's name '{folder.name}'")
    return data


def check_faces(data: PackData, report: Report, settings: BuildSettings,
                prepare: bool, **kept) -> tuple:
    """Every card laid out: text fit, glyphs, safe zone, every picture decoded. `kept`: the
    fronts and picture store a resident pipeline keeps (layout_faces)."""
    report.ran_check("card layouts: text fit, glyphs, pictures")
    return layout_faces(data, report, settings, prepare=prepare, **kept)


def check_rule_texts(data: PackData, report: Report) -> None:
    """Every rule text through Jinja, markup, glyphs and table names."""
    from ..documents.rulebook.book import check_rules
    if data.chapters:
        report.ran_check("rulebook texts")
    check_rules(data, report)


def check_deck(data: PackData, report: Report, choice) -> object:
    """The chosen deck composed and checked against the variant's rules; balance.yaml's names."""
    from ..analyse.declaration import load_balance
    from ..compose import Choice, compose
    deck = compose(data, choice or Choice(), report)
    if deck is not None:
        load_balance(data, deck.composition, report)
    return deck


def check_pack(folder: Path, report: Report, settings: BuildSettings | None = None,
               choice=None) -> Checked | None:
    """Every check of one pack, as `cardgen check` runs them; None when it did not load.

    The faces are laid out with `settings` (the pack's own print settings by default) and
    their pictures decoded, not prepared."""
    settings = settings or BuildSettings()
    errors_before = len(report.errors)  # of the packs checked before this one
    data = validated(folder, report)
    if data is None:
        return None
    checked = Checked(data)
    if len(report.errors) == errors_before:
        checked.faces = check_faces(data, report, settings, prepare=False)
        check_rule_texts(data, report)
    checked.deck = check_deck(data, report, choice)
    return checked


class Stages:
    """The check phase as build_pack runs it: load and check, compose, lay out the faces. A
    resident pipeline (pipeline.resident: `cardgen serve`, `cardgen watch`) passes its own,
    which keep their results between edits; they report and return the same."""

    def validated(self, folder: Path, report: Report) -> PackData | None:
        return validated(folder, report)

    def check_deck(self, data: PackData, report: Report, choice) -> object:
        return check_deck(data, report, choice)

    def check_faces(self, data: PackData, report: Report, settings: BuildSettings,
                    prepare: bool) -> tuple:
        return check_faces(data, report, settings, prepare)

    def drawn_first(self, result) -> None:
        """An output a viewer keeps open (cards.pdf, the contact sheet), drawn before the rest
        (render_pack's `early`): a one-off build writes every file at the end; `cardgen
        watch` writes each at once."""


FRESH = Stages()


def build_pack(folder: Path, settings: BuildSettings, kinds: set[str] | None = None,
               previous: dict | None = None, split: bool = False, stages: Stages = FRESH
               ) -> tuple[Report, object | None]:
    """One pack checked and drawn: (report, PackResult | None); the files stay in memory until
    `write` (all packs at once). Any error stops the chain before output.

    `kinds`: the stale outputs (default: the settings' outputs); `previous`: the last manifest;
    `split`: the rulebook is drawn in a forked process while this one draws the rest;
    `stages`: the check phase's stages (a resident pipeline's keep their results).
    """
    with cycles_kept():
        report = Report()
        wanted = kinds if kinds is not None else wanted_outputs(settings)
        data = stages.validated(folder, report)
        if data is None:
            return report, None
        clean = not report.errors  # the data is sound: its faces and rule texts can be checked
        deck = stages.check_deck(data, report, settings.choice)
        part = forked_part(data, settings, wanted, previous) if split and clean and not \
            report.errors else set()
        if part & SHOP_KINDS:  # drawn from the card faces: laid out here first, and the
            # child, forked with them, lays out nothing again
            faces = _checked_faces(data, report, settings, wanted, stages)
            if faces is None:
                return report, None
            return report, render_split(data, report, settings, part, previous, deck,
                                        lambda: _faces_and_draw(data, report, settings,
                                                                wanted - part, previous, deck,
                                                                stages, faces),
                                        lambda into: faces)
        if part:  # the rulebook: no card faces, so the child starts at once
            return report, render_split(data, report, settings, part, previous, deck,
                                        lambda: _faces_and_draw(data, report, settings,
                                                                wanted - part, previous, deck,
                                                                stages))
        if not clean or report.errors:
            _report_the_rest(data, report, settings, wanted, clean, stages)
            return report, None
        return report, _faces_and_draw(data, report, settings, wanted, previous, deck, stages)


def _checked_faces(data: PackData, report: Report, settings: BuildSettings, wanted: set[str],
                   stages: Stages):
    """The card faces laid out and checked; None when that found an error (a rulebook that
    will not be drawn then has its texts checked, as `check` does)."""
    errors_before = len(report.errors)
    faces = stages.check_faces(data, report, settings, prepare=True)
    if len(report.errors) > errors_before:
        if "rulebook" in wanted:
            check_rule_texts(data, report)
        return None
    return faces


def _faces_and_draw(data: PackData, report: Report, settings: BuildSettings, wanted: set[str],
                    previous, deck, stages: Stages = FRESH, faces=None):
    """The faces checked (when an output needs them and `faces` were not laid out before),
    then the outputs drawn."""
    from .draw import render_pack
    if faces is None and wanted & FACED_KINDS:
        faces = _checked_faces(data, report, settings, wanted, stages)
        if faces is None:
            return None
    return render_pack(data, report, settings, wanted, previous, deck, faces=faces,
                       early=stages.drawn_first)


def _report_the_rest(data: PackData, report: Report, settings: BuildSettings,
                     wanted: set[str], clean: bool, stages: Stages = FRESH) -> None:
    """A build that stopped at compose still names the problems of its faces and rule texts,
    as `cardgen check` does."""
    if not clean:
        return
    if wanted & FACED_KINDS:
        stages.check_faces(data, report, settings, prepare=False)
    if "rulebook" in wanted:
        check_rule_texts(data, report)
