"""The rulebook's typography: words in the pack's language, colours, paragraph styles.

Why one module: every style names one of our registered DejaVu faces explicitly, so no
reportlab default (Helvetica, Times) can slip into the PDF; and the engine's own words (table
headers, "Hinweis", "Seite") live in one table that a pack's `labels` override.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pyphen

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.platypus import paragraph

from ...model.pack import Pack
from ...text.words import labels_for
from ...text.fonts import face_name

HYPHENATION = {"de": "de_DE", "nl": "nl_NL", "en": "en_US", "fr": "fr", "it": "it_IT"}
MIN_HYPHENATED = 8  # letters: shorter words are never split

INK = colors.HexColor("#1f1f1f")
ACCENT = colors.HexColor("#1e3d5c")     # headings, table headers, title page
ACCENT_SOFT = colors.HexColor("#5b7896")
RULE = colors.HexColor("#b9c6d3")
NOTE_BG = colors.HexColor("#e8f0f7")
EXAMPLE_BG = colors.HexColor("#f5f1e6")
EXAMPLE_RULE = colors.HexColor("#c9b68a")
OPTION_BG = colors.HexColor("#f2f4f6")
ZEBRA = colors.HexColor("#eef2f6")
MUTED = colors.HexColor("#55606b")


def words(pack: Pack) -> dict[str, str]:
    """The engine's words in the pack's language, overridden by the pack's own labels."""
    return labels_for(pack.language, pack.labels, pack.locale)


@lru_cache(maxsize=None)
def register_families() -> None:
    """Let <b>/<i> in paragraph markup pick our bold and italic faces (never a built-in one)."""
    for family in ("serif", "sans", "condensed"):
        registerFontFamily(face_name(family), normal=face_name(family),
                           bold=face_name(family, bold=True), italic=face_name(family, italic=True),
                           boldItalic=face_name(family, bold=True, italic=True))


_reportlab_unsplit = paragraph._shyUnsplit


def _unsplit(head: str, tail: str | None = None) -> str:
    """reportlab's _shyUnsplit (platypus/paragraph.py, reportlab 4.x-5.x) with one change.

    Called alone it strips the hyphen a line break added (unchanged). Called with a tail it
    joins the halves of a word split in an earlier layout pass, and reportlab strips a hyphen
    at the end of the head there too; but a head ending in '-' that still needs joining is a
    word broken at its own hyphen (an added one was stripped before the join), so "ER-Karten"
    in bold came out as "ERKarten" whenever a paragraph was laid out twice (contents passes,
    keep-together). Here the join keeps the head as it is."""
    if tail is None or isinstance(head, paragraph._SHYStr):
        return _reportlab_unsplit(head, tail)  # the plain-text soft-hyphen path: unchanged
    shy = list(getattr(head, "_shyIndices", []))
    shy += [i + len(head) for i in getattr(tail, "_shyIndices", [])]
    joined = head + tail
    return paragraph._SHYIndexedStr(joined, shy) if shy else joined


# reportlab looks the function up by name in its module whenever it rejoins a split word
paragraph._shyUnsplit = _unsplit


@lru_cache(maxsize=None)
def hyphenator(language: str):
    """pyphen's split points for the language, at least 3 letters on either side of a break."""
    if language not in HYPHENATION:
        return None
    return WordSplits(HYPHENATION[language])


class WordSplits:
    """pyphen's split points of each word, remembered between builds. Why: loading a
    language's patterns takes some 30 ms per process (text/hyphenation.py), and a book asks
    for a few hundred words; the words asked before (in cardgen's cache, by the pattern file's
    bytes) need no patterns.
    The splits are pyphen's own, so the book is laid out the same either way."""

    def __init__(self, lang: str):
        from ...incremental import cache
        from ...incremental.fingerprint import file_hash
        self.lang = lang
        self.key = cache.key("hyphenated", 1, pyphen.__version__, lang,
                             file_hash(pyphen.LANGUAGES[pyphen.language_fallback(lang)]))
        try:
            words = json.loads(cache.read("hyphenated", self.key) or b"{}")
        except ValueError:  # an entry cut short: ask pyphen again
            words = {}
        self.words: dict[str, list] = words if isinstance(words, dict) else {}
        self.grown = False
        self._iterate = None
        _SPLITS.append(self)

    def __call__(self, word: str) -> list[tuple[str, str]]:
        found = self.words.get(word)
        if found is None:
            if self._iterate is None:
                _load_dictionary(self.lang)
                self._iterate = pyphen.Pyphen(lang=self.lang, left=3, right=3).iterate
            found = self.words[word] = [list(pair) for pair in self._iterate(word)]
            self.grown = True
        return [tuple(pair) for pair in found]

    def __deepcopy__(self, memo) -> "WordSplits":
        """Itself: the paragraph styles of every copy share the one splitter. (The story
        measures boxes on deep copies of their paragraphs; copying the splitter copied its
        words and, once loaded, pyphen's whole pattern table, 15 million objects a book.)"""
        return self

    def keep(self) -> None:
        if self.grown:
            from ...incremental import cache
            cache.write("hyphenated", self.key,
                        json.dumps(self.words, ensure_ascii=False, sort_keys=True).encode())
            self.grown = False


