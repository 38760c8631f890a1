"""What a composed deck is: the user's Choice and the resulting Deck, with its counts, octets,
hand size and the rows of `cardgen check --report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from math import comb, prod
from typing import Optional

from ..model.packdata import LoadedCard
from ..model.compose import Composition, OctetScore
from ..validate.catalogue import Catalogue, compress
from .counts import copies, deal_rule
from .phrases import range_text, set_noun, structure_text

HAND_WORDS = {"each": "cards each", "left": "left over", "dealt_none": "no cards dealt"}


# --- what the user chose ---------------------------------------------------------------------

@dataclass
class Choice:
    """The deck choice of one command line; everything None/empty = the whole pack."""

    preset: Optional[str] = None
    cards: Optional[str] = None        # "A1-A4,C1,F1-F12"
    random: Optional[int] = None       # a random deck of this many cards
    seed: Optional[int] = None
    special: Optional[str] = None      # "none" | "all" | "S2,S3,L1-L8" | "random:5" | mixed
    variant: Optional[str] = None
    options: tuple[str, ...] = ()
    players: Optional[int] = None
    teams: Optional[str] = None        # team sizes "2,2,3"

    def given(self) -> bool:
        return any(v not in (None, ()) for v in (self.preset, self.cards, self.random, self.seed,
                                                  self.special, self.variant, self.options,
                                                  self.players, self.teams))

    def args(self, seed: Optional[int] = None) -> list[str]:
        """The command-line options that repeat this choice (with the seed actually used)."""
        out: list[str] = []
        for flag, value in (("--preset", self.preset), ("--cards", self.cards),
                            ("--random", self.random), ("--seed", seed if seed is not None
                                                        else self.seed),
                            ("--special", self.special), ("--variant", self.variant)):
            if value is not None:
                out += [flag, str(value)]
        for option in self.options:
            out += ["--option", option]
        if self.players is not None:
            out += ["--players", str(self.players)]
        if self.teams is not None:
            out += ["--teams", self.teams]
        return out


# --- the result ------------------------------------------------------------------------------

@dataclass
class OctetLine:
    """What a deck allows for the octets of one group."""

    group: str
    label: str
    own: int                 # cards of the group
    shared: list[str]        # cards that may count for it or another group
    reachable: int           # octets of this group alone
    distinct: int            # different sets it can mix
    score: Optional[OctetScore]

    def score_text(self) -> str:
        if self.score is None:
            return ""
        if self.score.bonus is None:
            return f"{self.score.base}"
        state = "reachable" if self.distinct >= self.score.distinct else \
            f"not reachable: {self.distinct} different sets"
        return (f"{self.score.base}, {self.score.bonus} with ≥ {self.score.distinct} different "
                f"sets ({state})")


@dataclass
class Deck:
    """The cards of one game and how it is played; what the report and the deck sheet show."""

    pack_id: str
    title: str
    cards: list[LoadedCard]
    catalogue: Catalogue
    composition: Composition
    declared: bool
    choice: Choice
    kind_labels: dict[str, str]
    group_labels: dict[str, str]
    preset: Optional[str] = None
    variant: Optional[str] = None
    variant_default: bool = False
    options: tuple[str, ...] = ()
    players: Optional[int] = None
    teams: tuple[int, ...] = ()
    seed: Optional[int] = None
    seed_chosen: bool = False
    whole_pack: bool = True
    notes: list[str] = field(default_factory=list)

    # counts --------------------------------------------------------------------------------
    @property
    def deck_cards(self) -> list[LoadedCard]:
        return [c for c in self.cards if c.kind in self.composition.deck_kinds]

    @property
    def special_cards(self) -> list[LoadedCard]:
        return [c for c in self.cards if c.kind in self.composition.special_kinds]

    @property
    def size(self) -> int:
        return copies(self.cards)

    def kind_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for lc in self.cards:
            out[lc.kind] = out.get(lc.kind, 0) + lc.card.count
        return out

    def set_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for lc in self.deck_cards:
            if lc.card.set:
                out[lc.card.set] = out.get(lc.card.set, 0) + lc.card.count
        return out

    def group_counts(self) -> tuple[dict[str, int], dict[tuple[str, ...], list[str]]]:
        """Cards per group, and the cards that may count for several groups."""
        own: dict[str, int] = {g: 0 for g in self.group_labels}
        shared: dict[tuple[str, ...], list[str]] = {}
        for lc in self.deck_cards:
            if lc.card.group:
                own[lc.card.group] = own.get(lc.card.group, 0) + lc.card.count
            elif lc.card.groups:
                shared.setdefault(tuple(lc.card.groups), []).extend([lc.card.id] * lc.card.count)
        return {g: n for g, n in own.items() if n or g in self.group_labels}, shared

    def quartets(self) -> int:
        n = self.composition.sets_of
        return sum(c // n for c in self.set_counts().values()) if n else 0

    @property
    def octets_on(self) -> bool:
        return any(self.composition.options[o].octets for o in self.options
                   if o in self.composition.options)

    def octet_lines(self) -> list[OctetLine]:
        octets = self.composition.octets
        if octets is None:
            return []
        own, shared = self.group_counts()
        lines = []
        for group, label in self.group_labels.items():
            flex = [i for groups, ids in shared.items() if group in groups for i in ids]
            sets = {lc.card.set for lc in self.deck_cards
                    if lc.card.group == group or group in lc.card.groups}
            lines.append(OctetLine(group, label, own.get(group, 0), flex,
                                   (own.get(group, 0) + len(flex)) // octets.size,
                                   len(sets - {""}), octets.score.get(group)))
        return lines

    def octets_at_once(self) -> Optional[int]:
        """Most octets the deck can hold at the same time (shared cards counted once)."""
        octets = self.composition.octets
        if octets is None:
            return None
        own, shared = self.group_counts()
        classes = [(groups, len(ids)) for groups, ids in shared.items()]
        ways = prod(comb(n + len(g) - 1, len(g) - 1) for g, n in classes) if classes else 1
        if ways > 200_000:
            return None
        best = 0
        for split in product(*(list(_splits(n, len(g))) for g, n in classes)):
            total = dict(own)
            for (groups, _), parts in zip(classes, split):
                for group, extra in zip(groups, parts):
                    total[group] = total.get(group, 0) + extra
            best = max(best, sum(v // octets.size for v in total.values()))
        return best

    def hand(self, words: Optional[dict[str, str]] = None) -> Optional[str]:
        """'5 cards each, 37 left over' / '16 cards each' / '12–13 cards each'."""
        words = {**HAND_WORDS, **(words or {})}
        if not self.players:
            return None
        rule = deal_rule(self.composition.deal, self.players)
        if self.composition.deal and rule is None:
            return None
        if rule is not None and rule.hand == 0:
            return words["dealt_none"]
        dealt = self.size if self.composition.deal_special else copies(self.deck_cards)
        if rule is not None and rule.hand != "all":
            left = dealt - rule.hand * self.players
            return f"{rule.hand} {words['each']}, {left} {words['left']}" if left else \
                f"{rule.hand} {words['each']}"
        low, extra = divmod(dealt, self.players)
        return f"{low} {words['each']}" if not extra else f"{low}–{low + 1} {words['each']}"

    # text --------------------------------------------------------------------------------
    def ids(self, cards: list[LoadedCard]) -> str:
        return compress([c.card.id for c in cards], self.catalogue)

    def command(self) -> str:
        args = self.choice.args(self.seed)
        return " ".join(_quote(a) for a in args)

    def describe(self) -> str:
        """One line: what is in the game."""
        counts = self.kind_counts()
        kinds = ", ".join(f"{counts[k]} {k}" for k in self.kind_labels if counts.get(k))
        parts = [f"{self.size} cards ({kinds})" if kinds else "no cards"]
        if self.variant:
            parts.append(f"variant {self.variant}")
        if self.players:
            parts.append(f"{self.players} players")
        if self.options:
            parts.append("options " + ", ".join(self.options))
        if self.seed is not None:
            parts.append(f"seed {self.seed}")
        return " · ".join(parts)

    def report_rows(self) -> list[tuple[str, str]]:
        """(label, value) rows of `cardgen check --report`, in the order the report shows."""
        return ([("pack", f"{self.pack_id} — {self.title}"), self._deck_row()]
                + self._play_rows() + self._count_rows() + self._group_rows()
                + self._closing_rows())

    def _deck_row(self) -> tuple[str, str]:
        """How the deck was chosen: a preset, a list, a random draw or the whole pack."""
        if self.preset:
            label = self.composition.presets[self.preset].label
            return ("deck", f"preset {self.preset}" + (f" — {label}" if label else ""))
        if self.choice.cards:
            return ("deck", f"custom list {self.choice.cards}")
        if self.choice.random:
            return ("deck", f"{self.choice.random} cards drawn at random")
        return ("deck", "every card of the pack")

    def _play_rows(self) -> list[tuple[str, str]]:
        """Seed, variant, players and teams: how the game is played."""
        rows: list[tuple[str, str]] = []
        if self.seed is not None:
            rows.append(("seed", f"{self.seed}" + (" (chosen by cardgen)" if self.seed_chosen
                                                   else "")))
        if self.variant:
            v = self.composition.variants[self.variant]
            text = f"{self.variant} — {v.label or self.variant} ({range_text(v.players)} players)"
            rows.append(("variant", text + (" (default)" if self.variant_default else "")))
        if self.players:
            hand = self.hand()
            rows.append(("players", f"{self.players}" + (f" — {hand}" if hand else "")))
        if self.teams:
            rows.append(("teams", " + ".join(str(t) for t in self.teams)))
        return rows

    def _count_rows(self) -> list[tuple[str, str]]:
        """The cards by kind and by set, the complete sets, rounds and the set structure."""
        comp = self.composition
        counts = self.kind_counts()
        rows = [("cards", f"{self.size}: " + ", ".join(
            f"{counts.get(k, 0)} {k}" for k in self.kind_labels)),
            ("deck cards", self.ids(self.deck_cards) or "none")]
        sets = self.set_counts()
        if sets:
            rows.append(("sets", ", ".join(f"{s}: {n}" for s, n in sets.items())))
        if comp.sets_of:
            rows.append((set_noun(comp.sets_of) + "s", self._complete_sets_text(sets)))
        if comp.rounds is not None:
            rounds = comp.rounds.of(self.players) if self.players else None
            rows.append(("rounds", f"{rounds}" if rounds else ", ".join(
                f"{r.rounds} with {r.players} players" for r in comp.rounds.by_players)))
        if comp.structure:
            rows.append(("structure", structure_text(comp) + f"; the deck has {len(sets)} sets, "
                         f"{copies(self.deck_cards)} cards"))
        return rows

    def _complete_sets_text(self, sets: dict[str, int]) -> str:
        """'5 (A: 2, B/C: 1 each); incomplete: D (3 cards)': the complete sets of sets_of."""
        n = self.composition.sets_of
        incomplete = [s for s, c in sets.items() if c % n]
        several = [f"{s}: {c // n}" for s, c in sets.items() if c // n > 1]
        single = [s for s, c in sets.items() if c // n == 1]
        if several and single:
            several.append(f"{'/'.join(single)}: 1 each")
        text = f"{self.quartets()}" + (f" ({', '.join(several)})" if several else "")
        if incomplete:
            text += "; incomplete: " + ", ".join(f"{s} ({sets[s]} cards)" for s in incomplete)
        return text

    def _group_rows(self) -> list[tuple[str, str]]:
        """The cards per group (and those shared by groups), and the octets they allow."""
        comp = self.composition
        rows: list[tuple[str, str]] = []
        own, shared = self.group_counts()
        if any(own.values()) or shared:
            text = ", ".join(f"{g} {n}" for g, n in own.items())
            if shared:
                text += "; shared: " + "; ".join(
                    f"{compress(ids, self.catalogue)} ({' or '.join(groups)})"
                    for groups, ids in shared.items())
            rows.append(("groups", text))
        if comp.octets is not None and self.group_labels:
            rows.append((comp.octets.label + "s", self._octets_text()))
        return rows

    def _octets_text(self) -> str:
        """The octets each group reaches (with its score), at most at once, and the option
        that switches them on."""
        switch = [o for o, opt in self.composition.options.items() if opt.octets]
        text = ", ".join(f"{ln.group} {ln.reachable}" + (f" [{ln.score_text()}]"
                                                        if ln.score else "")
                         for ln in self.octet_lines())
        at_once = self.octets_at_once()
        if at_once is not None:
            text += f"; at most {at_once} at once"
        if not self.octets_on and switch:
            text += f" (only with {' or '.join(switch)})"
        return text

    def _closing_rows(self) -> list[tuple[str, str]]:
        """Special cards, options, notes and the command line that repeats the choice."""
        comp = self.composition
        rows: list[tuple[str, str]] = []
        special = self.special_cards
        if comp.special_kinds:
            rows.append(("special cards", f"{copies(special)}: {self.ids(special)}"
                         if special else "none"))
        if self.options:
            rows.append(("options", ", ".join(
                f"{o} ({comp.options[o].label})" if comp.options[o].label else o
                for o in self.options)))
        elif comp.options:
            rows.append(("options", "none"))
        for note in self.notes:
            rows.append(("note", note))
        if self.choice.given():
            rows.append(("repeat with", self.command()))
        return rows


def _quote(arg: str) -> str:
    return arg if arg and all(c.isalnum() or c in "-_.,:–" for c in arg) else f"'{arg}'"


def _splits(n: int, k: int):
    """Every way of writing n as k ordered non-negative parts."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _splits(n - first, k - 1):
            yield (first,) + rest
