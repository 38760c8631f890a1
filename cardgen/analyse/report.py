"""The balance result as data for scripts (--json) and as the short terminal summary.

Why one module: the JSON and the summary name the same numbers; the PDF painter reads the same
result, so the three cannot tell different stories.
"""

from __future__ import annotations

from statistics import mean, median

from .octets import mean_distinct, worth
from .run import BalanceResult
from .simulate import PlayStats


def rho_text(value) -> str:
    """A rank correlation for people: +0.55, or 'n/a' when one side does not vary."""
    return "n/a" if value is None else f"{value:+.2f}"


def _r(value, digits: int = 3):
    return None if value is None else round(value, digits)


def as_json(result: BalanceResult) -> dict:
    t, m = result.table, result.measures
    columns = [t.columns[c] for c in m.columns]
    cards = []
    for k, i in enumerate(t.deck):
        card = t.cards[i].card
        cards.append({"id": card.id, "kind": t.cards[i].kind, "set": card.set,
                      "group": card.group or "/".join(card.groups), "points": card.points,
                      "strength": _r(m.strength[k]), "best": _r(m.best[k]),
                      "best_category": columns[m.best_column[k]].key,
                      "beat": {col.key: _r(b) for col, b in zip(columns, m.beat[k])}})
    return {
        "pack": result.pack_id, "seed": result.seed,
        "categories": [{"key": c.key, "label": c.label, "wins": "high" if c.high else "low",
                        "detail_tie_break": c.detail, "same_set_only": c.same_set}
                       for c in columns],
        "cards": cards,
        "dominated": [{"card": a, "by": b} for a, b in m.dominated],
        "redundant": [{"a": columns[a].key, "b": columns[b].key, "rho": _r(rho)}
                      for a, b, rho in m.redundant],
        "always_wins": [{"category": columns[k].key, what: name, "share": _r(share)}
                        for k, what, name, share in m.sweeps],
        "leader_advantage": _r(m.leader),
        "unique_best": {columns[k].key: cid for k, cid in m.unique_best.items()},
        "points": _rounded(m.points),
        "specials": _rounded(m.specials),
        "simulations": [_play_json(result, p) for p in result.plays],
        "suggestions": [{"card": s.card, "field": s.field, "old": s.old, "new": s.new}
                        for s in result.suggestions],
        "octet_suggestions": {name: _advice_json(result, name, advice)
                              for name, advice in result.octet_advice.items()},
    }


def _score_json(score) -> dict:
    return {k: v for k, v in (("base", score.base), ("bonus", score.bonus),
                              ("distinct", score.distinct)) if v is not None}


def _advice_json(result: BalanceResult, name: str, advice) -> dict:
    checked = result.octet_checked.get(name)
    return {"target": advice.target, "bonus_step": advice.step,
            "scores": {g: _score_json(s) for g, s in advice.scores.items()},
            "bonus_reached": {g: _r(r) for g, r in advice.reached.items()},
            "worth_now": {g: _r(v, 1) for g, v in advice.worth_now.items()},
            "worth_expected": {g: _r(v, 1) for g, v in advice.worth_expected.items()},
            "worth_played_again": {g: _r(worth(s), 1) for g, s in checked.octets.items()
                                   if s.laid} if checked else None,
            "changes": [{"group": c.group, "field": c.field, "old": c.old, "new": c.new}
                        for c in advice.changes]}


def _rounded(value):
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


def _play_json(result: BalanceResult, p: PlayStats) -> dict:
    ids = result.table.ids
    out = {"variant": p.variant, "play": p.play, "games": p.games,
           "length": {"min": min(p.lengths), "median": median(p.lengths),
                      "mean": _r(mean(p.lengths), 1), "max": max(p.lengths)},
           "lead_changes_mean": _r(mean(p.lead_changes), 1),
           "ended_by_time": p.capped,
           "strongest_hand_wins": _r(p.strongest_won / p.games),
           "strongest_hand_wins_by_chance": _r(p.chance / p.games),
           "tables": {name: {"games": g, "strongest_hand_wins": _r(won / g),
                             "by_chance": _r(chance / g)}
                      for name, (g, won, chance) in sorted(p.tables.items())},
           "duels_by_players": {str(n): _r(d / g, 1) for n, (g, d) in sorted(p.by_players.items())},
           "mixed_tables": {s: {"seats": seats, "wins": p.strategy_wins.get(s, 0)}
                            for s, seats in sorted(p.strategy_seats.items())},
           "cards": {ids[i]: {"won": p.won[i], "lost": p.lost[i]}
                     for i in range(len(ids)) if p.won[i] or p.lost[i]},
           "leader": _leader_json(p)}
    if p.play == "sets":
        out["sets_laid_per_game"] = {k: _r(v / p.games) for k, v in sorted(p.laid_sets.items())}
        out["octets_laid_per_game"] = {k: _r(v / p.games) for k, v in sorted(p.laid_octets.items())}
        out["octets_with_bonus"] = {k: p.octet_bonus.get(k, 0) for k in sorted(p.laid_octets)}
        out["points_share"] = _r(points_share(p))
        out["octets"] = {g: _octet_json(p, o) for g, o in sorted(p.octets.items())}
        out["winning_score_mean"] = _r(mean(p.winning_scores), 1)
    return out


