"""The deck sheet: one page that says which cards to pull from the printed pack and how to play.

Printed with the build (deck.pdf), so a table knows what was chosen: preset or list, the seed of a
random draw, variant, players, options, every card with a box to tick, and the notes.
"""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor, black

from ..layout.sheet import PAPER
from ..load import PackData
from ..render.fonts import face_name, missing_glyphs, width
from ..render.pdf import MM, new_canvas
from .deck import Deck

LABELS = {
    "title": "Deck sheet", "deck": "Deck", "preset": "Preset", "custom": "custom list",
    "random": "drawn at random", "all": "every card", "seed": "Seed", "variant": "Variant",
    "players": "Players", "teams": "Teams", "options": "Options", "none": "none",
    "cards": "cards", "special": "Special cards", "quartets": "Quartets", "octets": "Octets",
    "notes": "Notes", "repeat": "Repeat with", "check": "Pull these cards: tick ☐",
    "each": "cards each", "left": "left over", "dealt_none": "no cards dealt",
}
MARGIN = 14  # mm
LAYOUTS = (  # columns, with names, font size (pt), row height (mm)
    (4, True, 7.5, 4.6), (4, True, 6.5, 3.8), (5, True, 6.0, 3.3), (8, False, 7.0, 4.0),
    (10, False, 6.0, 3.2), (14, False, 6.0, 3.0))


def deck_sheet_pdf(deck: Deck, data: PackData, paper: str = "a4") -> bytes:
    """The one-page deck sheet of a composed deck, as PDF bytes (reproducible)."""
    labels = {**LABELS, **deck.composition.labels}
    page_w, page_h = PAPER.get(paper, PAPER["a4"])
    buffer = io.BytesIO()
    meta = {"title": f"{data.pack.title} – {labels['title']}", "author": data.pack.author,
            "subject": deck.describe(), "keywords": f"cardgen, {data.pack.id}, deck"}
    canvas = new_canvas(buffer, (page_w * MM, page_h * MM), meta)
    sheet = _Sheet(canvas, deck, data, labels, page_w, page_h)
    sheet.draw()
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


