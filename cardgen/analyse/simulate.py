"""Many seeded games of one variant, and what they say: lengths, lead changes, who wins, which
cards are won and lost, and for sets variants which sets are laid and where the score comes from.

Why one random generator per variant, seeded with the seed and the variant's name: the same seed
gives the same games, and adding a variant does not change the games of another.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

from .duel import STRATEGIES, DuelGame, Rules
from .sets import SetRules, SetsGame


@dataclass
class PlayStats:
    variant: str
    play: str
    games: int = 0
    lengths: list[int] = field(default_factory=list)
    lead_changes: list[int] = field(default_factory=list)
    capped: int = 0
    strongest_won: int = 0
    by_players: dict[int, list[int]] = field(default_factory=dict)   # players → [games, duels]
    chance: float = 0.0                  # sum of 1 / players: the strongest hand's share by luck
    tables: dict[str, list] = field(default_factory=dict)           # table → games, won, chance
    strategy_seats: dict[str, int] = field(default_factory=dict)    # seats at mixed tables
    strategy_wins: dict[str, int] = field(default_factory=dict)
    won: list[int] = field(default_factory=list)       # per table row: duels the card won
    lost: list[int] = field(default_factory=list)      # per table row: times it was taken
    laid_sets: dict[str, int] = field(default_factory=dict)
    laid_octets: dict[str, int] = field(default_factory=dict)
    octet_bonus: dict[str, int] = field(default_factory=dict)
    card_laid: dict[int, int] = field(default_factory=dict)
    score_parts: dict[str, int] = field(default_factory=dict)        # base, points, hand
    winning_scores: list[int] = field(default_factory=list)
    octets: dict[str, "OctetStats"] = field(default_factory=dict)    # group → what it did
    leader_won: int = 0                  # duels the leader won (of sum(lengths))
    first_leader_won: int = 0            # games won by the player who led the first duel
    chance_spread: float = 0.0           # sum of p(1 − p), p = 1 / players: luck's variance
    players_won: dict[int, list[int]] = field(default_factory=dict)  # players → strongest, first


@dataclass
class OctetStats:
    """One group's octets over all games: how often laid, with the bonus, with how many sets,
    what they scored, and whether the players who laid one won."""

    laid: int = 0
    bonus: int = 0
    games: int = 0                       # games in which someone laid one
    bonus_games: int = 0                 # games in which someone laid one with the bonus
    distinct: dict[int, int] = field(default_factory=dict)   # different sets → octets
    value: int = 0                       # base or bonus, summed over the octets
    points: int = 0                      # their cards' points, summed
    holders: int = 0                     # players who laid one (counted once per game)
    holders_won: int = 0                 # of them, the game's winner
    holders_chance: float = 0.0          # sum of 1 / players over them: winning by luck

    def reached(self, distinct: int) -> float:
        """Share of the laid octets with at least `distinct` different sets."""
        return sum(n for k, n in self.distinct.items() if k >= distinct) / self.laid \
            if self.laid else 0.0


def simulate(variant: str, play: str, rules: Rules, cards: list[int], strength: list[float],
             players: tuple[int, int], games: int, seed: int,
             sets: Optional[SetRules] = None) -> PlayStats:
    """`games` games; game g has lo + g mod (hi − lo + 1) players. Tables take turns: everyone
    names his front card's best category, then a mixed table where the seats alternate between
    that and a random category (mixed tables say which strategy wins more). A table where
    everyone names a random category is not played: such games are a random walk that mostly
    runs to the duel cap (median 1854 of 2000 duels in 1000 flagship games), ten times the work
    for an answer known in advance."""
    rng = random.Random(f"{seed}:{variant}")
    stats = PlayStats(variant, play, won=[0] * len(strength), lost=[0] * len(strength))
    lo, hi = players
    for g in range(games):
        n = lo + g % (hi - lo + 1)
        deck = list(cards)
        rng.shuffle(deck)
        hands = [deck[p::n] for p in range(n)]
        strategies = _strategies(g, n)
        game = SetsGame(rules, sets, rng, hands, strategies, stats.won, stats.lost) if sets \
            else DuelGame(rules, rng, hands, strategies, stats.won, stats.lost)
        game.play()
        _record(stats, game, hands, strength, strategies)
    return stats


def _strategies(g: int, n: int) -> list[str]:
    if g % 2 == 0:
        return [STRATEGIES[0]] * n
    return [STRATEGIES[(p + g // 2) % len(STRATEGIES)] for p in range(n)]


def table_name(strategies: list[str]) -> str:
    return strategies[0] if len(set(strategies)) == 1 else "mixed"


def _record(stats: PlayStats, game: DuelGame, hands: list[list[int]], strength: list[float],
            strategies: list[str]) -> None:
    stats.games += 1
    stats.lengths.append(game.duels)
    stats.lead_changes.append(game.lead_changes)
    stats.leader_won += game.leader_won
    stats.capped += game.duels >= game.rules.cap
    n = len(hands)
    entry = stats.by_players.setdefault(n, [0, 0])
    entry[0] += 1
    entry[1] += game.duels
    if isinstance(game, SetsGame):
        winner = max(range(n), key=lambda p: (game.score(p), -p))
        _record_sets(stats, game, winner)
    else:
        winner = game.winner()
    hand_strength = [sum(strength[c] for c in h) / len(h) for h in hands]
    strongest = winner == max(range(n), key=lambda p: (hand_strength[p], -p))
    stats.strongest_won += strongest
    first = winner == game.first_leader
    stats.first_leader_won += first
    stats.chance_spread += (1 / n) * (1 - 1 / n)
    entry = stats.players_won.setdefault(n, [0, 0])
    entry[0] += strongest
    entry[1] += first
    name = table_name(strategies)
    entry = stats.tables.setdefault(name, [0, 0, 0.0])    # games, strongest hand won, chance
    entry[0] += 1
    entry[1] += strongest
    entry[2] += 1 / n
    stats.chance += 1 / n
    if name == "mixed":
        for p, strategy in enumerate(strategies):
            stats.strategy_seats[strategy] = stats.strategy_seats.get(strategy, 0) + 1
        stats.strategy_wins[strategies[winner]] = stats.strategy_wins.get(strategies[winner], 0) + 1


def _record_sets(stats: PlayStats, game: SetsGame, winner: int) -> None:
    parts = stats.score_parts
    n = len(game.laid)
    laid_in_game: set[str] = set()
    bonus_in_game: set[str] = set()
    for group in game.sets.octet_score or {}:
        stats.octets.setdefault(group, OctetStats())
    for player, laid_list in enumerate(game.laid):
        holds: set[str] = set()
        for laid in laid_list:
            table = stats.laid_sets if laid.what == "set" else stats.laid_octets
            table[laid.name] = table.get(laid.name, 0) + 1
            if laid.bonus:
                stats.octet_bonus[laid.name] = stats.octet_bonus.get(laid.name, 0) + 1
            points = sum(game.sets.points[c] for c in laid.cards)
            parts["points"] = parts.get("points", 0) + points
            parts["base"] = parts.get("base", 0) + laid.score - points
            for card in laid.cards:
                stats.card_laid[card] = stats.card_laid.get(card, 0) + 1
            if laid.what == "octet":
                octet = stats.octets[laid.name]
                octet.laid += 1
                octet.bonus += laid.bonus
                octet.distinct[laid.distinct] = octet.distinct.get(laid.distinct, 0) + 1
                octet.value += laid.score - points
                octet.points += points
                holds.add(laid.name)
                laid_in_game.add(laid.name)
                if laid.bonus:
                    bonus_in_game.add(laid.name)
        for group in holds:
            octet = stats.octets[group]
            octet.holders += 1
            octet.holders_won += player == winner
            octet.holders_chance += 1 / n
        hand = sum(game.sets.penalty[c] or -game.sets.points[c] for c in game.hands[player])
        parts["hand"] = parts.get("hand", 0) + hand
    for group in laid_in_game:
        stats.octets[group].games += 1
    for group in bonus_in_game:
        stats.octets[group].bonus_games += 1
    stats.winning_scores.append(game.score(winner))
