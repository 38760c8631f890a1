"""The duel table: every card that duels, every playable category value, and who beats whom.

Why precomputed: a duel is decided by two cards and one category, so the outcome of every pair
is worked out once (direction `wins`, the detail value as a tie-break, same-set-only values) and
the measures and the simulations only look it up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..model.packdata import LoadedCard, PackData
from ..model.balance import Balance

NOT_COMPARED = 2  # a cell of `outcome`: these two cards cannot meet in this category


@dataclass(frozen=True)
class Column:
    """One playable category value ('IQ' of 'IQ / BMI')."""

    key: str
    label: str
    high: bool            # the highest value wins
    detail: bool          # a tie on the level goes to the detail value
    common: bool          # usable between different kinds
    same_set: bool        # compared only between cards of the same set


@dataclass
class Table:
    cards: list[LoadedCard]
    columns: list[Column]
    values: list[list[Optional[tuple]]]        # [card][column] → (value, detail) or None
    outcome: list[list[list[int]]] = field(default_factory=list)  # [column][i][j] ∈ 1, 0, -1, 2
    deck: list[int] = field(default_factory=list)       # indexes of the deck cards
    specials: list[int] = field(default_factory=list)   # indexes of the special cards

    @property
    def ids(self) -> list[str]:
        return [c.card.id for c in self.cards]

    def index(self, card_id: str) -> int:
        return self.ids.index(card_id)

    def deck_columns(self) -> list[int]:
        """Columns the deck cards carry."""
        return [c for c in range(len(self.columns))
                if any(self.values[i][c] is not None for i in self.deck)]


def build_table(data: PackData, balance: Balance, kinds: list[str],
                specials: list[str]) -> Table:
    """The table for the deck kinds (and the special kinds that carry stats)."""
    same_set = set(balance.same_set_only)
    detail_on = "detail" in balance.tie_breaks
    columns: list[Column] = []
    for category in data.pack.categories:
        if not set(category.kinds) & set(kinds + specials):
            continue
        for value in category.values:
            if any(c.key == value.key for c in columns):
                continue
            columns.append(Column(value.key, _label(category, value), value.wins == "high",
                                  detail_on and value.type == "level" and bool(category.tie_break),
                                  category.common, value.key in same_set))
    cards = [c for c in data.cards if c.kind in kinds] + \
        [c for c in data.cards if c.kind in specials and c.card.stats]
    kind_columns = {kind: {v.key for c in data.pack.categories if kind in c.kinds
                           for v in c.values} for kind in kinds + specials}
    values = [[_value(lc, col, kind_columns[lc.kind]) for col in columns] for lc in cards]
    table = Table(cards, columns, values)
    table.deck = [i for i, lc in enumerate(cards) if lc.kind in kinds]
    table.specials = [i for i, lc in enumerate(cards) if lc.kind not in kinds]
    table.outcome = [_column_outcome(table, c) for c in range(len(columns))]
    return table


def _label(category, value) -> str:
    """The value's label read alone: 'ges' of 'Erfahrung ges / Pos' → 'Erfahrung ges'."""
    label = value.label
    first = category.label.split()[0]
    if len(category.values) > 1 and first != label and (
            label[:1].islower() or (len(label) <= 3 and not label.isupper())):
        return f"{first} {label}"
    return label


def _value(lc: LoadedCard, column: Column, own: set[str]) -> Optional[tuple]:
    """(value, detail) of a card in a column; None when its kind does not play that value."""
    if column.key not in own or column.key not in lc.card.stats:
        return None
    raw = lc.card.stats[column.key]
    if isinstance(raw, list):
        return (raw[0], raw[1] if column.detail else 0)
    return (raw, 0)


def _column_outcome(table: Table, c: int) -> list[list[int]]:
    """[i][j]: 1 when card i beats card j in column c, -1 when it loses, 0 a tie, 2 no duel."""
    column = table.columns[c]
    sign = 1 if column.high else -1
    n = len(table.cards)
    rows = []
    for i in range(n):
        vi, row = table.values[i][c], []
        for j in range(n):
            vj = table.values[j][c]
            if vi is None or vj is None or i == j or not _meet(table, column, i, j):
                row.append(NOT_COMPARED)
            else:
                row.append(sign * ((vi > vj) - (vi < vj)))
        rows.append(row)
    return rows


def _meet(table: Table, column: Column, i: int, j: int) -> bool:
    """Two cards meet in a column when the kinds agree (or it is common) and, for a same-set
    value, the sets agree."""
    a, b = table.cards[i], table.cards[j]
    if a.kind != b.kind and not column.common:
        return False
    return not column.same_set or (a.kind == b.kind and a.card.set == b.card.set)
