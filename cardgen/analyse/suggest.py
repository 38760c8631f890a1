"""Suggested points and penalties from the rule a pack declares, and writing them into the card
files without touching anything else.

Why rank-based: a designer thinks in "the strongest F card gets the most F points". Cards are
ranked by their strength (or by how rarely they end in a laid set) inside their set or kind, and
the values spread evenly from the weakest card's value to the strongest one's.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from ..model.balance import SuggestRule
from .measures import Measures
from .table import Table


@dataclass(frozen=True)
class Suggestion:
    card: str
    field: str                   # a card field (points, penalty) or "stats.<key>"
    old: int | float | None
    new: int | float
    file: str
    line: int
    col: int


def suggest(table: Table, measures: Measures, plays: list, rules: list[SuggestRule]) -> list:
    out = []
    for rule in rules:
        score = _score(table, measures, plays, rule)
        rows = [i for i in range(len(table.cards)) if table.cards[i].kind in rule.kinds]
        groups: dict[str, list[int]] = {}
        for i in rows:
            groups.setdefault(table.cards[i].card.set if rule.within == "set" else "", []).append(i)
        for name, members in groups.items():
            out += _spread(table, rule, members, score, rule.ranges.get(name, rule.range))
    return out


def _score(table: Table, measures: Measures, plays: list, rule: SuggestRule) -> dict[int, float]:
    """What ranks the cards: strength, or 1 − the share of games the card ends in a laid set."""
    if rule.by == "rarity":
        sets_plays = [p for p in plays if p.play == "sets"]
        games = sum(p.games for p in sets_plays) or 1
        return {i: 1 - sum(p.card_laid.get(i, 0) for p in sets_plays) / games
                for i in range(len(table.cards))}
    score = {i: measures.strength[k] for k, i in enumerate(table.deck)}
    for i in table.specials:
        score[i] = measures.specials.get("strength", {}).get(table.ids[i], 0.0)
    return score


def _spread(table: Table, rule: SuggestRule, members: list[int], score: dict[int, float],
            given) -> list[Suggestion]:
    present = [getattr(table.cards[i].card, rule.field) for i in members]
    known = sorted((v for v in present if v is not None), key=abs)
    if given is None and not known:
        return []
    weakest, strongest = given if given is not None else (known[0], known[-1])
    order = sorted(members, key=lambda i: (score[i], table.ids[i]))
    out = []
    for rank, i in enumerate(order):
        share = rank / (len(order) - 1) if len(order) > 1 else 1.0
        lc = table.cards[i]
        mark = lc.mark(rule.field) if rule.field in lc.raw else lc.raw.mark
        out.append(Suggestion(lc.card.id, rule.field, getattr(lc.card, rule.field),
                              round(weakest + (strongest - weakest) * share), lc.file,
                              mark.line, mark.col))
    return out


_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?")


def edited_texts(suggestions: list[Suggestion], problems: list | None = None
                 ) -> tuple[dict[str, tuple[str, str]], list]:
    """{file: (old text, new text)} with each changed value replaced where its mark points, and
    the suggestions that cannot be written in place (the card does not write the field).

    A file that cannot be read again, or whose value is no longer where it was read (edited
    meanwhile), is left out whole: (suggestion, why) appended to `problems` (raised as
    ValueError without that list)."""
    by_file: dict[str, list[Suggestion]] = {}
    missing = []
    for s in suggestions:
        if s.old is None:
            missing.append(s)
        elif s.old != s.new:
            by_file.setdefault(s.file, []).append(s)
    out = {}
    for file, items in by_file.items():
        try:
            out[file] = _edited(file, items)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            why = str(exc) if isinstance(exc, ValueError) and not isinstance(
                exc, UnicodeDecodeError) else f"cannot be read again ({getattr(exc, 'strerror', None) or exc})"
            if problems is None:
                raise ValueError(f"{file}: {why}") from None
            problems.append((items[0], why))
    return out, missing


def _edited(file: str, items: list[Suggestion]) -> tuple[str, str]:
    old = Path(file).read_text(encoding="utf-8")
    lines = old.splitlines(keepends=True)
    for s in items:
        line = lines[s.line - 1] if 0 < s.line <= len(lines) else ""
        start = s.col - 1
        found = _NUMBER.match(line, start)
        if found is None or float(found.group()) != s.old:
            raise ValueError(f"{s.card} {s.field} is no longer where the file was read "
                             "(was it edited meanwhile?); run the command again")
        decimals = len(found.group(1) or ".") - 1   # 489.0 stays written with one decimal
        text = f"{s.new:.{decimals}f}" if decimals else str(s.new)
        lines[s.line - 1] = line[:start] + text + line[found.end():]
    return old, "".join(lines)


def unified_diff(texts: dict[str, tuple[str, str]]) -> str:
    return "".join("".join(difflib.unified_diff(old.splitlines(keepends=True),
                                                new.splitlines(keepends=True),
                                                fromfile=f"a/{file}", tofile=f"b/{file}"))
                   for file, (old, new) in sorted(texts.items()))
