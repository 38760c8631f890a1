"""Card lists as people write them: "A1-A4, C1, F1–F12, Q1*, K" → card IDs, and back.

An item is one of
- a card ID ("S2", "PIK-10"),
- a range on the trailing number ("A1-A4", "F1–F32", "PIK-2-PIK-10", "D01..D12") or on a
  letter after a number ("Q1a-Q1d"),
- a pattern with * and ? ("Q1*", "PIK-?"),
- a kind id ("K": every card of that kind).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

from ..diagnostics import did_you_mean

NUMBERED = re.compile(r"^(.*?)(\d+)$")
_LETTERED = re.compile(r"^(.*?\d)([A-Za-z])$")  # a letter after a digit: Q1a
_SEPARATORS = ("..", "–", "—", "-")


@dataclass
class Catalogue:
    """The IDs of a pack in pack order, and which kind each belongs to."""

    order: list[str]
    kind_of: dict[str, str]
    kinds: dict[str, list[str]]

    @classmethod
    def of(cls, pairs: list[tuple[str, str]]) -> "Catalogue":
        order: list[str] = []
        kind_of: dict[str, str] = {}
        kinds: dict[str, list[str]] = {}
        for card_id, kind in pairs:
            if card_id in kind_of:
                continue  # a duplicate ID is reported by the card checks
            order.append(card_id)
            kind_of[card_id] = kind
            kinds.setdefault(kind, []).append(card_id)
        return cls(order, kind_of, kinds)

    def position(self) -> dict[str, int]:
        return {card_id: i for i, card_id in enumerate(self.order)}


class ItemError(ValueError):
    """An item that names no card; the message says why and what was meant."""


def split_items(text: str) -> list[str]:
    """'A1-A4, C1 ,F2' → ['A1-A4', 'C1', 'F2'] (commas and spaces separate items)."""
    return [part for part in re.split(r"[,\s]+", text.strip()) if part]


def expand(item: str, catalogue: Catalogue, allow_kinds: bool = True) -> list[str]:
    """The IDs one item names, in the item's order; ItemError when it names none."""
    item = item.strip()
    if not item:
        raise ItemError("an empty item")
    if item in catalogue.kind_of:
        return [item]
    if allow_kinds and item in catalogue.kinds:
        return list(catalogue.kinds[item])
    if any(c in item for c in "*?["):
        found = [i for i in catalogue.order if fnmatch.fnmatchcase(i, item)]
        if not found:
            raise ItemError(f"'{item}' matches no card")
        return found
    for low, high in _range_ends(item):
        ids = _range_ids(low, high)
        missing = [i for i in ids if i not in catalogue.kind_of]
        if missing:
            shown = ", ".join(missing) if len(missing) <= 3 else f"{missing[0]} … {missing[-1]}"
            raise ItemError(f"'{item}': the pack has no card {shown}")
        return ids
    raise ItemError(f"no card '{item}'{did_you_mean(item, catalogue.order)}")


def _range_ends(item: str):
    """Every way of reading the item as LOW<sep>HIGH with the same prefix and LOW ≤ HIGH."""
    for sep in _SEPARATORS:
        start = 0
        while (pos := item.find(sep, start)) != -1:
            low, high = item[:pos], item[pos + len(sep):]
            start = pos + 1
            lm, hm = NUMBERED.match(low), NUMBERED.match(high)
            if lm and hm and lm.group(1) == hm.group(1) and int(lm.group(2)) <= int(hm.group(2)):
                yield lm, hm
                continue
            lm, hm = _LETTERED.match(low), _LETTERED.match(high)
            if lm and hm and lm.group(1) == hm.group(1) and lm.group(2) <= hm.group(2) and \
                    lm.group(2).islower() == hm.group(2).islower():
                yield lm, hm


def _range_ids(low: re.Match, high: re.Match) -> list[str]:
    prefix, first, last = low.group(1), low.group(2), high.group(2)
    if first.isalpha():  # Q1a-Q1d
        return [f"{prefix}{chr(c)}" for c in range(ord(first), ord(last) + 1)]
    width = len(first) if first.startswith("0") and len(first) > 1 else 0
    return [f"{prefix}{n:0{width}d}" if width else f"{prefix}{n}"
            for n in range(int(first), int(last) + 1)]


def compress(ids, catalogue: Catalogue | None = None) -> str:
    """'A1, A2, A3, A4, C1, F1 … F12' → 'A1–A4, C1, F1–F12' (pack order when known).

    Runs of three or more consecutive numbers with one prefix become a range.
    """
    ids = list(dict.fromkeys(ids))
    if catalogue is not None:
        where = catalogue.position()
        ids.sort(key=lambda i: where.get(i, len(where)))
    runs: list[list[str]] = []
    for card_id in ids:
        if runs and _follows(runs[-1][-1], card_id):
            runs[-1].append(card_id)
        else:
            runs.append([card_id])
    parts = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"{run[0]}–{run[-1]}")
        else:
            parts.extend(run)
    return ", ".join(parts)


def _follows(before: str, after: str) -> bool:
    a, b = NUMBERED.match(before), NUMBERED.match(after)
    if not (a and b and a.group(1) == b.group(1)):
        return False
    if int(b.group(2)) != int(a.group(2)) + 1:
        return False
    padded = a.group(2).startswith("0") or b.group(2).startswith("0")
    return not padded or len(a.group(2)) == len(b.group(2))


def and_list(words: list[str], last: str = "and") -> str:
    """['a', 'b', 'c'] → 'a, b and c'."""
    words = [w for w in words if w]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]
