"""Our text markup and fitting text into a box.

Markup (the only one users write): **bold**, *italic*, line breaks, and :name: for an icon glyph.
Everything else is literal: '<', '&' and friends are just characters, because we never hand user
text to a markup parser.

Fitting: wrap at spaces, shrink in quarter points down to the region's minimum, and report what
still does not fit — text never overflows silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .fonts import face_name, missing_glyphs, width

ICON = re.compile(r":([a-z][a-z0-9_\-]*):")
_STYLE = re.compile(r"(\*\*|\*)")


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class Line:
    runs: tuple[tuple[str, str], ...]  # (pdf font name, text)
    width: float  # points
    indent: float = 0.0  # points right of the box's left edge: a list item's later lines
    # hang under its text, not under its bullet


@dataclass(frozen=True)
class FittedText:
    lines: tuple[Line, ...]
    size: float
    leading: float  # points between baselines


def expand_icons(text: str, icons: dict[str, str]) -> tuple[str, list[str]]:
    """Replace :name: by its glyph; return the text and the unknown icon names."""
    unknown: list[str] = []

    def swap(match: re.Match) -> str:
        name = match.group(1)
        if name in icons:
            return icons[name]
        unknown.append(name)
        return match.group(0)

    return ICON.sub(swap, text), unknown


def parse(text: str) -> list[list[Run]]:
    """Paragraph lines of styled runs. Unclosed markers stay literal text."""
    out: list[list[Run]] = []
    for raw_line in text.split("\n"):
        runs: list[Run] = []
        bold = italic = False
        parts = _STYLE.split(raw_line)
        # markers count as markup only when they are balanced on the line
        balanced = {"**": raw_line.count("**") % 2 == 0,
                    "*": (raw_line.count("*") - 2 * raw_line.count("**")) % 2 == 0}
        for part in parts:
            if part == "**" and balanced["**"]:
                bold = not bold
            elif part == "*" and balanced["*"]:
                italic = not italic
            elif part:
                runs.append(Run(part, bold, italic))
        out.append(runs)
    return out


def check_glyphs(text: str, family: str) -> list[str]:
    """Characters of a marked-up text missing from the family's faces."""
    missing: set[str] = set()
    for line in parse(text):
        for run in line:
            missing.update(missing_glyphs(run.text, face_name(family, run.bold, run.italic)))
    return sorted(missing)


def _words(runs: list[Run], family: str) -> list[tuple[bool, list[tuple[str, str]]]]:
    """Words as (space before?, [(font, text) pieces]); a hyphen is a break point too."""
    words: list[tuple[bool, list[tuple[str, str]]]] = [(False, [])]
    for run in runs:
        font = face_name(family, run.bold, run.italic)
        for i, piece in enumerate(run.text.split(" ")):
            if i > 0:
                words.append((True, []))
            for j, part in enumerate(_HYPHEN.split(piece)):
                if j > 0:
                    words.append((False, []))
                if part:
                    words[-1][1].append((font, part))
    return [(space, w) for space, w in words if w]


_HYPHEN = re.compile(r"(?<=[A-Za-zÄÖÜäöüß]-)(?=[A-Za-zÄÖÜäöü])")


BULLETS = ("• ", "– ", "- ")  # a paragraph starting so is a list item: later lines hang


def _hang(runs: list[Run], family: str, size: float) -> float:
    """The indent of a list item's later lines: the width of its bullet and space."""
    if runs and runs[0].text.startswith(BULLETS):
        first = runs[0]
        return width(first.text[:2], face_name(family, first.bold, first.italic), size)
    return 0.0


def _wrap(paragraphs: list[list[Run]], family: str, size: float, max_width: float):
    """Greedy wrap; None when a single word is wider than the box."""
    lines: list[Line] = []
    for runs in paragraphs:
        words = _words(runs, family)
        if not words:
            lines.append(Line((), 0.0))
            continue
        hang = _hang(runs, family, size)
        indent, room = 0.0, max_width
        current: list[tuple[str, str]] = []
        current_w = 0.0
        for spaced, word in words:
            word_w = sum(width(t, f, size) for f, t in word)
            if word_w > max_width - hang + 1e-6:
                return None
            space_w = width(" ", word[0][0], size) if current and spaced else 0.0
            if current and current_w + space_w + word_w > room + 1e-6:
                lines.append(Line(tuple(current), current_w, indent))
                indent, room = hang, max_width - hang
                current, current_w, space_w = [], 0.0, 0.0
            if current and space_w:
                current.append((word[0][0], " "))
            current.extend(word)
            current_w += space_w + word_w
        lines.append(Line(tuple(current), current_w, indent))
    return lines


def fit(text: str, family: str, size: float, min_size: float, leading: float,
        box_w: float, box_h: float) -> FittedText | None:
    """The largest size (quarter-point steps, >= min_size) at which text fits; None if none."""
    paragraphs = parse(text)
    current = size
    while current >= min_size - 1e-9:
        lines = _wrap(paragraphs, family, current, box_w)
        if lines is not None:
            step = current * leading
            height = current + step * (len(lines) - 1)  # first line: its size; then leading
            if height <= box_h + 1e-6:
                return FittedText(tuple(lines), current, step)
        current -= 0.25
    return None
