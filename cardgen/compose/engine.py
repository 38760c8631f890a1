"""The compose stage: the user's choice (preset, variant, options ...) → the deck, checked.

Why a stage of its own: what may be combined is game data (composition.yaml), and the same check
serves `cardgen check` and `cardgen build`. Problems in composition.yaml point at its lines
(declaration.py); problems of the choice point at the command line (here).
"""

from __future__ import annotations

import random as _random
from collections import Counter
from typing import Optional

from ..diagnostics import Report, display_path
from ..load.pack import CARD_SUFFIXES, LoadedCard, PackData, data_files
from ..model.compose import Draw, Preset
from ..load.errors import did_you_mean
from .card_players import check_card_players
from ..validate.catalogue import Catalogue, ItemError, and_list, compress, expand, split_items
from .deck import (Choice, Deck, _cards, _copies, _deal_rule, _merged, _noun, _nouns, _range,
                   _spans)
from .needs import checks_that_ran, need_problem, pile_problems
from .declaration import FILE_NAME, Declared, _Declaration, load_composition

MAX_SEED = 999_999


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
    files = data_files(data.folder / "cards", CARD_SUFFIXES)  # the files the loader read
    if any(display_path(path) not in loaded for path in files):
        return True
    ids = {lc.card.id for lc in data.cards}
    return any(i and i not in ids for i in getattr(data, "written_ids", ()))


def _in_kind_order(data: PackData) -> list[LoadedCard]:
    """The pack's cards, kind by kind as pack.yaml lists the kinds, each in file order."""
    rank = {k.id: i for i, k in enumerate(data.pack.kinds)}
    return sorted(data.cards, key=lambda lc: rank.get(lc.kind, len(rank)))


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
        self.streams: dict[str, _random.Random] = {}

    # diagnostics -----------------------------------------------------------------------------
    def error(self, subject: str, message: str) -> None:
        self.report.error(self.where, 0, 0, subject, message)

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
        check_card_players(deck, self.error, special_explicit or self.choice.cards is not None)
        self._check_variant(deck, special_explicit)
        self._check_options(deck)
        self._check_rules(deck)
        self._check_pile(deck)
        self._check_octets(deck)
        for name in checks_that_ran(deck, self.declared.raw is not None):
            self.report.ran_check(name)
        return deck

    # resolving the choice --------------------------------------------------------------------
    def _variant(self) -> tuple[Optional[str], bool]:
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
                    listing = "" if hint else \
                        f"; {self.data.pack.id} has {', '.join(known) or 'none'}"
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

    def _deck_ids(self, preset: Optional[Preset]) -> Optional[list[str]]:
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
                                  f"{_cards(count)} of {name} "
                                  f"({compress([c.card.id for c in cards], self.cat)}),"
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
                problem = need_problem(deck, need)
                if problem is None:
                    continue
                if need.severity == "note":
                    deck.notes.append(f"{slug}: {need.message}")
                else:
                    text = problem + (f" — {need.message}" if need.message else "")
                    self.report.add(self.where, 0, 0, need.severity, slug, text)

    def _check_rules(self, deck: Deck) -> None:
        """The pack's own rules (composition needs) and the chosen variant's; each refusal
        names its rule."""
        owners = [(("needs",), "", self.comp.needs)]
        if deck.variant is not None:
            owners.append((("variants", deck.variant, "needs"), deck.variant,
                           self.comp.variants[deck.variant].needs))
        for path, owner, needs in owners:
            for i, need in enumerate(needs):
                problem = need_problem(deck, need)
                if problem is None:
                    continue
                if need.severity == "note":
                    deck.notes.append(f"{need.rule or owner}: {need.message}".lstrip(": "))
                    continue
                text = problem + (f" — {need.message}" if need.message else "")
                self._refuse(path + (i,), need.rule or owner, need.severity, text)

    def _refuse(self, path: tuple, subject: str, severity: str, text: str) -> None:
        """A broken rule: at the command line when the user chose the deck, else at the rule's
        line in composition.yaml (the pack itself breaks it)."""
        if self.choice.given() or self.declared.raw is None:
            self.report.add(self.where, 0, 0, severity, subject, text)
        else:
            mark = self.declared.at(*path)
            self.report.add(self.declared.file, mark.line, mark.col, severity, subject, text)

    def _player_counts(self, deck: Deck) -> list[int]:
        """The player counts a deck is meant for: --players, else the variant's range within
        pack.yaml's play range, else the deal rules' ranges."""
        if deck.players is not None:
            return [deck.players]
        ranges = [r.players for r in self.comp.deal]
        if deck.variant is not None:
            ranges = [self.comp.variants[deck.variant].players]
        play = self.data.pack.play
        counts = {p for low, high in ranges for p in range(low, high + 1)}
        if play is not None:
            counts &= set(range(play.players[0], play.players[1] + 1))
        return sorted(counts)

    def _check_pile(self, deck: Deck) -> None:
        """The pile lasts the first round; --players has its number of rounds."""
        for index, text in pile_problems(deck, self._player_counts(deck)):
            self._refuse(("deal", index, "draw"), "", "error", text)
        rounds = self.comp.rounds
        if rounds is not None and deck.players is not None and rounds.of(deck.players) is None:
            have = and_list([_range(r) for r in _spans(sorted(r.players for r in
                                                               rounds.by_players))], "or")
            self.error("", f"--players {deck.players}: the rounds are declared for {have} "
                       "players")

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
