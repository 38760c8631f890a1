"""The charts of balance.pdf, each a reportlab Drawing of a given width: vectors in the PDF, every
label a text a reader (and a test) can find, every colour explained by a legend, every count
axis numbered.

Why reportlab's own graphics: the project needs no second plotting library, and the canvas runs
in invariant mode like every other output, so the same result gives the same bytes.
"""

from __future__ import annotations

import math
from statistics import median

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Rect, String
from reportlab.lib.colors import Color, HexColor, white

from ..analyse.measures import beat_rate
from ..analyse.run import BalanceResult
from ..analyse.simulate import PlayStats
from ..analyse.verdict import Words
from ..text.fonts import face_name, width as text_width

INK = HexColor("#222222")
GREY = HexColor("#9A9A9A")
LIGHT = HexColor("#E4E4E4")
NO_DUEL = HexColor("#D0D0D0")
SPECIAL = HexColor("#6B5B95")        # special cards: one colour apart from every group
BLUE = HexColor("#3A6FC4")
ORANGE = HexColor("#E08A1E")


def text(d: Drawing, x: float, y: float, value: str, size: float = 7, bold: bool = False,
         anchor: str = "start", colour=INK, angle: float = 0) -> None:
    s = String(0 if angle else x, 0 if angle else y, value,
               fontName=face_name("sans", bold=bold), fontSize=size, textAnchor=anchor,
               fillColor=colour)
    if angle:
        g = Group(s)
        g.transform = (math.cos(math.radians(angle)), math.sin(math.radians(angle)),
                       -math.sin(math.radians(angle)), math.cos(math.radians(angle)), x, y)
        d.add(g)
    else:
        d.add(s)


def fit(value: str, size: float, room: float) -> str:
    """The text cut with an ellipsis to fit `room` points."""
    font = face_name("sans")
    if text_width(value, font, size) <= room:
        return value
    while value and text_width(value + "…", font, size) > room:
        value = value[:-1]
    return value + "…"


