"""CMYK print files: printshop.pdf converted by Ghostscript to PDF/X (X-3:2002, or X-1a:2003 where
a shop asks for it) with an ICC output intent; render.cmyk_finish makes black 100 % K, holds
the total ink to the shop's limit and keeps the text layer.

Why an external tool: reportlab draws in RGB and no Python package shipped with cardgen
converts colours through an ICC profile. Ghostscript (Debian/Ubuntu: `apt-get install
ghostscript`, macOS: `brew install ghostscript`) does, and writes PDF/X-3: every colour in
DeviceCMYK, the profile embedded as the document's output intent, TrimBox and BleedBox kept.
The profile is Ghostscript's own CMYK profile unless $CARDGEN_CMYK_PROFILE names another
(a shop's FOGRA39 or SWOP file).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

# Where the Debian and Homebrew packages put Ghostscript's default CMYK profile.
PROFILE_PLACES = ("/usr/share/color/icc/ghostscript/default_cmyk.icc",
                  "/opt/homebrew/share/ghostscript/iccprofiles/default_cmyk.icc",
                  "/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc")
INSTALL = ("needs Ghostscript: install it with `apt-get install ghostscript` (Debian, "
           "Ubuntu) or `brew install ghostscript` (macOS), or build with --colour rgb")
EPOCH = "946684800"  # 2000-01-01: a fixed date in the file, so a build gives the same bytes


class CmykUnavailable(Exception):
    """Ghostscript or a CMYK profile is missing: the message says what to install."""


def profile() -> Path:
    """The CMYK output profile: $CARDGEN_CMYK_PROFILE, else Ghostscript's default."""
    named = os.environ.get("CARDGEN_CMYK_PROFILE")
    places = [named] if named else list(PROFILE_PLACES)
    for place in places:
        if place and Path(place).is_file():
            return Path(place)
    if named:
        raise CmykUnavailable(f"--colour cmyk: the profile {named} ($CARDGEN_CMYK_PROFILE) "
                              f"does not exist")
    raise CmykUnavailable(f"--colour cmyk {INSTALL} (no CMYK profile found)")


def _definition(icc: Path, title: str, version: str = "PDF/X-3:2002") -> str:
    """Ghostscript's PDFX_def.ps, filled in: the PDF/X version, title and the output intent.
    Ghostscript's pdfwrite writes PDF 1.3 with every colour in DeviceCMYK or DeviceGray, no
    transparency (flattened), fonts embedded, TrimBox and BleedBox: what PDF/X-1a:2003 asks
    as well, so the version is the shop's."""
    def ps(text: str) -> str:
        return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"
    return f"""%!
[ /GTS_PDFXVersion {ps(version)} /Title {ps(title)} /Trapped /False /DOCINFO pdfmark
[/_objdef {{icc_PDFX}} /type /stream /OBJ pdfmark
[{{icc_PDFX}} << /N 4 >> /PUT pdfmark
[{{icc_PDFX}} {ps(str(icc))} (r) file /PUT pdfmark
[/_objdef {{OutputIntent_PDFX}} /type /dict /OBJ pdfmark
[{{OutputIntent_PDFX}} << /Type /OutputIntent /S /GTS_PDFX
  /OutputCondition {ps(icc.stem)} /OutputConditionIdentifier (Custom) /Info {ps(icc.name)}
  /RegistryName (http://www.color.org) /DestOutputProfile {{icc_PDFX}} >> /PUT pdfmark
[{{Catalog}} << /OutputIntents [ {{OutputIntent_PDFX}} ] >> /PUT pdfmark
"""


def to_print_cmyk(rgb_pdf: bytes, title: str, version: str = "PDF/X-3:2002",
                  ink: float = 0):
    """The print-shop file in CMYK as the shop asks: neutrals black ink only, PDF/X
    `version`, total ink at most `ink` % (0: measured only), the text layer kept. Returns a
    cmyk_finish.Inked (the file and its measured highest total ink). Raises CmykUnavailable
    without Ghostscript."""
    from .cmyk_finish import finish, neutrals_to_grey
    converted = to_pdfx(neutrals_to_grey(rgb_pdf), title, version)
    return finish(converted, rgb_pdf, ink)


def to_pdfx(rgb_pdf: bytes, title: str, version: str = "PDF/X-3:2002") -> bytes:
    """The same pages as PDF/X in CMYK. Raises CmykUnavailable without Ghostscript."""
    gs = shutil.which("gs")
    if gs is None:
        raise CmykUnavailable(f"--colour cmyk {INSTALL} (no `gs` on the PATH)")
    icc = profile()
    with tempfile.TemporaryDirectory(prefix="cardgen-cmyk-") as tmp:
        folder = Path(tmp)
        (folder / "in.pdf").write_bytes(rgb_pdf)
        (folder / "pdfx.ps").write_text(_definition(icc, title, version), encoding="utf-8")
        command = [gs, "-q", "-dBATCH", "-dNOPAUSE", "-dPDFX", "-sDEVICE=pdfwrite",
                   "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
                   "-dOverrideICC", f"-sOutputICCProfile={icc}", f"--permit-file-read={icc}",
                   "-sOutputFile=out.pdf", "pdfx.ps", "in.pdf"]
        env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
        # file names relative to the temporary folder: Ghostscript's file /ID hashes them, and
        # the folder's random name made the ID (its bytes, hex or literal) differ run to run
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False,
                              cwd=folder)
        if done.returncode != 0 or not (folder / "out.pdf").is_file():
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
            raise CmykUnavailable(f"--colour cmyk: Ghostscript failed ({tail[0]})")
        return _fixed_id((folder / "out.pdf").read_bytes())


# the trailer's file ID: two strings, hex <...> or literal (...) (Ghostscript writes either)
_STRING = rb"(<[0-9A-Fa-f]*>|\((?:[^\\()]|\\.)*\))"
_ID = re.compile(rb"/ID\s*\[\s*" + _STRING + rb"\s*" + _STRING + rb"\s*\]", re.DOTALL)


def _fixed_id(pdf: bytes) -> bytes:
    """Ghostscript's file /ID could change from run to run; the same pages should give the same
    bytes, so each ID string becomes a hash of the file itself, written in the same number of
    bytes as the string it replaces (no offset of the file moves)."""
    found = list(_ID.finditer(pdf))
    if not found:
        return pdf
    last = found[-1]
    blank = pdf[:last.start()] + pdf[last.end():]
    digest = hashlib.sha256(blank).hexdigest().upper().encode() * 4
    out = pdf[:last.start(1)]
    for group in (1, 2):
        old = last.group(group)
        opener, closer = old[:1], old[-1:]
        out += opener + digest[:len(old) - 2] + closer
        out += pdf[last.end(1):last.start(2)] if group == 1 else b""
    return out + pdf[last.end(2):]
