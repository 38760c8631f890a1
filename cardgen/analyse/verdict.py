"""The verdict: what is unbalanced, how much and what to change, in the pack's language.

Why here and not in the PDF painter: the verdict is a reading of the measures (which finding
matters, which numbers prove it); the painter only sets it. Every sentence comes from
text/words.py's BALANCE_WORDS, so the report reads in the pack's language; every term is defined
where it is first used (`Terms`), in the verdict or in a chart's caption after it.

Findings are weighed by how far they are from balance (a share: 0.3 is "30 % off") and told
largest first; what is in order is said in one line each after them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from typing import Optional
from xml.sax.saxutils import escape

from ..model.pack import DEFAULT_LOCALES
from ..text.numbers import number, percent
from ..text.words import MINUS, balance_words, labels_for
from .octets import UNEVEN, mean_distinct, spread, worth
from .run import BalanceResult
from .simulate import PlayStats

CARDS_MATTER = 1.0      # the cards decide: the strongest hand's edge is at least the first lead's
POINTS_FOLLOW = 0.5     # points follow strength inside a set: its rank correlation is above this
ALIKE = 0.3             # groups whose octets hold this close a mean number of sets are alike


class Words:
    """The report's words and the pack's own, and numbers written the language's way."""

    def __init__(self, language: str, own: dict[str, str], locale: str = ""):
        self.language = language
        self.locale = locale or DEFAULT_LOCALES.get(language, "en-US")
        self.own = {**labels_for(language, own, self.locale),
                    **balance_words(language, own, self.locale)}

    def __getitem__(self, key: str) -> str:
        return self.own[key]

    def say(self, key: str, **values) -> str:
        return self.own[key].format(**values)

    def num(self, value: float, digits: int = 1) -> str:
        return number(value, self.locale, digits)

    def count(self, value: int) -> str:
        return self.num(value, 0)

    def pct(self, share: float, digits: int = 1) -> str:
        return percent(share, self.locale, digits)

    def rho(self, value: Optional[float]) -> str:
        if value is None:
            return self["bal_none"]
        return ("+" if value >= 0 else MINUS) + self.num(abs(value), 2)

    def listing(self, items: list[str]) -> str:
        if len(items) < 2:
            return "".join(items)
        return ", ".join(items[:-1]) + self["bal_and"] + items[-1]


class Terms:
    """Each term in bold with its definition the first time a reader meets it, its bare word
    after. A term is first written as a mark (`terms("strength")`); `resolve` turns the marks of
    a text into words in reading order, so the verdict can order its findings after wording
    them and the definition still comes with the first use on the page."""

    MARK = re.compile("\x00([a-z_]+)\x00")

    def __init__(self, words: Words):
        self.words = words
        self.defined: list[str] = []
        self.values: dict[str, dict] = {}

    def bare(self, key: str) -> str:
        """The term alone, for a headline: its definition follows in the text under it."""
        return self.words[f"bal_term_{key}"]

    def __call__(self, key: str, **values) -> str:
        self.values.setdefault(key, values)
        return f"\x00{key}\x00"

    def resolve(self, text: str) -> str:
        return self.MARK.sub(lambda m: self._word(m.group(1)), text)

    def _word(self, key: str) -> str:
        term = self.words[f"bal_term_{key}"]
        if key in self.defined:
            return term
        self.defined.append(key)
        definition = self.words.say(f"bal_def_{key}", **self.values.get(key, {}))
        return f"<b>{term}</b> ({definition})"


@dataclass
class Finding:
    key: str
    weight: float                        # how far from balance; the verdict tells largest first
    headline: str
    body: list[str] = field(default_factory=list)
    change: str = ""


@dataclass
class Verdict:
    findings: list[Finding]
    fine: list[str]


def verdict(result: BalanceResult, words: Words, terms: Terms) -> Verdict:
    findings: list[Finding] = []
    fine: list[str] = []
    for part in (_octets, _leader, _dominated, _redundant, _sweeps, _points, _penalties):
        part(result, words, terms, findings, fine)
    findings.sort(key=lambda f: -f.weight)
    for finding in findings:                 # the terms' definitions in reading order
        finding.headline = terms.resolve(finding.headline)
        finding.body = [terms.resolve(line) for line in finding.body]
        finding.change = terms.resolve(finding.change)
    return Verdict(findings, [terms.resolve(line) for line in fine])


def e(text: str) -> str:
    """A name from the pack, safe inside the report's markup."""
    return escape(str(text))


def variant_name(result: BalanceResult, play: PlayStats) -> str:
    return e(result.variant_labels.get(play.variant, play.variant))


def group_name(result: BalanceResult, group: str) -> str:
    return e(result.group_labels.get(group, group))


def set_names(result: BalanceResult) -> str:
    """The deck's sets as a reader knows them: 'A–G' or 'A, B, C'."""
    names = list(dict.fromkeys(result.table.cards[i].card.set for i in result.table.deck
                               if result.table.cards[i].card.set))
    if len(names) > 3 and all(len(n) == 1 for n in names):
        return f"{e(names[0])}–{e(names[-1])}"
    return ", ".join(e(n) for n in names)


