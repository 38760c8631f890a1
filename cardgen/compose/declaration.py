"""composition.yaml: loading it, and checking it against the pack (errors at its lines).

Every name it uses must exist (kinds, cards, sets, groups, variants, options), numbers must agree
(ranges, draws, the declared set structure), and the rulebook's option blocks must name declared
options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..diagnostics import Report, display_path
from ..model.packdata import LoadedCard, PackData
from ..load.pack import data_files, read_model
from ..model.compose import Composition, Draw, NeedKind, NeedSet, NeedSpecialCards
from ..model.marks import Mark, MarkedDict, mark_at
from ..load.source import YamlError, load_yaml
from ..diagnostics import did_you_mean
from ..validate.catalogue import Catalogue, ItemError, and_list, compress, expand, split_items
from .counts import copies, deal_rule
from .phrases import range_text, set_noun, structure_text

FILE_NAME = "composition.yaml"


@dataclass
class Declared:
    composition: Composition
    raw: Optional[MarkedDict]
    file: str

    def at(self, *path) -> Mark:
        """Position of a value in composition.yaml (the nearest one that exists)."""
        return mark_at(self.raw, *path)


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


def check_declaration(data: PackData, declared: Declared, catalogue: Catalogue,
                      report: Report) -> None:
    """Every problem of composition.yaml against the pack, at its lines in `report`."""
    _Declaration(data, declared, catalogue, report).check()


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
        self._rounds()
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
                                      f"set: missing; composition.yaml forms "
                                      f"{set_noun(comp.sets_of)}s "
                                      f"of {comp.sets_of} cards with the same set")

    def _variants(self) -> None:
        comp = self.comp
        names = list(comp.variants)
        play = self.data.pack.play
        for slug, variant in comp.variants.items():
            if variant.players[0] > variant.players[1]:
                self.error(("variants", slug, "players"), slug, "players: the first number is "
                           "the minimum, the second the maximum")
            elif play is not None and not (play.players[0] <= variant.players[0] and
                                           variant.players[1] <= play.players[1]):
                self.error(("variants", slug, "players"), slug, f"players: "
                           f"{range_text(variant.players)} is outside the "
                           f"{range_text(play.players)} players of pack.yaml's play")
            if variant.special is not None:
                for problem in _special_problems(variant.special, self.cat, comp.special_kinds):
                    self.error(("variants", slug, "special"), slug, f"special: {problem}")
            self._needs(("variants", slug, "needs"), slug, variant.needs)
        for slug, preset in comp.presets.items():
            if preset.variant is not None and preset.variant not in names:
                self.error(("presets", slug, "variant"), slug, f"variant: unknown variant "
                           f"'{preset.variant}'{did_you_mean(preset.variant, names)}")
        self._needs(("needs",), "", comp.needs)
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
            self._needs(("options", slug, "needs"), slug, option.needs)

    def _needs(self, path: tuple, subject: str, needs: list) -> None:
        """Every card, set, kind and number a list of needs names exists and makes sense."""
        sets = {lc.card.set for lc in self.data.cards if lc.card.set}
        for n, need in enumerate(needs):
            slug, where = need.rule or subject, path + (n,)
            self._need_items(where, slug, need)
            self._need_names(where, slug, need, sets)
            for key in ("when_players", "players"):
                pair = getattr(need, key, None)
                if pair is not None and pair[0] > pair[1]:
                    self.error(where + (key,), slug, f"{key}: the first number is the minimum, "
                               "the second the maximum")
            if need.severity == "note" and not need.message:
                self.error(where, slug, "a need with severity note shows its message; "
                           "write one")

    def _need_items(self, path: tuple, slug: str, need) -> None:
        """The card items of a need (cards, without, of) each name a card."""
        key = next((k for k in ("cards", "without", "of") if hasattr(need, k)), None)
        for j, item in enumerate(getattr(need, key) if key else []):
            try:
                expand(item, self.cat)
            except ItemError as exc:
                self.error(path + (key, j), slug, f"{key}: {exc}")

    def _need_names(self, path: tuple, slug: str, need, sets: set[str]) -> None:
        """The set, kind or special cards a need speaks of exist."""
        if isinstance(need, NeedSet):
            for name in [need.set] if isinstance(need.set, str) else need.set:
                if name not in sets:
                    self.error(path + ("set",), slug, f"set: no card has the set "
                               f"'{name}'{did_you_mean(name, sorted(sets))}")
        elif isinstance(need, NeedKind) and need.kind not in self.kind_ids:
            self.error(path + ("kind",), slug, f"kind: unknown kind '{need.kind}'"
                       f"{did_you_mean(need.kind, self.kind_ids)}")
        elif isinstance(need, NeedSpecialCards) and not self.comp.special_kinds:
            self.error(path, slug, "special_cards: the composition declares no special_kinds")

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

    def _rounds(self) -> None:
        """Rounds are declared for every player count the pack allows; with `each_starts`
        every player is start player equally often."""
        rounds, play = self.comp.rounds, self.data.pack.play
        if rounds is None:
            return
        if play is not None:
            missing = [p for p in range(play.players[0], play.players[1] + 1)
                       if rounds.of(p) is None]
            if missing:
                self.error(("rounds", "by_players"), "", f"rounds: no number of rounds for "
                           f"{and_list([str(p) for p in missing])} players; pack.yaml's play "
                           f"allows {range_text(play.players)}")
        for i, entry in enumerate(rounds.by_players):
            if rounds.each_starts and entry.rounds % entry.players:
                self.error(("rounds", "by_players", i, "rounds"), "", f"rounds: {entry.rounds} "
                           f"rounds with {entry.players} players; for every player to start "
                           f"equally often they must be a multiple of {entry.players}")

    def _deal(self) -> None:
        rules = self.comp.deal
        play = self.data.pack.play
        if rules and play is not None:
            missing = [p for p in range(play.players[0], play.players[1] + 1)
                       if deal_rule(rules, p) is None]
            if missing:
                self.error(("deal",), "", f"deal: no rule for "
                           f"{and_list([str(p) for p in missing])} players; pack.yaml's play "
                           f"allows {range_text(play.players)}")
        for i, rule in enumerate(rules):
            if rule.players[0] > rule.players[1]:
                self.error(("deal", i, "players"), "", "players: the first number is the "
                           "minimum, the second the maximum")
            for j, other in enumerate(rules[:i]):
                if rule.players[0] <= other.players[1] and other.players[0] <= rule.players[1]:
                    self.error(("deal", i, "players"), "", f"deal: players "
                               f"{range_text(rule.players)} overlap rule {j + 1} "
                               f"({range_text(other.players)})")

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
            size = copies(cards)
            label = f"set '{name}'" if name else "cards without a set"
            part = _part_of(comp, cards, size)
            if isinstance(part, str):  # a problem
                first = cards[0]
                mark = first.mark("set")
                self.report.error(first.file, mark.line, mark.col, first.card.id,
                                  f"{label} {part}")
                continue
            problem = _counts_problem(comp.structure[part], cards)
            if problem:
                first = cards[0]
                mark = first.mark("set")
                self.report.error(first.file, mark.line, mark.col, first.card.id,
                                  f"{label} {problem}")
            found[part].append(name)
        for i, spec in enumerate(comp.structure):
            names = found[i]
            if len(names) != spec.sets:
                what = f"{spec.label} sets" if spec.label else f"sets of {spec.size} cards"
                listed = f" ({', '.join(names)})" if names else ""
                self.error(("structure", i), "", f"structure: {spec.sets} {what} expected, the "
                           f"pack has {len(names)}{listed}")
        total = sum(p.sets * p.size for p in comp.structure)
        have = sum(copies(c) for c in members.values())
        if total != have:
            self.error(("structure",), "", f"structure: {structure_text(comp)}, the pack "
                       f"has {have} deck cards")

    def _rulebook(self) -> None:
        """Option blocks of the rulebook and the declared options name the same options."""
        comp = self.comp
        if not comp.options:
            return
        described: dict[str, tuple[str, Mark]] = {}
        for path in data_files(self.data.folder / "rules", (".yaml",)):
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
        for slug, option in comp.options.items():
            # an option of the digital version only is not played with printed cards: the
            # printed rulebook leaves it out (the checker refuses it)
            if slug not in described and not option.digital_only:
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
        matching = [i for i in by_where
                    if all(_field(cards[0], k) == v for k, v in comp.structure[i].where.items())]
        if matching:
            part = comp.structure[matching[0]]
            if part.size != size:
                what = part.label or ", ".join(f"{k}: {v}" for k, v in part.where.items())
                return f"has {size} cards, but {what} sets have {part.size}"
            return matching[0]
        if len(by_where) == len(comp.structure):
            return "matches no part of the structure (" + "; ".join(
                ", ".join(f"{k}: {v}" for k, v in p.where.items()) for p in comp.structure
                if p.where) + ")"
    plain = [i for i, p in enumerate(comp.structure) if not p.where]
    matching = [i for i in plain if comp.structure[i].size == size]
    if not matching:
        sizes = and_list([str(comp.structure[i].size) for i in plain], "or")
        return f"has {size} cards, but sets have {sizes}"
    return matching[0]


def _counts_problem(part, cards: list[LoadedCard]) -> Optional[str]:
    """What a set holds against the part's `counts` ({field: group, values: {herr: 2, ...}}),
    or None when it holds exactly that."""
    spec = part.counts
    if spec is None:
        return None
    held: dict[str, int] = {}
    for lc in cards:
        value = str(_field(lc, spec.field) or "")
        held[value] = held.get(value, 0) + lc.card.count
    if held == {k: v for k, v in spec.values.items() if v}:
        return None
    have = and_list([f"{n} {v or '(none)'}" for v, n in held.items()])
    want = and_list([f"{n} {v}" for v, n in spec.values.items()])
    what = f"each {part.label} set" if part.label else "each of these sets"
    return f"holds {have} by {spec.field}; {what} holds {want}"


def _field(lc: LoadedCard, key: str):
    """A card's value of a field, as structure rules compare it (groups: 'zorg+leiding')."""
    if key in ("set", "group", "name", "title"):
        return getattr(lc.card, key)
    if key == "groups":
        return "+".join(lc.card.groups)
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
            what = "is not a special card" if len(wrong) == 1 else "are not special cards"
            problems.append(f"{compress(wrong, cat)} {what}")
    return problems
