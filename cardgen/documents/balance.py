"""balance.pdf: the balance result as charts a designer reads at a glance.

Why reportlab's own graphics (reportlab.graphics.shapes, drawn with renderPDF): the charts stay
vectors in the PDF, the project needs no second plotting library, and the canvas runs in
invariant mode like every other output, so the same result gives the same bytes.
"""

from __future__ import annotations

import io
from statistics import median

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Circle, Drawing, Line, Rect, String
from reportlab.lib.colors import Color, HexColor

from ..analyse.report import points_share, rho_text, summary
from ..analyse.run import BalanceResult
from ..text.fonts import face_name
from ..render.pdf import new_canvas

PAGE = (842, 595)          # A4 landscape, in points
MARGIN = 36
GREY = HexColor("#9A9A9A")
STRATEGY_WORDS = {"best": "best category of the front card", "random": "a random category",
                  "mixed": "mixed tables"}
INK = HexColor("#222222")


def balance_pdf(result: BalanceResult) -> bytes:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, PAGE, {"title": f"{result.title}: balance",
                                       "subject": "cardgen balance"})
    pages = [_summary_page, _heat_page, _points_page, _play_page]
    for page in pages:
        drawing = Drawing(*PAGE)
        page(drawing, result)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _text(d: Drawing, x: float, y: float, text: str, size: float = 8, bold: bool = False,
          anchor: str = "start", colour=INK) -> None:
    d.add(String(x, y, text, fontName=face_name("sans", bold=bold), fontSize=size,
                 textAnchor=anchor, fillColor=colour))


def _title(d: Drawing, result: BalanceResult, heading: str) -> None:
    _text(d, MARGIN, PAGE[1] - MARGIN, f"{result.title} — {heading}", 14, bold=True)


def _group_colour(result: BalanceResult, i: int):
    card = result.table.cards[i].card
    group = card.group or (card.groups[0] if card.groups else "")
    return HexColor(result.group_colours.get(group, "#777777"))


def _summary_page(d: Drawing, result: BalanceResult) -> None:
    """The terminal summary, then every card's strength, sorted, coloured by group."""
    _title(d, result, "balance")
    y = PAGE[1] - MARGIN - 22
    for line in summary(result)[1:]:
        _text(d, MARGIN, y, line.strip(), 8)
        y -= 11
    m, t = result.measures, result.table
    order = sorted(range(len(t.deck)), key=lambda k: (-m.strength[k], t.ids[t.deck[k]]))
    _bars(d, result, order, (MARGIN, 70, PAGE[0] - 2 * MARGIN, y - 110))
    x = MARGIN
    for group, colour in result.group_colours.items():
        d.add(Rect(x, 40, 8, 8, fillColor=HexColor(colour), strokeColor=None))
        _text(d, x + 11, 41, result.group_labels.get(group, group), 7)
        x += 120


def _bars(d: Drawing, result: BalanceResult, order: list[int], box) -> None:
    """Strength (mean beat rate) per card: bar = strength, tick = best category's beat rate."""
    x0, y0, w, h = box
    m, t = result.measures, result.table
    _text(d, x0, y0 + h + 8, "strength per card (mean beat rate; tick: its best category)", 9,
          bold=True)
    for v in (0, 0.25, 0.5, 0.75, 1.0):
        d.add(Line(x0, y0 + v * h, x0 + w, y0 + v * h, strokeColor=GREY, strokeWidth=0.3))
        _text(d, x0 - 4, y0 + v * h - 2, f"{v:.2f}", 6, anchor="end")
    step = w / max(1, len(order))
    for n, k in enumerate(order):
        x = x0 + n * step
        d.add(Rect(x + 0.5, y0, step - 1, m.strength[k] * h,
                   fillColor=_group_colour(result, t.deck[k]), strokeColor=None))
        d.add(Line(x + 0.5, y0 + m.best[k] * h, x + step - 0.5, y0 + m.best[k] * h,
                   strokeColor=INK, strokeWidth=0.8))
        _text(d, x + step / 2, y0 - 8, t.ids[t.deck[k]], 5, anchor="middle")


def _heat(value) -> Color:
    """Beat rate 0 red, 0.5 white, 1 blue; no duel grey."""
    if value is None:
        return HexColor("#D0D0D0")
    if value < 0.5:
        f = value / 0.5
        return Color(0.85 + 0.15 * f, 0.25 + 0.75 * f, 0.2 + 0.8 * f)
    f = (value - 0.5) / 0.5
    return Color(1 - 0.8 * f, 1 - 0.55 * f, 1 - 0.2 * f)


