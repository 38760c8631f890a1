"""Card checks that need the whole pack: IDs, groups, declared fields, stats against categories.

Why here and not in pydantic: these rules come from the pack's own YAML (its kinds, categories and
stat rules), so they cannot be written into the model classes.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict

from ..diagnostics import Report
from ..load import source
from ..model.packdata import LoadedCard, PackData
from ..model.pack import (Distinct, Equals, LessEqual, OrderedByGroup, Ratio, SubValue,
                          SumEquals)
from ..diagnostics import did_you_mean
from ..text.numbers import plain


def check_cards(data: PackData, report: Report) -> None:
    """Every card-level rule of the pack; each failure one diagnostic at the card's YAML."""
    seen: dict[str, LoadedCard] = {}
    kinds = {k.id: k for k in data.pack.kinds}
    group_ids = [g.id for g in data.pack.groups]
    for lc in data.cards:
        card = lc.card
        if card.id in seen:
            first, at = seen[card.id], lc.mark("id")
            report.error(lc.file, at.line, at.col, card.id, f"id: duplicate card ID (also at "
                         f"{first.file}:{first.mark('id').line})")
        else:
            seen[card.id] = lc
        report.items.extend(_card_problems(data, lc, kinds[lc.kind], group_ids))
    _check_rules(data, report)


# a card → what its own checks found (_card_problems), in a resident process: it keeps the
# models and parses of the cards an edit left as they were (load.pack), whose checks then need
# not run again at every edit (incremental.memo). A one-off build keeps nothing.
_CARD_PROBLEMS: dict = {}


def _card_problems(data: PackData, lc: LoadedCard, kind, group_ids: list[str]) -> list:
    """The diagnostics of one card's own checks (its ID, groups, fields, texts and stats),
    made of the card, its parse and the pack's declarations (pack.yaml)."""
    def found():
        said = Report()
        _check_card(data, lc, kind, group_ids, said)
        return said.items
    return source.kept(_CARD_PROBLEMS, (lc.card, lc.raw, data.pack),
                       (str(lc.file), lc.kind, tuple(sorted(lc.broken))), found)


def _check_card(data: PackData, lc: LoadedCard, kind, group_ids: list[str],
                report: Report) -> None:
    card, at = lc.card, lc.mark("id")
    if not _full_match(kind.id_pattern, card.id):
        report.error(lc.file, at.line, at.col, card.id, f"id: '{card.id}' does not match the "
                     f"{kind.label} pattern {kind.id_pattern}")
    for key in ("group",):
        value = getattr(card, key)
        if value is not None and value not in group_ids:
            _unknown(report, lc, (key,), f"{key}: unknown group '{value}'", value, group_ids)
    for index, value in enumerate(card.groups):
        if value not in group_ids:
            _unknown(report, lc, ("groups",), f"groups: unknown group '{value}'", value,
                     group_ids)
    for name, value in card.extra_fields.items():
        if name not in kind.fields:
            m = lc.raw.key_marks.get(name, lc.raw.mark)
            allowed = sorted(set(type(card).model_fields) | set(kind.fields))
            report.error(lc.file, m.line, m.col, card.id, f"unknown key '{name}'"
                         f"{did_you_mean(name, allowed)}")
        elif not isinstance(value, str):
            m = lc.mark(name)
            report.error(lc.file, m.line, m.col, card.id, f"{name}: must be text")
    for name, spec in kind.fields.items():
        if spec.required and not card.extra_fields.get(name):
            m = lc.raw.mark
            report.error(lc.file, m.line, m.col, card.id, f"{name}: required for every "
                         f"{kind.label}, missing")
    for name in kind.texts:
        if not card.texts.get(name) and not {"texts", f"texts.{name}"} & lc.broken:
            m = lc.mark("texts")
            report.error(lc.file, m.line, m.col, card.id, f"texts.{name}: required for every "
                         f"{kind.label}, missing")
    _check_stats(data, lc, report)
    _long_texts(lc, report)


def _long_texts(lc: LoadedCard, report: Report) -> None:
    """A text longer than a region may ever show (text.templates.MAX_TEXT characters) is the
    card's mistake: said at its field, not as a template failure at the layout."""
    from ..text.templates import MAX_TEXT
    texts = {"texts": lc.card.texts, **{k: v for k, v in lc.card.model_dump(
        include={"name", "title", "set", "quote"}).items()}, **lc.card.extra_fields}
    for key, value in texts.items():
        inner = value.items() if isinstance(value, dict) else [(None, value)]
        for sub, text in inner:
            if isinstance(text, str) and len(text) > MAX_TEXT:
                m = lc.mark(key, sub) if sub else lc.mark(key)
                name = f"{key}.{sub}" if sub else key
                report.error(lc.file, m.line, m.col, lc.card.id, f"{name}: {len(text)} "
                             f"characters; a card text may have at most {MAX_TEXT}")


