"""Every output a build can make, in one registry: its name (what `--only` takes), the files it
writes, what in the pack it is drawn from, and whether it needs the laid-out card faces.

The CLI's choices, the up-to-date keys (incremental.fingerprint) and the default set of a
build (incremental.plan) read it; pipeline.draw holds how each is drawn. Light on purpose (no
imports): `cardgen --help` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

# what the card faces are made of, relative to the pack folder; fonts and templates always
# count, and every output counts balance.yaml: a build checks it as `cardgen check` does
_CARD_INPUTS = ("pack.yaml", "cards", "layouts.yaml", "layouts", "images", "composition.yaml",
                "balance.yaml", "editions")


@dataclass(frozen=True)
class Output:
    name: str
    files: str  # what it writes, as the manual names it
    inputs: tuple[str, ...]  # the pack's files and folders it is drawn from
    faces: bool = False  # drawn from the laid-out card faces
    default: bool = False  # made by a plain `cardgen build`
    named: bool = True  # `--only` takes it (changed.pdf comes with --changed-since)


OUTPUTS: dict[str, Output] = {o.name: o for o in (
    Output("cards", "cards.pdf, guide.pdf (deck.pdf for a chosen deck)", _CARD_INPUTS,
           faces=True, default=True),
    Output("printshop", "printshop.pdf (MeinSpiel: printshop-fronts.pdf, printshop-backs.pdf)",
           _CARD_INPUTS, faces=True, default=True),
    Output("boards", "boards.pdf", ("pack.yaml", "cards", "boards.yaml", "images",
                                    "balance.yaml", "editions"), default=True),
    # the rulebook's figures show real cards and boards
    Output("rulebook", "rulebook.pdf (house-rules.pdf for a chosen deck)",
           _CARD_INPUTS + ("rules", "boards.yaml"), default=True),
    Output("png", "png/<ID>.png", _CARD_INPUTS, faces=True),
    Output("calibration", "calibration.pdf", ("pack.yaml", "balance.yaml")),
    Output("contact", "contact.pdf, contact-N.png", _CARD_INPUTS),
    Output("tts", "tts/ (Tabletop Simulator)", _CARD_INPUTS, faces=True),
    Output("tuckbox", "tuckbox.pdf (a tuck box for each deck)", _CARD_INPUTS, faces=True),
    Output("cut", "cut.pdf, cut/sheet-N.svg, cut/sheet-N.dxf (print then cut)", _CARD_INPUTS,
           faces=True),
    Output("changed", "changed.pdf", _CARD_INPUTS, faces=True, named=False),
)}

# what `--only` takes, in the order `--help` lists them
ONLY_KINDS = tuple(name for name, output in OUTPUTS.items() if output.named)
DEFAULT_KINDS = tuple(name for name, output in OUTPUTS.items() if output.default)
FACED_KINDS = frozenset(name for name, output in OUTPUTS.items() if output.faces)
