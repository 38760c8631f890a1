"""One game of a sets variant (Mix It): duels as in Werte stechen, and complete sets laid out.

The free choice of a player with fewer than four cards is not played: in Mix It it is the
option "letzte drei" (rulebook), and options are not simulated.

The winner of a duel leads next and may first lay what is complete in his stack: octets (when the
variant plays them; a card with several groups counts for the one where it scores more, the most
different sets chosen) and then sets of `sets_of` cards of one set. A player without cards drops
out; when he leads on points, the others play three more rounds. The game also ends when no set
can be completed any more, and then everyone lays what his stack holds. Score: each set
`set_score` plus its cards' points, each octet its base or bonus plus its cards' points, minus the
points of the cards left in hand (a special card's penalty instead).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

from ..model.compose import OctetScore
from .duel import DuelGame, Rules


@dataclass
class SetRules:
    """What scores: each card's set, groups, points and penalty; the set and octet sizes."""

    set_of: list[Optional[str]]          # None: the card cannot be laid (a special card)
    groups_of: list[tuple[str, ...]]
    points: list[int]
    penalty: list[int]
    sets_of: int
    set_score: int
    octet_size: int = 0                  # 0: no octets
    octet_score: dict[str, OctetScore] | None = None
    member: dict[str, list[bool]] = field(default_factory=dict)  # group → per card: counts for it

    def __post_init__(self):
        for group in self.octet_score or {}:
            self.member[group] = [group in groups for groups in self.groups_of]


@dataclass
class Laid:
    what: str                # "set" or "octet"
    name: str                # the set or the group
    cards: list[int]
    score: int
    bonus: bool = False
    distinct: int = 0        # different sets among the cards (octets)