def _unknown(report, lc, keys, message, value, choices):
    m = lc.mark(*keys)
    report.error(lc.file, m.line, m.col, lc.card.id, message + did_you_mean(str(value), choices))


def _full_match(pattern: str, text: str) -> bool:
    try:
        return re.fullmatch(pattern, text) is not None
    except re.error:
        return True  # reported once by check_pack_refs


def sub_values(data: PackData, kind_id: str) -> dict[str, SubValue]:
    """Every stat key a card of this kind carries, with its declaration."""
    out: dict[str, SubValue] = {}
    for category in data.pack.categories:
        if kind_id in category.kinds:
            for value in category.values:
                out[value.key] = value
    return out


def _check_stats(data: PackData, lc: LoadedCard, report: Report) -> None:
    declared = sub_values(data, lc.kind)
    card = lc.card
    for key, value in card.stats.items():
        if key not in declared:
            m = lc.raw["stats"].key_marks[key] if "stats" in lc.raw else lc.raw.mark
            report.error(lc.file, m.line, m.col, card.id, f"stats.{key}: not a category of "
                         f"this kind{did_you_mean(key, list(declared))}")
    if not declared:
        return
    for key, spec in declared.items():
        if key not in card.stats and not {"stats", f"stats.{key}"} & lc.broken:
            # an empty spreadsheet cell knows its place
            m = getattr(lc.raw.get("stats"), "key_marks", {}).get(key) or lc.mark("stats")
            report.error(lc.file, m.line, m.col, card.id, f"stats.{key}: missing ({spec.label})")
            continue
        if key not in card.stats:  # its value had the wrong type: reported by the loader
            continue
        if spec.min > spec.max:
            continue  # the category itself is wrong; reported once at pack.yaml
        problem = _value_problem(data, spec, card.stats[key])
        if problem:
            m = lc.mark("stats", key)
            report.error(lc.file, m.line, m.col, card.id, f"{key}: {problem}")


def _value_problem(data: PackData, spec: SubValue, value) -> str:
    if spec.type == "level":
        if not (isinstance(value, list) and len(value) == 2):
            return f"{value!r} must be [level, detail], e.g. [2, 63]"
        level, detail = value
        if not 0 <= level <= 3 and not any(b.level == level for b in data.pack.levels):
            return f"level {level} is outside {plain(spec.min)}–{plain(spec.max)}"
        if not spec.min <= level <= spec.max:
            return f"level {level} is outside {plain(spec.min)}–{plain(spec.max)}"
        band = next((b for b in data.pack.levels if b.level == level), None)
        if band and band.min <= band.max and not band.min <= detail <= band.max:
            # (a band with min above max is reported once, at pack.yaml)
            return (f"detail {detail} is outside the band of level {level} "
                    f"({band.min}–{band.max})")
        return ""
    if isinstance(value, list) or isinstance(value, bool):
        return f"{value!r} must be a single number"
    if spec.type in ("integer", "money", "rank") and not float(value).is_integer():
        return f"{value} must be a whole number"
    if spec.decimals and round(value, spec.decimals) != value:
        return f"{value} has more than {spec.decimals} decimal places"
    if value < spec.min:
        return f"{plain(value)} is below the minimum {plain(spec.min)}"
    if value > spec.max:
        return f"{plain(value)} is above the maximum {plain(spec.max)}"
    return ""


def number(lc: LoadedCard, key: str):
    """A stat as one number (a level's level), or None when absent or not a number."""
    value = lc.card.stats.get(key)
    if isinstance(value, list):
        return value[0] if value else None
    return value


def _applies(rule, data: PackData, lc: LoadedCard, keys: list[str]) -> bool:
    if rule.kinds and lc.kind not in rule.kinds:
        return False
    declared = sub_values(data, lc.kind)
    return all(k in declared and number(lc, k) is not None for k in keys)


def _check_rules(data: PackData, report: Report) -> None:
    for index, rule in enumerate(data.pack.stat_rules):
        handler = _RULES[type(rule)]
        handler(rule, data, report)


def _say(report: Report, rule, lc: LoadedCard, key: str, text: str) -> None:
    m = lc.mark("stats", key)
    why = f" — {rule.message}" if rule.message else ""
    report.add(lc.file, m.line, m.col, rule.severity, lc.card.id, f"{key}: {text}{why}")