_SPLITS: list[WordSplits] = []


def keep_hyphenation() -> None:
    """Write the words hyphenated in this process to the cache (after a book is laid out)."""
    for splits in _SPLITS:
        splits.keep()


def _load_dictionary(lang: str) -> None:
    """Hand pyphen the language's patterns, each parsed when a word asks for it
    (text/hyphenation.py: 30 ms instead of pyphen's half a second for German)."""
    from ...text.hyphenation import lazy_dictionary
    path = pyphen.LANGUAGES[pyphen.language_fallback(lang)]
    if path not in pyphen.hdcache:
        pyphen.hdcache[path] = lazy_dictionary(path)


class _StyleKit:
    """What every style starts from: the body size, the body text's settings, hyphenation's
    and the headings'."""

    def __init__(self, body_size: float, hyphen) -> None:
        self.s = s = body_size
        self.serif = serif = face_name("serif")
        self.sans = face_name("sans")
        self.base = dict(fontName=serif, fontSize=s, leading=s * 1.38, textColor=INK,
                         bulletFontName=serif, hyphenationLang="", embeddedHyphenation=0,
                         uriWasteReduce=0)
        self.hyph = dict(hyphenationLang=hyphen or "", embeddedHyphenation=1,
                         hyphenationMinWordLength=MIN_HYPHENATED)
        self.head = dict(fontName=face_name("sans-bold"), textColor=ACCENT, keepWithNext=1,
                         alignment=TA_LEFT, bulletFontName=face_name("sans-bold"))

    def style(self, name: str, **kw) -> ParagraphStyle:
        return ParagraphStyle(name, **{**self.base, **kw})


def make_styles(language: str, body_size: float = 10.0,
                hyphenate: bool = True) -> dict[str, ParagraphStyle]:
    """Every paragraph style of the rulebook; body text ragged right and hyphenated (no rivers
    in a narrow column) (hyphenate=False for checking texts only: no dictionary is loaded)."""
    register_families()
    kit = _StyleKit(body_size, hyphenator(language) if hyphenate else None)
    return {**_text_styles(kit), **_table_styles(kit), **_contents_styles(kit),
            **_cover_styles(kit), **_back_styles(kit), **_figure_styles(kit),
            **_overview_styles(kit)}


# the words set on the cover's (and back cover's) dark panel: ACCENT when the panel is light
ON_PANEL = ("kicker", "cover-title", "cover-subtitle", "cover-facts", "back-title",
            "back-facts", "back-text", "back-meta")


def light_cover(styles: dict[str, ParagraphStyle]) -> dict[str, ParagraphStyle]:
    """The styles for --ink-saver: the panel is a light tint of ACCENT, so the words on it
    take ACCENT itself (new styles; the given ones are left as they are)."""
    return {**styles, **{name: ParagraphStyle(name, parent=styles[name], textColor=ACCENT)
                         for name in ON_PANEL}}


