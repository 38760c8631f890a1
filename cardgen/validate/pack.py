"""Checks of pack.yaml's own references: layouts, groups, categories, rules that name things."""

from __future__ import annotations

import re

from ..diagnostics import Report
from ..model.marks import mark_at
from ..model.packdata import PackData
from ..diagnostics import did_you_mean
from ..text.numbers import plain


def check_pack_refs(data: PackData, report: Report) -> None:
    pack, raw, file = data.pack, data.pack_raw, data.pack_file
    kind_ids = [k.id for k in pack.kinds]

    def at(*path):
        return mark_at(raw, *path)

    for index, kind in enumerate(pack.kinds):
        try:
            re.compile(kind.id_pattern)
        except re.error as exc:
            m = at("kinds", index, "id_pattern")
            report.error(file, m.line, m.col, kind.id, f"id_pattern: not a valid regular "
                         f"expression ({exc})")
        for side in ("front", "back"):
            name = getattr(kind, side)
            if name not in data.layout_names:
                m = at("kinds", index, side)
                report.error(file, m.line, m.col, kind.id, f"{side}: unknown layout '{name}'"
                             f"{did_you_mean(name, list(data.layouts))}")
    keys_per_kind: dict[str, dict[str, str]] = {k: {} for k in kind_ids}
    for index, category in enumerate(pack.categories):
        for kind in category.kinds:
            if kind not in kind_ids:
                m = at("categories", index, "kinds")
                report.error(file, m.line, m.col, category.key, f"kinds: unknown kind '{kind}'"
                             f"{did_you_mean(kind, kind_ids)}")
                continue
            for value in category.values:
                if value.key in keys_per_kind[kind]:
                    m = at("categories", index, "values")
                    report.error(file, m.line, m.col, category.key, f"values: '{value.key}' is "
                                 f"already a value of {keys_per_kind[kind][value.key]} for {kind}")
                keys_per_kind[kind][value.key] = category.key
        for v_index, value in enumerate(category.values):
            if value.min > value.max:
                m = at("categories", index, "values", v_index)
                report.error(file, m.line, m.col, category.key, f"{value.key}: min {plain(value.min)} "
                             f"is above max {plain(value.max)}")
    _check_level_bands(data, report)
    all_keys = {k for per in keys_per_kind.values() for k in per}
    for index, rule in enumerate(pack.stat_rules):
        for kind in rule.kinds:
            if kind not in kind_ids:
                m = at("stat_rules", index, "kinds")
                report.error(file, m.line, m.col, rule.rule, f"kinds: unknown kind '{kind}'"
                             f"{did_you_mean(kind, kind_ids)}")
        for attr in ("fields", "equals", "left", "right", "numerator", "denominator", "field"):
            names = getattr(rule, attr, None)
            if names is None or (rule.rule == "equals" and attr == "equals"):
                continue
            for name in names if isinstance(names, list) else [names]:
                if name not in all_keys:
                    m = at("stat_rules", index, attr)
                    report.error(file, m.line, m.col, rule.rule, f"{attr}: unknown stat "
                                 f"'{name}'{did_you_mean(name, sorted(all_keys))}")


def _check_level_bands(data: PackData, report: Report) -> None:
    """`levels:` maps a level stat's detail to its level, so each band must be a range of its
    own: a detail that fell in two bands (or a band that is empty) would let a card's level and
    its detail say different things."""
    pack, raw, file = data.pack, data.pack_raw, data.pack_file
    seen: dict[int, int] = {}
    for index, band in enumerate(pack.levels):
        m = mark_at(raw, "levels", index)
        subject = f"level {band.level}"
        if band.level in seen:
            report.error(file, m.line, m.col, subject, f"already has a band at line "
                         f"{mark_at(raw, 'levels', seen[band.level]).line}; keep one")
            continue
        seen[band.level] = index
        if band.min > band.max:
            report.error(file, m.line, m.col, subject, f"min {plain(band.min)} is above max "
                         f"{plain(band.max)}")
    bands = sorted(((b.min, b.max, b.level, i) for i, b in enumerate(pack.levels)
                    if seen.get(b.level) == i and b.min <= b.max))
    for (_, low_max, low_level, _), (high_min, _, high_level, index) in zip(bands, bands[1:]):
        if high_min <= low_max:
            m = mark_at(raw, "levels", index)
            report.error(file, m.line, m.col, f"level {high_level}", f"details {plain(high_min)}–"
                         f"{plain(low_max)} fall in the bands of level {low_level} and level "
                         f"{high_level}; let each band start after the one before ends")