class _Sheet:
    def __init__(self, canvas, deck: Deck, data: PackData, labels: dict[str, str],
                 page_w: float, page_h: float):
        self.c, self.deck, self.data, self.labels = canvas, deck, data, labels
        self.page_w, self.page_h = page_w, page_h
        self.regular, self.bold = face_name("sans"), face_name("sans", bold=True)
        self.condensed = face_name("condensed")
        self.groups = {g.id: g for g in data.pack.groups}

    # text helpers ------------------------------------------------------------------------
    def text(self, x: float, y: float, text: str, font: str, size: float) -> None:
        self.c.setFont(font, size)
        self.c.drawString(x * MM, (self.page_h - y) * MM, _drawable(text, font))

    def wrap(self, text: str, font: str, size: float, max_w: float) -> list[str]:
        text = _drawable(text, font)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                trial = f"{line} {word}".strip()
                if line and width(trial, font, size) / MM > max_w:
                    lines.append(line)
                    line = word
                else:
                    line = trial
            lines.append(line)
        return lines

    # the page ----------------------------------------------------------------------------
    def rows(self) -> list[tuple[str, str]]:
        d, comp, lab = self.deck, self.deck.composition, self.labels
        rows: list[tuple[str, str]] = []
        if d.preset:
            preset = comp.presets[d.preset]
            rows.append((lab["deck"], f"{lab['preset']} {d.preset}"
                         + (f" – {preset.label}" if preset.label else "")))
        elif d.choice.cards:
            rows.append((lab["deck"], f"{lab['custom']}: {d.choice.cards}"))
        elif d.choice.random:
            rows.append((lab["deck"], f"{d.choice.random} {lab['cards']}, {lab['random']}"))
        else:
            rows.append((lab["deck"], lab["all"]))
        if d.seed is not None:
            rows.append((lab["seed"], str(d.seed)))
        if d.variant:
            rows.append((lab["variant"], comp.variants[d.variant].label or d.variant))
        if d.players:
            hand = d.hand(lab)
            rows.append((lab["players"], f"{d.players}" + (f" ({hand})" if hand else "")))
        if d.teams:
            rows.append((lab["teams"], " + ".join(map(str, d.teams))))
        if comp.options:
            rows.append((lab["options"], ", ".join(comp.options[o].label or o
                                                   for o in d.options) or lab["none"]))
        counts = d.kind_counts()
        rows.append((lab["cards"][:1].upper() + lab["cards"][1:], f"{d.size}: " + ", ".join(
            f"{counts[k]} {self.kind_word(k, counts[k])}" for k in d.kind_labels
            if counts.get(k))))
        if comp.sets_of:
            rows.append((lab["quartets"], str(d.quartets())))
        if d.octets_on:
            rows.append((lab["octets"], ", ".join(
                f"{self.deck.group_labels.get(ln.group, ln.group)} {ln.reachable}"
                + (f" ({ln.score.base}" + (f"/{ln.score.bonus}" if ln.score.bonus else "") + ")"
                   if ln.score else "") for ln in d.octet_lines())))
        return rows

    def kind_word(self, kind_id: str, count: int) -> str:
        kind = self.data.kind(kind_id)
        if kind is None:
            return kind_id
        return kind.label if count == 1 else (kind.plural or kind.label)

    def draw(self) -> None:
        left, right = MARGIN, self.page_w - MARGIN
        usable = right - left
        y = MARGIN + 6
        self.text(left, y, f"{self.data.pack.title} – {self.labels['title']}", self.bold, 16)
        y += 9
        label_w = max(width(_drawable(k, self.bold), self.bold, 9) for k, _ in self.rows()) / MM
        label_w = min(label_w + 3, 45)
        for key, value in self.rows():
            lines = self.wrap(value, self.regular, 9, usable - label_w)
            self.text(left, y, key, self.bold, 9)
            for line in lines:
                self.text(left + label_w, y, line, self.regular, 9)
                y += 4.2
            y += 0.6
        notes = self.deck.notes
        note_lines = [ln for note in notes for ln in self.wrap("• " + note, self.regular, 8,
                                                                 usable)]
        footer_h = 12 + (len(note_lines) * 3.6 + 6 if note_lines else 0)
        y += 2
        self.text(left, y, self.labels["check"], self.bold, 9)
        self.legend(right, y)
        y += 5
        self.cards(left, y, usable, self.page_h - MARGIN - footer_h - y)
        y = self.page_h - MARGIN - footer_h + 4
        if note_lines:
            self.text(left, y, self.labels["notes"], self.bold, 9)
            y += 4.2
            for line in note_lines:
                self.text(left, y, line, self.regular, 8)
                y += 3.6
            y += 2
        command = f"cardgen build {self.deck.pack_id} {self.deck.command()}".strip()
        self.c.setStrokeColor(black)
        self.c.setLineWidth(0.4)
        self.c.line(left * MM, (self.page_h - y + 3.5) * MM, right * MM,
                    (self.page_h - y + 3.5) * MM)
        for line in self.wrap(f"{self.labels['repeat']}: {command}", self.condensed, 7.5, usable):
            self.text(left, y, line, self.condensed, 7.5)
            y += 3.4

    def legend(self, right: float, y: float) -> None:
        """The group colours of the dots, right-aligned on the line (only groups in the deck)."""
        used = {g for lc in self.deck.cards for g in ([lc.card.group] if lc.card.group
                                                         else lc.card.groups)}
        groups = [g for g in self.data.pack.groups if g.id in used and g.colour.startswith("#")]
        x = right
        for group in reversed(groups):
            label = _drawable(group.short or group.label, self.regular)
            x -= width(label, self.regular, 7.5) / MM
            self.text(x, y, label, self.regular, 7.5)
            x -= self.group_mark(x, y, group.id, 7.5, measure=True) + 0.6
            self.group_mark(x, y, group.id, 7.5)
            x -= 3

    def group_mark(self, x: float, y: float, group_id: str, size: float,
                   measure: bool = False) -> float:
        """The group's symbol in its colour (a dot where the font lacks it); its width in mm.

        The symbol, not the colour alone, tells the groups apart (colour-blind players,
        black-and-white printers)."""
        group = self.groups.get(group_id)
        if group is None:
            return 0.0
        symbol = group.symbol if group.symbol and not missing_glyphs(group.symbol, self.regular) \
            else "●"
        w = width(symbol, self.regular, size) / MM
        if not measure:
            colour = group.colour if group.colour.startswith("#") else "#000000"
            self.c.setFillColor(HexColor(colour))
            self.text(x, y, symbol, self.regular, size)
            self.c.setFillColor(black)
        return w + 0.3

    def cards(self, x0: float, y0: float, w: float, h: float) -> None:
        """Every chosen card with a box to tick, grouped by kind; the densest layout that fits."""
        groups = [(kind, [lc for lc in self.deck.cards if lc.kind == kind])
                  for kind in self.deck.kind_labels]
        groups = [(k, cards) for k, cards in groups if cards]
        for cols, names, size, row_h in LAYOUTS:
            need = sum(row_h * 1.25 + -(-len(cards) // cols) * row_h for _, cards in groups)
            if need <= h or (cols, names, size, row_h) == LAYOUTS[-1]:
                break
        cell_w = w / cols
        y = y0
        for kind, cards in groups:
            self.text(x0, y, f"{self.deck.kind_labels[kind]} ({sum(c.card.count for c in cards)})",
                      self.bold, size + 0.5)
            y += row_h * 1.25
            for i, lc in enumerate(cards):
                col, row = i % cols, i // cols
                cx, cy = x0 + col * cell_w, y + row * row_h
                self.cell(cx, cy, cell_w, size, lc, names)
            y += -(-len(cards) // cols) * row_h
            y += row_h * 0.25

    def cell(self, x: float, y: float, w: float, size: float, lc, names: bool) -> None:
        box = size * 0.32  # mm
        self.c.setStrokeColor(black)
        self.c.setLineWidth(0.5)
        self.c.rect(x * MM, (self.page_h - y) * MM, box * MM, box * MM, stroke=1, fill=0)
        marks = [lc.card.group] if lc.card.group else list(lc.card.groups)
        tx = x + box + 0.8
        for group in marks:
            tx += self.group_mark(tx, y, group, size)
        tx = max(tx, x + box + 0.8 + 2.2) + 0.4
        label = lc.card.id + (f" ×{lc.card.count}" if lc.card.count > 1 else "")
        self.text(tx, y, label, self.bold, size)
        if names and lc.card.name:
            nx = tx + width(label, self.bold, size) / MM + 1.2
            room = x + w - 1.5 - nx
            name = _fit(_drawable(lc.card.name, self.regular), self.regular, size, room)
            if name:
                self.text(nx, y, name, self.regular, size)


def _drawable(text: str, font: str) -> str:
    """The text without characters the font lacks (the sheet never prints a blank box)."""
    missing = set(missing_glyphs(text, font))
    return "".join(c for c in text if c not in missing) if missing else text


def _fit(text: str, font: str, size: float, room_mm: float) -> str:
    if room_mm <= 2:
        return ""
    if width(text, font, size) / MM <= room_mm:
        return text
    while text and width(text + "…", font, size) / MM > room_mm:
        text = text[:-1]
    return (text.rstrip() + "…") if text else ""
