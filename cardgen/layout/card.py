"""Card layout: a card + its layout → positioned boxes with resolved text, fitted to size.

Pure geometry and text decisions, no drawing: every overflow, missing glyph, bad template or
region outside the safe zone is found here, before any output file is opened.
"""

from __future__ import annotations

import re
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from ..diagnostics import Report
from ..labels import DEFAULT_ICONS, labels_for
from ..load import LoadedCard, PackData, ResolvedLayout
from ..model.card import hair_hint
from ..model.layout import Region
from ..render.text import FittedText, check_glyphs, expand_icons, fit

TEXT_TYPES = ("text", "stats", "icon")
_CARD_FIELD = re.compile(r"card\.([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?")
MAX_TEXT = 5000  # characters a template may produce for one region


@dataclass(frozen=True)
class StatRow:
    label: str
    values: tuple[tuple[str, str], ...]  # (printed value, "high"|"low")
    common: bool


@dataclass
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
    stats: tuple[StatRow, ...] = ()
    stats_size: float = 0.0
    stats_min: float = 0.0  # the smallest type size allowed: win marks never print below it


@dataclass
class CardFace:
    card_id: str
    boxes: list[Box] = field(default_factory=list)


TEMPLATE_SECONDS = 2.0  # wall time one template may run


class TemplateLimit(Exception):
    """A template ran too long or produced too much: the template's problem, not ours."""


