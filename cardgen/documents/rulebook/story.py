"""The rulebook's content as platypus flowables: cover, contents, chapters and their blocks.

Why separate from the document: this part decides what is printed and reports every problem
of the rule texts (at their YAML lines); the document part only decides where it goes.
"""

from __future__ import annotations

import copy
import re

from reportlab.platypus import (CondPageBreak, FrameBreak, ListFlowable,
                                ListItem, NextPageTemplate, PageBreak, Spacer, Table,
                                TableStyle)
from reportlab.platypus.flowables import Flowable, HRFlowable

from ...diagnostics import Report
from ...model.packdata import PackData
from ...model.marks import MarkedDict
from ...model import rules as m
from ...text.flowing import Paragraph
from ...text.fonts import face_name
from .style import (ACCENT, ACCENT_SOFT, EXAMPLE_BG, EXAMPLE_RULE, NOTE_BG, OPTION_BG,
                             make_styles, words)
from .contents import Contents
from .figures import FigureMaker, unbroken
from .tables import TableMaker
from ...text.rules import ChapterSource, TextMaker, Where
from ...diagnostics import did_you_mean
from ...text.fit import parse

CONTINUATION = (m.Paragraph, m.BulletList, m.Steps, m.Note, m.Example)
# blocks whose `cards:` says what they are about (a figure's `cards:` are the cards it shows)
ABOUT_CARDS = (m.H2,) + CONTINUATION


class Marker(Flowable):
    """An invisible flowable that tells the document which chapter the pages belong to."""

    def __init__(self, chapter: str):
        super().__init__()
        self.chapter_title = chapter

    def wrap(self, avail_w, avail_h):
        return 0, 0  # takes no room ...

    def draw(self):
        return None  # ... and draws nothing: the document reads chapter_title as it passes


class BottomAligned(Flowable):
    """Flowables set at the bottom of the space left in their frame (cover title, imprint)."""

    def __init__(self, flowables: list[Flowable], filler=None, most: float = 0.0):
        """filler(height) → a flowable drawn at the top of the space left above (the cover's
        fan of cards), at most `most` points high; left out when less than a third of that
        is free."""
        super().__init__()
        self.flowables = flowables
        self.filler, self.most = filler, most
        self.sizes: list[tuple[float, float]] = []

    def wrap(self, avail_w, avail_h):
        self.sizes = [f.wrap(avail_w, avail_h) for f in self.flowables]
        self.width, self.height = avail_w, max(avail_h, self._content())
        return self.width, self.height

    def _content(self) -> float:
        return sum(h + f.getSpaceBefore() + f.getSpaceAfter()
                   for f, (_, h) in zip(self.flowables, self.sizes))

    def draw(self):
        y = self._content()
        free = self.height - y - self.most * 0.08
        if self.filler is not None and free >= self.most / 3:
            top = self.filler(min(free, self.most))
            if top is not None:
                _, top_h = top.wrap(self.width, free)
                top.drawOn(self.canv, 0, self.height - top_h)
        for f, (_, h) in zip(self.flowables, self.sizes):
            y -= f.getSpaceBefore() + h
            f.drawOn(self.canv, 0, y)
            y -= f.getSpaceAfter()


def heading(markup: str, style, level: int, key: str, plain: str, toc_markup: str,
            chapter: bool) -> Paragraph:
    """A heading that becomes a contents entry and a PDF bookmark when it is placed."""
    para = Paragraph(markup, style)
    para.toc_entry = (level, toc_markup, key, plain)
    if chapter:
        para.chapter_title = plain
    return para


def plain_text(text: str) -> str:
    """Text without our markup (for the running header and the PDF outline)."""
    return "\n".join("".join(run.text for run in line) for line in parse(text)).strip()


def _hex(colour) -> str:
    return colour.hexval().replace("0x", "#")


