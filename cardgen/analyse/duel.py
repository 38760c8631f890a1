"""One duel game (Werte stechen), played by the rules of the game text.

Every player holds a stack and sees only its front card. The leader picks an opponent and names a
category; the better value takes both cards to the back of the winner's stack (own card first)
and the winner leads next. A tie goes through the declared ways in order: the detail value
(already in the table), another category named by the leader, the next cards in the same
category; a way that cannot decide hands over to the next one of a, b, c. A challenged player
with fewer than four cards picks the card he plays after hearing the named value. A player
without cards drops out; the game ends when one player holds every card or after `cap` duels.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from .table import NOT_COMPARED

STRATEGIES = ("best", "random")   # the best category of one's own front card; any category
LAST_CARDS = 4                    # below this many cards a challenged player picks his card


@dataclass
class Rules:
    """What the players know: the table's outcomes and every card's categories by strength."""

    outcome: list[list[list[int]]]      # [column][i][j]
    ranked: list[list[int]]             # per card: its columns, best first
    tie_breaks: tuple[str, ...]
    cap: int


class DuelGame:
    """The state of one game; `play()` runs it to the end."""

    def __init__(self, rules: Rules, rng: random.Random, hands: list[list[int]],
                 strategies: list[str], won: list[int], lost: list[int]):
        self.rules, self.rng, self.strategies = rules, rng, strategies
        self.hands = [deque(h) for h in hands]
        self.alive = [i for i, h in enumerate(hands) if h]
        self.leader = self.alive[int(rng.random() * len(self.alive))]
        self.first_leader = self.leader
        self.duels = self.lead_changes = self.leader_won = 0   # leader_won: duels he won
        self.won, self.lost = won, lost      # per card, added up over all games
        self.best = [p for p, s in enumerate(strategies) if s == "best"]

    def play(self) -> None:
        cap = self.rules.cap
        while len(self.alive) > 1 and self.duels < cap:
            self.turn()

    def winner(self) -> int:
        """The player holding most cards (all of them when the game ran to its end)."""
        return max(range(len(self.hands)), key=lambda p: (len(self.hands[p]), -p))

    def turn(self) -> None:
        """One duel: the leader challenges, the cards move, the winner leads next.

        Written for speed (it runs a million times per report): the usual duel, decided in the
        named category, takes no method call; ties and last cards take the slower way."""
        leader, alive, hands, rand = self.leader, self.alive, self.hands, self.rng.random
        k = int(rand() * (len(alive) - 1))
        opponent = alive[k + (k >= alive.index(leader))]
        a = hands[leader].popleft()
        ranked = self.rules.ranked[a]
        column = ranked[0] if leader in self.best else ranked[int(rand() * len(ranked))]
        if len(hands[opponent]) >= self.last_cards:
            b = hands[opponent].popleft()
        else:
            b = self.defend(opponent, a, column)
        result = self.rules.outcome[column][a][b]
        self.duels += 1
        if result == 1:
            self.leader_won += 1
            self.won[a] += 1
            self.lost[b] += 1
            hands[leader].append(a)
            hands[leader].append(b)
            if not hands[opponent] or self.laying:
                self.taken = (b,)
                self.after_duel(leader, opponent, leader)
            return
        if result == -1 and len(hands[leader]) > 0 and not self.laying:
            self.won[b] += 1
            self.lost[a] += 1
            hands[opponent].append(b)
            hands[opponent].append(a)
            self.leader = opponent
            self.lead_changes += 1
            return
        self.slow_turn(leader, opponent, ([a], [b]), column, result)

    laying = False                           # a sets game lays after every won duel
    last_cards = LAST_CARDS                  # the free choice of the last cards applies
    taken: tuple = ()                        # the cards the last duel's winner took

    def slow_turn(self, leader: int, opponent: int, pots: tuple[list, list], column: int,
                  result: int) -> None:
        """A duel that needs a tie-break, another category, or ends a player's game."""
        if result not in (1, -1):
            result = self.settle(leader, opponent, pots, column)
        hands = self.hands
        if result == 0:                      # undecided: both take their cards back
            hands[leader].extend(pots[0])
            hands[opponent].extend(pots[1])
            self.after_duel(leader, opponent, None)
            return
        winner, loser = (leader, opponent) if result > 0 else (opponent, leader)
        self.leader_won += result > 0
        own, taken = (pots[0], pots[1]) if result > 0 else (pots[1], pots[0])
        self.won[own[-1]] += 1
        for card in taken:
            self.lost[card] += 1
        hands[winner].extend(own)
        hands[winner].extend(taken)
        self.taken = taken
        self.after_duel(winner, loser, winner)

    def after_duel(self, first: int, second: int, winner) -> None:
        """Players without cards drop out; the winner leads (after an undecided duel, the
        opponent)."""
        self.alive = [p for p in self.alive if self.hands[p]]
        new = winner if winner is not None else second
        if new not in self.alive:            # he laid his last cards: the next player leads
            new = next((p for p in self.alive if p > new), self.alive[0]) if self.alive else first
        if new != self.leader:
            self.lead_changes += 1
        self.leader = new

    def choose(self, player: int, card: int, against, tried: tuple) -> int:
        """The column a player names for his card; against: the card he now knows he meets."""
        if against is None and not tried:   # the common case, kept quick
            ranked = self.rules.ranked[card]
            if self.strategies[player] == "best":
                return ranked[0]
            return ranked[int(self.rng.random() * len(ranked))]
        outcome = self.rules.outcome
        options = [c for c in self.rules.ranked[card] if c not in tried and (
            against is None or outcome[c][card][against] != NOT_COMPARED)]
        if not options:
            return -1
        if self.strategies[player] == "best":
            return options[0]
        return options[int(self.rng.random() * len(options))]

    def defend(self, player: int, a: int, column: int) -> int:
        """The card the challenged player plays: his front card, or with fewer than four
        cards the one that does best against the named value."""
        hand = self.hands[player]
        if len(hand) >= self.last_cards:
            return hand.popleft()
        row = self.rules.outcome[column]
        pick = min(hand, key=lambda b: {-1: 0, 0: 1, NOT_COMPARED: 2}.get(row[a][b], 3))
        hand.remove(pick)
        return pick

    def settle(self, leader: int, opponent: int, pots: tuple[list, list], column: int) -> int:
        """1 the leader wins, -1 he loses, 0 undecided: the named column, then the ways to
        break a tie in their order (the detail value is already part of the table)."""
        a, b = pots[0][0], pots[1][0]
        outcome = self.rules.outcome
        result = outcome[column][a][b]
        if result == NOT_COMPARED:           # "Sonderkarte" or another rank: name a shared one
            column = self.choose(leader, a, b, ())
            if column < 0:
                return 0
            result = outcome[column][a][b]
        for way in self.order():
            if result != 0:
                break
            if way == "other":
                other = self.choose(leader, a, b, (column,))
                result = outcome[other][a][b] if other >= 0 else 0
            elif way == "next":
                result = self.next_cards(leader, opponent, pots, column)
        return result

    def order(self) -> tuple[str, ...]:
        """The declared ways, then the rest of a, b, c (the rulebook: "nehmt den nächsten")."""
        declared = self.rules.tie_breaks
        return declared + tuple(w for w in ("detail", "other", "next") if w not in declared)

    def next_cards(self, leader: int, opponent: int, pots: tuple[list, list], column: int) -> int:
        """Tie-break c: both uncover their next card in the same category until one wins; who
        has no card left loses what he put in."""
        row = self.rules.outcome[column]
        while True:
            if not self.hands[opponent]:
                return 1
            if not self.hands[leader]:
                return -1
            a, b = self.hands[leader].popleft(), self.hands[opponent].popleft()
            pots[0].append(a)
            pots[1].append(b)
            result = row[a][b]
            if result in (1, -1):
                return result
