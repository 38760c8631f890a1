"""The user's choice resolved: the variant, preset, options and teams it names, and the IDs of
the deck and special cards it picks (listed, drawn at random or every one).

Why a module of its own: reading the command line is one job, checking the deck it gives
another (deck_checks.py). Every problem here is one of the choice, at the command line; random
draws come from streams seeded by the seed, so a seed repeats a deck.
"""

from __future__ import annotations

import random as _random
from collections import Counter
from typing import Callable, Optional

from ..diagnostics import did_you_mean
from ..model.packdata import LoadedCard, PackData
from ..model.compose import Draw, Preset
from ..validate.catalogue import Catalogue, ItemError, compress, expand, split_items
from .declaration import FILE_NAME, Declared
from .deck import Choice
from .phrases import set_noun

MAX_SEED = 999_999


class ChoiceResolver:
    """Resolves one choice into the names and card IDs it means; problems go to `error`
    (subject, message), which reports them at the command line."""

    def __init__(self, data: PackData, declared: Declared, catalogue: Catalogue, choice: Choice,
                 error: Callable[[str, str], None]):
        self.data, self.declared, self.cat = data, declared, catalogue
        self.comp = declared.composition
        self.choice, self.error = choice, error
        self.seed: Optional[int] = choice.seed
        self.seed_chosen = False
        self.drawn = False
        self.streams: dict[str, _random.Random] = {}

    def rng(self, stream: str) -> _random.Random:
        """One generator per stream ('deck', 'special'), seeded from the seed and the stream's
        name: the same seed gives the same deck whatever else is drawn."""
        self.drawn = True
        if self.seed is None:
            self.seed = _random.SystemRandom().randint(1, MAX_SEED)
            self.seed_chosen = True
        if stream not in self.streams:
            self.streams[stream] = _random.Random(f"{self.seed}/{stream}")
        return self.streams[stream]

    def check_ways(self) -> None:
        """Options the pack cannot take (no composition.yaml), and a deck chosen more than one
        way."""
        choice = self.choice
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

    def variant(self) -> tuple[Optional[str], bool]:
        """The variant played, and whether it comes by default (the preset's or the pack's)."""
        names = list(self.comp.variants)
        name = self.choice.variant
        preset = self.comp.presets.get(self.choice.preset or "")
        if name is None and preset is not None and preset.variant is not None:
            return preset.variant, True
        if name is None:
            return self.comp.default_variant, self.comp.default_variant is not None
        if name not in names:
            self.error("", f"--variant {name}: no such variant{did_you_mean(name, names)}; "
                       f"{self.data.pack.id} has {', '.join(names) or 'none'}")
            return None, False
        return name, False

    def preset(self) -> Optional[Preset]:
        name = self.choice.preset
        if name is None:
            return None
        if name not in self.comp.presets:
            names = list(self.comp.presets)
            self.error("", f"--preset {name}: no such preset{did_you_mean(name, names)}; "
                       f"{self.data.pack.id} has {', '.join(names) or 'none'}")
            return None
        return self.comp.presets[name]

    def options(self) -> tuple[str, ...]:
        known = list(self.comp.options)
        out: list[str] = []
        for raw in self.choice.options:
            for name in split_items(raw.replace(",", " ")):
                if name in out:
                    continue
                if name not in known:
                    hint = did_you_mean(name, known)
                    listing = "" if hint else \
                        f"; {self.data.pack.id} has {', '.join(known) or 'none'}"
                    self.error("", f"--option {name}: no such option{hint}{listing}")
                    continue
                out.append(name)
        return tuple(out)

    def teams(self) -> tuple[int, ...]:
        """The team sizes of --teams (only with an option for playing in teams)."""
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

    def _expand_within(self, flag: str, item: str, allowed: list[str], what: str,
                       hint: str, detail: str = "") -> Optional[list[str]]:
        """The IDs one command-line item names, or None (with a diagnostic) when it cannot be
        read or names cards outside `allowed`: '--cards L1: is a special card (kind K); ...'."""
        try:
            ids = expand(item, self.cat)
        except ItemError as exc:
            self.error("", f"{flag}: {exc}")
            return None
        inside = set(allowed)
        wrong = [x for x in ids if x not in inside]
        if wrong:
            detail = detail or "kind " + ", ".join(sorted({self.cat.kind_of[x] for x in wrong}))
            plural = {"a special card": "special cards", "not a special card":
                      "not special cards"}[what]
            self.error("", f"{flag} {item}: {compress(wrong, self.cat)} "
                       f"{'is ' + what if len(wrong) == 1 else 'are ' + plural} "
                       f"({detail}); {hint}")
            return None
        return ids

    def deck_ids(self, preset: Optional[Preset]) -> Optional[list[str]]:
        """The deck cards: --cards, a random draw, the preset's list, else every deck card."""
        choice = self.choice
        every = self._deck_kind_ids()
        if choice.cards is not None:
            out: list[str] = []
            ok = True
            items = split_items(choice.cards)
            if not items:
                self.error("", "--cards: the list is empty; give card IDs like A1-A4,C1")
                return None
            for item in items:
                ids = self._expand_within("--cards", item, every, "a special card",
                                          "choose special cards with --special")
                if ids is None:
                    ok = False
                else:
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
        return self.rng("deck").sample(pool, k)

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
                       f"{set_noun(n)}s of {n} cards; give a multiple of {n}, like "
                       f"{lower or n} or {lower + n}")
            return None
        by_set: dict[str, list[str]] = {}
        for card_id in every:
            lc = self._card(card_id)
            by_set.setdefault(lc.card.set, []).append(card_id)
        slots = [s for s, ids in by_set.items() for _ in range(len(ids) // n)]
        if n_cards // n > len(slots):
            self.error("", f"--random {n_cards}: the pack holds only {len(slots)} whole "
                       f"{set_noun(n)}s ({len(slots) * n} cards)")
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

    def special_ids(self, preset: Optional[Preset],
                     variant: Optional[str]) -> tuple[Optional[list[str]], bool]:
        """The special cards (of --special, the preset or the variant), and whether the user
        named them (--special)."""
        comp = self.comp
        every = [i for i in self.cat.order if self.cat.kind_of[i] in comp.special_kinds]
        text, explicit, flag = self.choice.special, True, "--special"
        if text is None and preset is not None and preset.special is not None:
            text, explicit, flag = preset.special, False, f"preset {self.choice.preset}: special"
        if text is None and variant is not None and comp.variants[variant].special is not None:
            text, explicit, flag = comp.variants[variant].special, False, \
                f"variant {variant}: special"
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
                ids = self._expand_within(
                    flag, item, every, "not a special card", "choose deck cards with --cards",
                    "special cards are of kind " + ", ".join(comp.special_kinds))
                if ids is None:
                    ok = False
                else:
                    out.extend(ids)
        if not ok:
            return None, explicit
        for k in draws:
            pool = [x for x in every if x not in out]
            if k > len(pool):
                self.error("", f"{flag} random:{k}: only {len(pool)} special cards are left to "
                           "draw from")
                return None, explicit
            out.extend(self.rng("special").sample(pool, k))
        return list(dict.fromkeys(out)), explicit
