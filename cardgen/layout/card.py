"""Card layout: a card + its layout → positioned boxes with resolved text, fitted to size.

Pure geometry and text decisions, no drawing: every overflow, missing glyph, bad template or
region outside the safe zone is found here, before any output file is opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import jinja2

from ..diagnostics import Report
from ..load import source
from ..text.numbers import stat_value
from ..text.words import DEFAULT_ICONS, labels_for, minus_signs
from ..model.packdata import LoadedCard, PackData, ResolvedLayout
from ..model.card import hair_hint
from ..model.layout import Region, picture_fit
from ..text.fit import FittedText, check_glyphs, expand_icons, fit
from ..text.templates import MAX_TEXT, environment
from ..units import MM

TEXT_TYPES = ("text", "stats", "icon")
_CARD_FIELD = re.compile(r"card\.([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?")


STATS_RULE = 0.3  # pt: the thin rule between two rows of a stats box


@dataclass(frozen=True, slots=True)
class StatRow:
    label: str
    values: tuple[tuple[str, str], ...]  # (printed value, "high"|"low")
    common: bool

    def __reduce__(self):  # pickled rows (incremental.kept) load 5x faster made than set field-wise
        return (StatRow, (self.label, self.values, self.common))


@dataclass(slots=True)
class Box:
    """One region of one card, ready to draw (mm, y from the trim's top edge downwards)."""

    name: str
    region: Region
    fill: str | None = None
    stroke: str | None = None
    colour: str = "#000000"
    text: FittedText | None = None
    image: str | None = None  # path of a picture inside the pack
    portrait_seed: str = ""
    portrait_gender: str | None = None
    portrait_age: int | None = None
    portrait_hair: str | None = None
    portrait_role: str | None = None
    stats: tuple[StatRow, ...] = ()
    stats_size: float = 0.0
    stats_min: float = 0.0  # the smallest type size allowed: win marks never print below it
    fit: str = "cover"  # a picture's fit in the box (pictures.fit)
    focus: tuple[float, float] = (0.5, 0.5)  # the point of the picture to keep


@dataclass
class CardFace:
    card_id: str
    boxes: list[Box] = field(default_factory=list)


def pack_icons(data: PackData) -> dict[str, str]:
    """{name: glyph} a pack's texts may use as :name:: ours, the pack's, its groups' symbols."""
    icons = {**DEFAULT_ICONS, **data.pack.icons}
    for group in data.pack.groups:
        icons.setdefault(group.id, group.symbol)
    return icons


# (card, pack, region) → the size a `fit: uniform` region's text of that card fits at, in a
# resident process (`cardgen serve`, `watch`): it keeps the models of what an edit left as it
# was (load.pack), so after one stat edited the other cards' texts are not rendered and
# fitted again (the flagship: 8 ms an edit; incremental.memo). The card, the pack and the
# region's fields are all a card's text and its fit are made of.
_UNIFORM: dict = {}


class CardLayouter:
    """Lays out every face of a pack; compiles each region's templates once."""

    def __init__(self, data: PackData, report: Report):
        self.data, self.report = data, report
        self.env = environment()
        self.compiled: dict[tuple[str, str, str], Any] = {}
        self.icons = pack_icons(data)
        self.size = data.pack.print.size()  # the pack's card size (boards size slots by it)
        # problems met while laying out cards, reported by report_problems(): one layout
        # problem met by many cards is one diagnostic, not one per card
        self.card: LoadedCard | None = None
        self.uses: dict[str, int] = {}
        self.folded: dict[tuple[str, str, str], tuple[ResolvedLayout, list[str]]] = {}
        self.deferred: dict[tuple[str, str, str], tuple[ResolvedLayout, list]] = {}
        # (layout, region) → the cards it printed nothing on although it shows a card field,
        # and how many cards it was drawn on (its `when` held)
        self.blank: dict[tuple[str, str], tuple[ResolvedLayout, list]] = {}
        self.drawn: dict[tuple[str, str], int] = {}
        # (layout, region) → the one size of a `fit: uniform` region (uniform_size)
        self.uniform: dict[tuple[str, str], float] = {}

    # --- templates ------------------------------------------------------------------------------
    def _template(self, layout: ResolvedLayout, name: str, attr: str, source: str):
        key = (layout.name, name, attr)
        if key not in self.compiled:
            try:
                if attr == "when":
                    self.compiled[key] = self.env.compile_expression(source,
                                                                     undefined_to_none=False)
                else:
                    self.compiled[key] = self.env.from_string(source)
            except jinja2.TemplateSyntaxError as exc:
                self._layout_error(layout, name, f"{attr}: template error: {exc.message}")
                self.compiled[key] = None
        return self.compiled[key]

    def _render(self, layout, name, attr, source, context, card_id) -> Any:
        if source is None or ("{{" not in source and "{%" not in source and attr != "when"):
            return source
        template = self._template(layout, name, attr, source)
        if template is None:
            return None
        try:
            if attr == "when":
                return template(**context)
            out = template.render(**context)
        except jinja2.UndefinedError as exc:
            self._layout_error(layout, name, f"{attr}: {exc.message}", card_id)
            return None
        except jinja2.exceptions.SecurityError as exc:
            self._layout_error(layout, name, f"{attr}: not allowed in a template: {exc}")
            return None
        except Exception as exc:  # any other template failure is the template's problem
            self._layout_error(layout, name, f"{attr}: template failed: {exc}", card_id)
            return None
        if len(out) > MAX_TEXT:
            self._layout_error(layout, name, f"{attr}: template produced {len(out)} characters; "
                               f"the limit is {MAX_TEXT}")
            return None
        return out

    def _layout_error(self, layout: ResolvedLayout, region: str, message: str,
                      card_id: str | None = None) -> None:
        """A problem of the layout's region; met while laying out a card, it is kept until
        report_problems() names the cards that met it, in one diagnostic."""
        if card_id is not None and self.card is None:  # a back or a board: said at once
            back = card_id.startswith("back:")
            message = f"{message} ({'back of kind ' + card_id[5:] if back else 'card ' + card_id})"
        elif card_id is not None:
            key = (layout.name, region, message)
            self.folded.setdefault(key, (layout, []))[1].append(card_id)
            return
        mark = layout.marks.get(region)
        line, col = (mark.line, mark.col) if mark else (0, 0)
        file = mark.file if mark else layout.file
        self.report.error(file, line, col, f"{layout.name}.{region}", message)

    # --- context --------------------------------------------------------------------------------
    def context(self, lc: LoadedCard | None) -> dict[str, Any]:
        pack = self.data.pack
        ctx: dict[str, Any] = {"pack": pack.model_dump(include={"id", "title", "subtitle",
                                                                "language", "locale", "version"}),
                               "labels": labels_for(pack.language, pack.labels, pack.locale),
                               "icons": self.icons}
        if lc is None:
            return ctx
        card = lc.card
        kind = self.data.kind(lc.kind)
        groups = [self.data.group(g) for g in ([card.group] if card.group else card.groups)]
        groups = [g.model_dump() for g in groups if g is not None]
        ctx.update(card={**card.model_dump(), **card.extra_fields, "kind": lc.kind},
                   kind={**kind.model_dump(include={"id", "label", "plural", "short_plural"}),
                         "short": kind.short or kind.label},
                   group=groups[0] if groups else None, groups=groups)
        return ctx

    # --- faces ----------------------------------------------------------------------------------
    def face(self, lc: LoadedCard | None, layout: ResolvedLayout, subject: str) -> CardFace:
        """Every region of the layout resolved for one card (or for a back: lc None)."""
        context = self.context(lc)
        face = CardFace(subject)
        self.card = lc
        if lc is not None:
            self.uses[layout.name] = self.uses.get(layout.name, 0) + 1
        ordered = sorted(layout.regions.items(), key=lambda item: item[1].layer)
        for name, region in ordered:
            if region.when is not None and not self._render(layout, name, "when", region.when,
                                                            context, subject):
                continue
            if lc is not None:
                self.drawn[(layout.name, name)] = self.drawn.get((layout.name, name), 0) + 1
            box = Box(name, region)
            box.fill = self._render(layout, name, "fill", region.fill, context, subject)
            box.stroke = self._render(layout, name, "stroke", region.stroke, context, subject)
            box.colour = self._render(layout, name, "colour", region.colour, context,
                                      subject) or "#000000"
            if not self._colours_ok(layout, name, box, subject):
                continue
            if region.type in ("text", "icon"):
                raw = self._render(layout, name, "text", region.text or "", context, subject)
                if raw is None:
                    continue
                if lc is not None and not raw.strip():
                    self.note_blank(lc, layout, name)
                box.text = self._fit(layout, name, region, minus_signs(raw.strip()), subject,
                                     lc)
            elif region.type == "image":
                box.image = self._render(layout, name, "image", region.image, context, subject)
                box.fit, box.focus = picture_fit(region), tuple(region.focus or (0.5, 0.5))
            elif region.type == "portrait":
                box.image = lc.card.image if lc else None
                card = lc.card if lc else None  # the card's own picture, its own fit
                box.fit = (card.image_fit if card else None) or picture_fit(region)
                box.focus = tuple((card.image_focus if card else None) or region.focus
                                  or (0.5, 0.5))
                box.portrait_seed = f"{subject}:{lc.card.name if lc else ''}"
                self._portrait_hints(layout, name, region, box, context, subject)
            elif region.type == "stats" and lc is not None:
                self._stats(layout, name, box, lc)
            face.boxes.append(box)
        self.card = None
        return face

    def note_blank(self, lc: LoadedCard, layout, name: str) -> None:
        """A region that shows a card's field prints nothing on this card (the field is empty
        or missing): kept for report_problems(), which says it when most of the cards the
        region is drawn on do print there."""
        shown = [tuple(k for k in match.groups() if k)
                 for match in _CARD_FIELD.finditer(layout.regions[name].text or "")]
        if shown:  # else the layout's own words printed nothing: nothing of the card's is amiss
            self.blank.setdefault((layout.name, name), (layout, []))[1].append((lc, shown))

    def note_kept(self, lc: LoadedCard, layout, face: CardFace) -> None:
        """What face() counts, for a kept front: its layout's use, the regions drawn (a box
        each) and the blank ones (laid out without a problem, so a text box without text
        printed nothing)."""
        self.uses[layout.name] = self.uses.get(layout.name, 0) + 1
        for box in face.boxes:
            self.drawn[(layout.name, box.name)] = self.drawn.get((layout.name, box.name), 0) + 1
            if box.region.type in ("text", "icon") and box.text is None:
                self.note_blank(lc, layout, box.name)

    def _portrait_hints(self, layout, name, region: Region, box: Box, context, subject) -> None:
        """Who the drawn portrait shows: the layout's Jinja hints, usually card fields."""
        render = self._render
        box.portrait_gender = render(layout, name, "portrait_gender", region.portrait_gender,
                                     context, subject) or None
        age = (render(layout, name, "portrait_age", region.portrait_age, context, subject)
               or "").strip()
        if age:
            try:
                box.portrait_age = int(float(age))
            except ValueError:
                self._layout_error(layout, name, f"portrait_age: '{age}' is not a number of "
                                   f"years (card {subject})")
        role = (render(layout, name, "portrait_role", region.portrait_role, context, subject)
                or "").strip()
        if role:
            from ..pictures.portrait.court import ROLES
            if role in ROLES:
                box.portrait_role = role
            else:
                self._layout_error(layout, name, f"portrait_role: '{role}' is not one of "
                                   f"{', '.join(ROLES)} (card {subject})")
        hair = (render(layout, name, "portrait_hair", region.portrait_hair, context, subject)
                or "").strip()
        if hair:
            try:
                box.portrait_hair = hair_hint(hair)
            except ValueError as problem:
                self._layout_error(layout, name, f"portrait_hair: {problem} (card {subject})")

    def _colours_ok(self, layout, name, box: Box, subject: str) -> bool:
        from ..model.base import HEX_COLOUR
        for attr in ("fill", "stroke", "colour"):
            value = getattr(box, attr)
            if value not in (None, "none") and not HEX_COLOUR.match(value):
                self._layout_error(layout, name, f"{attr}: '{value}' is not a colour "
                                   "#RRGGBB", subject)
                return False
        return True

    def _fit(self, layout, name, region: Region, raw: str, subject: str,
             lc: LoadedCard | None) -> FittedText | None:
        text, unknown = expand_icons(raw, self.icons)
        for icon in unknown:
            self._card_error(lc, layout, name, f"unknown icon ':{icon}:'", needle=f":{icon}:")
        missing = check_glyphs(text, region.font)
        if missing:
            codes = ", ".join(f"U+{ord(c):04X} '{c}'" for c in missing)
            self._card_error(lc, layout, name, f"the font {region.font} has no glyph for {codes}",
                             needle=missing)
            return None
        if not text:
            return None
        min_size = max(region.min_size, self.data.pack.print.min_font_size)
        size = region.size
        if region.fit == "uniform" and lc is not None:
            size = min(size, self.uniform_size(layout, name))
        fitted = fit(text, region.font, size, min(min_size, size), region.leading,
                     region.w * MM, region.h * MM)
        if fitted is None:
            self._card_error(lc, layout, name, f"text does not fit {region.w:g} x {region.h:g} mm "
                             f"even at {min_size:g} pt", detail=f"; shorten it: {text[:50]!r}")
        return fitted

    # --- one size for every card (fit: uniform) ---------------------------------------------------
    def uniform_size(self, layout: ResolvedLayout, name: str) -> float:
        """The size of a `fit: uniform` region: the largest at which the text of every card
        whose front is this layout fits, in this region and in every region of its
        `fit_group` (a card whose text fits at no size is left out: its own diagnostic says
        so). Worked out once per layout and group."""
        region = layout.regions[name]
        group = region.fit_group or name
        key = (layout.name, group)
        if key not in self.uniform:
            members = [(n, r) for n, r in layout.regions.items() if r.fit == "uniform" and
                       (r.fit_group or n) == group and r.type in ("text", "icon")]
            top = min(r.size for _, r in members)
            pack = self.data.pack
            regions = {member: r.model_dump_json() for member, r in members}
            sizes = []
            for lc in self.data.cards:
                kind = self.data.kind(lc.kind)
                if kind is None or kind.front != layout.name:
                    continue
                for member, r in members:
                    def fitted(member=member, r=r, lc=lc) -> tuple:
                        return (self._uniform_fit(layout, member, r, lc, top),)
                    size, = source.kept(_UNIFORM, (lc.card, pack), (
                        lc.kind, layout.name, member, regions[member], top), fitted)
                    if size is not None:
                        sizes.append(size)
            self.uniform[key] = min(sizes, default=top)
        return self.uniform[key]

    def _uniform_fit(self, layout: ResolvedLayout, name: str, region: Region, lc: LoadedCard,
                     top: float) -> float | None:
        """The largest size up to `top` at which the card's text of the region fits (None:
        no text, or none fits)."""
        minimum = min(max(region.min_size, self.data.pack.print.min_font_size), top)
        text = self._quiet_text(layout, name, region, lc)
        fitted = fit(text, region.font, top, minimum, region.leading, region.w * MM,
                     region.h * MM) if text else None
        return None if fitted is None else fitted.size

    def uniform_key(self, layout: ResolvedLayout) -> str:
        """The uniform sizes of a layout's regions: a front depends on them (the other cards'
        texts), so they are part of the key it is kept under."""
        return repr(sorted((name, self.uniform_size(layout, name))
                           for name, region in layout.regions.items()
                           if region.fit == "uniform" and region.type in ("text", "icon")))

    def _quiet_text(self, layout, name: str, region: Region, lc: LoadedCard) -> str | None:
        """A card's text of a region as it would print, or None; problems are left for laying
        the card out to report (once)."""
        context = self.context(lc)
        try:
            if region.when is not None:
                when = self._template(layout, name, "when", region.when)
                if when is None or not when(**context):
                    return None
            source = region.text or ""
            if "{{" in source or "{%" in source:
                template = self._template(layout, name, "text", source)
                source = template.render(**context) if template is not None else None
        except Exception:  # the card's own layout reports it
            return None
        if source is None:
            return None
        text, unknown = expand_icons(minus_signs(source.strip()), self.icons)
        return None if unknown or check_glyphs(text, region.font) else text

    def _card_error(self, lc: LoadedCard | None, layout, region: str, message: str,
                    detail: str = "", needle=None) -> None:
        """A problem of a card's text: kept for report_problems(), with the card field it
        comes from (the field holding `needle` when given, else the region's first
        `card.x`); None when the layout's own words hold it."""
        if lc is None:
            self._layout_error(layout, region, message + detail)
            return
        field = _card_field(lc, layout.regions[region].text or "", needle)
        self.deferred.setdefault((layout.name, region, message), (layout, []))[1].append(
            (lc, field, detail))

    def report_problems(self) -> None:
        """Every kept problem, each where it is: at the card's field when cards differ in it,
        once at the layout's region (with the count and the first cards) when the layout's
        own words cause it or most cards of the layout meet it (the region is too small)."""
        for (name, region, message), (layout, items) in self.deferred.items():
            from_cards = [item for item in items if item[1] is not None]
            if from_cards and (len(from_cards) < FOLD_AT or
                               2 * len(from_cards) < self.uses.get(name, 0)):
                for lc, (keys, field), detail in from_cards:
                    mark = lc.mark(*keys)
                    self.report.error(lc.file, mark.line, mark.col, lc.card.id,
                                      f"{field}: {message}{detail} (region {region})")
                items = [item for item in items if item[1] is None]
            if items:
                ids = [lc.card.id for lc, _, _ in items]
                self._layout_error(layout, region, f"{message} {_on_cards(ids, self.uses, name)}")
        for (name, region, message), (layout, ids) in self.folded.items():
            self._layout_error(layout, region, f"{message} {_on_cards(ids, self.uses, name)}")
        for (name, region), (layout, items) in self.blank.items():
            # most cards the region is drawn on fill it; else the field is optional by design
            if 2 * len(items) < self.drawn.get((name, region), 0):
                for lc, shown in items:
                    self._report_blank(lc, layout, region, shown)
        self.deferred.clear()
        self.folded.clear()
        self.blank.clear()
        self.drawn.clear()

    def _report_blank(self, lc: LoadedCard, layout, region: str, shown: list) -> None:
        """A card that leaves a region empty which most cards it is drawn on fill: a gap on the
        printed card. Without its name a card cannot be named at the table (asked for, read
        out): an error. A title, quote or other text may be left off one card on purpose: a
        warning, so that a slip is seen (--strict makes it an error)."""
        present = [keys for keys in shown if _has_key(lc.raw, keys)]
        keys = (present or shown)[0]
        field = ".".join(keys)
        mark = lc.mark(*keys)
        self.report.add(lc.file, mark.line, mark.col, "error" if field == "name" else "warning",
                        lc.card.id,
                        f"{field}: {'empty' if present else 'missing'}, so region {region} of "
                        f"{layout.name} prints nothing on this card (it does on most others); "
                        f"fill it in, or draw the region only when it is set "
                        f"(when: \"card.{field}\")")

    def _stats(self, layout, name, box: Box, lc: LoadedCard) -> None:
        rows = []
        for category in self.data.pack.categories:
            if lc.kind not in category.kinds:
                continue
            values = tuple((stat_value(v, lc.card.stats.get(v.key), self.data.pack.locale,
                                       f"{category.label} {v.label}"), v.wins)
                           for v in category.values)
            rows.append(StatRow(category.label, values,
                                category.common and box.region.mark_common))
        box.stats = tuple(rows)
        box.stats_min = max(box.region.min_size, self.data.pack.print.min_font_size)
        box.stats_size = stats_font_size(box, self.icons)
        if box.stats_size < max(box.region.min_size, self.data.pack.print.min_font_size):
            # the lines are the pack's categories, the same on every card of the kind
            self._layout_error(layout, name, f"{len(rows)} stat lines do not fit "
                               f"{box.region.w:g} x {box.region.h:g} mm at "
                               f"{box.region.min_size:g} pt", lc.card.id)


FOLD_AT = 3  # this many cards of a layout (and half of them) meeting one problem: the layout's


def _has_key(raw, keys: tuple[str, ...]) -> bool:
    """The card's file holds this (nested) key."""
    for key in keys:
        if not isinstance(raw, dict) or key not in raw:
            return False
        raw = raw[key]
    return True


def _card_field(lc: LoadedCard, source: str, needle) -> tuple[tuple[str, ...], str] | None:
    """(keys, shown name) of the card field a region's template shows that holds `needle`
    (a text, or characters any of which), else the first one present; None when none does."""
    found = []
    for match in _CARD_FIELD.finditer(source):
        keys = tuple(k for k in match.groups() if k)
        value = lc.raw.get(keys[0])
        if keys[0] not in lc.raw:
            continue
        nested = len(keys) > 1 and isinstance(value, dict) and keys[1] in value
        keys = keys if nested else keys[:1]
        text = str(value[keys[1]] if nested else value)
        holds = needle is None or (needle in text if isinstance(needle, str) else
                                   any(c in text for c in needle))
        if holds:
            found.append((keys, ".".join(keys)))
    return found[0] if found else None


def _on_cards(ids: list[str], uses: dict[str, int], layout: str) -> str:
    """'(on all 52 cards: A1, A2, A3 ...)', '(card A1)', '(on 46 of 52 cards: ...)'."""
    unique = list(dict.fromkeys(ids))
    if len(unique) == 1:
        return f"(card {unique[0]})"
    total = uses.get(layout, len(unique))
    shown = ", ".join(unique[:3]) + (" ..." if len(unique) > 3 else "")
    amount = f"all {total}" if len(unique) >= total else f"{len(unique)} of {total}"
    return f"(on {amount} cards: {shown})"


def stats_font_size(box: Box, icons: dict[str, str]) -> float:
    """Largest size (≤ region.size) at which every stat row fits one line of the region."""
    from ..text.stats import inset, row_width
    region = box.region
    rows = len(box.stats) or 1
    size = min(region.size, region.h * MM / rows / region.leading)
    size = int(size * 4) / 4
    room = region.w * MM - 2 * inset(region)
    while size >= 4:
        if all(row_width(row, region.font, size, icons, box.stats_min) <= room
               for row in box.stats):
            return size
        size -= 0.25
    return 0.0


def safe_zone_problems(layout: ResolvedLayout, card_size: tuple[float, float],
                       safe: float) -> list[tuple[str, str]]:
    """Text-bearing regions reaching outside the safe zone: (region, message)."""
    w, h = card_size
    out = []
    for name, region in layout.regions.items():
        if region.type not in TEXT_TYPES:
            continue
        if (region.x < safe - 1e-6 or region.y < safe - 1e-6 or
                region.x + region.w > w - safe + 1e-6 or region.y + region.h > h - safe + 1e-6):
            out.append((name, f"{region.type} region at x={region.x:g} y={region.y:g} "
                              f"w={region.w:g} h={region.h:g} mm reaches outside the safe zone "
                              f"({safe:g} mm inside the {w:g} x {h:g} mm card)"))
    return out