def octet_values(words: Words, score, sets: str) -> str:
    """'50, with at least 7 different sets (A–G) 75' or 'always 100'."""
    if score.bonus is None:
        return words.say("bal_oct_flat", base=score.base)
    return words.say("bal_oct_bonus", base=score.base, bonus=score.bonus, n=score.distinct,
                     sets=sets)


# --- the findings ------------------------------------------------------------------------------

def _octets(result, words: Words, terms: Terms, findings: list, fine: list) -> None:
    for play in result.plays:
        advice = result.octet_advice.get(play.variant)
        if advice is None:
            continue
        now = advice.worth_now
        uneven = spread(now)
        name = variant_name(result, play)
        if uneven <= UNEVEN:
            fine.append(words.say("bal_ok_octets", variant=name, lo=words.num(min(now.values()), 0),
                                  hi=words.num(max(now.values()), 0)))
            continue
        hi = max(now, key=lambda g: (now[g], g))
        lo = min(now, key=lambda g: (now[g], g))
        sets = set_names(result)
        headline = words.say("bal_oct_head", variant=name,
                             hi_group=group_name(result, hi), hi=words.num(now[hi], 0),
                             lo_group=group_name(result, lo), lo=words.num(now[lo], 0),
                             share=words.pct(uneven, 0))
        body = [words.say("bal_oct_intro", worth=terms("octet_worth"))]
        for group in sorted(now, key=lambda g: (-now[g], g)):
            stats = play.octets[group]
            score = result.octet_scores[group]
            reached = advice.reached.get(group)
            line = words.say("bal_oct_group", group=group_name(result, group),
                             values=octet_values(words, score, sets),
                             per_game=words.num(stats.laid / play.games, 2),
                             worth=words.num(now[group], 1))
            if reached is not None:
                line += " " + words.say("bal_oct_reached", share=words.pct(reached, 0),
                                        games=words.pct(stats.bonus_games / play.games, 0))
            body.append(line)
        body.append(_octets_why(result, play, words))
        checked = result.octet_checked.get(play.variant)
        change = words.say("bal_oct_change", target=advice.target, step=advice.step)
        if checked is not None:
            then = {g: worth(s) for g, s in checked.octets.items() if s.laid}
            change += " " + words.say("bal_oct_checked", lo=words.num(min(then.values()), 0),
                                      hi=words.num(max(then.values()), 0),
                                      games=words.count(checked.games))
        findings.append(Finding("octets", uneven, headline, body, change))


def _octets_why(result, play: PlayStats, words: Words) -> str:
    """Why the bonuses differ: how many different sets the octets hold, per required number."""
    laid = {g: s for g, s in play.octets.items() if s.laid}
    means = [mean_distinct(s) for s in laid.values()]
    pooled: dict[int, int] = {}
    for stats in laid.values():
        for k, n in stats.distinct.items():
            pooled[k] = pooled.get(k, 0) + n
    total = sum(pooled.values())
    needed = sorted({s.distinct for g, s in result.octet_scores.items()
                     if g in laid and s.distinct is not None})
    shares = [words.say("bal_oct_need", n=k, share=words.pct(
        sum(c for d, c in pooled.items() if d >= k) / total, 0)) for k in needed]
    if max(means) - min(means) < ALIKE:
        return words.say("bal_oct_why_alike", lo=words.num(min(means), 1),
                         hi=words.num(max(means), 1), shares=words.listing(shares))
    return words.say("bal_oct_why", groups=words.listing(
        [f"{group_name(result, g)} {words.num(mean_distinct(s), 1)}" for g, s in laid.items()]))


def _leader(result, words: Words, terms: Terms, findings: list, fine: list) -> None:
    lines, edges = [], []
    for play in result.plays:
        if not play.games:
            continue
        chance = play.chance / play.games
        strongest = play.strongest_won / play.games
        first = play.first_leader_won / play.games
        duels = sum(play.lengths)
        won = play.leader_won / duels if duels else 0.0
        changes = sum(play.lead_changes)
        run = duels / changes if changes else float(duels)
        name = variant_name(result, play)
        cards_edge, lead_edge = strongest - chance, first - chance
        if cards_edge >= CARDS_MATTER * lead_edge:
            fine.append(words.say("bal_ok_cards", variant=name, strongest=words.pct(strongest),
                                  hand=terms("strongest_hand"), chance=words.pct(chance),
                                  chance_term=terms("chance")))
            continue
        edges.append((lead_edge - cards_edge) / chance)
        lines.append(words.say("bal_lead_line", variant=name, leader=terms("leader"),
                               duels=words.pct(won, 0), run=words.num(run, 0),
                               first=words.pct(first), hand=terms("strongest_hand"),
                               strongest=words.pct(strongest), chance_term=terms("chance"),
                               chance=words.pct(chance),
                               times=words.num(lead_edge / cards_edge, 1) if cards_edge > 0
                               else "∞"))
    if lines:
        best = words.pct(result.measures.leader)
        findings.append(Finding("leader", max(edges), words["bal_lead_head"], lines,
                                words.say("bal_lead_change", best=best,
                                          category=terms("best_category"))))


