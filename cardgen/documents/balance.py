"""balance.pdf: the balance result for a designer, in the pack's language.

First the verdict in plain words (what is unbalanced, how much, what to change) and the changes
as a table (card, field, now, suggested); then the charts, each with a caption that says what it
shows. Every term is defined where it is first used (analyse/verdict.py's Terms), every colour
has its legend, every count axis its numbers; special cards with stats are drawn with the deck.
The PDF names no command and no file: what a designer changes is a value on a card or on the
score sheet.

Why platypus paragraphs and tables on our own canvas: text wraps and tables split across pages,
and the canvas runs in invariant mode like every other output (same result, same bytes).
"""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from ..analyse.octets import worth
from ..analyse.run import BalanceResult
from ..analyse.simulate import PlayStats
from ..analyse.verdict import Terms, Words, e, set_names, variant_name, verdict
from ..render.pdf import new_canvas
from ..text.fonts import face_name
from .balance_charts import (beat_heat, correlation_matrix, lengths_histogram, octet_panels,
                             points_scatter, strength_bars, who_wins)

PAGE = A4
MARGIN = 42
WIDTH = PAGE[0] - 2 * MARGIN
INK = HexColor("#222222")
RULE = HexColor("#BBBBBB")


def _styles() -> dict[str, ParagraphStyle]:
    sans = face_name("sans")
    registerFontFamily(sans, normal=sans, bold=face_name("sans", bold=True),
                       italic=face_name("sans", italic=True),
                       boldItalic=face_name("sans", bold=True, italic=True))
    body = ParagraphStyle("body", fontName=sans, fontSize=9, leading=12.4, textColor=INK,
                          spaceAfter=4)
    return {
        "title": ParagraphStyle("title", parent=body, fontName=face_name("sans", bold=True),
                                fontSize=17, leading=21, spaceAfter=6),
        "h1": ParagraphStyle("h1", parent=body, fontName=face_name("sans", bold=True),
                             fontSize=13, leading=17, spaceBefore=4, spaceAfter=5),
        "h2": ParagraphStyle("h2", parent=body, fontName=face_name("sans", bold=True),
                             fontSize=10.5, leading=14, spaceBefore=8, spaceAfter=3),
        "body": body,
        "item": ParagraphStyle("item", parent=body, leftIndent=16, bulletIndent=2),
        "sub": ParagraphStyle("sub", parent=body, leftIndent=16, spaceAfter=2),
        "caption": ParagraphStyle("caption", parent=body, fontSize=8, leading=10.6),
        "cell": ParagraphStyle("cell", parent=body, fontSize=8, leading=10, spaceAfter=0),
        "foot": ParagraphStyle("foot", parent=body, fontSize=7, leading=9, textColor=RULE),
    }


class Story:
    """Flowables set top to bottom on the canvas; a page break when the next one does not fit
    (a table splits), the page's footer on every page."""

    def __init__(self, canvas, footer: str, styles: dict):
        self.canvas, self.footer, self.styles = canvas, footer, styles
        self.page = 1
        self.y = PAGE[1] - MARGIN
        self.bottom = MARGIN + 14

    def add(self, *flowables: Flowable) -> None:
        """Set flowables that belong together (a heading and its chart) on one page."""
        sizes = [f.wrap(WIDTH, PAGE[1]) for f in flowables]
        height = sum(h + self._gap(f) for f, (_, h) in zip(flowables, sizes))
        if height > self.y - self.bottom and self.y < PAGE[1] - MARGIN - 1:
            self.new_page()
        for flowable in flowables:
            self._one(flowable)

    def _gap(self, flowable: Flowable) -> float:
        style = getattr(flowable, "style", None)
        return getattr(style, "spaceBefore", 0) + getattr(style, "spaceAfter", 0)

    def _one(self, flowable: Flowable) -> None:
        _, h = flowable.wrap(WIDTH, self.y - self.bottom)
        if h > self.y - self.bottom:
            parts = flowable.split(WIDTH, self.y - self.bottom) if isinstance(flowable, Table) \
                else []
            if len(parts) > 1:
                self._one(parts[0])
                self.new_page()
                for part in parts[1:]:
                    self._one(part)
                return
            self.new_page()
            _, h = flowable.wrap(WIDTH, self.y - self.bottom)
        style = getattr(flowable, "style", None)
        self.y -= getattr(style, "spaceBefore", 0) if self.y < PAGE[1] - MARGIN else 0
        flowable.drawOn(self.canvas, MARGIN, self.y - h)
        self.y -= h + getattr(style, "spaceAfter", 0)

    def new_page(self) -> None:
        self._footer()
        self.canvas.showPage()
        self.page += 1
        self.y = PAGE[1] - MARGIN

    def finish(self) -> None:
        self._footer()
        self.canvas.showPage()
        self.canvas.save()

    def _footer(self) -> None:
        foot = Paragraph(f"{self.footer} · {self.page}", self.styles["foot"])
        foot.wrap(WIDTH, 20)
        foot.drawOn(self.canvas, MARGIN, MARGIN - 12)


