"""Static measures of a deck: what the cards' values say before anyone plays.

Beat rate: the share of the deck's other cards a card beats in one category (ties half, the
detail value already applied). Everything else here is derived from the beat rates and the values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..model.packdata import PackData
from .ranks import spearman
from .table import NOT_COMPARED, Table

SWEEP = 0.95  # a set or group that wins this share of its duels in a category "always wins" it


@dataclass
class Measures:
    columns: list[int]                       # the deck's columns (indexes into table.columns)
    beat: list[list[Optional[float]]]        # [deck position][column position]
    strength: list[float]
    best: list[float]
    best_column: list[int]                   # column position of the best category
    dominated: list[tuple[str, str]] = field(default_factory=list)   # (card, by card)
    correlation: list[list[Optional[float]]] = field(default_factory=list)
    redundant: list[tuple[int, int, float]] = field(default_factory=list)
    sweeps: list[tuple[int, str, str, float]] = field(default_factory=list)
    leader: float = 0.0
    unique_best: dict[int, str] = field(default_factory=dict)
    points: dict = field(default_factory=dict)
    specials: dict = field(default_factory=dict)


def measure(table: Table, data: PackData, redundant_above: float) -> Measures:
    columns = table.deck_columns()
    beat = [[beat_rate(table, c, i, table.deck) for c in columns] for i in table.deck]
    # strength counts the categories a leader can name against any card: a same-set value
    # (Alter bei Pos.) is a duel inside one rank only
    open_cols = [k for k, c in enumerate(columns) if not table.columns[c].same_set]
    strength = [_mean([row[k] for k in open_cols if row[k] is not None]) for row in beat]
    best_column = [max(open_cols, key=lambda k: (row[k] or 0.0, -k)) for row in beat]
    m = Measures(columns, beat, strength, [row[k] or 0.0 for row, k in zip(beat, best_column)],
                 best_column)
    m.dominated = _dominated(table, columns)
    m.correlation = _correlation(table, columns)
    m.redundant = [(a, b, m.correlation[a][b]) for a in range(len(columns))
                   for b in range(a + 1, len(columns))
                   if abs(m.correlation[a][b] or 0.0) > redundant_above]
    m.sweeps = _sweeps(table, columns)
    m.leader = _mean(m.best)
    m.unique_best = _unique_best(table, columns, open_cols)
    m.points = _points(table, strength)
    m.specials = _specials(table, data)
    return m


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def beat_rate(table: Table, c: int, i: int, against: list[int]) -> Optional[float]:
    row = table.outcome[c][i]
    met = [row[j] for j in against if row[j] != NOT_COMPARED]
    if not met:
        return None
    return sum(1.0 if r == 1 else 0.5 if r == 0 else 0.0 for r in met) / len(met)


def _dominated(table: Table, columns: list[int]) -> list[tuple[str, str]]:
    """(card, by): `by` beats or ties `card` in every category they meet in, and beats it once."""
    out = []
    for i in table.deck:
        for j in table.deck:
            met = [table.outcome[c][j][i] for c in columns
                   if table.outcome[c][j][i] != NOT_COMPARED]
            if i != j and met and min(met) >= 0 and max(met) == 1:
                out.append((table.ids[i], table.ids[j]))
    return out


def oriented(table: Table, i: int, c: int) -> Optional[float]:
    """A value with its detail, signed so that higher always wins."""
    v = table.values[i][c]
    if v is None:
        return None
    return (v[0] * 1000 + v[1]) * (1 if table.columns[c].high else -1)


def _correlation(table: Table, columns: list[int]) -> list[list[Optional[float]]]:
    series = [[oriented(table, i, c) for i in table.deck] for c in columns]
    out = []
    for a in series:
        row = []
        for b in series:
            pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
            row.append(spearman([p[0] for p in pairs], [p[1] for p in pairs]))
        out.append(row)
    return out


def _sweeps(table: Table, columns: list[int]) -> list[tuple[int, str, str, float]]:
    """(column, 'set' or 'group', name, share): a set or group winning nearly all its duels
    against the rest of the deck in a category."""
    out = []
    for what in ("set", "group"):
        names = sorted({_member(table, i, what) for i in table.deck} - {""})
        for k, c in enumerate(columns):
            if table.columns[c].same_set:
                continue
            for name in names:
                inside = [i for i in table.deck if _member(table, i, what) == name]
                outside = [j for j in table.deck if _member(table, j, what) != name]
                rates = [beat_rate(table, c, i, outside) for i in inside]
                share = _mean([r for r in rates if r is not None])
                if share >= SWEEP:
                    out.append((k, what, name, share))
    return out


def _member(table: Table, i: int, what: str) -> str:
    card = table.cards[i].card
    return card.set if what == "set" else (card.group or "")


def _unique_best(table: Table, columns: list[int], open_cols: list[int]) -> dict[int, str]:
    """Column position → the one card holding that column's best value alone."""
    out = {}
    for k in open_cols:
        c = columns[k]
        scored = [(oriented(table, i, c), i) for i in table.deck if table.values[i][c] is not None]
        top = max(v for v, _ in scored)
        holders = [i for v, i in scored if v == top]
        if len(holders) == 1:
            out[k] = table.ids[holders[0]]
    return out


def _points(table: Table, strength: list[float]) -> dict:
    """How card points follow strength: overall, against the set order, within each set."""
    cards = [table.cards[i].card for i in table.deck]
    have = [k for k, card in enumerate(cards) if card.points is not None]
    if len(have) < 3:
        return {}
    order = list(dict.fromkeys(card.set for card in cards))
    pts = [cards[k].points for k in have]
    within = {}
    for name in order:
        members = [k for k in have if cards[k].set == name]
        rho = spearman([cards[k].points for k in members], [strength[k] for k in members])
        if rho is not None:
            within[name] = rho
    return {"strength": spearman(pts, [strength[k] for k in have]),
            "set_order": spearman(pts, [order.index(cards[k].set) for k in have]),
            "within_set": within}


def _specials(table: Table, data: PackData) -> dict:
    """Special cards with stats against the deck: beat rate in the categories they meet in."""
    if not table.specials:
        return {}
    strength = {}
    for i in table.specials:
        rates = [beat_rate(table, c, i, table.deck) for c in range(len(table.columns))]
        strength[table.ids[i]] = _mean([r for r in rates if r is not None])
    ids = [table.ids[i] for i in table.specials]
    penalty = {cid: table.cards[i].card.penalty for cid, i in zip(ids, table.specials)}
    out = {"strength": strength, "penalty": penalty}
    if all(p is not None for p in penalty.values()):
        amount = [abs(penalty[cid]) for cid in ids]
        out["penalty_strength"] = spearman(amount, [strength[cid] for cid in ids])
        follows = []
        for c, column in enumerate(table.columns):
            series = [oriented(table, i, c) for i in table.specials]
            if None not in series:
                rho = spearman(amount, [abs(v) for v in series])
                if rho is not None:
                    follows.append((column.label, rho))
        if follows:
            out["penalty_follows"] = max(follows, key=lambda f: abs(f[1]))  # first on a tie
    return out