def _dominated(result, words: Words, terms: Terms, findings: list, fine: list) -> None:
    dominated = result.measures.dominated
    if not dominated:
        fine.append(words.say("bal_ok_dominated", term=terms("dominated")))
        return
    by: dict[str, list[str]] = {}
    for card, winner in dominated:
        by.setdefault(card, []).append(winner)
    items = [words.say("bal_dom_item", card=e(card), by=words.listing([e(w) for w in winners]))
             for card, winners in by.items()]
    share = len(by) / max(1, len(result.table.deck))
    findings.append(Finding("dominated", 0.2 + share, words.say(
        "bal_dom_head", n=len(by), term=terms.bare("dominated")),
        [words.say("bal_dom_body", term=terms("dominated"), items=words.listing(items))],
        words["bal_dom_change"]))


def _redundant(result, words: Words, terms: Terms, findings: list, fine: list) -> None:
    m, t = result.measures, result.table
    labels = [e(t.columns[c].label) for c in m.columns]
    limit = words.num(result.balance.redundant_above, 2)
    if not m.redundant:
        pairs = [(abs(m.correlation[a][b] or 0.0), a, b) for a in range(len(labels))
                 for b in range(a + 1, len(labels)) if m.correlation[a][b] is not None]
        if pairs:
            rho, a, b = max(pairs)
            fine.append(words.say("bal_ok_redundant", term=terms("redundant", limit=limit),
                                  rho_term=terms("rho"), rho=words.rho(m.correlation[a][b]),
                                  a=labels[a], b=labels[b]))
        return
    items = [words.say("bal_red_item", a=labels[a], b=labels[b], rho=words.rho(rho))
             for a, b, rho in m.redundant]
    findings.append(Finding("redundant", 0.1 + 0.05 * len(items), words.say(
        "bal_red_head", n=len(items), term=terms.bare("redundant")),
        [words.say("bal_red_body", term=terms("redundant", limit=limit), rho_term=terms("rho"),
                   items=words.listing(items))], words["bal_red_change"]))


def _sweeps(result, words: Words, terms: Terms, findings: list, fine: list) -> None:
    m, t = result.measures, result.table
    if not m.sweeps:
        return
    items = []
    for k, what, name, share in m.sweeps:
        shown = result.group_labels.get(name, name) if what == "group" else name
        items.append(words.say("bal_sweep_item", category=e(t.columns[m.columns[k]].label),
                               what=words[f"bal_{what}"], name=e(shown), share=words.pct(share)))
    findings.append(Finding("sweeps", 0.1 + 0.02 * len(items), words.say(
        "bal_sweep_head", n=len(items)),
        [words.say("bal_sweep_body", rate=terms("beat_rate"), items=words.listing(items))],
        words["bal_sweep_change"]))


def _points(result, words: Words, terms: Terms, findings: list, fine: list) -> None:
    points = result.measures.points
    changed = [s for s in result.suggestions if s.old != s.new]
    if not points and not changed:
        return
    within = points.get("within_set", {}) if points else {}
    weak = {k: v for k, v in within.items() if v < POINTS_FOLLOW}
    if not changed and not weak:
        if within:
            fine.append(words.say("bal_ok_points", strength=terms("strength"),
                                  rho_term=terms("rho"), lo=words.rho(min(within.values())),
                                  hi=words.rho(max(within.values())), set=words["bal_set_word"]))
        return
    body = []
    if weak:
        body.append(words.say("bal_points_weak", strength=terms("strength"),
                              rho_term=terms("rho"), sets=words.listing(
                                  [f"{e(k)} ({words.rho(v)})" for k, v in weak.items()])))
    fields = sorted({s.field for s in changed})
    findings.append(Finding("points", 0.05 + len(changed) / max(1, len(result.suggestions)),
                            words.say("bal_points_head", n=len(changed),
                                      fields=words.listing([words[f] for f in fields]) or
                                      words["points"]),
                            body, words["bal_points_change"]))


def _penalties(result, words: Words, terms: Terms, findings: list, fine: list) -> None:
    specials = result.measures.specials
    rho = specials.get("penalty_strength")
    if rho is None:
        return
    kinds = sorted({result.table.cards[i].kind for i in result.table.specials})
    kind = words.listing([e(result.kind_labels.get(k, k)) for k in kinds])
    if rho >= POINTS_FOLLOW:
        fine.append(words.say("bal_ok_penalty", kind=kind, strength=terms("strength"),
                              rho=words.rho(rho), rho_term=terms("rho")))
        return
    findings.append(Finding("penalty", 0.15, words.say("bal_penalty_head", kind=kind,
                                                       strength=terms.bare("strength")),
                            [words.say("bal_penalty_body", strength=terms("strength"),
                                       rho_term=terms("rho"), rho=words.rho(rho))],
                            words["bal_points_change"]))


def plain(text: str) -> str:
    """A verdict line without its markup (bold terms), as a reader sees it."""
    return unescape(re.sub(r"</?b>", "", text))