@contextmanager
def _time_limit(seconds: float):
    """Interrupt a runaway template (a loop in a loop) after `seconds`, where signals allow."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise TemplateLimit(f"template ran longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class CappedTemplate(jinja2.Template):
    """A template whose output size and running time are capped."""

    def render(self, *args, **kwargs) -> str:
        out, size = [], 0
        with _time_limit(TEMPLATE_SECONDS):
            for chunk in self.generate(*args, **kwargs):
                size += len(chunk)
                if size > MAX_TEXT:
                    raise TemplateLimit(f"template produced more than {MAX_TEXT} characters")
                out.append(chunk)
        return "".join(out)


class CappedEnvironment(SandboxedEnvironment):
    """Sandboxed Jinja where `*` and `**` cannot build huge values either."""

    template_class = CappedTemplate
    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context, operator, left, right):
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > 64:
            raise TemplateLimit("exponent too large in a template")
        if operator == "*":
            for value, times in ((left, right), (right, left)):
                if isinstance(value, (str, list, tuple)) and isinstance(times, int) and \
                        len(value) * times > MAX_TEXT:
                    raise TemplateLimit("template builds a value that is too large")
        return super().call_binop(context, operator, left, right)


def environment() -> SandboxedEnvironment:
    """Jinja for card texts: sandboxed, capped, and a typo is an error, never empty text."""
    return CappedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=False)


class CardLayouter:
    """Lays out every face of a pack; compiles each region's templates once."""

    def __init__(self, data: PackData, report: Report):
        self.data, self.report = data, report
        self.env = environment()
        self.compiled: dict[tuple[str, str, str], Any] = {}
        self.icons = {**DEFAULT_ICONS, **data.pack.icons}
        self.size = data.pack.print.size()  # the pack's card size (boards size slots by it)
        for group in data.pack.groups:
            self.icons.setdefault(group.id, group.symbol)

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
            self._layout_error(layout, name, f"{attr}: {exc.message} (card {card_id})")
            return None
        except jinja2.exceptions.SecurityError as exc:
            self._layout_error(layout, name, f"{attr}: not allowed in a template: {exc}")
            return None
        except Exception as exc:  # any other template failure is the template's problem
            self._layout_error(layout, name, f"{attr}: template failed: {exc} (card {card_id})")
            return None
        if len(out) > MAX_TEXT:
            self._layout_error(layout, name, f"{attr}: template produced {len(out)} characters; "
                               f"the limit is {MAX_TEXT}")
            return None
        return out

    def _layout_error(self, layout: ResolvedLayout, region: str, message: str) -> None:
        mark = layout.marks.get(region)
        line, col = (mark.line, mark.col) if mark else (0, 0)
        file = mark.file if mark else layout.file
        self.report.error(file, line, col, f"{layout.name}.{region}", message)

    # --- context --------------------------------------------------------------------------------
    def context(self, lc: LoadedCard | None) -> dict[str, Any]:
        pack = self.data.pack
        ctx: dict[str, Any] = {"pack": pack.model_dump(include={"id", "title", "subtitle",
                                                                "language", "version"}),
                               "labels": labels_for(pack.language, pack.labels),
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
        ordered = sorted(layout.regions.items(), key=lambda item: item[1].layer)
        for name, region in ordered:
            if region.when is not None and not self._render(layout, name, "when", region.when,
                                                            context, subject):
                continue
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
                box.text = self._fit(layout, name, region, raw.strip(), subject, lc)
            elif region.type == "image":
                box.image = self._render(layout, name, "image", region.image, context, subject)
            elif region.type == "portrait":
                box.image = lc.card.image if lc else None
                box.portrait_seed = f"{subject}:{lc.card.name if lc else ''}"
                self._portrait_hints(layout, name, region, box, context, subject)
            elif region.type == "stats" and lc is not None:
                self._stats(layout, name, box, lc)
            face.boxes.append(box)
        return face

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
        hair = (render(layout, name, "portrait_hair", region.portrait_hair, context, subject)
                or "").strip()
        if hair:
            try:
                box.portrait_hair = hair_hint(hair)
            except ValueError as problem:
                self._layout_error(layout, name, f"portrait_hair: {problem} (card {subject})")

    def _colours_ok(self, layout, name, box: Box, subject: str) -> bool:
        from ..model.base import _HEX
        for attr in ("fill", "stroke", "colour"):
            value = getattr(box, attr)
            if value not in (None, "none") and not _HEX.match(value):
                self._layout_error(layout, name, f"{attr}: '{value}' is not a colour "
                                   f"#RRGGBB (card {subject})")
                return False
        return True

    def _fit(self, layout, name, region: Region, raw: str, subject: str,
             lc: LoadedCard | None) -> FittedText | None:
        text, unknown = expand_icons(raw, self.icons)
        for icon in unknown:
            self._layout_error(layout, name, f"text: unknown icon ':{icon}:' (card {subject})")
        missing = check_glyphs(text, region.font)
        if missing:
            codes = ", ".join(f"U+{ord(c):04X} '{c}'" for c in missing)
            self._card_error(lc, layout, name, f"the font {region.font} has no glyph for {codes}")
            return None
        if not text:
            return None
        min_size = max(region.min_size, self.data.pack.print.min_font_size)
        fitted = fit(text, region.font, region.size, min(min_size, region.size), region.leading,
                     region.w * MM, region.h * MM)
        if fitted is None:
            self._card_error(lc, layout, name, f"text does not fit {region.w:g} x {region.h:g} mm "
                             f"even at {min_size:g} pt; shorten it: {text[:50]!r}")
        return fitted

    def _card_error(self, lc: LoadedCard | None, layout, region: str, message: str) -> None:
        """A problem caused by the card's data: reported at the card field the region shows
        (its first `card.x` or `card.x.y` in the template), else at the card itself."""
        if lc is None:
            self._layout_error(layout, region, message)
            return
        source = layout.regions[region].text or ""
        for match in _CARD_FIELD.finditer(source):
            keys = [k for k in match.groups() if k]
            if keys[0] in lc.raw:
                mark = lc.mark(*keys)
                field = ".".join(keys[:2]) if len(keys) > 1 and isinstance(
                    lc.raw.get(keys[0]), dict) and keys[1] in lc.raw[keys[0]] else keys[0]
                self.report.error(lc.file, mark.line, mark.col, lc.card.id,
                                  f"{field}: {message} (region {region})")
                return
        mark = lc.mark()
        self.report.error(lc.file, mark.line, mark.col, lc.card.id, f"{region}: {message}")

    def _stats(self, layout, name, box: Box, lc: LoadedCard) -> None:
        rows = []
        for category in self.data.pack.categories:
            if lc.kind not in category.kinds:
                continue
            values = tuple((format_value(v, lc.card.stats.get(v.key)), v.wins)
                           for v in category.values)
            rows.append(StatRow(category.label, values,
                                category.common and box.region.mark_common))
        box.stats = tuple(rows)
        box.stats_min = max(box.region.min_size, self.data.pack.print.min_font_size)
        box.stats_size = stats_font_size(box, self.icons)
        if box.stats_size < max(box.region.min_size, self.data.pack.print.min_font_size):
            self._card_error(lc, layout, name, f"{len(rows)} stat lines do not fit "
                             f"{box.region.w:g} x {box.region.h:g} mm at "
                             f"{box.region.min_size:g} pt")


MM = 72 / 25.4


def format_value(spec, value) -> str:
    """A stat as printed: thousands with a thin apostrophe, levels as 'level (detail)'."""
    if value is None:
        return "–"
    if spec.type == "level":
        return f"{value[0]} ({value[1]})"
    if spec.type == "money":
        return f"{int(value):,}".replace(",", "’")
    if spec.type == "decimal":
        return f"{value:.{spec.decimals}f}"
    if spec.type == "rank":
        return f"{int(value)}."
    return f"{value:g}"


def stats_font_size(box: Box, icons: dict[str, str]) -> float:
    """Largest size (≤ region.size) at which every stat row fits one line of the region."""
    from .stats import row_width
    region = box.region
    rows = len(box.stats) or 1
    size = min(region.size, region.h * MM / rows / region.leading)
    size = int(size * 4) / 4
    while size >= 4:
        if all(row_width(row, region.font, size, icons, box.stats_min) <= region.w * MM
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