def _text_styles(kit: _StyleKit) -> dict[str, ParagraphStyle]:
    """Body text, list items, boxes, examples, headings, option titles and needs."""
    s, hyph, head = kit.s, kit.hyph, kit.head
    style = kit.style
    return {
        "body": style("body", alignment=TA_LEFT, spaceAfter=s * 0.55, **hyph),
        "item": style("item", alignment=TA_LEFT, spaceAfter=s * 0.25, **hyph),
        "box": style("box", alignment=TA_LEFT, **hyph),
        "box-item": style("box-item", alignment=TA_LEFT, leftIndent=s * 1.1,
                          firstLineIndent=-s * 1.1, spaceBefore=s * 0.3, **hyph),
        "example": style("example", fontName=face_name("serif-italic"), alignment=TA_LEFT,
                         bulletFontName=face_name("serif-italic"), **hyph),
        "h1": style("h1", fontSize=s * 2.0, leading=s * 2.4, spaceBefore=s * 2.2,
                    spaceAfter=s * 0.4, **head),
        "h2": style("h2", fontSize=s * 1.25, leading=s * 1.6, spaceBefore=s * 1.3,
                    spaceAfter=s * 0.45, **head),
        "option": style("option", fontName=face_name("sans-bold"), fontSize=s * 1.05,
                        leading=s * 1.4, textColor=ACCENT, spaceAfter=s * 0.25,
                        bulletFontName=face_name("sans-bold")),
        "needs": style("needs", fontName=face_name("serif-italic"), fontSize=s * 0.85,
                       leading=s * 1.15, textColor=MUTED, spaceBefore=s * 0.35,
                       bulletFontName=face_name("serif-italic")),
    }


def _table_styles(kit: _StyleKit) -> dict[str, ParagraphStyle]:
    """Table cells (plain, strong, small, header) and captions."""
    s, hyph = kit.s, kit.hyph
    style = kit.style
    return {
        "cell": style("cell", fontName=face_name("condensed"), fontSize=s * 0.86,
                      leading=s * 1.1, bulletFontName=face_name("condensed"), **hyph),
        "cell-strong": style("cell-strong", fontName=face_name("condensed-bold"),
                             fontSize=s * 0.86, leading=s * 1.1,
                             bulletFontName=face_name("condensed-bold"), **hyph),
        "cell-small": style("cell-small", fontName=face_name("condensed-italic"),
                            fontSize=s * 0.75, leading=s * 0.95, textColor=MUTED,
                            bulletFontName=face_name("condensed-italic"), **hyph),
        "cell-head": style("cell-head", fontName=face_name("condensed-bold"), fontSize=s * 0.86,
                           leading=s * 1.1, textColor=colors.white,
                           bulletFontName=face_name("condensed-bold")),
        "caption": style("caption", fontName=face_name("condensed-italic"), fontSize=s * 0.78,
                         leading=s * 1.0, textColor=MUTED, spaceBefore=s * 0.3,
                         spaceAfter=s * 0.6, bulletFontName=face_name("condensed-italic")),
    }


def _contents_styles(kit: _StyleKit) -> dict[str, ParagraphStyle]:
    """The table of contents: its title and the two levels of entries."""
    s, serif, head = kit.s, kit.serif, kit.head
    style = kit.style
    return {
        "toc-title": style("toc-title", fontSize=s * 2.0, leading=s * 2.4, spaceAfter=s * 1.2,
                           **head),
        "toc0": style("toc0", fontName=face_name("sans-bold"), fontSize=s * 1.05,
                      leading=s * 1.45, spaceBefore=s * 0.55, textColor=ACCENT,
                      rightIndent=s * 2.4, bulletFontName=face_name("sans-bold")),
        "toc1": style("toc1", fontName=serif, fontSize=s * 0.92, leading=s * 1.25,
                      leftIndent=s * 2.2, rightIndent=s * 2.4, textColor=INK),
    }