def balance_pdf(result: BalanceResult) -> bytes:
    words = Words(result.language, result.labels, result.locale)
    terms = Terms(words)
    styles = _styles()
    buffer = io.BytesIO()
    title = words.say("bal_title_line", title=result.title)
    canvas = new_canvas(buffer, PAGE, {"title": title, "subject": words["bal_title"]})
    story = Story(canvas, e(title), styles)
    _verdict_pages(story, result, words, terms, styles)
    _card_pages(story, result, words, terms, styles)
    for play in result.plays:
        _play_pages(story, result, play, words, terms, styles)
    story.finish()
    return buffer.getvalue()


def P(text: str, style: ParagraphStyle, bullet: str | None = None) -> Paragraph:
    return Paragraph(text, style, bulletText=bullet)


# --- the verdict and the changes ----------------------------------------------------------------

def _verdict_pages(story: Story, result: BalanceResult, words: Words, terms: Terms,
                   styles: dict) -> None:
    t = result.table
    story.add(P(words.say("bal_title_line", title=e(result.title)), styles["title"]))
    kinds = sorted({t.cards[i].kind for i in t.specials})
    specials = words.say("bal_intro_specials", n=len(t.specials), kind=words.listing(
        [e(result.kind_labels.get(k, k)) for k in kinds])) if t.specials else ""
    deck_kinds = sorted({t.cards[i].kind for i in t.deck})
    plays = words.listing([words.say("bal_intro_play", games=words.count(p.games),
                                     variant=variant_name(result, p)) for p in result.plays])
    intro = words.say("bal_intro", cards=len(t.deck), kind=words.listing(
        [e(result.kind_labels.get(k, k)) for k in deck_kinds]),
        categories=len(result.measures.columns), specials=specials)
    if plays:
        intro += " " + words.say("bal_intro_plays", plays=plays) + " " + words["bal_how"]
    story.add(P(intro, styles["body"]))
    found = verdict(result, words, terms)
    story.add(P(words["bal_verdict"], styles["h1"]))
    if not found.findings:
        story.add(P(words["bal_no_findings"], styles["body"]))
    for n, finding in enumerate(found.findings, 1):
        story.add(P(f"<b>{finding.headline}</b>", styles["item"], f"{n}."))
        for line in finding.body:
            story.add(P(line, styles["sub"]))
        if finding.change:
            story.add(P(f"<b>{words['bal_change']}</b> {finding.change}", styles["sub"]))
        story.add(Spacer(1, 4))
    if found.fine:
        story.add(P(words["bal_fine"], styles["h2"]))
        for line in found.fine:
            story.add(P(line, styles["item"], "•"))
    _changes_table(story, result, words, styles)


