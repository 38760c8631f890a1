"""Numbers as an edition prints them: the one way cards, rulebook tables and balance.pdf write a
number, so that a pack never prints 954’000 beside 412 000 and 23.3 (issue 28).

Why Babel with its symbols swapped in afterwards: the locale's pattern (grouping, percent
spacing) is CLDR's, but Babel's own formatting drops the group separator of de-CH from the
millions on (its "'" is read as a pattern quote: 1'234'567 → 1234567). The digits are laid out
with en-US symbols and the edition's symbols are put in their place; the typewriter apostrophe
of CLDR's de-CH becomes the typographic ’. Negative numbers take the minus sign −, never a
hyphen; no magnitude is ever written in scientific notation.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from decimal import Decimal
from functools import lru_cache

from babel import Locale

from .words import MINUS

UNIT_GAP = "\u202f"  # narrow no-break space between a number and its unit (12 kg)
TYPOGRAPHIC = {"'": "’"}  # a separator as the type sets it


@lru_cache(maxsize=None)
def _locale(locale: str):
    """(decimal pattern, percent pattern, symbols table, gap before %) of a locale."""
    loc = Locale.parse(locale, sep="-")
    symbols = loc.number_symbols["latn"]
    group = TYPOGRAPHIC.get(symbols["group"], symbols["group"])
    table = str.maketrans({",": group, ".": symbols["decimal"]})
    percent = loc.percent_formats[None]
    gap = percent.suffix[0].replace("%", "")
    return loc.decimal_formats[None], percent, table, gap


def _amount(value) -> Decimal:
    amount = value if isinstance(value, Decimal) else Decimal(str(value))
    if amount == amount.to_integral_value():
        amount = amount.quantize(Decimal(1))
    return amount


def _apply(pattern, value, locale: str, decimals: int | None) -> str:
    """`value` by the locale's `pattern` with `decimals` places (None: as many as it has)."""
    amount = _amount(value)
    shape = copy.copy(pattern)
    shape.exp_prec = None  # never 1.2E6
    if decimals is not None:
        shape.frac_prec = (decimals, decimals)
    text = shape.apply(abs(amount), "en_US", decimal_quantization=decimals is not None,
                       numbering_system="latn")
    text = text.translate(_locale(locale)[2])
    negative = amount < 0 and any(c in "123456789" for c in text)  # −0.04 at 1 place is 0.0
    return MINUS + text if negative else text


def number(value, locale: str, decimals: int | None = None) -> str:
    """`value` as the edition writes it: 9879750 → 9’879’750 (de-CH), 9.879.750 (de-DE),
    9,879,750 (en-US); −2,5 with a minus sign; `decimals` places, or all the value has."""
    try:
        return _number(type(value), value, locale, decimals)
    except TypeError:  # a value that cannot be a key: written without the memory
        return _apply(_locale(locale)[0], value, locale, decimals)


@lru_cache(maxsize=4096)
def _number(kind: type, value, locale: str, decimals: int | None) -> str:
    """number(), kept: a deck writes the same few values again and again (the 104-card photo
    deck 960 stats, each through Babel's pattern: 13 ms of its cold build). `kind` keeps 1
    and 1.0 apart (equal keys, written alike today, but not by promise)."""
    return _apply(_locale(locale)[0], value, locale, decimals)


def plain(value) -> str:
    """A number in a message to the designer: as the file wrote it, never with an exponent
    (9879750.0 → 9879750, not 9.87975e+06; 0.5 → 0.5)."""
    text = f"{value:g}"
    if "e" not in text or not isinstance(value, (int, float)):
        return text
    return format(Decimal(repr(value)).normalize(), "f")


def percent(share, locale: str, decimals: int = 0) -> str:
    """A share (0.45) as a percentage the locale's way: 45 % (de-DE), 45% (de-CH, en)."""
    return _apply(_locale(locale)[1], share, locale, decimals)


def with_unit(text: str, unit: str, locale: str, label: str = "") -> str:
    """A printed value and its unit: 12 kg (a narrow no-break space), 45 % or 45% as the
    locale sets a percentage, a unit of punctuation only (the ordinal '.') right after it.
    Nothing is added when the value is missing, already ends in the unit or the
    `label` printed beside it names the unit ('Gewicht (kg)')."""
    if not unit or not text or text == "–" or text.endswith(unit) or named(unit, label):
        return text
    if unit == "%":
        return text + _locale(locale)[3] + unit
    return text + ("" if attached(unit) else UNIT_GAP) + unit


def attached(unit: str) -> bool:
    """A 'unit' of punctuation only, written onto the number as part of it (the '.' of a
    rank), not a unit a reader reads as a word or symbol (kg, SE$, %, °C)."""
    return unit != "%" and all(unicodedata.category(ch).startswith("P") for ch in unit)


def named(unit: str, label: str) -> bool:
    """Whether `label` already names `unit` as a word of its own ('Gewicht (kg)', 'kg')."""
    return bool(unit and label and re.search(rf"(?<!\w){re.escape(unit)}(?!\w)", label))


def stat_value(spec, value, locale: str, label: str = "") -> str:
    """A stat as a card prints it: the number the edition's way with the category's decimals,
    a rank as '3.', a level as 'level (detail)', then the unit (with_unit)."""
    if value is None:
        return "–"
    if spec.type == "level":
        return f"{number(value[0], locale, 0)} ({number(value[1], locale)})"
    if spec.type == "rank":
        return with_unit(number(int(value), locale, 0) + ".", spec.unit, locale, label)
    return with_unit(number(value, locale, spec.decimals), spec.unit, locale, label)
