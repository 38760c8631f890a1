"""Octet values from the simulated games: what each group's octet is worth on average, and values
that make every group's octet worth the same.

Target (docs/decisions.md, "Octet values set by simulation"): an octet of any group is worth the
same on average, its base or bonus counted as the laid octets score them (its cards' points come on
top and are alike across groups of one make-up); that common worth stays where today's groups are
on average, so octets keep their weight against quartets; every bonus adds the same amount, the
mean of today's bonus steps, so "the bonus" means one thing at the table; each group keeps its
number of different sets, so a bonus that is hard to reach is paid for by a higher base. Values
are rounded to `step` (5), like the rest of the score sheet.

Method: the simulation lays octets without looking at their values (a card counting for two
groups aside), so the share p of a group's laid octets that reach its number of different sets
does not change with the values. A group's mean worth is base + p × (bonus − base); solving
base = target − p × step_of_bonus gives the values. run.py plays the games again with them to
show what they give.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import mean
from typing import Optional

from ..model.compose import OctetScore
from .simulate import OctetStats

STEP = 5                # octet values are multiples of this (the score sheet's round numbers)
UNEVEN = 0.10           # groups whose mean octet worth differs by more than this share: unbalanced


@dataclass(frozen=True)
class OctetChange:
    group: str
    field: str                           # base, bonus, distinct
    old: Optional[int]
    new: Optional[int]


@dataclass
class OctetAdvice:
    """Suggested octet scores and what they are expected to give."""

    target: int                          # the mean worth every group's octet should have
    step: int                            # what a bonus adds to the base (0: no group has one)
    scores: dict[str, OctetScore]        # the suggested scores, per group
    reached: dict[str, Optional[float]]  # per group: share of laid octets reaching the bonus
    worth_now: dict[str, float]          # per group: mean base or bonus of a laid octet, today
    worth_expected: dict[str, float]     # the same with the suggested scores, from the shares
    changes: list[OctetChange] = field(default_factory=list)


def worth(stats: OctetStats) -> float:
    """Mean base or bonus of one laid octet of the group (its cards' points not counted)."""
    return stats.value / stats.laid if stats.laid else 0.0


def spread(values: dict[str, float]) -> float:
    """(largest − smallest) / mean: how unevenly the groups' octets are worth."""
    known = list(values.values())
    if len(known) < 2 or mean(known) <= 0:
        return 0.0
    return (max(known) - min(known)) / mean(known)


def _round(value: float, step: int) -> int:
    return int(step * round(value / step))


def advise(octets: dict[str, OctetStats], scores: dict[str, OctetScore],
           step: int = STEP) -> Optional[OctetAdvice]:
    """Scores that give every laid group's octet the same mean worth (None: none was laid)."""
    laid = {g: octets[g] for g in scores if g in octets and octets[g].laid}
    if not laid:
        return None
    now = {g: worth(s) for g, s in laid.items()}
    target = _round(mean(now.values()), step)
    steps = [s.bonus - s.base for g, s in scores.items() if g in laid and s.bonus is not None]
    bonus_step = max(step, _round(mean(steps), step)) if steps else 0
    reached: dict[str, Optional[float]] = {}
    suggested: dict[str, OctetScore] = {}
    expected: dict[str, float] = {}
    for group, score in scores.items():
        if group not in laid:
            suggested[group] = score
            continue
        if score.bonus is None:
            reached[group] = None
            suggested[group] = OctetScore(base=target)
            expected[group] = float(target)
            continue
        share = laid[group].reached(score.distinct)
        reached[group] = share
        base = _round(target - share * bonus_step, step)
        suggested[group] = OctetScore(base=base, bonus=base + bonus_step, distinct=score.distinct)
        expected[group] = base + share * bonus_step
    changes = [OctetChange(g, name, getattr(scores[g], name), getattr(suggested[g], name))
               for g in scores for name in ("base", "bonus")
               if getattr(scores[g], name) != getattr(suggested[g], name)]
    return OctetAdvice(target, bonus_step, suggested, reached, now, expected, changes)


def mean_distinct(stats: OctetStats) -> float:
    """The mean number of different sets in the group's laid octets."""
    return sum(k * n for k, n in stats.distinct.items()) / stats.laid if stats.laid else 0.0
