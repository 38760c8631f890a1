"""Printed-field coverage: what a card kind carries for the game is printed on its cards.

Why: a field the rulebook or the scoring relies on (a text every card needs, points, minus
points, stats) but that no region of the kind's front or back shows is invisible at the table —
players cannot play the card without the book, and nothing in the build said so. A pack that
leaves a field off on purpose says so in pack.yaml, with the reason (`not_printed`).
"""

from __future__ import annotations

import re

from ..diagnostics import Report
from ..model.packdata import PackData
from ..model.pack import Kind
from ..model.marks import mark_at

_CARD_FIELD = re.compile(r"\bcard\.([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?")
_CARD_HAS = re.compile(r"""['"]([A-Za-z_]\w*)['"]\s+in\s+card\b""")  # 'versie' in card
_GROUP = re.compile(r"\bgroups?\b")


def check_coverage(data: PackData, report: Report) -> None:
    """Every field a kind's cards carry for play is shown by a region of its layouts."""
    for index, kind in enumerate(data.pack.kinds):
        layouts = [name for name in (kind.front, kind.back) if name in data.layouts]
        if len(layouts) < 2 and kind.front not in data.layouts:
            continue  # an unknown layout is reported by the pack checks
        printed = printed_fields(data, layouts)
        mark = mark_at(data.pack_raw, "kinds", index, "front")
        shown = " or ".join(dict.fromkeys(layouts))
        for name, severity, why in wanted_fields(data, kind):
            if name in kind.not_printed or _covered(name, printed):
                continue
            report.add(data.pack_file, mark.line, mark.col, severity, kind.id,
                       f"{name}: no region of {shown} prints it, but {why}; print it in a "
                       "region, or list it under not_printed with the reason")
        for name in kind.not_printed:
            if _covered(name, printed):
                m = mark_at(data.pack_raw, "kinds", index, "not_printed", name)
                report.warning(data.pack_file, m.line, m.col, kind.id, f"not_printed: {name} "
                               f"is printed by a region of {shown}; remove it from "
                               "not_printed")


def printed_fields(data: PackData, layouts: list[str]) -> set[str]:
    """Card fields the regions of these layouts show: 'name', 'texts.active', 'stats' ...

    A field counts as shown when a region's text or picture prints it, and also when it
    decides whether a region is drawn (`when`) or in which colour: the motif's colour, a
    'only in the long version' banner."""
    out: set[str] = set()
    for name in layouts:
        for region in data.layouts[name].regions.values():
            if region.type == "stats":
                out.add("stats")
            elif region.type == "portrait":
                out.add("image")
            sources = [region.when, region.fill, region.stroke, region.colour,
                       region.portrait_gender]  # a field that decides what shows is shown
            sources += [region.text] if region.type in ("text", "icon") else \
                [region.image] if region.type == "image" else []
            for source in filter(None, sources):
                for field, sub in _CARD_FIELD.findall(source):
                    out.add(f"{field}.{sub}" if field == "texts" and sub else field)
                out.update(_CARD_HAS.findall(source))
                if _GROUP.search(source):
                    out.add("group")
    return out


def _covered(name: str, printed: set[str]) -> bool:
    """A text is covered by its own name or by a template that prints `card.texts` whole."""
    return name in printed or (name.startswith("texts.") and "texts" in printed)


def wanted_fields(data: PackData, kind: Kind) -> list[tuple[str, str, str]]:
    """(field, severity, why it must be printed) for one kind."""
    cards = data.cards_of(kind.id)
    out = [(f"texts.{t}", "error", "every card of the kind needs this text") for t in kind.texts]
    for field, spec in kind.fields.items():
        carried = any(lc.card.extra_fields.get(field) not in (None, "") for lc in cards)
        if spec.required or carried:
            out.append((field, "warning", "the kind declares it" + (" as required"
                                                                     if spec.required else "")
                        + " and its cards carry it"))
    for field, use in (("points", "the scoring counts them"),
                       ("penalty", "the scoring subtracts them")):
        if any(getattr(lc.card, field) is not None for lc in cards):
            out.append((field, "warning", f"the cards carry them and {use}"))
    if any(kind.id in c.kinds for c in data.pack.categories):
        out.append(("stats", "warning", "the pack's categories are played with them"))
    return out
