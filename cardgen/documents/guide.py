"""guide.pdf: one page that tells a player how to print and cut cards.pdf, in the pack's language.

Why a page of its own: the printer dialog is where home printing fails (scaled to fit, wrong
duplex edge, thin paper), and cards.pdf's pages must stay in front/back pairs for duplex, so a
guide page inside it would shift every back.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.colors import black

from ..layout.sheet import SheetPlan
from ..text.fonts import face_name
from ..render.pdf import new_canvas
from ..model.pack import DEFAULT_LOCALES
from ..text.fit import fit
from ..text.numbers import number
from ..text.words import built_in
from ..units import MM, PAPER

# The guide's words (a pack's `labels` may override any guide_* key); {names} are filled in
# from the sheet, in every language a pack may be written in.
GUIDE: dict[str, dict[str, str]] = {
    "de": {
        "guide_tuck": "**Schachtel** (tuckbox.pdf): an der durchgezogenen Linie ausschneiden, an den gepunkteten Linien falten, die schraffierte Lasche innen an die Rückwand kleben, Boden und Deckel einstecken.",
        "guide_light": "**Tintensparend** (--ink-saver): {files} sind die hellen Fassungen – "
                       "dunkle Flächen als helle Töne, Schrift und Linien in ihrer Farbe.",
        "guide_title": "So druckst du {title}",
        "guide_scale": "**Maßstab:** in 100 % drucken („Tatsächliche Größe“), nie „An Seite anpassen“. "
                 "Die 50-mm-Linie unten auf jedem Blatt muss genau 50 mm messen.",
        "guide_long": "**Seiten 1–{pages}** beidseitig drucken, **Wenden an der langen Kante**. "
                "Ungerade Seiten sind Vorderseiten, gerade Seiten ihre Rückseiten.",
        "guide_short": "**Seiten 1–{pages}** beidseitig drucken, **Wenden an der kurzen Kante**. "
                 "Ungerade Seiten sind Vorderseiten, gerade Seiten ihre Rückseiten.",
        "guide_none": "Zuerst nur die **ungeraden Seiten** (Vorderseiten) drucken, den Stapel wenden "
                "wie eine Buchseite und wieder einlegen, dann die **geraden Seiten** "
                "(Rückseiten).",
        "guide_fold": "**Seiten 1–{pages}** einseitig drucken. Jedes Blatt an der gestrichelten Linie "
                "falten, die Hälften bedruckt nach außen zusammenkleben, trocknen lassen.",
        "guide_paper": "**Papier:** 160–250 g/m² (Karton) für feste Karten; 80–120 g/m² reicht mit "
                 "Kartenhüllen.",
        "guide_cut_bleed": "**Schneiden:** an den Marken am Rand entlang, erst alle Schnitte in einer "
                     "Richtung über das ganze Blatt, dann die andere. Zwischen zwei Karten liegt "
                     "ein {gutter} mm breiter Steg: beide Linien schneiden, den Steg "
                     "wegwerfen. Ein Schnitt, der bis {bleed} mm danebenliegt, zeigt nur die "
                     "Farbe der eigenen Karte.",
        "guide_cut_abut": "**Schneiden:** an den Marken am Rand entlang, erst alle Schnitte in einer "
                    "Richtung über das ganze Blatt, dann die andere. Benachbarte Karten teilen "
                    "sich eine Schnittlinie: genau auf der Linie schneiden.",
        "guide_count": "{cards} Karten auf {sheets} Blättern, {per} Karten je Blatt.",
        "guide_count_one": "{cards} Karten auf einem Blatt.",
        "guide_fold_one": "**Seite 1** einseitig drucken. Das Blatt an der gestrichelten Linie "
                    "falten, die Hälften bedruckt nach außen zusammenkleben, trocknen lassen.",
        "guide_fronts": "**Seiten 1–{pages}** einseitig drucken: nur Vorderseiten, ohne "
                    "Rückseiten – zum Einstecken vor echte Karten in Kartenhüllen.",
        "guide_fronts_one": "**Seite 1** einseitig drucken: nur Vorderseiten, ohne Rückseiten – "
                        "zum Einstecken vor echte Karten in Kartenhüllen.",
    },
    "nl": {
        "guide_tuck": "**Doosje** (tuckbox.pdf): knip langs de doorgetrokken lijn, vouw de stippellijnen, lijm de gearceerde flap binnen tegen de achterwand, steek bodem en deksel in.",
        "guide_light": "**Inktbesparend** (--ink-saver): {files} zijn de lichte versies – "
                       "donkere vlakken als lichte tinten, tekst en lijnen in hun kleur.",
        "guide_title": "Zo print je {title}",
        "guide_scale": "**Schaal:** op 100 % printen (“Werkelijke grootte”), nooit “Aanpassen aan "
                 "pagina”. De lijn van 50 mm onderaan elk vel moet precies 50 mm zijn.",
        "guide_long": "**Pagina’s 1–{pages}** dubbelzijdig printen, **omslaan langs de lange kant**. "
                "Oneven pagina’s zijn voorkanten, even pagina’s hun achterkanten.",
        "guide_short": "**Pagina’s 1–{pages}** dubbelzijdig printen, **omslaan langs de korte kant**. "
                 "Oneven pagina’s zijn voorkanten, even pagina’s hun achterkanten.",
        "guide_none": "Eerst alleen de **oneven pagina’s** (voorkanten) printen, de stapel omslaan "
                "als een bladzijde en terugleggen, dan de **even pagina’s** (achterkanten).",
        "guide_fold": "**Pagina’s 1–{pages}** enkelzijdig printen. Elk vel op de stippellijn vouwen, "
                "de helften met de bedrukte kant naar buiten op elkaar lijmen, laten drogen.",
        "guide_paper": "**Papier:** 160–250 g/m² (karton) voor stevige kaarten; 80–120 g/m² volstaat "
                 "met kaarthoesjes.",
        "guide_cut_bleed": "**Snijden:** langs de snijtekens aan de rand, eerst alle sneden in één "
                     "richting over het hele vel, dan de andere. Tussen twee kaarten ligt een "
                     "strook van {gutter} mm: beide lijnen snijden, de strook weggooien. Een "
                     "snede die tot {bleed} mm ernaast valt, toont alleen de kleur van de "
                     "eigen kaart.",
        "guide_cut_abut": "**Snijden:** langs de snijtekens aan de rand, eerst alle sneden in één "
                    "richting over het hele vel, dan de andere. Naburige kaarten delen een "
                    "snijlijn: precies op de lijn snijden.",
        "guide_count": "{cards} kaarten op {sheets} vellen, {per} kaarten per vel.",
        "guide_count_one": "{cards} kaarten op één vel.",
        "guide_fold_one": "**Pagina 1** enkelzijdig printen. Het vel op de stippellijn vouwen, "
                    "de helften met de bedrukte kant naar buiten op elkaar lijmen, laten drogen.",
        "guide_fronts": "**Pagina’s 1–{pages}** enkelzijdig printen: alleen voorkanten, geen "
                    "achterkanten – om in kaarthoesjes vóór echte kaarten te schuiven.",
        "guide_fronts_one": "**Pagina 1** enkelzijdig printen: alleen voorkanten, geen "
                        "achterkanten – om in kaarthoesjes vóór echte kaarten te schuiven.",
    },
    "fr": {
        "guide_tuck": "**Boîte** (tuckbox.pdf) : découpez le long du trait plein, pliez sur les pointillés, collez le rabat hachuré à l’intérieur du dos, rentrez le fond et le couvercle.",
        "guide_light": "**Économie d’encre** (--ink-saver) : {files} sont les versions "
                       "claires – aplats sombres en teintes pâles, texte et traits dans leur "
                       "couleur.",
        "guide_title": "Imprimer {title}",
        "guide_scale": "**Échelle :** imprimez en taille réelle (100 %), jamais « Ajuster à la "
                 "page ». Le trait de 50 mm au bas de chaque feuille doit mesurer exactement "
                 "50 mm.",
        "guide_long": "**Pages 1–{pages}** en recto verso, **retournement sur le bord long**. Les "
                "pages impaires sont les rectos, les pages paires leurs versos.",
        "guide_short": "**Pages 1–{pages}** en recto verso, **retournement sur le bord court**. Les "
                 "pages impaires sont les rectos, les pages paires leurs versos.",
        "guide_none": "Imprimez d’abord les **pages impaires** (rectos), retournez la pile comme "
                "une page de livre et remettez-la dans le bac, puis imprimez les **pages "
                "paires** (versos).",
        "guide_fold": "Imprimez les **pages 1–{pages}** en recto seul. Pliez chaque feuille sur "
                "le pointillé, collez les moitiés face imprimée à l’extérieur, laissez sécher.",
        "guide_fold_one": "Imprimez la **page 1** en recto seul. Pliez la feuille sur le "
                    "pointillé, collez les moitiés face imprimée à l’extérieur, laissez sécher.",
        "guide_paper": "**Papier :** 160–250 g/m² (carte) pour des cartes rigides ; 80–120 g/m² "
                 "suffisent avec des protège-cartes.",
        "guide_cut_bleed": "**Découpe :** le long des repères au bord, d’abord toutes les coupes "
                     "dans un sens sur toute la feuille, puis dans l’autre. Entre deux cartes "
                     "passe une bande de {gutter} mm : coupez les deux traits et jetez la "
                     "bande. Une coupe décalée de {bleed} mm au plus ne montre que la couleur "
                     "de la carte elle-même.",
        "guide_cut_abut": "**Découpe :** le long des repères au bord, d’abord toutes les coupes "
                    "dans un sens sur toute la feuille, puis dans l’autre. Deux cartes voisines "
                    "partagent un trait de coupe : coupez exactement dessus.",
        "guide_count": "{cards} cartes sur {sheets} feuilles, {per} cartes par feuille.",
        "guide_count_one": "{cards} cartes sur une feuille.",
        "guide_fronts": "Imprimez les **pages 1–{pages}** en recto seul : les rectos sans "
                    "versos, à glisser devant de vraies cartes dans des protège-cartes.",
        "guide_fronts_one": "Imprimez la **page 1** en recto seul : les rectos sans versos, à "
                        "glisser devant de vraies cartes dans des protège-cartes.",
    },
    "it": {
        "guide_tuck": "**Scatolina** (tuckbox.pdf): ritagliate lungo la linea continua, piegate sulle linee punteggiate, incollate la linguetta tratteggiata all’interno del retro, infilate fondo e coperchio.",
        "guide_light": "**Risparmio d’inchiostro** (--ink-saver): {files} sono le versioni "
                       "chiare – campiture scure in tinte tenui, testo e linee nel loro colore.",
        "guide_title": "Come stampare {title}",
        "guide_scale": "**Scala:** stampate al 100 % («Dimensioni effettive»), mai «Adatta alla "
                 "pagina». La linea di 50 mm in fondo a ogni foglio deve misurare esattamente "
                 "50 mm.",
        "guide_long": "**Pagine 1–{pages}** fronte-retro, **capovolgendo sul lato lungo**. Le "
                "pagine dispari sono i fronti, le pari i loro retri.",
        "guide_short": "**Pagine 1–{pages}** fronte-retro, **capovolgendo sul lato corto**. Le "
                 "pagine dispari sono i fronti, le pari i loro retri.",
        "guide_none": "Stampate prima le **pagine dispari** (fronti), girate la pila come la "
                "pagina di un libro e rimettetela nel cassetto, poi stampate le **pagine "
                "pari** (retri).",
        "guide_fold": "Stampate le **pagine 1–{pages}** solo fronte. Piegate ogni foglio sulla "
                "linea tratteggiata, incollate le metà con il lato stampato all’esterno, "
                "lasciate asciugare.",
        "guide_fold_one": "Stampate la **pagina 1** solo fronte. Piegate il foglio sulla linea "
                    "tratteggiata, incollate le metà con il lato stampato all’esterno, "
                    "lasciate asciugare.",
        "guide_paper": "**Carta:** 160–250 g/m² (cartoncino) per carte robuste; 80–120 g/m² "
                 "bastano con le bustine protettive.",
        "guide_cut_bleed": "**Taglio:** lungo i segni sul bordo, prima tutti i tagli in una "
                     "direzione su tutto il foglio, poi nell’altra. Tra due carte c’è una "
                     "striscia di {gutter} mm: tagliate entrambe le linee e buttate la "
                     "striscia. Un taglio spostato fino a {bleed} mm mostra solo il colore "
                     "della carta stessa.",
        "guide_cut_abut": "**Taglio:** lungo i segni sul bordo, prima tutti i tagli in una "
                    "direzione su tutto il foglio, poi nell’altra. Due carte vicine hanno "
                    "una linea di taglio in comune: tagliate esattamente su di essa.",
        "guide_count": "{cards} carte su {sheets} fogli, {per} carte per foglio.",
        "guide_count_one": "{cards} carte su un foglio.",
        "guide_fronts": "Stampate le **pagine 1–{pages}** solo fronte: i fronti senza retri, "
                    "da infilare nelle bustine davanti a carte vere.",
        "guide_fronts_one": "Stampate la **pagina 1** solo fronte: i fronti senza retri, da "
                        "infilare nelle bustine davanti a carte vere.",
    },
    "en": {
        "guide_tuck": "**Tuck box** (tuckbox.pdf): cut along the solid line, fold on the dotted lines, glue the hatched flap inside the back wall, tuck in the bottom and the lid.",
        "guide_light": "**Ink saver** (--ink-saver): {files} are the light versions – dark "
                       "areas as pale tints, words and lines in their colour.",
        "guide_title": "How to print {title}",
        "guide_scale": "**Scale:** print at 100 % (“Actual size”), never “Fit to page”. The 50 mm "
                 "line at the foot of every sheet must measure exactly 50 mm.",
        "guide_long": "**Pages 1–{pages}** double-sided, **flip on the long edge**. Odd pages are "
                "fronts, even pages their backs.",
        "guide_short": "**Pages 1–{pages}** double-sided, **flip on the short edge**. Odd pages are "
                 "fronts, even pages their backs.",
        "guide_none": "Print the **odd pages** (fronts) first, turn the stack over like a book page "
                "and put it back, then print the **even pages** (backs).",
        "guide_fold": "Print **pages 1–{pages}** single-sided. Fold each sheet on the dashed line, "
                "glue the halves together printed side out, let them dry.",
        "guide_paper": "**Paper:** 160–250 g/m² (card stock) for sturdy cards; 80–120 g/m² will do "
                 "with card sleeves.",
        "guide_cut_bleed": "**Cutting:** along the marks at the edge, first every cut in one direction "
                     "across the whole sheet, then the other. Between two cards lies a "
                     "{gutter} mm strip: cut both lines and throw the strip away. A cut up to "
                     "{bleed} mm off shows only the card's own colour.",
        "guide_cut_abut": "**Cutting:** along the marks at the edge, first every cut in one direction "
                    "across the whole sheet, then the other. Neighbouring cards share a cut "
                    "line: cut exactly on it.",
        "guide_count": "{cards} cards on {sheets} sheets, {per} cards per sheet.",
        "guide_count_one": "{cards} cards on one sheet.",
        "guide_fold_one": "Print **page 1** single-sided. Fold the sheet on the dashed line, "
                    "glue the halves together printed side out, let them dry.",
        "guide_fronts": "Print **pages 1–{pages}** single-sided: fronts only, no backs – to "
                    "slide into sleeves in front of real cards.",
        "guide_fronts_one": "Print **page 1** single-sided: fronts only, no backs – to slide "
                        "into sleeves in front of real cards.",
    },
}


@dataclass(frozen=True)
class GuideFacts:
    title: str
    language: str
    paper: str
    duplex: str
    cards: int
    light: tuple[str, ...] = ()  # the files of this build printed light (--ink-saver)
    tuckbox: bool = False  # tuckbox.pdf is made too: how to fold it
    locale: str = ""  # the edition's numbers, quotation marks and spelling


def guide_lines(facts: GuideFacts, plan: SheetPlan, pages: int,
                own: dict[str, str] | None = None) -> list[str]:
    """The guide's paragraphs, filled in: title, scale, pages and duplex, paper, cutting,
    count. `own` are the pack's own words for the same keys."""
    words = {**built_in(GUIDE, facts.language, facts.locale), **(own or {})}
    per = len(plan.slots)
    locale = facts.locale or DEFAULT_LOCALES.get(facts.language, "en-US")
    values = dict(title=facts.title, pages=pages, gutter=number(plan.gap, locale),
                  bleed=number(plan.bleed, locale), cards=facts.cards, per=per,
                  sheets=-(-facts.cards // per) if per else 0)
    one = values["sheets"] == 1  # "1 sheets", "pages 1–1" read wrong: their own sentences
    keys = ("title", "scale", facts.duplex + ("_one" if one and facts.duplex in ("fold", "fronts")
                                              else ""),
            "paper", "cut_bleed" if plan.keeps_bleed else "cut_abut",
            "count_one" if one else "count")
    if facts.tuckbox:
        keys += ("tuck",)
    if facts.light:
        keys += ("light",)
        values["files"] = ", ".join(facts.light)
    return [words["guide_" + key].format(**values) for key in keys]


# (what the guide was made from, its bytes) of the guide made last in this process: `watch`
# and `serve` make the same guide after every edit of a card's text or stats
_LAST: list[tuple[str, bytes]] = []


def guide_pdf(facts: GuideFacts, plan: SheetPlan, pages: int, meta: dict[str, str],
              own: dict[str, str] | None = None) -> bytes:
    """The one-page guide on the sheets' paper: a title, then one paragraph per step."""
    key = repr((facts, plan, pages, sorted(meta.items()), sorted((own or {}).items())))
    if _LAST and _LAST[0][0] == key:
        return _LAST[0][1]
    _LAST[:] = [(key, _guide_pdf(facts, plan, pages, meta, own))]
    return _LAST[0][1]


def _guide_pdf(facts: GuideFacts, plan: SheetPlan, pages: int, meta: dict[str, str],
               own: dict[str, str] | None) -> bytes:
    pw, ph = PAPER[facts.paper]
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (pw * MM, ph * MM), meta)
    title, *steps = guide_lines(facts, plan, pages, own)
    left, top, width = 25 * MM, (ph - 30) * MM, (pw - 50) * MM
    canvas.setFillColor(black)
    canvas.setFont(face_name("sans-bold"), 20)
    canvas.drawString(left, top, title)
    y = top - 16 * MM
    for number, step in enumerate(steps, start=1):
        fitted = fit(step, "sans", 11, 11, 1.35, width - 10 * MM, ph * MM)
        canvas.setFont(face_name("sans-bold"), 11)
        canvas.drawString(left, y, f"{number}.")
        for line in fitted.lines:
            text = canvas.beginText(left + 10 * MM, y)
            for font, piece in line.runs:
                text.setFont(font, fitted.size)
                text.textOut(piece)
            canvas.drawText(text)
            y -= fitted.leading
        y -= 5 * MM
    _miniature(canvas, plan, left, y - 5 * MM, min(0.4, (y - 5 * MM - 15 * MM) /
                                                    (plan.page_h * MM)))
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _miniature(canvas, plan: SheetPlan, left: float, top: float, scale: float = 0.4) -> None:
    """The sheet in small below the steps: paper, each card's bleed (grey) and trim, marks."""
    from reportlab.lib.colors import HexColor
    k = scale * MM
    x0, y0 = left, top - plan.page_h * k
    canvas.saveState()
    canvas.setLineWidth(0.5)
    canvas.setStrokeColor(black)
    canvas.rect(x0, y0, plan.page_w * k, plan.page_h * k)
    b = plan.bleed
    for slot in plan.slots:
        canvas.setFillColor(HexColor("#D8D8D8"))
        canvas.rect(x0 + (slot.x - b) * k, y0 + (slot.y - b) * k, (plan.card_w + 2 * b) * k,
                    (plan.card_h + 2 * b) * k, stroke=0, fill=1)
        canvas.setFillColor(HexColor("#FFFFFF"))
        canvas.rect(x0 + slot.x * k, y0 + slot.y * k, plan.card_w * k, plan.card_h * k,
                    stroke=1, fill=1)
    canvas.setLineWidth(0.3)
    for x1, y1, x2, y2 in plan.marks:
        canvas.line(x0 + x1 * k, y0 + y1 * k, x0 + x2 * k, y0 + y2 * k)
    canvas.restoreState()