def _changes_table(story: Story, result: BalanceResult, words: Words, styles: dict) -> None:
    rows = []
    for variant, advice in result.octet_advice.items():
        for change in advice.changes:
            rows.append((words.say("bal_octet_of", group=e(result.group_labels.get(
                change.group, change.group))), words[f"bal_field_{change.field}"],
                change.old, change.new))
    names = {lc.card.id: lc.card.name for lc in result.table.cards}
    for s in result.suggestions:
        if s.old != s.new:
            name = names.get(s.card) or ""
            rows.append((e(f"{s.card} {name}".strip()), words[s.field] if s.field in
                         ("points", "penalty") else e(s.field), s.old, s.new))
    story.add(P(words["bal_changes"], styles["h2"]),
              P(words["bal_changes_intro"] if rows else words["bal_changes_none"],
                styles["body"]))
    if not rows:
        return
    cell = styles["cell"]
    head = [P(f"<b>{words[k]}</b>", cell) for k in ("bal_col_card", "bal_col_field",
                                                     "bal_col_now", "bal_col_suggested")]
    body = [[P(card, cell), P(field, cell), P(_value(words, old), cell), P(f"<b>{new}</b>", cell)]
            for card, field, old, new in rows]
    table = Table([head] + body, colWidths=[WIDTH * 0.42, WIDTH * 0.28, WIDTH * 0.15,
                                             WIDTH * 0.15], repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
                               ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("TOPPADDING", (0, 0), (-1, -1), 2),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]))
    story.add(table)


def _value(words: Words, value) -> str:
    return words["bal_none"] if value is None else str(value)


# --- the cards ----------------------------------------------------------------------------------

def _card_pages(story: Story, result: BalanceResult, words: Words, terms: Terms,
                styles: dict) -> None:
    story.new_page()
    story.add(P(words["bal_cards_title"], styles["h1"]))
    strength = terms("strength")
    specials = words.say("bal_bars_specials", special=terms("special")) \
        if result.table.specials else ""
    story.add(P(terms.resolve(words.say("bal_bars_caption", rate=terms("beat_rate"),
                                        strength=strength, best=terms("best_category"),
                                        specials=specials)), styles["caption"]),
              strength_bars(result, words, WIDTH, 330))
    story.new_page()
    story.add(P(words["bal_heat_title"], styles["h1"]),
              P(terms.resolve(words.say("bal_heat_caption", rate=terms("beat_rate"))),
                styles["caption"]),
              beat_heat(result, words, WIDTH, 680))
    story.new_page()
    m = result.measures
    story.add(P(words["bal_points_title"], styles["h1"]))
    if m.points:
        caption = words.say("bal_points_caption", strength=terms("strength"),
                            rho_term=terms("rho"), rho=words.rho(m.points["strength"]))
        charts = [points_scatter(result, words, WIDTH * (0.62 if _penalties(result) else 1), 220)]
        if _penalties(result):
            charts.append(points_scatter(result, words, WIDTH * 0.38, 220, specials=True))
            caption += " " + words.say("bal_penalty_caption", rho=words.rho(
                m.specials["penalty_strength"]))
        row = Table([charts], colWidths=[c.width for c in charts], hAlign="LEFT",
                    style=[("LEFTPADDING", (0, 0), (-1, -1), 0),
                           ("RIGHTPADDING", (0, 0), (-1, -1), 0)])
        story.add(P(terms.resolve(caption), styles["caption"]), row)
    else:
        story.add(P(words["bal_no_points"], styles["body"]))
    story.add(P(words["bal_rho_title"], styles["h2"]),
              P(terms.resolve(words.say("bal_rho_caption", rho_term=terms("rho"),
                                        redundant=terms("redundant", limit=words.num(
                                            result.balance.redundant_above, 2)))),
                styles["caption"]),
              correlation_matrix(result, words, WIDTH, story.y - story.bottom - 80))


def _penalties(result: BalanceResult) -> bool:
    return bool(result.table.specials) and "penalty_strength" in result.measures.specials


# --- the simulated games ------------------------------------------------------------------------

