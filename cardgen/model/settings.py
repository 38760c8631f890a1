"""What the user asked a build for: paper, sheets, card size, outputs, the chosen deck.

Every stage reads it; the output keys (incremental.fingerprint) hash its repr.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class BuildSettings:
    paper: str | None = None
    duplex: str | None = None
    back_offset: tuple[float, float] | None = None
    card_size: tuple[float, float] | None = None
    bleed: float | None = None
    safe: float | None = None  # the safe zone in mm (text must stay this far inside the trim)
    only: tuple[str, ...] = ()
    png: bool = False
    dpi: int = 300
    png_bleed: bool = True
    booklet: bool = False
    sheet: str = "bleed"  # "bleed": every card keeps its bleed on the sheet; "dense": most cards
    backs: bool = True  # False (--no-backs): cards.pdf holds the fronts alone
    stock: float | None = None  # mm, one card's thickness (--stock): sizes the tuck boxes
    corner_radius: float | None = None  # mm, the cut files' corners (default: the pack's)
    margin: float | None = None  # the printer's unprintable edge in mm (default 5)
    ink_saver: bool = False  # backs and large fills as each layout's region declares
    colour: str = "rgb"      # "cmyk": printshop.pdf converted to PDF/X (Ghostscript, pikepdf)
    print_shop: str | None = None  # a PRINT_SHOPS name: page order and PNG resolution
    out: str | None = None   # the output folder (Tabletop Simulator files name their paths)
    choice: object = None  # compose.Choice when the user chose a deck; part of every output key
    # --changed-since: {card id: face hashes} of an earlier manifest. Not part of the output
    # keys (repr=False): comparing with an old build does not make today's outputs stale.
    changed_since: dict | None = field(default=None, repr=False, compare=False)
    # outputs made besides the default ones (watch adds the contact sheet); not in the keys,
    # so that watch and build share their outputs
    also: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # processes for preparing pictures (the CLI's --jobs for one pack); not in the keys
    jobs: int = field(default=1, repr=False, compare=False)
