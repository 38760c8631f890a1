"""Compressed PDF streams kept between the saves of a resident process (`cardgen watch`,
`cardgen serve`).

Why: reportlab compresses every content stream (a page, a font subset, a form) again each
time a document is saved. After one card edit, cards.pdf, printshop.pdf and the contact sheet
are saved whole, yet nearly every page draws the same bytes as before: in the flagship's edit
loop, compressing them again took 85 of the 500 ms an edit cost. zlib gives the same output
for the same input, so a stream compressed once and looked up by a digest of its input is
what compressing it again would give: the files stay byte for byte a cold build's.

Only a resident process keeps them (keep() is called by pipeline.resident): a one-off build
saves each stream once and would only pay the digest.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

LIMIT = 64 * 1024 * 1024  # bytes of compressed streams kept (the least recently used go)

MEMORY: OrderedDict[bytes, bytes] | None = None  # digest of the input → its compression
_held = 0  # bytes in MEMORY
_installed = False  # reportlab's compression goes through compressed()


def keep() -> None:
    """From now on, this process keeps the streams it compresses (later calls keep what is
    held)."""
    global MEMORY, _installed
    if MEMORY is None:
        MEMORY = OrderedDict()
    if not _installed:
        from reportlab.pdfbase import pdfdoc
        # the filter object reportlab's documents compress with (pdfdoc.PDFZCompress, one for
        # the module); its encode is reportlab's zlib.compress with the defaults
        plain = pdfdoc.PDFZCompress.encode
        pdfdoc.PDFZCompress.encode = lambda text: compressed(text, plain)
        _installed = True


def compressed(text, plain) -> bytes:
    """`plain(text)`, from MEMORY when the same input was compressed before."""
    global _held
    if MEMORY is None:
        return plain(text)
    data = text.encode("utf8") if isinstance(text, str) else text  # as reportlab's encode
    key = hashlib.sha256(data).digest()
    done = MEMORY.get(key)
    if done is not None:
        MEMORY.move_to_end(key)
        return done
    done = plain(data)
    MEMORY[key] = done
    _held += len(done)
    while _held > LIMIT and MEMORY:
        _, old = MEMORY.popitem(last=False)
        _held -= len(old)
    return done


def forget() -> None:
    """Nothing kept from now on, as in a one-off build (a test's own memory)."""
    global MEMORY, _held
    MEMORY, _held = None, 0