def _sum_equals(rule: SumEquals, data, report):
    for lc in data.cards:
        if _applies(rule, data, lc, rule.fields + [rule.equals]):
            total = sum(number(lc, k) for k in rule.fields)
            target = number(lc, rule.equals)
            if abs(total - target) > rule.tolerance:
                _say(report, rule, lc, rule.fields[0],
                     f"{' + '.join(rule.fields)} = {plain(total)}, but {rule.equals} is {plain(target)} "
                     f"(allowed difference {plain(rule.tolerance)})")


def _less_equal(rule: LessEqual, data, report):
    for lc in data.cards:
        if _applies(rule, data, lc, [rule.left, rule.right]):
            left, right = number(lc, rule.left), number(lc, rule.right) + rule.offset
            if left > right:
                bound = rule.right + (f" {rule.offset:+g}" if rule.offset else "")
                _say(report, rule, lc, rule.left,
                     f"{plain(left)} is more than {bound} = {plain(right)}")


def _ratio(rule: Ratio, data, report):
    for lc in data.cards:
        if _applies(rule, data, lc, [rule.numerator, rule.denominator]):
            num, den = number(lc, rule.numerator), number(lc, rule.denominator)
            ratio = num / den if den else float("inf")
            low, high = rule.value * (1 - rule.tolerance), rule.value * (1 + rule.tolerance)
            if not low <= ratio <= high:
                _say(report, rule, lc, rule.denominator,
                     f"{rule.numerator} / {rule.denominator} = {ratio:.0f}, expected "
                     f"{plain(rule.value)} ± {rule.tolerance:.0%} ({low:.0f}–{high:.0f})")


def _ordered(rule: OrderedByGroup, data, report):
    groups: dict[str, list[LoadedCard]] = defaultdict(list)
    for lc in data.cards:
        if _applies(rule, data, lc, [rule.field]):
            key = lc.card.set if rule.group_by == "set" else (lc.card.group or "")
            if key in rule.order:
                groups[key].append(lc)
    stat = statistics.median if rule.statistic == "median" else statistics.mean
    centres = {g: stat([number(lc, rule.field) for lc in cards]) for g, cards in groups.items()}
    present = [g for g in rule.order if g in centres]
    sign = 1 if rule.direction == "descending" else -1
    for upper, lower in zip(present, present[1:]):
        if sign * (centres[upper] - centres[lower]) <= 0:
            lc = groups[lower][0]
            _say(report, rule, lc, rule.field, f"the {rule.statistic} of {rule.group_by} {lower} "
                 f"({plain(centres[lower])}) should be {'below' if sign > 0 else 'above'} that of "
                 f"{upper} ({plain(centres[upper])})")
        for lc in groups[lower]:
            value = number(lc, rule.field)
            limit = centres[upper] * (1 + sign * rule.margin)
            if sign * (value - limit) > 0:
                _say(report, rule, lc, rule.field, f"{plain(value)} breaks the order of "
                     f"{rule.group_by}s: more than {rule.margin:.0%} "
                     f"{'above' if sign > 0 else 'below'} the {rule.statistic} of {upper} "
                     f"({plain(centres[upper])})")


def _equals(rule: Equals, data, report):
    for lc in data.cards:
        if _applies(rule, data, lc, [rule.field]) and number(lc, rule.field) != rule.value:
            _say(report, rule, lc, rule.field, f"{plain(number(lc, rule.field))} must be "
                 f"{plain(rule.value)}")


def _distinct(rule: Distinct, data, report):
    seen: dict[object, LoadedCard] = {}
    for lc in data.cards:
        if rule.kinds and lc.kind not in rule.kinds:
            continue
        if rule.what == "stats":
            if not lc.card.stats:
                continue
            key = tuple(sorted((k, str(v)) for k, v in lc.card.stats.items()))
            where = ("stats",)
        else:
            if not lc.card.name:
                continue
            key, where = lc.card.name, ("name",)
        if key in seen:
            m = lc.mark(*where)
            why = f" — {rule.message}" if rule.message else ""
            report.add(lc.file, m.line, m.col, rule.severity, lc.card.id,
                       f"{where[0]}: same {rule.what} as {seen[key].card.id}{why}")
        else:
            seen[key] = lc


_RULES = {SumEquals: _sum_equals, LessEqual: _less_equal, Ratio: _ratio,
          OrderedByGroup: _ordered, Equals: _equals, Distinct: _distinct}
