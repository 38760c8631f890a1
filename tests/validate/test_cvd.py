"""cardgen's own colour-vision simulation and CAM02-UCS distance (cardgen/validate/cvd.py) give
colorspacious's numbers, and the group check that uses them no longer imports numpy."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import pytest

from cardgen.validate import cvd
from conftest import SHIPPED

OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
             "#000000"]


def _colours() -> list[str]:
    """The RGB cube's corners, greys (near black, where sRGB's curve is linear, too), the
    Okabe–Ito palette and 200 colours of a fixed seed."""
    corners = ["#%02X%02X%02X" % rgb for rgb in itertools.product((0, 255), repeat=3)]
    greys = ["#%02X%02X%02X" % (v, v, v) for v in (1, 5, 10, 11, 64, 119, 128, 200, 254)]
    dice = random.Random(7)
    drawn = ["#%02X%02X%02X" % tuple(dice.randrange(256) for _ in range(3))
             for _ in range(200)]
    return corners + greys + OKABE_ITO + drawn


@pytest.mark.parametrize("cvd_type", ["protanomaly", "deuteranomaly", "tritanomaly"])
def test_the_simulation_and_the_distance_are_colorspacious_s(cvd_type):
    from colorspacious import cspace_convert, deltaE
    space = {"name": "sRGB1+CVD", "cvd_type": cvd_type, "severity": 100}
    seen = []
    for colour in _colours():
        ours = cvd.simulated(colour, cvd_type)
        theirs = cspace_convert(list(cvd.srgb1(colour)), space, "sRGB1").clip(0, 1)
        assert ours == pytest.approx(list(theirs), abs=1e-9, rel=0), colour
        seen.append(ours)
    for a, b in zip(seen, seen[1:]):
        assert cvd.distance(a, b) == pytest.approx(float(deltaE(a, b, input_space="sRGB1")),
                                                   abs=1e-6, rel=0), (a, b)


def test_the_distance_of_colours_as_everyone_sees_them_is_colorspacious_s():
    from colorspacious import deltaE
    colours = [cvd.srgb1(colour) for colour in _colours()]
    for a, b in zip(colours, colours[1:]):
        assert cvd.distance(a, b) == pytest.approx(float(deltaE(a, b, input_space="sRGB1")),
                                                   abs=1e-6, rel=0), (a, b)
    assert cvd.distance((1.0, 0.0, 0.0), (1.0, 0.0, 0.0)) == 0


def test_checking_a_packs_group_colours_imports_no_numpy():
    """numpy's import was about 0.15 s of every cold build or check, for a few dozen colours."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from cardgen.diagnostics import Report\n"
        "from cardgen.pipeline.chain import validated\n"
        "from cardgen.validate.groups import check_group_cues\n"
        "report = Report()\n"
        "data = validated(Path(sys.argv[1]), report)\n"
        "assert data is not None, [d.format() for d in report.errors]\n"
        "assert len({group.colour.upper() for group in data.pack.groups}) >= 2\n"
        "check_group_cues(data, Report())\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
        "assert 'colorspacious' not in sys.modules, 'colorspacious imported'\n")
    done = subprocess.run([sys.executable, "-c", code, str(SHIPPED / "crazy-hospital")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