def _cover_styles(kit: _StyleKit) -> dict[str, ParagraphStyle]:
    """The cover: kicker, title, subtitle, text, facts and the publishing line."""
    s, sans = kit.s, kit.sans
    style = kit.style
    return {
        "kicker": style("kicker", fontName=face_name("sans-bold"), fontSize=s * 1.1,
                        leading=s * 1.5, textColor=colors.HexColor("#c9d6e3"),
                        bulletFontName=face_name("sans-bold")),
        "cover-title": style("cover-title", fontName=face_name("sans-bold"), fontSize=s * 3.4,
                             leading=s * 3.9, textColor=colors.white, spaceBefore=s * 0.6,
                             bulletFontName=face_name("sans-bold")),
        "cover-subtitle": style("cover-subtitle", fontName=face_name("serif-italic"),
                                fontSize=s * 1.45, leading=s * 1.9, spaceBefore=s * 0.9,
                                textColor=colors.HexColor("#e4ebf2"),
                                bulletFontName=face_name("serif-italic")),
        "cover-text": style("cover-text", fontSize=s * 1.15, leading=s * 1.65,
                            alignment=TA_LEFT),
        "cover-meta": style("cover-meta", fontName=sans, fontSize=s * 0.85, leading=s * 1.2,
                            textColor=MUTED, alignment=TA_LEFT, bulletFontName=sans),
        "centre": style("centre", alignment=TA_CENTER),
        "cover-facts": style("cover-facts", fontName=face_name("sans-bold"), fontSize=s * 1.0,
                             leading=s * 1.4, textColor=colors.HexColor("#f2c94c"),
                             spaceBefore=s * 0.9, bulletFontName=face_name("sans-bold")),
    }


def _back_styles(kit: _StyleKit) -> dict[str, ParagraphStyle]:
    """The back cover: title, facts, text and the publishing line."""
    s, sans = kit.s, kit.sans
    style = kit.style
    return {
        "back-title": style("back-title", fontName=face_name("sans-bold"), fontSize=s * 2.4,
                            leading=s * 2.9, textColor=colors.white,
                            bulletFontName=face_name("sans-bold")),
        "back-facts": style("back-facts", fontName=face_name("sans-bold"), fontSize=s * 1.0,
                            leading=s * 1.4, textColor=colors.HexColor("#f2c94c"),
                            spaceBefore=s * 0.5, spaceAfter=s * 1.2,
                            bulletFontName=face_name("sans-bold")),
        "back-text": style("back-text", fontSize=s * 1.1, leading=s * 1.6,
                           textColor=colors.HexColor("#e4ebf2"), alignment=TA_LEFT),
        "back-meta": style("back-meta", fontName=sans, fontSize=s * 0.85, leading=s * 1.2,
                           textColor=colors.HexColor("#c9d6e3"), alignment=TA_LEFT,
                           bulletFontName=sans),
    }


def _figure_styles(kit: _StyleKit) -> dict[str, ParagraphStyle]:
    """Figures: captions, labels and callouts (left and right of a picture)."""
    s = kit.s
    style = kit.style
    return {
        "figure-caption": style("figure-caption", fontName=face_name("condensed-italic"),
                                fontSize=s * 0.85, leading=s * 1.1, textColor=MUTED,
                                alignment=TA_CENTER, spaceBefore=s * 0.5, spaceAfter=s * 0.9,
                                bulletFontName=face_name("condensed-italic")),
        "figure-label": style("figure-label", fontName=face_name("condensed-bold"),
                              fontSize=s * 0.8, leading=s * 1.0, textColor=ACCENT,
                              alignment=TA_CENTER, bulletFontName=face_name("condensed-bold")),
        "figure-callout": style("figure-callout", fontName=face_name("sans-bold"),
                                fontSize=s * 0.8, leading=s * 1.0, textColor=ACCENT,
                                alignment=TA_LEFT, bulletFontName=face_name("sans-bold")),
        "figure-callout-left": style("figure-callout-left", fontName=face_name("sans-bold"),
                                     fontSize=s * 0.8, leading=s * 1.0, textColor=ACCENT,
                                     alignment=TA_RIGHT, bulletFontName=face_name("sans-bold")),
    }


def _overview_styles(kit: _StyleKit) -> dict[str, ParagraphStyle]:
    """The turn overview: its title, its steps, and an overview paragraph."""
    s, sans, hyph = kit.s, kit.sans, kit.hyph
    style = kit.style
    return {
        "turn-title": style("turn-title", fontName=face_name("sans-bold"), fontSize=s * 1.05,
                            leading=s * 1.35, textColor=colors.white,
                            bulletFontName=face_name("sans-bold")),
        "turn-step": style("turn-step", fontName=sans, fontSize=s * 0.9, leading=s * 1.25,
                           alignment=TA_LEFT, bulletFontName=sans, **hyph),
        "overview": style("overview", fontName=face_name("sans-bold"), fontSize=s * 0.95,
                          leading=s * 1.3, textColor=ACCENT, spaceAfter=s * 0.7,
                          bulletFontName=face_name("sans-bold")),
    }
