"""The compose stage: the user's choice (preset, variant, options ...) → the deck, checked.

Why a stage of its own: what may be combined is game data (composition.yaml), and the same check
serves `cardgen check` and `cardgen build`. Problems in composition.yaml point at its lines;
problems of the choice point at the command line.
"""

from __future__ import annotations

import random as _random
from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from math import comb, prod
from typing import Optional

from ..diagnostics import Report, display_path
from ..load import LoadedCard, PackData, read_model
from ..model.compose import (Composition, DealRule, Draw, NeedCards, NeedDeckSize, NeedKind,
                             NeedPlayers, NeedSet, NeedSpecialCards, OctetScore, Option, Preset,
                             Variant)
from ..source import Mark, MarkedDict, YamlError, load_yaml
from ..validate.errors import did_you_mean
from .cards import Catalogue, ItemError, and_list, compress, expand, split_items

FILE_NAME = "composition.yaml"
MAX_SEED = 999_999
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
        return _copies(self.cards)

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
        rule = _deal_rule(self.composition.deal, self.players)
        if self.composition.deal and rule is None:
            return None
        if rule is not None and rule.hand == 0:
            return words["dealt_none"]
        if rule is not None and rule.hand != "all":
            left = self.size - rule.hand * self.players
            return f"{rule.hand} {words['each']}, {left} {words['left']}" if left else \
                f"{rule.hand} {words['each']}"
        low, extra = divmod(self.size, self.players)
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
        """(label, value) rows of `cardgen check --report`."""
        comp = self.composition
        rows: list[tuple[str, str]] = [("pack", f"{self.pack_id} — {self.title}")]
        if self.preset:
            label = comp.presets[self.preset].label
            rows.append(("deck", f"preset {self.preset}" + (f" — {label}" if label else "")))
        elif self.choice.cards:
            rows.append(("deck", f"custom list {self.choice.cards}"))
        elif self.choice.random:
            rows.append(("deck", f"{self.choice.random} cards drawn at random"))
        else:
            rows.append(("deck", "every card of the pack"))
        if self.seed is not None:
            rows.append(("seed", f"{self.seed}" + (" (chosen by cardgen)" if self.seed_chosen
                                                   else "")))
        if self.variant:
            v = comp.variants[self.variant]
            text = f"{self.variant} — {v.label or self.variant} ({_range(v.players)} players)"
            rows.append(("variant", text + (" (default)" if self.variant_default else "")))
        if self.players:
            hand = self.hand()
            rows.append(("players", f"{self.players}" + (f" — {hand}" if hand else "")))
        if self.teams:
            rows.append(("teams", " + ".join(str(t) for t in self.teams)))
        counts = self.kind_counts()
        rows.append(("cards", f"{self.size}: " + ", ".join(
            f"{counts.get(k, 0)} {k}" for k in self.kind_labels)))
        rows.append(("deck cards", self.ids(self.deck_cards) or "none"))
        sets = self.set_counts()
        if sets:
            rows.append(("sets", ", ".join(f"{s}: {n}" for s, n in sets.items())))
        if comp.sets_of:
            n = comp.sets_of
            incomplete = [s for s, c in sets.items() if c % n]
            several = [f"{s}: {c // n}" for s, c in sets.items() if c // n > 1]
            single = [s for s, c in sets.items() if c // n == 1]
            if several and single:
                several.append(f"{'/'.join(single)}: 1 each")
            text = f"{self.quartets()}" + (f" ({', '.join(several)})" if several else "")
            if incomplete:
                text += "; incomplete: " + ", ".join(f"{s} ({sets[s]} cards)" for s in incomplete)
            rows.append((_noun(n) + "s", text))
        if comp.structure:
            rows.append(("structure", _structure_text(comp) + f"; the deck has {len(sets)} sets, "
                         f"{_copies(self.deck_cards)} cards"))
        own, shared = self.group_counts()
        if any(own.values()) or shared:
            text = ", ".join(f"{g} {n}" for g, n in own.items())
            if shared:
                text += "; shared: " + "; ".join(
                    f"{compress(ids, self.catalogue)} ({' or '.join(groups)})"
                    for groups, ids in shared.items())
            rows.append(("groups", text))
        if comp.octets is not None and self.group_labels:
            on = self.octets_on
            switch = [o for o, opt in comp.options.items() if opt.octets]
            lines = self.octet_lines()
            text = ", ".join(f"{ln.group} {ln.reachable}" + (f" [{ln.score_text()}]"
                                                            if ln.score else "")
                             for ln in lines)
            at_once = self.octets_at_once()
            if at_once is not None:
                text += f"; at most {at_once} at once"
            if not on and switch:
                text += f" (only with {' or '.join(switch)})"
            rows.append((comp.octets.label + "s", text))
        special = self.special_cards
        if comp.special_kinds:
            rows.append(("special cards", f"{_copies(special)}: {self.ids(special)}"
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


def _copies(cards: list[LoadedCard]) -> int:
    return sum(c.card.count for c in cards)


def _merged(rules: list[DealRule]) -> list[tuple[int, int]]:
    """Player ranges of the deal rules, adjacent ones joined: 2–3 and 4–10 → 2–10."""
    out: list[list[int]] = []
    for low, high in sorted(r.players for r in rules):
        if out and low <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], high)
        else:
            out.append([low, high])
    return [tuple(r) for r in out]


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _splits(n: int, k: int):
    """Every way of writing n as k ordered non-negative parts."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _splits(n - first, k - 1):
            yield (first,) + rest


def _range(pair) -> str:
    low, high = pair
    return f"{low}" if low == high else f"{low}–{high}"


def _noun(n: int) -> str:
    return {2: "pair", 3: "triple", 4: "quartet"}.get(n, f"set of {n}")


def _nouns(k: int, n: int) -> str:
    """'a quartet' / '4 quartets' / '2 sets of 5'."""
    noun = _noun(n)
    if k == 1:
        return f"a {noun}"
    return f"{k} {noun}s" if n in (2, 3, 4) else f"{k} sets of {n}"


def _structure_text(comp: Composition) -> str:
    parts = " + ".join(f"{p.sets}×{p.size}" for p in comp.structure)
    return f"{parts} = {sum(p.sets * p.size for p in comp.structure)} cards"


def _deal_rule(rules: list[DealRule], players: int) -> Optional[DealRule]:
    return next((r for r in rules if r.players[0] <= players <= r.players[1]), None)


# --- loading composition.yaml ----------------------------------------------------------------

@dataclass
class Declared:
    composition: Composition
    raw: Optional[MarkedDict]
    file: str

    def at(self, *path) -> Mark:
        """Position of a value in composition.yaml (the nearest one that exists)."""
        node, mark = self.raw, self.raw.mark
        for key in path:
            if isinstance(node, dict) and key in node:
                mark, node = node.value_marks[key], node[key]
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                mark, node = node.item_marks[key], node[key]
            else:
                break
        return mark


def load_composition(data: PackData, report: Report) -> Optional[Declared]:
    """composition.yaml of the pack; without one, every kind forms the deck. None when broken."""
    path = data.folder / FILE_NAME
    if not path.is_file():
        return Declared(Composition(deck_kinds=[k.id for k in data.pack.kinds]), None, "")
    if path not in data.inputs:
        data.inputs.append(path)
    composition, raw = read_model(path, Composition, report)
    if composition is None:
        return None
    return Declared(composition, raw, display_path(path))


# --- the checker ------------------------------------------------------------------------------

def compose(data: PackData, choice: Choice, report: Report) -> Optional[Deck]:
    """The deck the choice describes, with every composition problem in `report`.

    Returns None when no deck can be formed (a broken composition.yaml, a card that did not load,
    an unknown preset or card, a contradictory choice); the report then holds an error. Otherwise
    returns the deck even when a rule is broken: the caller decides with report.failed() — a
    build must not go on then; `check --report` still shows the deck.
    """
    declared = load_composition(data, report)
    if declared is None or _cards_missing(data):
        return None  # the load stage has said why; checking a partial pack only adds noise
    catalogue = Catalogue.of([(lc.card.id, lc.kind) for lc in _in_kind_order(data)])
    errors = len(report.errors)
    if declared.raw is not None:
        _Declaration(data, declared, catalogue, report).check()
    if len(report.errors) > errors:
        return None
    return _Composer(data, declared, catalogue, choice, report).run()


def _cards_missing(data: PackData) -> bool:
    """True when a card (or a whole card file) could not be loaded: its ID is unknown, and
    every set, preset and rule naming it would report a follow-on error."""
    loaded = {lc.file for lc in data.cards}
    files = sorted((data.folder / "cards").glob("*.yaml"))
    if any(display_path(path) not in loaded for path in files):
        return True
    ids = {lc.card.id for lc in data.cards}
    return any(i and i not in ids for i in getattr(data, "written_ids", ()))


def _in_kind_order(data: PackData) -> list[LoadedCard]:
    """The pack's cards, kind by kind as pack.yaml lists the kinds, each in file order."""
    rank = {k.id: i for i, k in enumerate(data.pack.kinds)}
    return sorted(data.cards, key=lambda lc: rank.get(lc.kind, len(rank)))


class _Declaration:
    """Checks of composition.yaml against the pack: every name it uses exists, numbers agree."""

    def __init__(self, data: PackData, declared: Declared, catalogue: Catalogue, report: Report):
        self.data, self.declared, self.cat, self.report = data, declared, catalogue, report
        self.comp = declared.composition
        self.kind_ids = [k.id for k in data.pack.kinds]

    def error(self, path: tuple, subject: str, message: str, severity: str = "error") -> None:
        mark = self.declared.at(*path)
        self.report.add(self.declared.file, mark.line, mark.col, severity, subject, message)

    def check(self) -> None:
        self._kinds()
        self._variants()
        self._presets()
        self._options()
        self._octets()
        self._deal()
        self._structure()
        self._rulebook()

    def _kinds(self) -> None:
        comp = self.comp
        for key in ("deck_kinds", "special_kinds"):
            for i, kind in enumerate(getattr(comp, key)):
                if kind not in self.kind_ids:
                    self.error((key, i), "", f"{key}: unknown kind '{kind}'"
                               f"{did_you_mean(kind, self.kind_ids)}; the pack has "
                               f"{', '.join(self.kind_ids)}")
        for i, kind in enumerate(comp.special_kinds):
            if kind in comp.deck_kinds:
                self.error(("special_kinds", i), "", f"special_kinds: '{kind}' is also in "
                           "deck_kinds; a kind is one or the other")
        for kind in self.kind_ids:
            if kind not in comp.deck_kinds and kind not in comp.special_kinds:
                self.error(("deck_kinds",), "", f"deck_kinds: the pack's kind '{kind}' is "
                           "neither in deck_kinds nor in special_kinds")
        if comp.sets_of:
            for lc in self.data.cards:
                if lc.kind in comp.deck_kinds and not lc.card.set:
                    mark = lc.mark("set")
                    self.report.error(lc.file, mark.line, mark.col, lc.card.id,
                                      f"set: missing; composition.yaml forms {_noun(comp.sets_of)}s "
                                      f"of {comp.sets_of} cards with the same set")

    def _variants(self) -> None:
        comp = self.comp
        names = list(comp.variants)
        for slug, variant in comp.variants.items():
            if variant.players[0] > variant.players[1]:
                self.error(("variants", slug, "players"), slug, "players: the first number is "
                           "the minimum, the second the maximum")
        if comp.default_variant is not None and comp.default_variant not in names:
            self.error(("default_variant",), "", f"default_variant: unknown variant "
                       f"'{comp.default_variant}'{did_you_mean(comp.default_variant, names)}")
        for i, name in enumerate(comp.option_variants or []):
            if name not in names:
                self.error(("option_variants", i), "", f"option_variants: unknown variant "
                           f"'{name}'{did_you_mean(name, names)}")
        for slug, option in comp.options.items():
            for i, name in enumerate(option.variants or []):
                if name not in names:
                    self.error(("options", slug, "variants", i), slug, f"variants: unknown "
                               f"variant '{name}'{did_you_mean(name, names)}")

    def _items(self, path: tuple, subject: str, items: list, kinds: list[str]) -> list[str]:
        """IDs of a list of items; each item that names no card (of these kinds) is an error."""
        out: list[str] = []
        for i, item in enumerate(items):
            try:
                ids = expand(item, self.cat)
            except ItemError as exc:
                self.error(path + (i,), subject, f"{path[-1]}: {exc}")
                continue
            wrong = [x for x in ids if self.cat.kind_of[x] not in kinds]
            if wrong:
                self.error(path + (i,), subject, f"{path[-1]}: {compress(wrong, self.cat)} "
                           f"{'is' if len(wrong) == 1 else 'are'} not of the kinds "
                           f"{', '.join(kinds)}")
            out.extend(ids)
        return out

    def _presets(self) -> None:
        comp = self.comp
        for slug, preset in comp.presets.items():
            if preset.cards == "all":
                continue
            taken: set[str] = set()
            for i, item in enumerate(preset.cards):
                if isinstance(item, Draw):
                    pool = self._items(("presets", slug, "cards", i, "from"), slug,
                                       item.from_, comp.deck_kinds)
                    left = [x for x in dict.fromkeys(pool) if x not in taken]
                    if item.draw > len(left):
                        self.error(("presets", slug, "cards", i, "draw"), slug,
                                   f"draw: {item.draw} cards cannot be drawn from "
                                   f"{len(left)}")
                else:
                    taken.update(self._one(("presets", slug, "cards", i), slug, item))
            if preset.special is not None:
                problems = _special_problems(preset.special, self.cat, comp.special_kinds)
                for problem in problems:
                    self.error(("presets", slug, "special"), slug, f"special: {problem}")

    def _one(self, path: tuple, subject: str, item: str) -> list[str]:
        try:
            ids = expand(item, self.cat)
        except ItemError as exc:
            self.error(path, subject, f"cards: {exc}")
            return []
        wrong = [x for x in ids if self.cat.kind_of[x] not in self.comp.deck_kinds]
        if wrong:
            self.error(path, subject, f"cards: {compress(wrong, self.cat)} "
                       f"{'is not a deck card' if len(wrong) == 1 else 'are not deck cards'} "
                       f"(deck_kinds: {', '.join(self.comp.deck_kinds)}); special cards "
                       "belong in special:")
        return ids

    def _options(self) -> None:
        comp = self.comp
        slugs = list(comp.options)
        sets = {lc.card.set for lc in self.data.cards if lc.card.set}
        for slug, option in comp.options.items():
            for i, other in enumerate(option.excludes):
                if other == slug:
                    self.error(("options", slug, "excludes", i), slug, "excludes: an option "
                               "cannot exclude itself")
                elif other not in slugs:
                    self.error(("options", slug, "excludes", i), slug, f"excludes: unknown "
                               f"option '{other}'{did_you_mean(other, slugs)}")
            if option.team_size and option.team_size[0] > option.team_size[1]:
                self.error(("options", slug, "team_size"), slug, "team_size: the first number "
                           "is the minimum, the second the maximum")
            if option.octets and comp.octets is None:
                self.error(("options", slug, "octets"), slug, "octets: true, but composition."
                           "yaml declares no octets: (size, score)")
            for n, need in enumerate(option.needs):
                path = ("options", slug, "needs", n)
                if isinstance(need, NeedCards):
                    for j, item in enumerate(need.cards):
                        try:
                            expand(item, self.cat)
                        except ItemError as exc:
                            self.error(path + ("cards", j), slug, f"cards: {exc}")
                elif isinstance(need, NeedSet):
                    for name in [need.set] if isinstance(need.set, str) else need.set:
                        if name not in sets:
                            self.error(path + ("set",), slug, f"set: no card has the set "
                                       f"'{name}'{did_you_mean(name, sorted(sets))}")
                elif isinstance(need, NeedKind) and need.kind not in self.kind_ids:
                    self.error(path + ("kind",), slug, f"kind: unknown kind '{need.kind}'"
                               f"{did_you_mean(need.kind, self.kind_ids)}")
                elif isinstance(need, NeedPlayers) and need.players[0] > need.players[1]:
                    self.error(path + ("players",), slug, "players: the first number is the "
                               "minimum, the second the maximum")
                elif isinstance(need, NeedSpecialCards) and not comp.special_kinds:
                    self.error(path, slug, "special_cards: the composition declares no "
                               "special_kinds")
                if need.severity == "note" and not need.message:
                    self.error(path, slug, "a need with severity note shows its message; "
                               "write one")

    def _octets(self) -> None:
        octets = self.comp.octets
        if octets is None:
            return
        groups = [g.id for g in self.data.pack.groups]
        if not groups:
            self.error(("octets",), "", "octets: the pack declares no groups to form them from")
        for group in octets.score:
            if group not in groups:
                self.error(("octets", "score", group), group, f"score: unknown group "
                           f"'{group}'{did_you_mean(group, groups)}")

    def _deal(self) -> None:
        rules = self.comp.deal
        for i, rule in enumerate(rules):
            if rule.players[0] > rule.players[1]:
                self.error(("deal", i, "players"), "", "players: the first number is the "
                           "minimum, the second the maximum")
            for j, other in enumerate(rules[:i]):
                if rule.players[0] <= other.players[1] and other.players[0] <= rule.players[1]:
                    self.error(("deal", i, "players"), "", f"deal: players {_range(rule.players)}"
                               f" overlap rule {j + 1} ({_range(other.players)})")

    def _structure(self) -> None:
        """The pack's deck cards form exactly the declared sets (e.g. 4×4 + 3×3 + 12×2)."""
        comp = self.comp
        if not comp.structure:
            return
        members: dict[str, list[LoadedCard]] = {}
        for lc in self.data.cards:
            if lc.kind in comp.deck_kinds:
                members.setdefault(lc.card.set, []).append(lc)
        found: dict[int, list[str]] = {i: [] for i in range(len(comp.structure))}
        for name, cards in members.items():
            size = _copies(cards)
            label = f"set '{name}'" if name else "cards without a set"
            part = _part_of(comp, cards, size)
            if isinstance(part, str):  # a problem
                first = cards[0]
                mark = first.mark("set")
                self.report.error(first.file, mark.line, mark.col, first.card.id,
                                  f"{label} {part}")
                continue
            found[part].append(name)
        for i, spec in enumerate(comp.structure):
            names = found[i]
            if len(names) != spec.sets:
                what = f"{spec.label} sets" if spec.label else f"sets of {spec.size} cards"
                listed = f" ({', '.join(names)})" if names else ""
                self.error(("structure", i), "", f"structure: {spec.sets} {what} expected, the "
                           f"pack has {len(names)}{listed}")
        total = sum(p.sets * p.size for p in comp.structure)
        have = sum(_copies(c) for c in members.values())
        if total != have:
            self.error(("structure",), "", f"structure: {_structure_text(comp)}, the pack "
                       f"has {have} deck cards")

    def _rulebook(self) -> None:
        """Option blocks of the rulebook and the declared options name the same options."""
        comp = self.comp
        if not comp.options:
            return
        described: dict[str, tuple[str, Mark]] = {}
        for path in sorted((self.data.folder / "rules").glob("*.yaml")):
            shown = display_path(path)
            try:
                raw = load_yaml(path, shown)
            except (YamlError, OSError):
                continue  # reported by the load stage
            blocks = raw.get("blocks") if isinstance(raw, dict) else None
            for i, block in enumerate(blocks if isinstance(blocks, list) else []):
                if isinstance(block, MarkedDict) and isinstance(block.get("option"), str):
                    described.setdefault(block["option"], (shown, block.value_marks["option"]))
        if not described:
            return
        for slug, (shown, mark) in described.items():
            if slug not in comp.options:
                self.report.warning(shown, mark.line, mark.col, slug, f"option: not declared in "
                                    f"{self.declared.file}{did_you_mean(slug, list(comp.options))}")
        for slug in comp.options:
            if slug not in described:
                self.error(("options", slug), slug, "is not described in the rulebook (no "
                           f"'option: {slug}' block in rules/)", "warning")


def _part_of(comp: Composition, cards: list[LoadedCard], size: int):
    """Index of the structure part a set belongs to, or a text saying why it fits none."""
    by_where = [i for i, p in enumerate(comp.structure) if p.where]
    if by_where:
        for key in {k for p in comp.structure for k in p.where}:
            values = {_field(lc, key) for lc in cards}
            if len(values) > 1:
                return f"its cards disagree on {key}: {', '.join(sorted(map(str, values)))}"
        matching = [i for i, p in enumerate(comp.structure)
                    if all(_field(cards[0], k) == v for k, v in p.where.items())]
        if not matching:
            return "matches no part of the structure (" + "; ".join(
                ", ".join(f"{k}: {v}" for k, v in p.where.items()) for p in comp.structure
                if p.where) + ")"
        part = comp.structure[matching[0]]
        if part.size != size:
            what = part.label or ", ".join(f"{k}: {v}" for k, v in part.where.items())
            return f"has {size} cards, but {what} sets have {part.size}"
        return matching[0]
    matching = [i for i, p in enumerate(comp.structure) if p.size == size]
    if not matching:
        sizes = and_list([str(p.size) for p in comp.structure], "or")
        return f"has {size} cards, but sets have {sizes}"
    return matching[0]


def _field(lc: LoadedCard, key: str):
    if key in ("set", "group", "name", "title"):
        return getattr(lc.card, key)
    return lc.card.extra_fields.get(key)


def _special_problems(text: str, cat: Catalogue, special_kinds: list[str]) -> list[str]:
    """What is wrong with a special-card list (for presets: checked once, from the YAML)."""
    problems: list[str] = []
    items = split_items(text)
    if "none" in items and len(items) > 1:
        problems.append("'none' cannot be combined with other items")
    for item in items:
        if item in ("none", "all") or item.startswith("random:"):
            if item.startswith("random:") and not item[7:].isdigit():
                problems.append(f"'{item}': write random:N with a number N")
            continue
        try:
            ids = expand(item, cat)
        except ItemError as exc:
            problems.append(str(exc))
            continue
        wrong = [x for x in ids if cat.kind_of[x] not in special_kinds]
        if wrong:
            problems.append(f"{compress(wrong, cat)} {'is not a special card' if len(wrong) == 1 else 'are not special cards'}")
    return problems


class _Composer:
    """Resolves one choice into a deck and checks it against the composition."""

    def __init__(self, data: PackData, declared: Declared, catalogue: Catalogue, choice: Choice,
                 report: Report):
        self.data, self.declared, self.cat = data, declared, catalogue
        self.comp = declared.composition
        self.choice, self.report = choice, report
        self.where = f"command line ({data.pack.id})"
        self.seed: Optional[int] = choice.seed
        self.seed_chosen = False
        self.drawn = False

    # diagnostics -----------------------------------------------------------------------------
    def error(self, subject: str, message: str) -> None:
        self.report.error(self.where, 0, 0, subject, message)

    def say(self, severity: str, subject: str, message: str, notes: list[str]) -> None:
        if severity == "note":
            notes.append(f"{subject}: {message}" if subject else message)
        else:
            self.report.add(self.where, 0, 0, severity, subject, message)

    def rng(self, stream: str) -> _random.Random:
        self.drawn = True
        if self.seed is None:
            self.seed = _random.SystemRandom().randint(1, MAX_SEED)
            self.seed_chosen = True
        return _random.Random(f"{self.seed}/{stream}")

    # the run ---------------------------------------------------------------------------------
    def run(self) -> Optional[Deck]:
        comp, choice = self.comp, self.choice
        errors = len(self.report.errors)
        if self.declared.raw is None:
            flags = [flag for flag, value in (("--preset", choice.preset),
                                              ("--variant", choice.variant),
                                              ("--option", choice.options),
                                              ("--teams", choice.teams)) if value]
            if flags:
                self.error("", f"{', '.join(flags)}: the pack {self.data.pack.id} has no "
                           f"{FILE_NAME}, so it declares no presets, variants or options")
        ways = [f for f, v in (("--preset", choice.preset), ("--cards", choice.cards),
                               ("--random", choice.random)) if v is not None]
        if len(ways) > 1:
            self.error("", f"{' and '.join(ways)}: choose the deck one way only (a preset, a "
                       "list of cards or a random draw)")
        if len(self.report.errors) > errors:
            return None
        variant, variant_default = self._variant()
        preset = self._preset()
        options = self._options()
        teams = self._teams_given()
        if len(self.report.errors) > errors:
            return None
        deck_ids = self._deck_ids(preset)
        special_ids, special_explicit = self._special_ids(preset, variant)
        if deck_ids is None or special_ids is None:
            return None
        chosen = set(deck_ids) | set(special_ids)
        cards = [lc for lc in _in_kind_order(self.data) if lc.card.id in chosen]
        cards = list({lc.card.id: lc for lc in cards}.values())
        deck = Deck(
            pack_id=self.data.pack.id, title=self.data.pack.title, cards=cards,
            catalogue=self.cat, composition=comp, declared=self.declared.raw is not None,
            choice=choice, kind_labels={k.id: k.plural or k.label for k in self.data.pack.kinds},
            group_labels={g.id: g.label for g in self.data.pack.groups},
            preset=choice.preset, variant=variant, variant_default=variant_default,
            options=options, players=choice.players, teams=teams, seed=self.seed,
            seed_chosen=self.seed_chosen,
            whole_pack=len(cards) == len(self.cat.order))
        if self.drawn and self.seed_chosen:
            deck.notes.append(f"drawn at random with seed {self.seed}; add --seed {self.seed} "
                              "to get this deck again")
        elif choice.seed is not None and not self.drawn:
            deck.notes.append(f"--seed {choice.seed} changes nothing: nothing is drawn at random")
        self._check_sets(deck)
        self._check_structure(deck)
        self._check_teams(deck)
        self._check_players(deck)
        self._check_variant(deck, special_explicit)
        self._check_options(deck)
        self._check_octets(deck)
        return deck

    # resolving the choice --------------------------------------------------------------------
    def _variant(self) -> tuple[Optional[str], bool]:
        names = list(self.comp.variants)
        name = self.choice.variant
        if name is None:
            return self.comp.default_variant, self.comp.default_variant is not None
        if name not in names:
            self.error("", f"--variant {name}: no such variant{did_you_mean(name, names)}; "
                       f"{self.data.pack.id} has {', '.join(names) or 'none'}")
            return None, False
        return name, False

    def _preset(self) -> Optional[Preset]:
        name = self.choice.preset
        if name is None:
            return None
        if name not in self.comp.presets:
            names = list(self.comp.presets)
            self.error("", f"--preset {name}: no such preset{did_you_mean(name, names)}; "
                       f"{self.data.pack.id} has {', '.join(names) or 'none'}")
            return None
        return self.comp.presets[name]

    def _options(self) -> tuple[str, ...]:
        known = list(self.comp.options)
        out: list[str] = []
        for raw in self.choice.options:
            for name in split_items(raw.replace(",", " ")):
                if name in out:
                    continue
                if name not in known:
                    hint = did_you_mean(name, known)
                    listing = "" if hint else f"; {self.data.pack.id} has {', '.join(known) or 'none'}"
                    self.error("", f"--option {name}: no such option{hint}{listing}")
                    continue
                out.append(name)
        return tuple(out)

    def _teams_given(self) -> tuple[int, ...]:
        text = self.choice.teams
        if text is None:
            return ()
        parts = split_items(text.replace("+", ","))
        if not parts or not all(p.isdigit() and int(p) > 0 for p in parts):
            self.error("", f"--teams {text}: give the size of each team, like 2,2,3")
            return ()
        team_options = [o for o, opt in self.comp.options.items() if opt.team_size]
        if not any(o in team_options for o in self._chosen_names()):
            add = " or ".join(f"--option {o}" for o in team_options)
            self.error("", f"--teams {text}: playing in teams is an option: add {add}"
                       if team_options else f"--teams {text}: {self.data.pack.id} has no "
                       "option for playing in teams")
        return tuple(int(p) for p in parts)

    def _chosen_names(self) -> list[str]:
        return [n for raw in self.choice.options for n in split_items(raw.replace(",", " "))]

    def _deck_kind_ids(self) -> list[str]:
        return [i for i in self.cat.order if self.cat.kind_of[i] in self.comp.deck_kinds]

    def _deck_word(self) -> str:
        return " / ".join(self.comp.deck_kinds) + " cards"

    def _deck_ids(self, preset: Optional[Preset]) -> Optional[list[str]]:
        choice, comp = self.choice, self.comp
        every = self._deck_kind_ids()
        if choice.cards is not None:
            out: list[str] = []
            ok = True
            items = split_items(choice.cards)
            if not items:
                self.error("", "--cards: the list is empty; give card IDs like A1-A4,C1")
                return None
            for item in items:
                try:
                    ids = expand(item, self.cat)
                except ItemError as exc:
                    self.error("", f"--cards: {exc}")
                    ok = False
                    continue
                wrong = [x for x in ids if x not in set(every)]
                if wrong:
                    kinds = sorted({self.cat.kind_of[x] for x in wrong})
                    self.error("", f"--cards {item}: {compress(wrong, self.cat)} "
                               f"{'is a special card' if len(wrong) == 1 else 'are special cards'}"
                               f" (kind {', '.join(kinds)}); choose special cards with --special")
                    ok = False
                    continue
                out.extend(ids)
            return out if ok else None
        if choice.random is not None:
            return self._random_deck(every)
        if preset is not None and preset.cards != "all":
            out = []
            for item in preset.cards:
                if isinstance(item, Draw):
                    pool = [x for x in dict.fromkeys(i for it in item.from_
                                                     for i in expand(it, self.cat))
                            if x not in out]
                    out.extend(self._draw(pool, item.draw))
                else:
                    out.extend(expand(item, self.cat))
            return out
        return every

    def _draw(self, pool: list[str], k: int) -> list[str]:
        if not hasattr(self, "_deck_rng"):
            self._deck_rng = self.rng("deck")
        return self._deck_rng.sample(pool, k)

    def _random_deck(self, every: list[str]) -> Optional[list[str]]:
        n_cards, n = self.choice.random, self.comp.sets_of
        if n_cards < 1:
            self.error("", f"--random {n_cards}: give a number of cards, at least 1")
            return None
        if n_cards > len(every):
            self.error("", f"--random {n_cards}: the pack has only {len(every)} "
                       f"{self._deck_word()}")
            return None
        if not n:
            return self._draw(every, n_cards)
        if n_cards % n:
            lower = n_cards - n_cards % n
            self.error("", f"--random {n_cards}: a random deck is drawn in whole "
                       f"{_noun(n)}s of {n} cards; give a multiple of {n}, like "
                       f"{lower or n} or {lower + n}")
            return None
        by_set: dict[str, list[str]] = {}
        for card_id in every:
            lc = self._card(card_id)
            by_set.setdefault(lc.card.set, []).append(card_id)
        slots = [s for s, ids in by_set.items() for _ in range(len(ids) // n)]
        if n_cards // n > len(slots):
            self.error("", f"--random {n_cards}: the pack holds only {len(slots)} whole "
                       f"{_noun(n)}s ({len(slots) * n} cards)")
            return None
        rng = self.rng("deck")
        picked = Counter(rng.sample(slots, n_cards // n))
        out: list[str] = []
        for name, ids in by_set.items():
            if picked[name]:
                out.extend(rng.sample(ids, picked[name] * n))
        return out

    def _card(self, card_id: str) -> LoadedCard:
        return next(lc for lc in self.data.cards if lc.card.id == card_id)

    def _special_ids(self, preset: Optional[Preset],
                     variant: Optional[str]) -> tuple[Optional[list[str]], bool]:
        comp = self.comp
        every = [i for i in self.cat.order if self.cat.kind_of[i] in comp.special_kinds]
        text, explicit, flag = self.choice.special, True, "--special"
        if text is None and preset is not None and preset.special is not None:
            text, explicit, flag = preset.special, False, f"preset {self.choice.preset}: special"
        if text is None:
            plays_special = variant is None or comp.variants[variant].special_cards
            return (every if plays_special else []), False
        items = split_items(text)
        if not items:
            self.error("", f"{flag}: the list is empty; write none, all, IDs or random:N")
            return None, explicit
        if "none" in items:
            if len(items) > 1:
                self.error("", f"{flag} {text}: 'none' cannot be combined with other items")
                return None, explicit
            return [], explicit
        if not comp.special_kinds:
            self.error("", f"{flag} {text}: {self.data.pack.id} has no special cards")
            return None, explicit
        out: list[str] = []
        draws: list[int] = []
        ok = True
        for item in items:
            if item == "all":
                out.extend(every)
            elif item.startswith("random:"):
                if not item[7:].isdigit() or int(item[7:]) < 1:
                    self.error("", f"{flag} {item}: write random:N with a number N ≥ 1")
                    ok = False
                else:
                    draws.append(int(item[7:]))
            else:
                try:
                    ids = expand(item, self.cat)
                except ItemError as exc:
                    self.error("", f"{flag}: {exc}")
                    ok = False
                    continue
                wrong = [x for x in ids if x not in set(every)]
                if wrong:
                    self.error("", f"{flag} {item}: {compress(wrong, self.cat)} "
                               f"{'is not a special card' if len(wrong) == 1 else 'are not special cards'}"
                               f" (special cards are of kind {', '.join(comp.special_kinds)}); "
                               "choose deck cards with --cards")
                    ok = False
                    continue
                out.extend(ids)
        if not ok:
            return None, explicit
        for k in draws:
            pool = [x for x in every if x not in out]
            if k > len(pool):
                self.error("", f"{flag} random:{k}: only {len(pool)} special cards are left to "
                           "draw from")
                return None, explicit
            if not hasattr(self, "_special_rng"):
                self._special_rng = self.rng("special")
            out.extend(self._special_rng.sample(pool, k))
        return list(dict.fromkeys(out)), explicit

    # checks of the deck ----------------------------------------------------------------------
    def _set_members(self) -> dict[str, list[LoadedCard]]:
        out: dict[str, list[LoadedCard]] = {}
        for lc in self.data.cards:
            if lc.kind in self.comp.deck_kinds and lc.card.set:
                out.setdefault(lc.card.set, []).append(lc)
        return out

    def _check_sets(self, deck: Deck) -> None:
        """Every set a multiple of sets_of, or which quartets cannot be completed and why."""
        n = self.comp.sets_of
        if not n:
            return
        members = self._set_members()
        in_deck = {lc.card.id for lc in deck.cards}
        for name, cards in members.items():
            held = [lc for lc in cards if lc.card.id in in_deck]
            count = _copies(held)
            extra = count % n
            if not extra:
                continue
            noun = _noun(n)
            if deck.whole_pack:
                first = cards[0]
                mark = first.mark("set")
                self.report.error(first.file, mark.line, mark.col, "",
                                  f"{noun} {name} cannot be completed: the pack holds "
                                  f"{_cards(count)} of {name} ({compress([c.card.id for c in cards], self.cat)}),"
                                  f" not a multiple of {n}")
                continue
            missing = [lc.card.id for lc in cards if lc.card.id not in in_deck]
            short, full = n - extra, count // n
            held_ids = f" ({compress([c.card.id for c in held], self.cat)})" if count < n else ""
            text = f"{noun} {name} cannot be completed: the deck holds {_cards(count)} of " \
                   f"{name}{held_ids}, "
            if len(missing) >= short:
                add = compress(missing, self.cat) if len(missing) == short else \
                    f"{short} of {compress(missing, self.cat)}"
                leave = f"{extra}" if full else ("it" if count == 1 else f"the {count}")
                text += f"{short} short of {_nouns(full + 1, n)}; add {add} or leave {leave} out"
            else:
                text += (f"{extra} more than {_nouns(full, n)}, and the pack has no further "
                         f"cards of {name}; leave {extra} out")
            self.error("", text)

    def _check_structure(self, deck: Deck) -> None:
        """A deck smaller than the pack holds each of its sets whole."""
        if not self.comp.structure or deck.whole_pack:
            return
        in_deck = {lc.card.id for lc in deck.cards}
        for name, cards in self._set_members().items():
            held = [lc for lc in cards if lc.card.id in in_deck]
            if held and len(held) < len(cards):
                missing = [lc.card.id for lc in cards if lc.card.id not in in_deck]
                self.error("", f"set {name} cannot be completed: the deck holds {_copies(held)} "
                           f"of its {_copies(cards)} cards; {compress(missing, self.cat)} "
                           f"{'is' if len(missing) == 1 else 'are'} missing")

    def _check_teams(self, deck: Deck) -> None:
        comp = self.comp
        team_options = [o for o in deck.options if comp.options[o].team_size]
        if not team_options:
            return
        slug = team_options[0]
        low, high = comp.options[slug].team_size
        sizes = deck.teams
        if sizes:
            if len(sizes) < 2:
                self.error(slug, f"needs at least 2 teams; --teams {self.choice.teams} gives 1")
            for i, size in enumerate(sizes, 1):
                if not low <= size <= high:
                    self.error(slug, f"needs {_range((low, high))} players per team; team {i} "
                               f"has {size}")
            total = sum(sizes)
            if deck.players is None:
                deck.players = total
            elif total != deck.players:
                self.error("", f"--teams {self.choice.teams} adds up to {total} players, but "
                           f"--players is {deck.players}")
        elif deck.players is not None:
            if not any(k * low <= deck.players <= k * high for k in range(2, deck.players + 1)):
                self.error(slug, f"needs at least 2 teams of {_range((low, high))} players; "
                           f"{deck.players} players cannot be split so")

    def _check_players(self, deck: Deck) -> None:
        players, comp = deck.players, self.comp
        if players is None:
            return
        if deck.variant is not None:
            v = comp.variants[deck.variant]
            if not v.players[0] <= players <= v.players[1]:
                self.error(deck.variant, f"is for {_range(v.players)} players; the game has "
                           f"{players}")
                return
        if comp.deal:
            rule = _deal_rule(comp.deal, players)
            if rule is None:
                ranges = and_list([_range(r) for r in _merged(comp.deal)], "or")
                self.error("", f"--players {players}: the deal rules cover {ranges} players")
            elif rule.hand != "all" and rule.hand * players > deck.size:
                self.error("", f"--players {players}: dealing {rule.hand} cards each needs "
                           f"{rule.hand * players} cards; the deck has {deck.size}")
        elif players > deck.size:
            self.error("", f"--players {players}: the deck has only {deck.size} cards to deal")

    def _check_variant(self, deck: Deck, special_explicit: bool) -> None:
        if deck.variant is None:
            return
        v = self.comp.variants[deck.variant]
        if not v.special_cards and deck.special_cards and special_explicit:
            self.error(deck.variant, f"is played without special cards; --special "
                       f"{self.choice.special} adds {_copies(deck.special_cards)}")

    def _check_options(self, deck: Deck) -> None:
        comp = self.comp
        seen_pairs: set[frozenset] = set()
        for slug in deck.options:
            option = comp.options[slug]
            if option.digital_only:
                self.error(slug, "exists only in the digital version (app); printed cards "
                           "cannot play it")
            allowed = option.variants if option.variants is not None else comp.option_variants
            if allowed and deck.variant is not None and deck.variant not in allowed:
                self.error(slug, f"is an option of {and_list(allowed)}; the chosen variant is "
                           f"{deck.variant}")
            for other in deck.options:
                pair = frozenset((slug, other))
                if other != slug and pair not in seen_pairs and \
                        (other in option.excludes or slug in comp.options[other].excludes):
                    seen_pairs.add(pair)
                    self.error(slug, f"cannot be combined with {other}")
            for need in option.needs:
                problem = self._need_problem(deck, need)
                if problem is None:
                    continue
                if need.severity == "note":
                    deck.notes.append(f"{slug}: {need.message}")
                else:
                    text = problem + (f" — {need.message}" if need.message else "")
                    self.report.add(self.where, 0, 0, need.severity, slug, text)

    def _need_problem(self, deck: Deck, need) -> Optional[str]:
        """None when the need is met, else what is wrong ('needs … ; the chosen deck has …')."""
        if isinstance(need, NeedDeckSize):
            have = _copies(deck.deck_cards)
            if have != need.deck_size:
                return f"needs {need.deck_size} {self._deck_word()}; the chosen deck has {have}"
        elif isinstance(need, NeedCards):
            wanted = [i for item in need.cards for i in expand(item, self.cat)]
            have = {lc.card.id for lc in deck.cards}
            missing = [i for i in wanted if i not in have]
            if missing:
                verb = "is" if len(missing) == 1 else "are"
                return (f"needs {compress(wanted, self.cat)} in play; "
                        f"{compress(missing, self.cat)} {verb} missing")
        elif isinstance(need, NeedSpecialCards):
            have = _copies(deck.special_cards)
            if have < need.special_cards:
                what = "special cards" if need.special_cards == 1 else \
                    f"at least {need.special_cards} special cards"
                return f"needs {what}; the chosen deck has {have or 'none'}"
        elif isinstance(need, NeedSet):
            names = [need.set] if isinstance(need.set, str) else need.set
            have = _copies([lc for lc in deck.deck_cards if lc.card.set in names])
            if have < need.at_least:
                sets = and_list(names, "or")
                what = f"cards of set {sets}" if need.at_least == 1 else \
                    f"at least {need.at_least} cards of set {sets}"
                return f"needs {what}; the chosen deck has {have or 'none'}"
        elif isinstance(need, NeedKind):
            have = _copies([lc for lc in deck.cards if lc.kind == need.kind])
            if have < need.at_least:
                what = f"{need.kind} cards" if need.at_least == 1 else \
                    f"at least {need.at_least} {need.kind} cards"
                return f"needs {what}; the chosen deck has {have or 'none'}"
        elif isinstance(need, NeedPlayers):
            low, high = need.players
            if deck.players is not None and not low <= deck.players <= high:
                return f"is meant for {_range(need.players)} players; the game has {deck.players}"
        return None

    def _check_octets(self, deck: Deck) -> None:
        if not deck.octets_on or self.comp.octets is None:
            return
        slug = next(o for o in deck.options if self.comp.options[o].octets)
        size, word = self.comp.octets.size, self.comp.octets.label
        for line in deck.octet_lines():
            if line.reachable:
                continue
            shared = f" and {len(line.shared)} that may count for it " \
                     f"({compress(line.shared, self.cat)})" if line.shared else ""
            self.error(slug, f"cannot form an {word} of {line.group}: the deck holds "
                       f"{line.own} {line.group} cards{shared}; an {word} needs {size}"
                       if word[:1] in "aeiou" else
                       f"cannot form a {word} of {line.group}: the deck holds {line.own} "
                       f"{line.group} cards{shared}; a {word} needs {size}")
