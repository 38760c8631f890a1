"""The checks of a composed deck against its composition: whole sets, the set structure,
teams, players and deal, the variant, options, the pack's rules, the pile and octets.

Why a module of its own: the same checks hold however the deck was chosen (resolve.py). A
problem of the user's deck is reported at the command line; a rule the whole pack breaks, at
its line in composition.yaml.
"""

from __future__ import annotations

from ..diagnostics import Report
from ..model.packdata import LoadedCard, PackData
from ..validate.catalogue import Catalogue, and_list, compress
from .card_players import check_card_players
from .counts import copies, deal_rule, merged_ranges, spans
from .declaration import Declared
from .deck import Choice, Deck
from .needs import need_problem, pile_problems
from .phrases import cards_text, range_text, set_noun, set_nouns


class DeckChecks:
    """Checks one composed deck; problems of the choice are reported at the command line."""

    def __init__(self, data: PackData, declared: Declared, catalogue: Catalogue, choice: Choice,
                 report: Report):
        self.data, self.declared, self.cat = data, declared, catalogue
        self.comp = declared.composition
        self.choice, self.report = choice, report
        self.where = f"command line ({data.pack.id})"

    def error(self, subject: str, message: str) -> None:
        """A problem of the user's choice, at the command line."""
        self.report.error(self.where, 0, 0, subject, message)

    def check(self, deck: Deck, special_explicit: bool) -> None:
        """Every check, in the order the report lists their problems; `special_explicit`: the
        user named the special cards (--special)."""
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
            count = copies(held)
            extra = count % n
            if not extra:
                continue
            noun = set_noun(n)
            if deck.whole_pack:
                first = cards[0]
                mark = first.mark("set")
                self.report.error(first.file, mark.line, mark.col, "",
                                  f"{noun} {name} cannot be completed: the pack holds "
                                  f"{cards_text(count)} of {name} "
                                  f"({compress([c.card.id for c in cards], self.cat)}),"
                                  f" not a multiple of {n}")
                continue
            missing = [lc.card.id for lc in cards if lc.card.id not in in_deck]
            short, full = n - extra, count // n
            held_ids = f" ({compress([c.card.id for c in held], self.cat)})" if count < n else ""
            text = f"{noun} {name} cannot be completed: the deck holds {cards_text(count)} of " \
                   f"{name}{held_ids}, "
            if len(missing) >= short:
                add = compress(missing, self.cat) if len(missing) == short else \
                    f"{short} of {compress(missing, self.cat)}"
                leave = f"{extra}" if full else ("it" if count == 1 else f"the {count}")
                text += f"{short} short of {set_nouns(full + 1, n)}; add {add} or leave {leave} out"
            else:
                text += (f"{extra} more than {set_nouns(full, n)}, and the pack has no further "
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
                self.error("", f"set {name} cannot be completed: the deck holds {copies(held)} "
                           f"of its {copies(cards)} cards; {compress(missing, self.cat)} "
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
                    self.error(slug, f"needs {range_text((low, high))} players per team; team {i} "
                               f"has {size}")
            total = sum(sizes)
            if deck.players is None:
                deck.players = total
            elif total != deck.players:
                self.error("", f"--teams {self.choice.teams} adds up to {total} players, but "
                           f"--players is {deck.players}")
        elif deck.players is not None:
            if not any(k * low <= deck.players <= k * high for k in range(2, deck.players + 1)):
                self.error(slug, f"needs at least 2 teams of {range_text((low, high))} players; "
                           f"{deck.players} players cannot be split so")

    def _check_players(self, deck: Deck) -> None:
        players, comp = deck.players, self.comp
        if players is None:
            return
        if deck.variant is not None:
            v = comp.variants[deck.variant]
            if not v.players[0] <= players <= v.players[1]:
                self.error(deck.variant, f"is for {range_text(v.players)} players; the game has "
                           f"{players}")
                return
        if comp.deal:
            rule = deal_rule(comp.deal, players)
            if rule is None:
                ranges = and_list([range_text(r) for r in merged_ranges(comp.deal)], "or")
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
                       f"{self.choice.special} adds {copies(deck.special_cards)}")

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
            have = and_list([range_text(r) for r in
                             spans(sorted(r.players for r in rounds.by_players))], "or")
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