def _play_pages(story: Story, result: BalanceResult, play: PlayStats, words: Words,
                terms: Terms, styles: dict) -> None:
    story.new_page()
    name = variant_name(result, play)
    story.add(P(words.say("bal_play_title", variant=name, games=words.count(play.games)),
                styles["h1"]))
    duels = sum(play.lengths)
    changes = sum(play.lead_changes)
    numbers = words.say(
        "bal_who_numbers", leader=terms("leader"),
        duels=words.pct(play.leader_won / duels if duels else 0.0, 1),
        run=words.num(duels / changes if changes else duels, 1),
        first=words.pct(play.first_leader_won / play.games),
        hand=terms("strongest_hand"), strongest=words.pct(play.strongest_won / play.games),
        chance_term=terms("chance"), chance=words.pct(play.chance / play.games),
        spread=words.num(100 * play.chance_spread ** 0.5 / play.games, 1))
    story.add(P(words["bal_who_title"], styles["h2"]),
              P(terms.resolve(numbers), styles["caption"]),
              who_wins(play, words, WIDTH, 190))
    mid = sorted(play.lengths)[len(play.lengths) // 2]
    story.add(P(words["bal_lengths_title"], styles["h2"]),
              P(terms.resolve(words.say("bal_lengths_caption", median=terms("median"),
                                        value=words.num(mid, 0), capped=words.count(play.capped),
                                        cap=words.count(result.balance.duel_cap))),
                styles["caption"]),
              lengths_histogram(play, words, WIDTH, 170))
    if play.play == "sets":
        _sets_part(story, result, play, words, terms, styles)


def _sets_part(story: Story, result: BalanceResult, play: PlayStats, words: Words, terms: Terms,
               styles: dict) -> None:
    laid = sum(play.score_parts.get(k, 0) for k in ("points", "base"))
    share = play.score_parts.get("points", 0) / laid if laid else 0.0
    sets = ", ".join(f"{e(k)} {words.num(v / play.games, 2)}"
                     for k, v in sorted(play.laid_sets.items()))
    story.add(P(words.say("bal_sets_caption", share=words.pct(share, 0), sets=sets,
                          size=result.sets_of), styles["caption"]))
    if not play.octets or not any(s.laid for s in play.octets.values()):
        return
    story.new_page()
    story.add(P(words["bal_octets_title"], styles["h1"]),
              P(terms.resolve(words.say("bal_octets_caption", worth=terms("octet_worth"),
                                        sets=set_names(result))), styles["caption"]),
              octet_panels(result, play, words, WIDTH, 190))
    advice = result.octet_advice.get(play.variant)
    checked = result.octet_checked.get(play.variant)
    cell = styles["cell"]
    keys = ["bal_col_group", "bal_col_values", "bal_col_laid", "bal_col_bonus",
            "bal_col_worth"] + (["bal_col_suggested", "bal_col_worth_then"] if checked else [])
    head = [P(f"<b>{words[k]}</b>", cell) for k in keys]
    rows = []
    for group, score in result.octet_scores.items():
        stats = play.octets.get(group)
        if stats is None or not stats.laid:
            continue
        row = [e(result.group_labels.get(group, group)), _short(words, score),
               words.num(stats.laid / play.games, 2),
               words.pct(stats.bonus / stats.laid, 0) if score.bonus is not None else "–",
               words.num(worth(stats), 1)]
        if checked and advice:
            again = checked.octets.get(group)
            row += [_short(words, advice.scores[group]),
                    words.num(worth(again), 1) if again and again.laid else "–"]
        rows.append([P(str(c), cell) for c in row])
    fractions = [0.15, 0.18, 0.09, 0.09, 0.13] + ([0.18, 0.15] if checked else [])
    scale = 1 / sum(fractions)
    table = Table([head] + rows, colWidths=[WIDTH * f * scale for f in fractions],
                  repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
                               ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story.add(P(words["bal_octet_table"], styles["h2"]), table, Spacer(1, 6))
    if advice is not None:
        story.add(P(words.say("bal_octet_method", target=advice.target, step=advice.step),
                    styles["caption"]))


def _short(words: Words, score) -> str:
    """An octet's values for a table cell: '50; from 7 sets 75' or 'always 100'."""
    if score.bonus is None:
        return words.say("bal_oct_flat", base=score.base)
    return words.say("bal_oct_short", base=score.base, bonus=score.bonus, n=score.distinct)