def _heat_page(d: Drawing, result: BalanceResult) -> None:
    """Card × category beat rates: columns the cards by strength, rows the categories."""
    _title(d, result, "beat rate per card and category")
    m, t = result.measures, result.table
    order = sorted(range(len(t.deck)), key=lambda k: (-m.strength[k], t.ids[t.deck[k]]))
    left, top = MARGIN + 90, PAGE[1] - MARGIN - 30
    cw = (PAGE[0] - left - MARGIN) / max(1, len(order))
    ch = min(20, (top - 80) / max(1, len(m.columns)))
    for r, c in enumerate(m.columns):
        column = t.columns[c]
        y = top - (r + 1) * ch
        arrow = "▲" if column.high else "▼"
        _text(d, left - 4, y + ch / 2 - 2.5, f"{column.label} {arrow}", 7, anchor="end")
        for n, k in enumerate(order):
            d.add(Rect(left + n * cw, y, cw, ch, fillColor=_heat(m.beat[k][r]),
                       strokeColor=HexColor("#FFFFFF"), strokeWidth=0.2))
    bottom = top - len(m.columns) * ch
    for n, k in enumerate(order):
        _text(d, left + n * cw + cw / 2, bottom - 8, t.ids[t.deck[k]], 5, anchor="middle")
    for n, v in enumerate((0, 0.25, 0.5, 0.75, 1)):
        d.add(Rect(left + n * 40, 30, 40, 10, fillColor=_heat(v), strokeColor=GREY,
                   strokeWidth=0.3))
        _text(d, left + n * 40 + 20, 20, f"{v:.2f}", 6, anchor="middle")
    _text(d, left - 4, 32, "beats this share of the deck", 7, anchor="end")


def _points_page(d: Drawing, result: BalanceResult) -> None:
    """Points against strength (left) and the categories' rank correlations (right)."""
    _title(d, result, "points against strength, category correlations")
    if result.measures.points:
        _scatter(d, result, (MARGIN + 20, 60, 330, 420))
    else:
        _text(d, MARGIN, 300, "the cards carry no points", 9)
    _matrix(d, result, (440, 60, 366, 420))


def _scatter(d: Drawing, result: BalanceResult, box) -> None:
    x0, y0, w, h = box
    m, t = result.measures, result.table
    points = [t.cards[i].card.points for i in t.deck]
    top = max(p for p in points if p is not None) or 1
    _text(d, x0, y0 + h + 10, f"points (up) against strength (right); ρ "
          f"{rho_text(m.points['strength'])}", 9, bold=True)
    d.add(Rect(x0, y0, w, h, fillColor=None, strokeColor=GREY, strokeWidth=0.5))
    for v in (0.25, 0.5, 0.75):
        _text(d, x0 + v * w, y0 - 10, f"{v:.2f}", 6, anchor="middle")
    for p in range(0, top + 1):
        _text(d, x0 - 4, y0 + p / top * h - 2, str(p), 6, anchor="end")
    rows: dict[int, list[int]] = {}
    for k, i in enumerate(t.deck):
        if points[k] is None:
            continue
        rows.setdefault(points[k], []).append(k)
        x, y = x0 + m.strength[k] * w, y0 + points[k] / top * h
        d.add(Circle(x, y, 3, fillColor=_group_colour(result, i), strokeColor=INK,
                     strokeWidth=0.3))
    for value, members in rows.items():      # name the weakest and strongest of each value
        ends = sorted(members, key=lambda k: m.strength[k])
        for k, anchor, dx in ((ends[0], "end", -5), (ends[-1], "start", 5))[:len(ends)]:
            _text(d, x0 + m.strength[k] * w + dx, y0 + value / top * h - 2,
                  t.ids[t.deck[k]], 6, anchor=anchor)


