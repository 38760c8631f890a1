"""Words the built-in layouts print, per language; a pack's own `labels` override them."""

from __future__ import annotations

DEFAULTS: dict[str, dict[str, str]] = {
    "de": {"points": "Punkte", "penalty": "Minuspunkte", "active": "Aktiv", "passive": "Passiv",
           "wins_high": "höchster Wert gewinnt", "wins_low": "tiefster Wert gewinnt",
           "common": "gemeinsame Kategorie", "page": "Seite", "contents": "Inhalt",
           "fronts": "Vorderseiten", "backs": "Rückseiten"},
    "nl": {"points": "Punten", "penalty": "Strafpunten", "active": "Actief", "passive": "Passief",
           "wins_high": "hoogste waarde wint", "wins_low": "laagste waarde wint",
           "common": "gemeenschappelijke categorie", "page": "Pagina", "contents": "Inhoud",
           "fronts": "voorkanten", "backs": "achterkanten"},
    "en": {"points": "Points", "penalty": "Penalty", "active": "Active", "passive": "Passive",
           "wins_high": "highest value wins", "wins_low": "lowest value wins",
           "common": "common category", "page": "Page", "contents": "Contents",
           "fronts": "fronts", "backs": "backs"},
}


def labels_for(language: str, own: dict[str, str]) -> dict[str, str]:
    return {**DEFAULTS["en"], **DEFAULTS.get(language, {}), **own}

# Icons the built-in layouts use; a pack's `icons` (and its group ids) add to them.
DEFAULT_ICONS: dict[str, str] = {"up": "▲", "down": "▼", "common": "●"}