def nice_ticks(top: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least `top`: steps of 1, 2, 2.5 or 5 × 10^k."""
    if top <= 0:
        return [0, 1]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    ticks = [0.0]
    while ticks[-1] < top:
        ticks.append(ticks[-1] + step)
    return ticks


def heat(value) -> Color:
    """0 red, 0.5 white, 1 blue; None grey (no duel)."""
    if value is None:
        return NO_DUEL
    if value < 0.5:
        f = value / 0.5
        return Color(0.85 + 0.15 * f, 0.25 + 0.75 * f, 0.2 + 0.8 * f)
    f = (value - 0.5) / 0.5
    return Color(1 - 0.8 * f, 1 - 0.55 * f, 1 - 0.2 * f)


def colour_scale(d: Drawing, x: float, y: float, w: float, ticks: list[tuple[float, str]],
                 title: str, low: str, high: str) -> None:
    """A horizontal colour legend: the scale in 40 steps, numbered ticks, its ends named."""
    text(d, x, y + 16, title, 7, bold=True)
    steps = 40
    for n in range(steps):
        d.add(Rect(x + n * w / steps, y, w / steps + 0.2, 9, fillColor=heat((n + 0.5) / steps),
                   strokeColor=None))
    d.add(Rect(x, y, w, 9, fillColor=None, strokeColor=GREY, strokeWidth=0.4))
    for where, label in ticks:
        d.add(Line(x + where * w, y, x + where * w, y - 2, strokeColor=INK, strokeWidth=0.4))
        text(d, x + where * w, y - 9, label, 6, anchor="middle")
    text(d, x, y - 18, low, 6)
    text(d, x + w, y - 18, high, 6, anchor="end")


def _card_colour(result: BalanceResult, i: int):
    if i in result.table.specials:
        return SPECIAL
    card = result.table.cards[i].card
    group = card.group or (card.groups[0] if card.groups else "")
    return HexColor(result.group_colours.get(group, "#777777"))


def group_legend(d: Drawing, result: BalanceResult, words: Words, x: float, y: float,
                 room: float) -> None:
    entries = [(HexColor(c), result.group_labels.get(g, g))
               for g, c in result.group_colours.items()]
    kinds = sorted({result.table.cards[i].kind for i in result.table.specials})
    for kind in kinds:
        entries.append((SPECIAL, words.say("bal_special_legend",
                                           kind=result.kind_labels.get(kind, kind))))
    font = face_name("sans")
    at = x
    for colour, label in entries:
        label = fit(label, 7, room - 14)
        need = 11 + text_width(label, font, 7) + 14
        if at + need > x + room and at > x:
            at, y = x, y - 11
        d.add(Rect(at, y, 8, 8, fillColor=colour, strokeColor=None))
        text(d, at + 11, y + 1, label, 7)
        at += need


def strength_rows(result: BalanceResult) -> list[tuple[int, float, float]]:
    """(table row, strength, best beat rate) of every deck and special card, strongest first."""
    m, t = result.measures, result.table
    rows = [(i, m.strength[k], m.best[k]) for k, i in enumerate(t.deck)]
    for i in t.specials:
        rates = [beat_rate(t, c, i, t.deck) for c in m.columns]
        known = [r for r in rates if r is not None]
        rows.append((i, m.specials.get("strength", {}).get(t.ids[i], 0.0),
                     max(known) if known else 0.0))
    return sorted(rows, key=lambda r: (-r[1], t.ids[r[0]]))


def strength_bars(result: BalanceResult, words: Words, w: float, h: float) -> Drawing:
    """Strength per card, strongest first; a tick at its best category's beat rate."""
    d = Drawing(w, h)
    rows = strength_rows(result)
    x0, y0, top = 34, 50, h - 22
    plot_w, plot_h = w - x0 - 4, top - y0
    for v in (0, 0.25, 0.5, 0.75, 1.0):
        d.add(Line(x0, y0 + v * plot_h, x0 + plot_w, y0 + v * plot_h, strokeColor=LIGHT,
                   strokeWidth=0.4))
        text(d, x0 - 3, y0 + v * plot_h - 2, words.pct(v, 0), 6, anchor="end")
    text(d, 8, y0 + plot_h / 2, words["bal_axis_strength"], 7, anchor="middle", angle=90)
    step = plot_w / max(1, len(rows))
    for n, (i, strength, best) in enumerate(rows):
        x = x0 + n * step
        d.add(Rect(x + 0.4, y0, step - 0.8, strength * plot_h, fillColor=_card_colour(result, i),
                   strokeColor=None))
        d.add(Line(x + 0.4, y0 + best * plot_h, x + step - 0.4, y0 + best * plot_h,
                   strokeColor=INK, strokeWidth=0.8))
        text(d, x + step / 2 + 1.5, y0 - 3, result.table.ids[i], min(5.5, step * 0.9),
             anchor="end", angle=90)
    text(d, x0, h - 10, words["bal_bars_key"], 7)
    group_legend(d, result, words, x0, 13, plot_w)
    return d


def beat_heat(result: BalanceResult, words: Words, w: float, most: float) -> Drawing:
    """Beat rate per card (rows, strongest first) and category (columns), at most `most` high."""
    m, t = result.measures, result.table
    rows = [i for i, _, _ in strength_rows(result)]
    label_w, head = 34, 92
    cell_w = (w - label_w) / max(1, len(m.columns))
    cell_h = min(9.0, (most - head - 50) / max(1, len(rows)))
    h = head + cell_h * len(rows) + 50
    d = Drawing(w, h)
    top = h - head
    for n, c in enumerate(m.columns):
        column = t.columns[c]
        arrow = "▲" if column.high else "▼"
        text(d, label_w + (n + 0.5) * cell_w + 2, top + 3,
             fit(f"{column.label} {arrow}", 6, head - 6), 6, angle=90)
    deck = set(t.deck)
    position = {i: k for k, i in enumerate(t.deck)}
    for r, i in enumerate(rows):
        y = top - (r + 1) * cell_h
        text(d, label_w - 3, y + cell_h / 2 - 2, t.ids[i], min(6, cell_h * 0.85), anchor="end",
             colour=INK if i in deck else SPECIAL, bold=i not in deck)
        for n, c in enumerate(m.columns):
            value = m.beat[position[i]][n] if i in deck else beat_rate(t, c, i, t.deck)
            d.add(Rect(label_w + n * cell_w, y, cell_w, cell_h, fillColor=heat(value),
                       strokeColor=white, strokeWidth=0.2))
    colour_scale(d, label_w, 22, 200, [(v, words.pct(v, 0)) for v in (0, 0.25, 0.5, 0.75, 1)],
                 words["bal_heat_scale"], words["bal_heat_low"], words["bal_heat_high"])
    d.add(Rect(label_w + 230, 22, 12, 9, fillColor=NO_DUEL, strokeColor=GREY, strokeWidth=0.4))
    text(d, label_w + 246, 24, words["bal_no_duel"], 6)
    text(d, label_w + 230, 38, words["bal_arrows"], 6)
    return d


def points_scatter(result: BalanceResult, words: Words, w: float, h: float,
                   specials: bool = False) -> Drawing:
    """Points (or a special card's minus points) up, strength right; dots in the group colours."""
    m, t = result.measures, result.table
    d = Drawing(w, h)
    if specials:
        field = "penalty"
        dots = [(i, m.specials["strength"][t.ids[i]], abs(t.cards[i].card.penalty or 0))
                for i in t.specials]
    else:
        field = "points"
        dots = [(i, m.strength[k], t.cards[i].card.points) for k, i in enumerate(t.deck)
                if t.cards[i].card.points is not None]
    x0, y0 = 36, 30
    pw, ph = w - x0 - 8, h - y0 - 10
    values = [v for _, _, v in dots] or [1]
    ticks = nice_ticks(max(values), 5)
    lo_v = max([v for v in ticks if v <= min(values)] + [0]) if specials else 0
    ticks = [v - lo_v for v in ticks if v >= lo_v]
    span = ticks[-1] or 1
    lo_s = min(s for _, s, _ in dots) if dots else 0
    hi_s = max(s for _, s, _ in dots) if dots else 1
    lo_s, hi_s = math.floor(lo_s * 10) / 10, math.ceil(hi_s * 10) / 10
    if hi_s <= lo_s:
        hi_s = lo_s + 0.1
    d.add(Rect(x0, y0, pw, ph, fillColor=None, strokeColor=GREY, strokeWidth=0.5))
    for v in ticks:
        y = y0 + v / span * ph
        d.add(Line(x0, y, x0 + pw, y, strokeColor=LIGHT, strokeWidth=0.3))
        shown = lo_v + v
        text(d, x0 - 3, y - 2, ("−" if specials and shown else "") + words.num(shown, 0), 6,
             anchor="end")
    s = lo_s
    while s <= hi_s + 1e-9:
        x = x0 + (s - lo_s) / (hi_s - lo_s) * pw
        d.add(Line(x, y0, x, y0 - 2, strokeColor=INK, strokeWidth=0.4))
        text(d, x, y0 - 9, words.pct(s, 0), 6, anchor="middle")
        s += 0.1
    text(d, x0 + pw / 2, 4, words["bal_axis_strength"], 7, anchor="middle")
    text(d, 8, y0 + ph / 2, words[field], 7, anchor="middle", angle=90)
    for i, strength, value in dots:
        x = x0 + (strength - lo_s) / (hi_s - lo_s) * pw
        y = y0 + (value - lo_v) / span * ph
        d.add(Circle(x, y, 2.6, fillColor=_card_colour(result, i), strokeColor=INK,
                     strokeWidth=0.3))
        if specials:
            text(d, x + 4, y - 2, t.ids[i], 5.5)
    if not specials:                      # name the weakest and strongest card of each value
        by_value: dict[int, list] = {}
        for i, strength, value in dots:
            by_value.setdefault(value, []).append((strength, i))
        for value, members in by_value.items():
            members.sort()
            ends = [(members[0], "end", -4)] + ([(members[-1], "start", 4)]
                                                 if len(members) > 1 else [])
            for (strength, i), anchor, dx in ends:
                x = x0 + (strength - lo_s) / (hi_s - lo_s) * pw
                text(d, x + dx, y0 + (value - lo_v) / span * ph - 2, t.ids[i], 5, anchor=anchor)
    return d


def correlation_matrix(result: BalanceResult, words: Words, w: float, most: float) -> Drawing:
    """The categories' rank correlations, |ρ| above the limit framed, with a colour legend; at
    most `most` high (at least 8 points a cell)."""
    m, t = result.measures, result.table
    n = len(m.columns)
    label_w = 104
    cell = max(8.0, min(22.0, (w - label_w - 10) / max(1, n), (most - 74) / max(1, n)))
    h = cell * n + 74
    d = Drawing(w, h)
    top = h - 16
    limit = result.balance.redundant_above
    for r in range(n):
        y = top - (r + 1) * cell
        text(d, label_w - 3, y + cell / 2 - 2,
             fit(t.columns[m.columns[r]].label, 6, label_w - 16) + f"  {r + 1}", 6, anchor="end")
        for c in range(n):
            rho = m.correlation[r][c]
            framed = r != c and rho is not None and abs(rho) > limit
            d.add(Rect(label_w + c * cell, y, cell, cell,
                       fillColor=heat(None if rho is None else (rho + 1) / 2),
                       strokeColor=INK if framed else white, strokeWidth=1 if framed else 0.2))
    for c in range(n):
        text(d, label_w + (c + 0.5) * cell, top + 3, str(c + 1), 6, anchor="middle")
    colour_scale(d, label_w, 30, 200, [(0, words.num(-1, 0)), (0.25, words.num(-0.5, 1)),
                                       (0.5, "0"), (0.75, "+" + words.num(0.5, 1)),
                                       (1, "+1")],
                 words["bal_rho_scale"], words["bal_rho_low"], words["bal_rho_high"])
    d.add(Rect(label_w + 230, 30, 9, 9, fillColor=white, strokeColor=INK, strokeWidth=1))
    text(d, label_w + 243, 32, words.say("bal_rho_framed", limit=words.num(limit, 2)), 6)
    return d


def who_wins(play: PlayStats, words: Words, w: float, h: float) -> Drawing:
    """Per table size: how often the strongest starting hand and the first leader win, against
    the share each player wins by chance."""
    d = Drawing(w, h)
    sizes = sorted(play.players_won)
    x0, y0 = 36, 44
    pw, ph = w - x0 - 6, h - y0 - 8
    shares = [(n, play.players_won[n][0] / play.by_players[n][0],
               play.players_won[n][1] / play.by_players[n][0]) for n in sizes]
    ticks = nice_ticks(max([0.1] + [max(a, b, 1 / n) for n, a, b in shares]), 4)
    span = ticks[-1]
    for v in ticks:
        y = y0 + v / span * ph
        d.add(Line(x0, y, x0 + pw, y, strokeColor=LIGHT, strokeWidth=0.4))
        text(d, x0 - 3, y - 2, words.pct(v, 0), 6, anchor="end")
    text(d, 8, y0 + ph / 2, words["bal_axis_games_won"], 7, anchor="middle", angle=90)
    slot = pw / max(1, len(sizes))
    bar = slot * 0.3
    for k, (n, strongest, first) in enumerate(shares):
        x = x0 + k * slot + slot * 0.2
        d.add(Rect(x, y0, bar, strongest / span * ph, fillColor=BLUE, strokeColor=None))
        d.add(Rect(x + bar, y0, bar, first / span * ph, fillColor=ORANGE, strokeColor=None))
        y = y0 + (1 / n) / span * ph
        d.add(Line(x - 3, y, x + 2 * bar + 3, y, strokeColor=INK, strokeWidth=1.2))
        text(d, x + bar, y0 - 9, str(n), 7, anchor="middle")
    text(d, x0 + pw / 2, y0 - 20, words["bal_axis_players"], 7, anchor="middle")
    for n, (colour, key) in enumerate(((BLUE, "bal_key_strongest"), (ORANGE, "bal_key_first"))):
        d.add(Rect(x0 + n * pw / 3, 2, 8, 8, fillColor=colour, strokeColor=None))
        text(d, x0 + n * pw / 3 + 11, 3, fit(words[key], 7, pw / 3 - 14), 7)
    d.add(Line(x0 + 2 * pw / 3, 6, x0 + 2 * pw / 3 + 10, 6, strokeColor=INK, strokeWidth=1.2))
    text(d, x0 + 2 * pw / 3 + 13, 3, fit(words["bal_key_chance"], 7, pw / 3 - 14), 7)
    return d


def lengths_histogram(play: PlayStats, words: Words, w: float, h: float) -> Drawing:
    """Duels per game: 30 bins, a numbered count axis and a marked median."""
    d = Drawing(w, h)
    lengths = play.lengths
    x0, y0 = 40, 30
    pw, ph = w - x0 - 6, h - y0 - 8
    top = max(lengths) or 1
    size = max(1, -(-top // 30))
    counts = [0] * (top // size + 1)
    for v in lengths:
        counts[v // size] += 1
    ticks = nice_ticks(max(counts), 4)
    span = ticks[-1] or 1
    for v in ticks:
        y = y0 + v / span * ph
        d.add(Line(x0, y, x0 + pw, y, strokeColor=LIGHT, strokeWidth=0.4))
        text(d, x0 - 3, y - 2, words.count(int(v)), 6, anchor="end")
    text(d, 8, y0 + ph / 2, words["bal_axis_games"], 7, anchor="middle", angle=90)
    bar = pw / len(counts)
    for k, count in enumerate(counts):
        d.add(Rect(x0 + k * bar, y0, bar - 0.5, count / span * ph, fillColor=BLUE,
                   strokeColor=None))
    scale = pw / (len(counts) * size)
    for v in nice_ticks(len(counts) * size, 6):
        if v <= len(counts) * size:
            d.add(Line(x0 + v * scale, y0, x0 + v * scale, y0 - 2, strokeColor=INK,
                       strokeWidth=0.4))
            text(d, x0 + v * scale, y0 - 9, words.count(int(v)), 6, anchor="middle")
    mid = median(lengths)
    d.add(Line(x0 + mid * scale, y0, x0 + mid * scale, y0 + ph, strokeColor=ORANGE,
               strokeWidth=1))
    text(d, x0 + mid * scale + 3, y0 + ph - 8, words.say("bal_median_mark",
                                                          value=words.num(mid, 0)), 6,
         colour=ORANGE)
    text(d, x0 + pw / 2, 4, words["bal_axis_duels"], 7, anchor="middle")
    return d


def octet_panels(result: BalanceResult, play: PlayStats, words: Words, w: float,
                 h: float) -> Drawing:
    """Per group: its laid octets by number of different sets; the bars that reach the bonus
    dark, the others light; the share reaching it written above."""
    d = Drawing(w, h)
    groups = [g for g in result.octet_scores if g in play.octets and play.octets[g].laid]
    if not groups:
        return d
    ks = sorted({k for g in groups for k in play.octets[g].distinct})
    lo, hi = ks[0], ks[-1]
    x0, y0 = 34, 30
    gap = 14
    panel = (w - x0 - gap * (len(groups) - 1)) / len(groups)
    ph = h - y0 - 30
    peak = max(n / play.octets[g].laid for g in groups for n in play.octets[g].distinct.values())
    ticks = nice_ticks(peak, 4)
    span = ticks[-1]
    for v in ticks:
        text(d, x0 - 3, y0 + v / span * ph - 2, words.pct(v, 0), 6, anchor="end")
    text(d, 8, y0 + ph / 2, words["bal_axis_octets"], 7, anchor="middle", angle=90)
    for p, group in enumerate(groups):
        stats = play.octets[group]
        score = result.octet_scores[group]
        left = x0 + p * (panel + gap)
        colour = HexColor(result.group_colours.get(group, "#777777"))
        for v in ticks:
            y = y0 + v / span * ph
            d.add(Line(left, y, left + panel, y, strokeColor=LIGHT, strokeWidth=0.4))
        slot = panel / (hi - lo + 1)
        for k in range(lo, hi + 1):
            share = stats.distinct.get(k, 0) / stats.laid
            reached = score.distinct is not None and k >= score.distinct
            fill = colour if reached or score.distinct is None else _pale(colour)
            d.add(Rect(left + (k - lo) * slot + 1, y0, slot - 2, share / span * ph,
                       fillColor=fill, strokeColor=colour, strokeWidth=0.4))
            text(d, left + (k - lo + 0.5) * slot, y0 - 9, str(k), 6, anchor="middle")
        text(d, left + panel / 2, h - 10, fit(result.group_labels.get(group, group), 8, panel),
             8, bold=True, anchor="middle")
        if score.distinct is not None:
            x = left + (score.distinct - lo) * slot
            d.add(Line(x, y0, x, y0 + ph, strokeColor=INK, strokeWidth=0.8,
                       strokeDashArray=[2, 1.5]))
            note = words.say("bal_octet_panel_bonus", n=score.distinct,
                             share=words.pct(stats.reached(score.distinct), 0))
        else:
            note = words.say("bal_octet_panel_flat", base=score.base)
        text(d, left + panel / 2, h - 21, fit(note, 6.5, panel), 6.5, anchor="middle")
    text(d, x0 + (w - x0) / 2, 4, words["bal_axis_distinct"], 7, anchor="middle")
    return d


def _pale(colour: Color) -> Color:
    return Color(1 - (1 - colour.red) * 0.3, 1 - (1 - colour.green) * 0.3,
                 1 - (1 - colour.blue) * 0.3)

