"""balance.yaml: loading it and checking every name it uses against the pack (errors at its lines).

Why here and not in validate/: the declaration is read only by the balance stage; the checks need
the pack and composition.yaml, which are both loaded by then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..diagnostics import Report, display_path
from ..model.packdata import PackData
from ..load.pack import read_model
from ..model.balance import Balance
from ..model.compose import Composition
from ..model.marks import Mark, MarkedDict, mark_at
from ..diagnostics import did_you_mean

FILE_NAME = "balance.yaml"


@dataclass
class BalanceDeclared:
    balance: Balance
    raw: Optional[MarkedDict]
    file: str

    def at(self, *path) -> Mark:
        return mark_at(self.raw, *path) if self.raw is not None else Mark(self.file, 0, 0)


def load_balance(data: PackData, composition: Composition,
                 report: Report) -> Optional[BalanceDeclared]:
    """The pack's balance.yaml, or the defaults (deck kinds duel) when it has none."""
    path = data.folder / FILE_NAME
    if not path.is_file():
        return BalanceDeclared(Balance(kinds=list(composition.deck_kinds)), None, "")
    balance, raw = read_model(path, Balance, report)
    if balance is None:
        return None
    if not balance.kinds:  # a copy: the loaded model stays as read (a resident process
        # keeps it for the next load while balance.yaml stays as it is, load.pack)
        balance = balance.model_copy(update={"kinds": list(composition.deck_kinds)})
    declared = BalanceDeclared(balance, raw, display_path(path))
    before = len(report.errors)
    _check(declared, data, composition, report)
    return declared if len(report.errors) == before else None


def _check(declared: BalanceDeclared, data: PackData, composition: Composition,
           report: Report) -> None:
    """Every kind, category value and variant named must exist in the pack."""
    balance = declared.balance

    def error(path: tuple, message: str) -> None:
        mark = declared.at(*path)
        report.error(declared.file, mark.line, mark.col, "", message)

    kinds = [k.id for k in data.pack.kinds]
    for key in ("kinds", "specials"):
        for i, kind in enumerate(getattr(balance, key)):
            if kind not in kinds:
                error((key, i), f"{key}: unknown kind '{kind}'{did_you_mean(kind, kinds)}; "
                      f"the pack has {', '.join(kinds)}")
    values = [v.key for c in data.pack.categories for v in c.values]
    for i, key in enumerate(balance.same_set_only):
        if key not in values:
            error(("same_set_only", i), f"same_set_only: unknown category value '{key}'"
                  f"{did_you_mean(key, values)}")
    variants = list(composition.variants)
    for name, variant in balance.variants.items():
        if variants and name not in variants:
            error(("variants", name), f"variants: '{name}' is not a variant of composition.yaml"
                  f"{did_you_mean(name, variants)}; it has {', '.join(variants)}")
        for i, kind in enumerate(variant.specials):
            if kind not in kinds:
                error(("variants", name, "specials", i), f"variants.{name}.specials: unknown "
                      f"kind '{kind}'{did_you_mean(kind, kinds)}")
        if variant.octets and composition.octets is None:
            error(("variants", name, "octets"), f"variants.{name}.octets: composition.yaml "
                  "declares no octets")
    for i, rule in enumerate(balance.suggest):
        for j, kind in enumerate(rule.kinds):
            if kind not in kinds:
                error(("suggest", i, "kinds", j), f"suggest: unknown kind '{kind}'"
                      f"{did_you_mean(kind, kinds)}")
        if rule.by == "rarity" and not any(v.play == "sets" for v in balance.variants.values()):
            error(("suggest", i, "by"), "suggest: 'rarity' needs a variant with play: sets")