def _matrix(d: Drawing, result: BalanceResult, box) -> None:
    x0, y0, w, h = box
    m, t = result.measures, result.table
    n = len(m.columns)
    cell = min(w - 70, h) / max(1, n)
    left, top = x0 + 70, y0 + h
    _text(d, x0, top + 10, "rank correlation of the categories (|ρ| > "
          f"{result.balance.redundant_above:g} framed)", 9, bold=True)
    for r in range(n):
        _text(d, left - 3, top - (r + 0.5) * cell - 2,
              f"{t.columns[m.columns[r]].label}  {r + 1}", 5, anchor="end")
        for c in range(n):
            rho = m.correlation[r][c]
            value = None if rho is None else (rho + 1) / 2
            framed = r != c and rho is not None and abs(rho) > result.balance.redundant_above
            d.add(Rect(left + c * cell, top - (r + 1) * cell, cell, cell, fillColor=_heat(value),
                       strokeColor=INK if framed else HexColor("#FFFFFF"),
                       strokeWidth=1 if framed else 0.2))
    for c in range(n):
        _text(d, left + (c + 0.5) * cell, top - n * cell - 8, str(c + 1), 5, anchor="middle")


def _play_page(d: Drawing, result: BalanceResult) -> None:
    """Game lengths per simulated variant; the laid sets; the suggested values."""
    _title(d, result, "simulated games")
    if not result.plays:
        _text(d, MARGIN, 480, "no variant is simulated (balance.yaml declares none)", 9)
    width = (PAGE[0] - 2 * MARGIN - 20 * (len(result.plays) - 1)) / max(1, len(result.plays))
    for n, play in enumerate(result.plays):
        _histogram(d, play, (MARGIN + n * (width + 20), 330, width, 170))
        _play_lines(d, result, play, MARGIN + n * (width + 20), 300)
    _suggestions(d, result, PAGE[0] / 2 + 10 if len(result.plays) < 2 else MARGIN, 160)


def _histogram(d: Drawing, play, box) -> None:
    x0, y0, w, h = box
    lengths = play.lengths
    bins = 30
    top = max(lengths) or 1
    size = max(1, -(-top // bins))
    counts = [0] * (top // size + 1)
    for v in lengths:
        counts[v // size] += 1
    _text(d, x0, y0 + h + 10, f"{play.variant}: duels per game ({play.games} games, median "
          f"{median(lengths):g})", 9, bold=True)
    d.add(Line(x0, y0, x0 + w, y0, strokeColor=GREY, strokeWidth=0.5))
    bar = w / len(counts)
    peak = max(counts)
    for k, count in enumerate(counts):
        d.add(Rect(x0 + k * bar, y0, bar - 0.5, count / peak * h, fillColor=HexColor("#3A6FC4"),
                   strokeColor=None))
        if k % max(1, len(counts) // 6) == 0:
            _text(d, x0 + k * bar, y0 - 9, str(k * size), 6, anchor="middle")


def _play_lines(d: Drawing, result: BalanceResult, play, x: float, y: float) -> None:
    lines = [f"ended by the agreed time (cap of {result.balance.duel_cap} duels): {play.capped}",
             f"strongest starting hand wins {play.strongest_won / play.games:.1%} "
             f"(by chance alone {play.chance / play.games:.1%})"]
    for name, (games, won, chance) in sorted(play.tables.items()):
        lines.append(f"  {STRATEGY_WORDS.get(name, name)}: strongest hand wins {won / games:.1%}"
                     f" (chance {chance / games:.1%})")
    lines.append("mixed tables, games won per seat: " + ", ".join(
        f"{STRATEGY_WORDS.get(s, s)} {play.strategy_wins.get(s, 0) / max(1, n):.1%}"
        for s, n in sorted(play.strategy_seats.items())))
    if play.play == "sets":
        lines.append(f"card points: {points_share(play):.0%} of the laid sets' score")
        lines.append("sets per game: " + ", ".join(
            f"{k} {v / play.games:.2f}" for k, v in sorted(play.laid_sets.items())))
        for group, count in sorted(play.laid_octets.items()):
            bonus = play.octet_bonus.get(group, 0)
            lines.append(f"octet {result.group_labels.get(group, group)}: {count / play.games:.2f}"
                         f" per game" + (f", with the bonus {bonus / count:.0%} of them"
                                         if group in result.bonus_groups else ", no bonus"))
    for line in lines:
        _text(d, x, y, line, 7)
        y -= 10


def _suggestions(d: Drawing, result: BalanceResult, x: float, y: float) -> None:
    changed = [s for s in result.suggestions if s.old != s.new]
    if not result.suggestions:
        return
    _text(d, x, y, f"suggested values ({len(changed)} of {len(result.suggestions)} change)", 9,
          bold=True)
    for n, s in enumerate(changed[:60]):
        column, row = divmod(n, 12)
        _text(d, x + column * 75, y - 14 - row * 10, f"{s.card} {s.field}: {s.old} → {s.new}", 6)