def _leader_json(p: PlayStats) -> dict:
    """The leader effect: how often the leader wins a duel, how rarely the lead changes, and
    who wins the game: the first leader, the strongest starting hand, or chance."""
    duels, changes = sum(p.lengths), sum(p.lead_changes)
    return {"duels_won_by_leader": _r(p.leader_won / duels if duels else 0.0),
            "duels_per_lead_change": _r(duels / changes if changes else float(duels), 1),
            "first_leader_wins": _r(p.first_leader_won / p.games),
            "strongest_hand_wins": _r(p.strongest_won / p.games),
            "by_chance": _r(p.chance / p.games),
            "chance_spread": _r(p.chance_spread ** 0.5 / p.games),
            "by_players": {str(n): {"games": p.by_players[n][0],
                                    "strongest_hand_wins": _r(s / p.by_players[n][0]),
                                    "first_leader_wins": _r(f / p.by_players[n][0]),
                                    "by_chance": _r(1 / n)}
                           for n, (s, f) in sorted(p.players_won.items())}}


def _octet_json(p: PlayStats, o) -> dict:
    return {"laid_per_game": _r(o.laid / p.games), "games_with_one": _r(o.games / p.games),
            "bonus_share": _r(o.bonus / o.laid) if o.laid else None,
            "games_with_bonus": _r(o.bonus_games / p.games), "worth": _r(worth(o), 1),
            "card_points_per_octet": _r(o.points / o.laid, 1) if o.laid else None,
            "mean_distinct": _r(mean_distinct(o), 2),
            "distinct": {str(k): n for k, n in sorted(o.distinct.items())}}


def points_share(p: PlayStats) -> float:
    """Share of the laid sets' score that comes from the cards' points."""
    laid = p.score_parts.get("points", 0) + p.score_parts.get("base", 0)
    return p.score_parts.get("points", 0) / laid if laid else 0.0


def summary(result: BalanceResult) -> list[str]:
    """A few lines a designer reads after an edit; the PDF has the rest."""
    t, m = result.table, result.measures
    columns = [t.columns[c] for c in m.columns]
    ids = [t.ids[i] for i in t.deck]
    order = sorted(range(len(ids)), key=lambda k: (-m.strength[k], ids[k]))
    lines = [f"{result.pack_id}: {len(ids)} cards, {len(columns)} categories",
             "  strongest: " + ", ".join(f"{ids[k]} {m.strength[k]:.2f}" for k in order[:3])
             + "; weakest: " + ", ".join(f"{ids[k]} {m.strength[k]:.2f}" for k in order[-3:]),
             f"  leader naming his card's best category wins {m.leader:.1%} of duels; "
             f"{len(set(m.unique_best.values()))} cards are the unique best somewhere",
             "  dominated: " + (", ".join(f"{a} (by {b})" for a, b in m.dominated) or "none"),
             "  redundant: " + (", ".join(f"{columns[a].label} ~ {columns[b].label} "
                                         f"({rho:.2f})" for a, b, rho in m.redundant) or "none")]
    if m.points:
        within = ", ".join(f"{k} {rho_text(v)}" for k, v in m.points["within_set"].items())
        lines.append(f"  points ~ strength {rho_text(m.points['strength'])}; within sets: "
                     f"{within or 'n/a'}")
    if m.specials.get("penalty_follows"):
        label, rho = m.specials["penalty_follows"]
        lines.append(f"  special cards: penalty ~ strength "
                     f"{rho_text(m.specials['penalty_strength'])}, follows {label} "
                     f"({rho_text(rho)})")
    for p in result.plays:
        lines.append(f"  {p.variant}: {p.games} games, median {median(p.lengths):g} duels, "
                     f"strongest hand wins {p.strongest_won / p.games:.1%} "
                     f"(by chance {p.chance / p.games:.1%}), first leader "
                     f"{p.first_leader_won / p.games:.1%}, the leader wins "
                     f"{p.leader_won / max(1, sum(p.lengths)):.0%} of duels"
                     + (f", card points {points_share(p):.0%} of laid scores"
                        if p.play == "sets" else ""))
        advice = result.octet_advice.get(p.variant)
        if advice is not None:
            lines.append(_octet_line(result, p, advice))
    changed = [s for s in result.suggestions if s.old != s.new]
    if result.suggestions:
        lines.append(f"  suggestions: {len(changed)} of {len(result.suggestions)} values "
                     "would change (--apply writes them)")
    octets = [c for a in result.octet_advice.values() for c in a.changes]
    if octets:
        lines.append(f"  octet values: {len(octets)} would change (composition.yaml's octets; "
                     "by hand, balance.pdf has the table)")
    return lines


def _octet_line(result: BalanceResult, p: PlayStats, advice) -> str:
    """Each group's mean octet worth and bonus share; the suggested values, when they differ."""
    now = ", ".join(f"{result.group_labels.get(g, g)} {v:.0f}"
                    + (f" (bonus {advice.reached[g]:.0%})" if advice.reached.get(g) is not None
                       else "") for g, v in sorted(advice.worth_now.items()))
    line = f"  {p.variant} octets, mean worth: {now}"
    if advice.changes:
        checked = result.octet_checked.get(p.variant)
        scores = ", ".join(f"{result.group_labels.get(g, g)} {s.base}"
                           + (f"/{s.bonus}" if s.bonus is not None else "")
                           for g, s in advice.scores.items())
        line += f"; suggested {scores}"
        if checked is not None:
            then = [worth(s) for s in checked.octets.values() if s.laid]
            line += f" (played again: {min(then):.0f}–{max(then):.0f})"
    return line
