"""Colour is never the only cue: groups told apart by colour alone, layouts that show a group's
colour and nothing else of it, and group colours that look alike to players with a
colour-vision deficiency. Warnings (errors with --strict), at the line to change.

The look-alike test simulates the three dichromacies at full strength (protanopia,
deuteranopia, tritanopia; after Machado et al. 2009) and measures the distance of the two
simulated colours in CAM02-UCS (Luo et al. 2006's perceptually uniform space built on
CIECAM02, where about 1 is the smallest difference an eye sees side by side); cvd.py computes
both. Below CVD_MIN the two are hard to tell apart at a glance across the table; the
threshold is cardgen's choice, stated here and in docs/decisions.md.
"""

from __future__ import annotations

import itertools
import re

from ..diagnostics import Report
from ..model.marks import mark_at
from ..model.packdata import PackData
from .cvd import distance as cvd_distance, simulated

CVD_MIN = 10.0  # CAM02-UCS distance below which two colours look alike
CVD_TYPES = (("protanomaly", "protanopia (red-blind)"),
             ("deuteranomaly", "deuteranopia (green-blind)"),
             ("tritanomaly", "tritanopia (blue-blind)"))

# a template that shows a group's colour, and one that shows something else of it
_COLOUR = re.compile(r"\b(group|groups\[\d+\]|item)\.colour\b|groups_by_id\.\w+\.colour\b")
_CUE = re.compile(r"\b(group|groups\[\d+\]|item)\.(symbol|short|label|id)\b|"
                  r"attribute\s*=\s*['\"](symbol|short|label)['\"]|groups_by_id\.\w+\."
                  r"(symbol|short|label)")


def check_group_cues(data: PackData, report: Report) -> None:
    groups = data.pack.groups
    if len(groups) < 2:
        return
    _same_symbol(data, report)
    _colour_only_layouts(data, report)
    _look_alike(data, report)


def _where(data: PackData, index: int, key: str):
    mark = mark_at(data.pack_raw, "groups", index, key)
    return data.pack_file, mark.line, mark.col


def _same_symbol(data: PackData, report: Report) -> None:
    """Two groups with one symbol: only their colours (if those) tell them apart."""
    seen: dict[str, int] = {}
    for index, group in enumerate(data.pack.groups):
        symbol = group.symbol.strip()
        if symbol in seen:
            first = data.pack.groups[seen[symbol]]
            report.warning(*_where(data, index, "symbol"), group.id,
                           f"symbol: '{symbol}' is also {first.id}'s symbol; {group.id} and "
                           f"{first.id} differ by colour only: give each group a symbol of "
                           f"its own")
        else:
            seen[symbol] = index


def _colour_only_layouts(data: PackData, report: Report) -> None:
    """A layout the pack's grouped cards use that prints a group's colour somewhere and its
    symbol, short name or name nowhere."""
    grouped = {lc.kind for lc in data.cards if lc.card.group or lc.card.groups}
    names = sorted({data.kind(kind).front for kind in grouped})
    for name in names:
        layout = data.layouts.get(name)
        if layout is None:
            continue
        colours, cues = [], False
        for region_name, region in layout.regions.items():
            if region is None:
                continue
            templates = " ".join(str(getattr(region, key) or "") for key in
                                 ("fill", "stroke", "colour"))
            if _COLOUR.search(templates):
                colours.append(region_name)
            if region.type in ("text", "icon") and _CUE.search(region.text or ""):
                cues = True
        if colours and not cues:
            mark = layout.marks.get(colours[0])
            report.warning(mark.file if mark else layout.file, mark.line if mark else 0,
                           mark.col if mark else 0, f"{name}.{colours[0]}",
                           "shows the card's group by its colour only: add a region with "
                           "{{ group.symbol }} (or the group's short name) for players who "
                           "cannot tell the colours apart, and for black-and-white printers")


def _look_alike(data: PackData, report: Report) -> None:
    """Pairs of different group colours that a colour-vision deficiency makes look alike."""
    groups = list(enumerate(data.pack.groups))
    for (ia, a), (ib, b) in itertools.combinations(groups, 2):
        if a.colour.upper() == b.colour.upper():
            continue  # one colour on purpose: the symbols are the cue (quartett's suits)
        worst = None
        for cvd, name in CVD_TYPES:
            distance = cvd_distance(simulated(a.colour, cvd), simulated(b.colour, cvd))
            if worst is None or distance < worst[0]:
                worst = (distance, name)
        if worst[0] < CVD_MIN:
            report.warning(*_where(data, ib, "colour"), b.id,
                           f"colour: {b.colour} and {a.id}'s {a.colour} look alike to players "
                           f"with {worst[1]} (distance {worst[0]:.1f} in CAM02-UCS, below "
                           f"{CVD_MIN:g}); choose colours further apart (the Okabe–Ito "
                           f"palette keeps them apart); the symbols {a.symbol} {b.symbol} "
                           f"still tell them apart")
