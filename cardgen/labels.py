"""Words the built-in layouts print, per language; a pack's own `labels` override them."""

from __future__ import annotations

DEFAULTS: dict[str, dict[str, str]] = {
    "de": {"points": "Punkte", "penalty": "Minuspunkte", "active": "Aktiv", "passive": "Passiv",
           "wins_high": "höchster Wert gewinnt", "wins_low": "tiefster Wert gewinnt",
           "common": "gemeinsame Kategorie", "page": "Seite", "contents": "Inhalt",
           "fronts": "Vorderseiten", "backs": "Rückseiten",
           "calibration_front": "Kalibrierung, Vorderseite: duplex drucken (100 %), gegen das "
                                "Licht halten",
           "calibration_back": "Rückseite: wo liegt das Kreuz der Vorderseite auf den Skalen? "
                               "Diese mm als --back-offset X,Y angeben"},
    "nl": {"points": "Punten", "penalty": "Strafpunten", "active": "Actief", "passive": "Passief",
           "wins_high": "hoogste waarde wint", "wins_low": "laagste waarde wint",
           "common": "gemeenschappelijke categorie", "page": "Pagina", "contents": "Inhoud",
           "fronts": "voorkanten", "backs": "achterkanten",
           "calibration_front": "Kalibratie, voorkant: dubbelzijdig afdrukken (100 %), tegen "
                                "het licht houden",
           "calibration_back": "Achterkant: waar valt het kruis van de voorkant op de schalen? "
                               "Geef die mm op als --back-offset X,Y"},
    "en": {"points": "Points", "penalty": "Penalty", "active": "Active", "passive": "Passive",
           "wins_high": "highest value wins", "wins_low": "lowest value wins",
           "common": "common category", "page": "Page", "contents": "Contents",
           "fronts": "fronts", "backs": "backs",
           "calibration_front": "Calibration, front: print duplex at 100 %, hold it against "
                                "the light",
           "calibration_back": "Back: where does the front's cross fall on the scales? Give "
                               "those mm as --back-offset X,Y"},
}


def labels_for(language: str, own: dict[str, str]) -> dict[str, str]:
    return {**DEFAULTS["en"], **DEFAULTS.get(language, {}), **own}

# Icons the built-in layouts use; a pack's `icons` (and its group ids) add to them.
DEFAULT_ICONS: dict[str, str] = {"up": "▲", "down": "▼", "common": "●"}