class SetsGame(DuelGame):
    laying = True
    last_cards = 0                           # Mix It: the last-cards rule only as an option

    def __init__(self, rules: Rules, sets: SetRules, rng: random.Random,
                 hands: list[list[int]], strategies: list[str], won: list[int],
                 lost: list[int]):
        super().__init__(rules, rng, hands, strategies, won, lost)
        self.sets = sets
        self.laid: list[list[Laid]] = [[] for _ in hands]
        self.left = {}                   # set or group → cards of it not laid yet
        for card in (c for h in hands for c in h):
            for name in self._names(card):
                self.left[name] = self.left.get(name, 0) + 1
        self.deadline: Optional[int] = None
        self.looked: set[int] = set()        # players who looked through their whole stack
        self.open = self._still_open()

    def _names(self, card: int) -> list[str]:
        s = self.sets
        names = [] if s.set_of[card] is None else ["set:" + s.set_of[card]]
        return names + ["group:" + g for g in s.groups_of[card]] if s.octet_size else names

    def play(self) -> None:
        while len(self.alive) > 1 and self.duels < self.rules.cap and self.open and (
                self.deadline is None or self.duels < self.deadline):
            self.turn()
        for player in range(len(self.hands)):
            self.lay(player)

    def _still_open(self) -> bool:
        """Some set or octet can still be completed from the cards not laid."""
        s = self.sets
        return any(n >= (s.sets_of if name.startswith("set:") else s.octet_size)
                   for name, n in self.left.items())

    def after_duel(self, first: int, second: int, winner) -> None:
        if winner is not None:               # the winner leads next: he may lay first
            self.lay(winner, self.taken)
        dropped = [p for p in self.alive if not self.hands[p]]
        super().after_duel(first, second, winner)
        for player in dropped:
            if self.deadline is None and self.score(player) >= max(
                    self.score(p) for p in range(len(self.hands))):
                self.deadline = self.duels + 3 * len(self.alive)

    def lay(self, player: int, new: tuple = ()) -> None:
        """Lay every complete octet, then every complete set, keeping the stack's order.

        After a player's first look at his stack only the cards he just took can complete
        something, so only their sets and groups are looked at (the simulation's hot spot)."""
        s = self.sets
        if player in self.looked and new:
            if not self._completes(player, new):
                return
            groups = sorted({g for c in new for g in s.groups_of[c]} & set(s.octet_score or {}))
            names = {s.set_of[c] for c in new}
        else:
            self.looked.add(player)
            groups, names = sorted(s.octet_score or {}), None
        hand = list(self.hands[player])
        used: set[int] = set()
        if s.octet_size:
            for group, chosen in self._octet_plan(hand, groups):
                self._lay_octet(player, group, chosen, used)
        for name in dict.fromkeys(s.set_of[c] for c in hand if s.set_of[c] is not None and (
                names is None or s.set_of[c] in names)):
            cards = [c for c in hand if c not in used and s.set_of[c] == name]
            while len(cards) >= s.sets_of:
                chosen, cards = cards[:s.sets_of], cards[s.sets_of:]
                self._record(player, Laid("set", name, chosen, s.set_score + self._pts(chosen)))
                used.update(chosen)
        if used:
            self.hands[player] = type(self.hands[player])(c for c in hand if c not in used)

    def _completes(self, player: int, new: tuple) -> bool:
        """Whether a card just taken completes a set or an octet (counted at C speed)."""
        s = self.sets
        sets_in_hand = list(map(s.set_of.__getitem__, self.hands[player]))
        for card in new:
            if s.set_of[card] is None:
                continue
            if sets_in_hand.count(s.set_of[card]) >= s.sets_of:
                return True
            for group in s.groups_of[card] if s.octet_size else ():
                if sum(map(s.member[group].__getitem__, self.hands[player])) >= s.octet_size:
                    return True
        return False

    def _octet_plan(self, hand: list[int], groups) -> list[tuple[str, list[int]]]:
        """Every octet the stack holds, each with the most different sets, and a card that counts
        for two groups given where it scores more: when two groups that can both be laid share
        cards, every order is tried and the one scoring most is laid (the first on a tie). A
        player sees that a G card completes the bonus of one department and not of the other."""
        s = self.sets
        best: list = [None, []]                  # total, plan

        def search(free: list[int], plan: list, total: int) -> None:
            eligible = {g: [c for c in free if g in s.groups_of[c]] for g in groups}
            options = [g for g in groups if len(eligible[g]) >= s.octet_size]
            if not options:
                if best[0] is None or total > best[0]:
                    best[:] = [total, plan]
                return
            shared = any(set(eligible[a]) & set(eligible[b])
                         for n, a in enumerate(options) for b in options[n + 1:])
            for group in options if shared else options[:1]:
                chosen = self._octet_cards(eligible[group])
                taken = set(chosen)
                search([c for c in free if c not in taken], plan + [(group, chosen)],
                       total + self._octet_value(group, chosen)[0])

        search(hand, [], 0)
        return best[1]

    def _octet_cards(self, cards: list[int]) -> list[int]:
        """The octet with the most different sets: one card of each set first, then the rest."""
        s = self.sets
        first = list({s.set_of[c]: c for c in reversed(cards)}.values())[::-1]
        return (first + [c for c in cards if c not in first])[:s.octet_size]

    def _octet_value(self, group: str, chosen: list[int]) -> tuple[int, bool, int]:
        """The octet's score (its base or bonus plus its cards' points), bonus reached, sets."""
        distinct = len({self.sets.set_of[c] for c in chosen})
        score = self.sets.octet_score[group]
        bonus = score.bonus is not None and distinct >= score.distinct
        return (score.bonus if bonus else score.base) + self._pts(chosen), bonus, distinct

    def _lay_octet(self, player: int, group: str, chosen: list[int], used: set[int]) -> None:
        value, bonus, distinct = self._octet_value(group, chosen)
        self._record(player, Laid("octet", group, chosen, value, bonus, distinct))
        used.update(chosen)

    def _record(self, player: int, laid: Laid) -> None:
        self.laid[player].append(laid)
        for card in laid.cards:
            for name in self._names(card):
                self.left[name] -= 1
        self.open = self._still_open()

    def _pts(self, cards: list[int]) -> int:
        return sum(self.sets.points[c] for c in cards)

    def score(self, player: int) -> int:
        hand = sum(self.sets.penalty[c] or -self.sets.points[c] for c in self.hands[player])
        return sum(laid.score for laid in self.laid[player]) + hand
