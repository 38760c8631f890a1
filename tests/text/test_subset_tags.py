"""Every embedded font subset has a name of its own: two different subsets never share a name,
within a file or across the files of a build (tools that merge PDFs take one name for one
font program), and the same subset keeps its name from build to build."""

from __future__ import annotations

import hashlib
import re

import pikepdf
import pytest

PACKS = ("quartett", "crazy-hospital")


def _subsets(path) -> dict[str, set[str]]:
    """BaseFont name → hashes of the font programs embedded under it."""
    out: dict[str, set[str]] = {}
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                program = obj.get("/FontFile2") or obj.get("/FontFile3") or obj.get("/FontFile")
                if program is None:
                    continue
                digest = hashlib.sha256(program.read_bytes()).hexdigest()
                out.setdefault(str(obj.FontName), set()).add(digest)
    return out


@pytest.mark.parametrize("pack", PACKS)
def test_no_two_different_subsets_share_a_name(shipped_out, pack):
    folder = shipped_out(pack)
    seen: dict[str, set[str]] = {}
    files = sorted(folder.glob("*.pdf"))
    assert len(files) >= 5  # cards, guide, printshop, rulebook, calibration (and boards)
    for path in files:
        for name, programs in _subsets(path).items():
            seen.setdefault(name, set()).update(programs)
    assert all(re.fullmatch(r"/[A-Z]{6}\+[A-Za-z-]+", name) for name in seen), sorted(seen)
    shared = {name: len(programs) for name, programs in seen.items() if len(programs) > 1}
    assert not shared, f"one name, several different subsets: {shared}"
    tags = {name[1:7] for name in seen}
    assert len(tags) > len(files)  # not one tag for every font of every file