class StoryBuilder:
    """Cover, contents and chapters for one page width; diagnostics go to `report`."""

    def __init__(self, data: PackData, report: Report, width: float, frame_height: float,
                 body_size: float, only_options: set[str] | None, hyphenate: bool = True,
                 house=None, cover_height: float | None = None, back_cover: bool = False,
                 light: bool = False):
        self.data, self.report, self.width = data, report, width
        self.frame_height = frame_height
        self.pack = data.pack
        self.styles = make_styles(self.pack.language, body_size, hyphenate)
        if light:  # --ink-saver: a light cover panel, its words in the accent colour
            from .style import light_cover
            self.styles = light_cover(self.styles)
        self.light = light
        self.words = words(self.pack)
        self.texts = TextMaker(data, report)
        self.tables = TableMaker(data, self.texts, self.styles, self.words, width)
        self.house, self.cover_height, self.back = house, cover_height, back_cover
        chosen = set(house.cards) if house is not None else None
        self.figures = FigureMaker(data, self.texts, self.styles, width, frame_height, chosen)
        self.figures.light = light  # the cover's fan of cards as --ink-saver prints them
        self.tables.chosen = chosen
        self.only = only_options
        self.body_size = body_size
        # a book of one chapter shows its sections on its first page: a contents page would
        # hold only those few lines (a new pack's two-page rules), as no printed leaflet does
        self.has_contents = len(data.chapters) > 1

    # --- whole book -----------------------------------------------------------------------------
    def story(self) -> list[Flowable]:
        flow = self.cover()
        if self.has_contents:
            flow += [Marker(self.words["contents"]),
                     Paragraph(self._word("contents", "sans-bold"), self.styles["toc-title"]),
                     self.contents(), PageBreak()]
        number = 0
        for shown, chapter in self.data.chapters:
            made = self.chapter(number + 1, shown, chapter)
            if made:  # house rules leave out a chapter with nothing left in it
                number += 1
                flow += made
        self._unused_options()
        self._unknown_variants()
        self._unknown_cards()
        return flow + (self.back_cover() if self.back else [])

    def _unknown_variants(self) -> None:
        """A heading or turn box may name a variant; it must be one of composition.yaml."""
        from ...compose import load_composition
        composition = load_composition(self.data, Report())
        known = list(composition.composition.variants) if composition is not None else []
        for shown, chapter in self.data.chapters:
            source = ChapterSource(shown, self.data.folder)
            for index, block in enumerate(chapter.blocks):
                slug = getattr(block, "variant", None)
                if slug is not None and slug not in known:
                    where = source.where(index, "variant")
                    self.report.error(where.file, where.line, where.col, slug,
                                      f"{where.prefix()}unknown variant '{slug}'"
                                      f"{did_you_mean(slug, known)}; composition.yaml defines "
                                      + (", ".join(known) or "none"))

    def _word(self, key: str, family: str, upper: bool = False) -> str:
        """An engine word (or the pack's label for it) as markup."""
        labels = self.data.pack_raw.get("labels")
        mark = labels.value_marks.get(key) if isinstance(labels, MarkedDict) else None
        where = Where(self.data.pack_file, mark.line if mark else 0, mark.col if mark else 0,
                      "", f"labels.{key}")
        word = self.words[key].upper() if upper else self.words[key]
        return self.texts.markup(word, family, where) or ""

    def _pack_text(self, key: str, family: str, also: tuple[str, ...] = ()) -> str:
        """A text of pack.yaml (title, description …) as markup."""
        raw = self.data.pack_raw
        mark = raw.value_marks.get(key, raw.mark)
        where = Where(self.data.pack_file, mark.line, mark.col, "", key)
        return self.texts.markup(str(getattr(self.pack, key)), family, where, also) or ""

    def play_facts(self) -> str:
        """'2–10 Spieler · ab 6 Jahren · 15–30 Minuten' (empty without play: in pack.yaml)."""
        play = self.pack.play
        if play is None:
            return ""
        w = self.words

        def span(pair) -> str:
            low, high = pair
            return f"{low}" if low == high else f"{low}–{high}"
        return "  ·  ".join([
            f"{span(play.players)} {w['players']}", w["age"].format(age=play.age),
            f"{span(play.minutes)} {w['minutes']}"])

    def cover(self) -> list[Flowable]:
        s = self.styles
        kicker = "house_rules" if self.house is not None else "rules"
        title = [Paragraph(self._word(kicker, "sans-bold", upper=True), s["kicker"]),
                 Paragraph(self._pack_text("title", "sans-bold", also=("sans",)),  # + header
                           s["cover-title"])]
        if self.pack.subtitle:
            title.append(Paragraph(self._pack_text("subtitle", "serif-italic"),
                                   s["cover-subtitle"]))
        facts = self.play_facts()
        if facts:
            title.append(Paragraph(self._markup(facts, "sans-bold"), s["cover-facts"]))
        flow: list[Flowable] = [BottomAligned(title, self.figures.cover_fan,
                                              (self.cover_height or 0) * 0.55), FrameBreak()]
        if self.house is not None:
            flow += self._house_lines()
        elif self.pack.description:
            flow.append(Paragraph(self._pack_text("description", "serif"), s["cover-text"]))
        meta = f"{self._word('version', 'sans')} {self._pack_text('version', 'sans')}"
        if self.pack.author:
            meta += f"   ·   {self._pack_text('author', 'sans')}"
        flow += [BottomAligned([Paragraph(meta, s["cover-meta"])]),
                 NextPageTemplate("body"), PageBreak()]
        for index, group in enumerate(self.pack.groups):  # drawn on the cover by the document
            where = self.tables.pack_where("groups", index, group.id)
            self.texts.markup(group.symbol, "sans-bold", where)
        return flow

    def _markup(self, text: str, family: str) -> str:
        """Engine-made text (numbers and labels) as markup; glyph problems at pack.yaml."""
        return self.texts.markup(text, family, Where(self.data.pack_file, 0, 0, "", "play")) \
            or ""

    def _house_lines(self) -> list[Flowable]:
        """The chosen game on the cover of house rules: deck, variant, options."""
        out = []
        for label, value in self.house.lines:
            markup = f"<b>{self._markup(label, 'serif-bold')}:</b> {self._markup(value, 'serif')}"
            out.append(Paragraph(markup, self.styles["cover-text"]))
        return out

    def back_cover(self) -> list[Flowable]:
        """The booklet's last page: what the game is, for whom, and who made it."""
        s = self.styles
        flow: list[Flowable] = [NextPageTemplate("back"), PageBreak(),
                                Paragraph(self._pack_text("title", "sans-bold"), s["back-title"])]
        facts = self.play_facts()
        if facts:
            flow.append(Paragraph(self._markup(facts, "sans-bold"), s["back-facts"]))
        if self.pack.description:
            flow.append(Paragraph(self._pack_text("description", "serif"), s["back-text"]))
        meta = f"{self._word('version', 'sans')} {self._pack_text('version', 'sans')}"
        if self.pack.author:
            meta += f"   ·   {self._pack_text('author', 'sans')}"
        return flow + [BottomAligned([Paragraph(meta, s["back-meta"])])]

    def contents(self) -> Contents:
        style = TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                            ("LEFTPADDING", (0, 0), (-1, -1), 0),
                            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                            ("FONTNAME", (0, 0), (-1, -1), face_name("serif"))])
        return Contents(levelStyles=[self.styles["toc0"], self.styles["toc1"]],
                               dotsMinLevel=1, rightColumnWidth=self.body_size * 3,
                               tableStyle=style)

    # --- chapters -------------------------------------------------------------------------------
    def chapter(self, number: int, shown: str, chapter: m.Chapter) -> list[Flowable]:
        source = ChapterSource(shown, self.data.folder)
        title = self.texts.template(chapter.title, source.where())
        markup = self.texts.markup(title, "sans-bold", source.where()) if title else None
        plain = plain_text(title or chapter.title)
        numbered = (f'<font color="{_hex(ACCENT_SOFT)}">{number}</font>\u00a0\u00a0'
                    f'{markup or ""}')
        rule = HRFlowable(width="100%", thickness=1.2, color=ACCENT, spaceBefore=1,
                          spaceAfter=self.body_size * 0.9)
        rule.keepWithNext = 1
        flow: list[Flowable] = [
            CondPageBreak(self.body_size * 34),
            heading(numbered, self.styles["h1"], 0, f"ch{number}", f"{number}  {plain}",
                    f"{number}\u00a0\u00a0{markup or ''}", chapter=True),
            rule]
        facts = self.play_facts() if number == 1 else ""
        if facts:  # the short overview says who can play and for how long
            flow.append(Paragraph(self._markup(facts, "sans-bold"), self.styles["overview"]))
        kept = self._kept_blocks(chapter)
        made = []
        for index, block in enumerate(chapter.blocks):
            if index in kept:
                made += self.block(block, index, source, f"ch{number}-{index}")
        return flow + made if made else []

    def _kept_blocks(self, chapter: m.Chapter) -> set[int]:
        """Indices of the blocks to print: all, or without the options left out (and the
        blocks that continue them), and without headings left with nothing under them."""
        blocks = chapter.blocks
        if self.only is None:
            return set(range(len(blocks)))
        kept, dropping, other = set(), False, False
        variant = self.house.variant if self.house is not None else None
        for index, block in enumerate(blocks):
            if isinstance(block, m.H2):  # a section about another variant is left out whole
                other = bool(variant) and block.variant not in (None, variant) or \
                    not self._about_chosen(block)  # or about cards the game leaves out
            if other or not self._about_chosen(block):
                continue
            if isinstance(block, m.OptionBlock):
                dropping = block.option not in self.only
            elif not (dropping and isinstance(block, CONTINUATION)):
                dropping = False
            if isinstance(block, m.Turn) and variant and block.variant not in (None, variant):
                continue
            if not dropping:
                kept.add(index)
        kept -= self._sections_without_options(blocks, kept)
        for index in sorted(kept):
            if isinstance(blocks[index], m.H2):
                following = [i for i in sorted(kept) if i > index]
                if not following or isinstance(blocks[following[0]], m.H2):
                    kept.discard(index)
        return kept

    def _about_chosen(self, block) -> bool:
        """A block about cards (`cards:`) belongs in house rules of a game with one of them."""
        wanted = block.cards if isinstance(block, ABOUT_CARDS) else None
        if not wanted or self.house is None:
            return True
        return bool(self._card_ids(wanted) & self.house.cards)

    def _card_ids(self, items: list[str]) -> set[str]:
        from ...validate.catalogue import Catalogue, ItemError, expand
        catalogue = Catalogue.of([(lc.card.id, lc.kind) for lc in self.data.cards])
        ids: set[str] = set()
        for item in items:
            try:
                ids.update(expand(item, catalogue))
            except ItemError:
                pass  # reported by _unknown_cards
        return ids

    def _unknown_cards(self) -> None:
        """A block's `cards:` names cards of the pack."""
        from ...validate.catalogue import Catalogue, ItemError, expand
        catalogue = Catalogue.of([(lc.card.id, lc.kind) for lc in self.data.cards])
        for shown, chapter in self.data.chapters:
            source = ChapterSource(shown, self.data.folder)
            for index, block in enumerate(chapter.blocks):
                for item in block.cards if isinstance(block, ABOUT_CARDS) else []:
                    try:
                        expand(item, catalogue)
                    except ItemError as problem:
                        where = source.where(index, "cards")
                        self.report.error(where.file, where.line, where.col, item,
                                          f"{where.prefix()}{problem}")

    @staticmethod
    def _sections_without_options(blocks, kept: set[int]) -> set[int]:
        """Blocks of sections (an h2 and what follows) that held options and keep none of
        them: their heading and text would introduce nothing."""
        dropped, section = set(), []
        for index, block in enumerate(list(blocks) + [m.H2(h2="")]):
            if isinstance(block, m.H2):
                options = [i for i in section if isinstance(blocks[i], m.OptionBlock)]
                if options and not any(i in kept for i in options):
                    dropped.update(section)
                section = []
            section.append(index)
        return dropped

    def _unused_options(self) -> None:
        if not self.only:
            return
        present = {b.option for _, ch in self.data.chapters for b in ch.blocks
                   if isinstance(b, m.OptionBlock)}
        for slug in sorted(self.only - present):
            self.report.warning(self.data.pack_file, 0, 0, slug, "no option block with this "
                                "slug in the rules; available: " + ", ".join(sorted(present)))

    # --- blocks ---------------------------------------------------------------------------------
    def block(self, block, index: int, source: ChapterSource, key: str) -> list[Flowable]:
        s, rule = self.styles, self.texts.rule
        if isinstance(block, m.H2):
            where = source.where(index, "h2")
            text = self.texts.template(block.h2, where)
            markup = self.texts.markup(text, "sans-bold", where,
                                       also=("serif",) if self.has_contents else ()) \
                if text is not None else None  # the contents page sets it in serif
            if markup is None:
                return []
            # a heading needs a few lines of its text below it on the same page
            return [CondPageBreak(self.body_size * 6),
                    heading(markup, s["h2"], 1, key, plain_text(text), markup, chapter=False)]
        if isinstance(block, m.Paragraph):
            markup = rule(block.p, "serif", source.where(index, "p"))
            return [Paragraph(markup, s["body"])] if markup is not None else []
        if isinstance(block, (m.BulletList, m.Steps)):
            return self._list(block, index, source)
        if isinstance(block, m.Note):
            markup = rule(block.note, "serif", source.where(index, "note"))
            word = self._label(block, "note", "sans-bold", source.where(index, "label"))
            if markup is None:
                return []
            self._doubled_label(block.note, block.label, "note", source.where(index, "note"))
            label = f'<font face="{face_name("sans-bold")}" color="{_hex(ACCENT)}">' \
                    f'{word}</font>\u00a0\u00a0'
            return [self.box([Paragraph(label + markup, s["box"])], NOTE_BG, ACCENT_SOFT)]
        if isinstance(block, m.Example):
            markup = rule(block.example, "serif-italic", source.where(index, "example"))
            word = self._label(block, "example", "serif-bold-italic",
                               source.where(index, "label"))
            if markup is None:
                return []
            self._doubled_label(block.example, block.label, "example",
                                source.where(index, "example"))
            label = f"<b>{word}:</b> "
            return [self.box([Paragraph(label + markup, s["example"])], EXAMPLE_BG,
                             EXAMPLE_RULE)]
        if isinstance(block, m.OptionBlock):
            return self._option(block, index, source)
        if isinstance(block, m.Table):
            made = self.tables.build(block, source.where(index, "table"))
            if not made:
                return []
            caption = self.figures.caption(block.caption, source.where(index, "caption")) \
                if block.caption else [Spacer(1, self.body_size * 0.6)]
            return [Spacer(1, self.body_size * 0.3)] + made + caption
        if isinstance(block, (m.Components, m.Anatomy, m.Setup)):
            return self.figures.build(block, source, index)
        if isinstance(block, m.Turn):
            return self._turn(block, index, source)
        return []

    def _label(self, block, key: str, family: str, where: Where) -> str:
        """A box's label: the block's own (`label:`) or the engine's word."""
        if block.label:
            return self.texts.rule(block.label, family, where) or ""
        return self._word(key, family)

    _LEADING_LABEL = re.compile(r"^[*_]{0,2}([^\W\d_][\w-]{1,20})[*_]{0,2}:")

    def _doubled_label(self, text: str, own: str | None, key: str, where: Where) -> None:
        """A box prints its label ("Hinweis", "Beispiel"); a text that starts with a label of
        its own ("Tipp: …") prints two: say so, and how to keep one."""
        match = self._LEADING_LABEL.match(text.strip())
        if match is None:
            return
        word = own or self.words[key]
        self.report.warning(where.file, where.line, where.col, where.subject,
                            f"{where.prefix()}the box is labelled '{word}' and its text starts "
                            f"with '{match.group(1)}:', so two labels print; give the block "
                            f"`label: {match.group(1)}` and start the text after it")

    def _turn(self, block: m.Turn, index: int, source: ChapterSource) -> list[Flowable]:
        """A turn in short: a title bar and numbered steps in a framed box."""
        title = self.texts.rule(block.turn, "sans-bold", source.where(index, "turn"))
        steps = [self.texts.rule(text, "sans", source.where(index, "steps", item))
                 for item, text in enumerate(block.steps)]
        if title is None or None in steps:
            return []
        size = self.body_size
        rows = [[Paragraph(title, self.styles["turn-title"])]]
        rows += [[Paragraph(f'<font face="{face_name("sans-bold")}" color="{_hex(ACCENT)}">'
                            f'{number}</font>\u00a0\u00a0{step}', self.styles["turn-step"])]
                 for number, step in enumerate(steps, start=1)]
        table = Table(rows, colWidths=[self.width], hAlign="LEFT")
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, 0), ACCENT), ("BOX", (0, 0), (-1, -1), 1.2, ACCENT),
            ("BACKGROUND", (0, 1), (-1, -1), NOTE_BG),
            ("LEFTPADDING", (0, 0), (-1, -1), size * 0.9),
            ("RIGHTPADDING", (0, 0), (-1, -1), size * 0.9),
            ("TOPPADDING", (0, 0), (-1, -1), size * 0.25),
            ("BOTTOMPADDING", (0, 0), (-1, -1), size * 0.25),
            ("TOPPADDING", (0, 0), (-1, 0), size * 0.45),
            ("BOTTOMPADDING", (0, 0), (-1, 0), size * 0.45),
            ("TOPPADDING", (0, 1), (-1, 1), size * 0.6),
            ("BOTTOMPADDING", (0, -1), (-1, -1), size * 0.7),
            ("FONTNAME", (0, 0), (-1, -1), face_name("sans"))]))
        # a summary read at a glance is never split
        return [Spacer(1, size * 0.5), unbroken([table], self.width, size * 0.9)]

    def _list(self, block, index: int, source: ChapterSource) -> list[Flowable]:
        key = "list" if isinstance(block, m.BulletList) else "steps"
        items = []
        for item, text in enumerate(getattr(block, key)):
            markup = self.texts.rule(text, "serif", source.where(index, key, item))
            if markup is not None:
                items.append(ListItem(Paragraph(markup, self.styles["item"])))
        if not items:
            return []
        size = self.body_size
        if key == "list":
            made = ListFlowable(items, bulletType="bullet", start="•", leftIndent=size * 1.4,
                                bulletFontName=face_name("serif"), bulletFontSize=size,
                                bulletColor=ACCENT, spaceAfter=size * 0.4)
            # a short list stays on one page: no single item left behind
            return [unbroken([made], self.width, size * 0.4)] if len(items) <= 6 else [made]
        return [ListFlowable(items, bulletType="1", bulletFormat="%s.", leftIndent=size * 1.8,
                             bulletFontName=face_name("sans-bold"), bulletFontSize=size * 0.92,
                             bulletOffsetY=-size * 0.08,  # on the text's baseline
                             bulletColor=ACCENT, spaceAfter=size * 0.4)]

    def _option(self, block: m.OptionBlock, index: int, source: ChapterSource) -> list[Flowable]:
        s = self.styles
        title = self.texts.rule(block.title, "sans-bold",
                                source.where(index, "title", subject=block.option))
        text = self.texts.rule(block.text, "serif",
                               source.where(index, "text", subject=block.option))
        needs = self.texts.rule(block.needs, "serif-italic",
                                source.where(index, "needs", subject=block.option)) \
            if block.needs else ""
        items = [self.texts.rule(item, "serif", source.where(index, "list", n))
                 for n, item in enumerate(block.list)]
        if title is None or text is None or needs is None or None in items:
            return []
        rows = [Paragraph(title, s["option"]), Paragraph(text, s["box"])]
        bullet = f'<font face="{face_name("serif")}" color="{_hex(ACCENT)}">\u2022</font>'
        rows += [Paragraph(f"{bullet}\u00a0\u00a0{item}", s["box-item"]) for item in items]
        if needs:
            arrow = f'<font face="{face_name("sans")}">\u2192</font>\u00a0'
            rows.append(Paragraph(arrow + needs, s["needs"]))
        return [self.box(rows, OPTION_BG, ACCENT)]

    def box(self, flowables: list[Flowable], background, rule) -> Table:
        """A tinted box with a coloured rule on the left, kept on one page unless it is
        longer than half a page. (A Table, not KeepTogether: a heading's keepWithNext binds
        to a Table but not to a KeepTogether.)"""
        # measured on copies: reportlab's hyphenation writes the breaks of a wrap into the
        # paragraph, and the box is laid out again at its own width
        probe = self._box_table(copy.deepcopy(flowables), background, rule, split=False)
        split = probe.wrap(self.width, 1e6)[1] > self.frame_height / 2
        return self._box_table(flowables, background, rule, split=split)

    def _box_table(self, flowables: list[Flowable], background, rule, split: bool) -> Table:
        pad = self.body_size * 0.75
        rows = len(flowables)
        table = Table([[f] for f in flowables], colWidths=[self.width], hAlign="LEFT",
                      spaceBefore=self.body_size * 0.35, spaceAfter=self.body_size * 0.8,
                      splitInRow=1 if split else 0,
                      rowSplitRange=None if split else (rows, rows))
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), background),
            ("LINEBEFORE", (0, 0), (0, -1), 2.5, rule),
            ("LEFTPADDING", (0, 0), (-1, -1), pad * 1.3), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, 0), pad * 0.8),
            ("BOTTOMPADDING", (0, -1), (-1, -1), pad),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("FONTNAME", (0, 0), (-1, -1), face_name("serif"))]))  # never Helvetica
        return table
